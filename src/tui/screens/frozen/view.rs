//! Drawing the frozen-holder screen: title, lanes (or the sequence chart), legend, the info
//! panel with the formulas and the verdict, sliders, the event log and the footer. Drawing only
//! reads state.

use super::layout::LANES;
use super::*;

pub(super) fn on_off(b: bool, lang: Lang) -> &'static str {
    ui(if b { Ui::On } else { Ui::Off }, lang)
}

/// The resource as it stands at `t`, as the trace recorded it at the last write before `t`:
/// its value and token, and the largest token it has seen.
pub(super) fn resource_at(trace: &Trace, t: Millis) -> (Option<(String, u64)>, u64) {
    let value = trace
        .value_at(t)
        .map(|w| (trace.name(w.writer).to_string(), w.token));
    let seen = trace
        .writes
        .iter()
        .rev()
        .find(|w| w.at_ms <= t)
        .map_or(0, |w| w.last_seen_after);
    (value, seen)
}

pub(super) fn verdict_style(v: Verdict, theme: Theme) -> Style {
    match v {
        Verdict::Corruption | Verdict::StaleWriteAccepted => theme.bad(),
        Verdict::Unresolved => theme.warn(),
        _ => theme.good(),
    }
}

/// The verdict in words: its short name, then the sentence that explains it (the Chinese
/// sentence already opens with the short name, so it is said once).
pub fn verdict_words(v: Verdict, lang: Lang) -> String {
    let c = colon(lang);
    let (short, full) = (verdict_short(v, lang), verdict_text(v, lang));
    // The full sentence often opens with the short verdict itself, capitalised: say it once.
    let rest = full
        .to_lowercase()
        .starts_with(&short.to_lowercase())
        .then(|| full.get(short.len()..))
        .flatten();
    match rest {
        Some(rest) => format!("{}{c}{short}{rest}", ui(Ui::Verdict, lang)),
        None => format!("{}{c}{short}. {full}", ui(Ui::Verdict, lang)),
    }
}

pub(super) fn footer_hints(lang: Lang) -> Vec<&'static str> {
    [
        Lab::HintSliders,
        Lab::HintPreset,
        Lab::HintPlay,
        Lab::HintEvent,
        Lab::HintMoment,
        Lab::HintReveal,
        Lab::HintPredict,
        Lab::HintSequence,
        Lab::HintCompare,
        Lab::HintZoom,
        Lab::HintBack,
        Lab::HintKeys,
    ]
    .into_iter()
    .map(|h| lab(h, lang))
    .collect()
}

pub fn render(s: &FrozenState, lang: Lang, theme: Theme, area: Rect, buf: &mut Buffer) {
    let lay = s.layout(area);
    let c = colon(lang);
    let tl = &s.view.tl;
    let end = s.runs.trace.end_ms;
    let cursor = tl.cursor_ms;
    let changed = crate::tui::screens::changed_words(&s.changed(lang), lang);
    let name = s.preset.as_ref().map_or_else(String::new, |p| {
        format!("  {}", crate::tui::screens::preset_title(p, &changed, lang))
    });
    line(
        buf,
        lay.title,
        &format!(
            "{}{name}   {} {} / {}   {}",
            ui(Ui::HomeFrozen, lang),
            ui(Ui::Cursor, lang),
            fmt_secs(cursor),
            crate::i18n::sim::seconds(end, lang),
            tl.status(lang)
        ),
        theme.title(),
    );

    if let Some(words) = crate::tui::screens::about_words(s.about.as_ref(), &changed, lang) {
        wrapped(buf, lay.about, &words, theme.dim());
    }

    let parting = s.runs.parting;
    if s.view.seq {
        s.view
            .render_chart(&s.runs.trace, lang, theme, lay.main, buf);
    } else {
        let l = s.view.lanes(&s.runs.trace, end, parting, lang, theme);
        Lanes {
            max_per_lane: 4,
            ..l
        }
        .render(lay.lanes, buf);
        if let (Some(cap), Some(l2), Some(other)) = (lay.caption2, lay.lanes2, &s.runs.other) {
            let flipped = format!(
                "{} {}",
                ui(Ui::Fencing, lang),
                on_off(!s.params.fencing, lang)
            );
            line(
                buf,
                cap,
                &format!(
                    "{}{c}{}",
                    ui(Ui::Compare, lang),
                    ui(Ui::Flipped, lang).replace("{}", &flipped)
                ),
                theme.title(),
            );
            let mut l = s.view.lanes(other, end, parting, lang, theme);
            // The first run's strip already says where the window is.
            l.overview = false;
            l.axis = l2.height > lanes::height(LANES, 1, false, true);
            l.render(l2, buf);
        }
    }
    let traces: Vec<&Trace> = std::iter::once(&s.runs.trace)
        .chain(s.runs.other.as_ref())
        .collect();
    let items = legend::fitting(
        legend::items(&traces, &[], s.runs.comparing(), theme, lang),
        || {
            let shown = s.view.tl.shown_until(end);
            legend::drawn_items(&traces, shown, s.runs.comparing(), theme, lang)
        },
        lay.legend.height,
        lay.legend.width,
        lang,
    );
    Legend {
        items: &items,
        lang,
        theme,
    }
    .render(lay.legend, buf);

    render_info(s, lang, theme, lay.info, buf);
    line(
        buf,
        lay.toggles,
        &format!(
            "  [f] {}{c}{}   [s] {}{c}{}",
            ui(Ui::Fencing, lang),
            on_off(s.params.fencing, lang),
            ui(Ui::StopOnLoss, lang),
            on_off(s.params.stop_on_loss, lang)
        ),
        theme.title(),
    );
    for (i, row) in lay.sliders.iter().enumerate() {
        let spec = &FROZEN_SPECS[i];
        let v = s.value(i);
        let locked = s.locked.iter().any(|k| k == spec.key);
        Slider {
            label: ui(SLIDER_WORDS[i], lang),
            value: format!(
                "{} {}{}",
                secs(v),
                crate::i18n::sim::s(lang),
                if locked { " ⊘" } else { "" }
            ),
            frac: (v - spec.min) / (spec.max - spec.min),
            focused: i == s.focus,
            theme,
        }
        .render(*row, buf);
    }
    if let Some(log) = lay.log {
        s.view
            .render_log(&s.runs.trace, parting, lang, theme, log, buf);
    }
    let mut h = footer_hints(lang);
    if !s.locked.is_empty() {
        h.insert(0, lab(Lab::LockedHint, lang));
    }
    s.view
        .render_footer(&s.runs.trace, &h, lang, theme, lay.footer, buf);
}

/// The left panel: the resource at the cursor, the event, where compared runs part, the
/// formulas and the verdict (the last two once the whole run is shown).
pub(super) fn render_info(s: &FrozenState, lang: Lang, theme: Theme, area: Rect, buf: &mut Buffer) {
    // The roomy form when it fits, else one row a part (the verdict stays).
    let mut rows = info_rows(s, lang, theme, area.width, false);
    if rows.iter().map(|r| r.2).sum::<u16>() > area.height {
        rows = info_rows(s, lang, theme, area.width, true);
    }
    // Rows the parts leave let a cut part wrap on, in order.
    let mut left = area
        .height
        .saturating_sub(rows.iter().map(|r| r.2).sum::<u16>());
    for (text, _, h) in &mut rows {
        let need = crate::text::wrap(text, area.width.max(1) as usize).len() as u16;
        let more = need.saturating_sub(*h).min(left);
        *h += more;
        left -= more;
    }
    let mut y = area.y;
    for (text, style, h) in rows {
        if y >= area.bottom() {
            break;
        }
        let r = Rect::new(area.x, y, area.width, h.min(area.bottom() - y));
        wrapped(buf, r, &text, style);
        y += h;
    }
}

/// The left panel's parts, each with its style and rows: roomy (the story so far, three rows
/// for the event, each formula over two rows, the verdicts explained) or `compact`.
fn info_rows(
    s: &FrozenState,
    lang: Lang,
    theme: Theme,
    width: u16,
    compact: bool,
) -> Vec<(String, Style, u16)> {
    let c = colon(lang);
    let cursor = s.view.tl.cursor_ms;
    let mut rows: Vec<(String, Style, u16)> = Vec::new();
    let none = ui(Ui::None, lang);
    if !(compact && s.runs.comparing()) {
        let (value, seen) = resource_at(&s.runs.trace, cursor);
        let value = value.map_or_else(
            || none.to_string(),
            |(w, t)| format!("{w} ({} {t})", ui(Ui::Token, lang)),
        );
        rows.push((
            format!(
                "{} {}{c}{value}   {}{c}{seen}",
                ui(Ui::LaneResource, lang),
                ui(Ui::Value, lang),
                ui(Ui::LastToken, lang),
            ),
            Style::new(),
            1,
        ));
    }
    let explain = s.view.tl.current(&s.runs.trace).map_or_else(
        || ui(Ui::NothingYet, lang).to_string(),
        |e| {
            format!(
                "{}  {}",
                crate::i18n::sim::seconds(e.at_ms, lang),
                describe(e, &s.runs.trace, lang)
            )
        },
    );
    let event_rows = if compact {
        1 + u16::from(!s.runs.comparing())
    } else {
        3
    };
    if !compact
        && let Some(story) = crate::tui::widgets::narration::narration(
            &s.runs.trace,
            s.view.tl.cursor_ms,
            s.view.tl.shown_until(s.runs.trace.end_ms),
            lang,
        )
    {
        let h = crate::text::wrap(&story, width.max(1) as usize).len() as u16;
        rows.push((
            story,
            crate::tui::widgets::narration::style(theme),
            h.clamp(1, 2),
        ));
    }
    rows.push((explain, Style::new(), event_rows));
    if let Some(other) = &s.runs.other {
        let text = compare_words(s, other, lang);
        rows.push((
            text,
            theme.marker(crate::tui::theme::Mark::Differs),
            if compact { 1 } else { 2 },
        ));
    }
    let visible = s.outcome_visible();
    if let Some(m) = FrozenState::metrics(&s.runs.trace) {
        // Each formula as on a whiteboard: the rule, then this run's numbers under it.
        let formulas = [
            (Ui::FormulaDanger, crate::i18n::sim::danger_formula(m, lang)),
            (
                Ui::FormulaHandover,
                crate::i18n::sim::handover_formula(m, lang),
            ),
        ];
        for (rule, filled) in formulas {
            let filled = if visible { filled } else { "?".into() };
            let style = if visible { Style::new() } else { theme.dim() };
            if compact {
                rows.push((format!("{} = {filled}", ui(rule, lang)), style, 1));
            } else {
                rows.push((ui(rule, lang).to_string(), style, 1));
                rows.push((format!("    = {filled}"), style, 1));
            }
        }
        match (
            visible,
            s.runs.other.as_ref().and_then(FrozenState::metrics),
        ) {
            (false, _) => rows.push((lab(Lab::VerdictHidden, lang).into(), theme.dim(), 1)),
            (true, Some(om)) => {
                rows.push((
                    format!(
                        "{}{c}{} {}   {} {}",
                        ui(Ui::Verdict, lang),
                        lab(Lab::ThisRun, lang),
                        verdict_short(m.verdict, lang),
                        lab(Lab::FlippedRun, lang),
                        verdict_short(om.verdict, lang),
                    ),
                    verdict_style(m.verdict, theme),
                    1,
                ));
                if !compact {
                    // Each verdict explained, this run's first (an unresolved one says why).
                    for v in [m.verdict, om.verdict] {
                        rows.push((verdict_text(v, lang).into(), verdict_style(v, theme), 2));
                    }
                }
            }
            (true, None) => rows.push((
                verdict_words(m.verdict, lang),
                verdict_style(m.verdict, theme),
                if compact { 1 } else { 3 },
            )),
        }
    }
    rows
}

/// Where the two runs part, or that flipping fencing changed nothing here and why.
pub(super) fn compare_words(s: &FrozenState, other: &Trace, lang: Lang) -> String {
    let end = s.runs.trace.end_ms.max(other.end_ms);
    crate::tui::compare::part_words(
        s.runs.parting,
        (s.view.tl.shown_until(end), end),
        || {
            format!(
                "{} {}",
                lab(Lab::SameRun, lang).replace("{}", ui(Ui::Fencing, lang)),
                lab(Lab::WhyFrozenFencing, lang)
            )
        },
        lang,
    )
}
