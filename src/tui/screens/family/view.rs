//! Drawing the family lab: the lanes (two sets when comparing), the legend, the knob panel, the
//! event at the cursor with the run's outcome, metrics and invariants (once the whole run is
//! shown), and the event log where the terminal is wide enough.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::widgets::Widget;

use super::FamilyState;
use super::knob_values;
use crate::engine::params::knobs::{Knob, Value};
use crate::engine::time::{Millis, fmt_secs};
use crate::engine::trace::{Check, Trace};
use crate::i18n::family::{Fam, fam, family_name, variant_words};
use crate::i18n::knobs::{choice_word, knob_name, text_hint};
use crate::i18n::lab::{Lab, lab};
use crate::i18n::{Lang, Ui, describe, invariant_label, ui};
use crate::tui::screens::{colon, line, wrapped};
use crate::tui::theme::{Mark, Theme};
use crate::tui::widgets::knob_panel::{self, KnobPanel, Row};
use crate::tui::widgets::lanes::{self, Lanes};
use crate::tui::widgets::legend::{self, Legend};

/// Where everything sits; shared by drawing and mouse hit-testing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FamilyLayout {
    pub title: Rect,
    /// What the preset teaches, under the title (no rows for a run of no preset).
    pub about: Rect,
    pub lanes: Rect,
    pub caption2: Option<Rect>,
    pub lanes2: Option<Rect>,
    pub legend: Rect,
    pub knobs: Rect,
    /// The event at the cursor, where compared runs part, the outcome, metrics, invariants.
    pub info: Rect,
    /// The event log, on the right when the terminal is wide enough.
    pub log: Option<Rect>,
    pub footer: Rect,
}

fn wide(area: Rect) -> bool {
    area.width >= 120 && area.height >= 30
}

fn legend_items(s: &FamilyState, theme: Theme, lang: Lang) -> Vec<legend::LegendEntry> {
    let traces: Vec<&Trace> = std::iter::once(&s.runs.trace)
        .chain(s.runs.other.as_ref())
        .collect();
    legend::items(
        &traces,
        &legend::planned_classes(&s.params),
        s.runs.comparing(),
        theme,
        lang,
    )
}

pub fn layout(s: &FamilyState, area: Rect) -> FamilyLayout {
    let wide = wide(area);
    let title = Rect {
        height: 1.min(area.height),
        ..area
    };
    let footer = Rect::new(
        area.x,
        area.bottom().saturating_sub(1),
        area.width,
        1.min(area.height),
    );
    // The legend's rows are the same in both languages' widest case, so the layout does not
    // jump when the language changes, and it takes all it needs to name every entry.
    let legend_rows = legend::rows_for(
        s.runs.trace.family,
        &legend::planned_classes(&s.params),
        s.runs.comparing(),
        area.width,
    );
    let bottom_rows: u16 = match (wide, s.runs.comparing()) {
        (true, _) => {
            // The knobs with their heading and detail, and the revealed outcome beside them.
            let knobs_w = 46;
            let info_w = area.width.saturating_sub(knobs_w + 1) / 2;
            (s.knobs().len() as u16 + 2)
                .max(info_need(s, info_w))
                .clamp(15, area.height / 2)
        }
        (false, false) => 8,
        (false, true) => 6,
    };
    let n = s.runs.trace.lanes.len();
    let band = Lanes::has_band(&s.runs.trace);
    let end = s.runs.trace.end_ms;
    // The overview strip and the invariant tracks get rows of their own, beside the lanes'.
    let extras = s
        .view
        .lanes(&s.runs.trace, end, None, Lang::En, Theme { mono: true })
        .extra_rows();
    // As many rows a lane as the lanes widget draws, so none is left blank inside the lanes.
    let max_per = 3;
    let rows_per =
        |free: u16| (free.saturating_sub(2 + extras) / n.max(1) as u16).clamp(1, max_per);
    let avail = area.height.saturating_sub(2 + legend_rows + bottom_rows);
    // Rows for the preset's words, unless the lanes would need them for a second row each.
    let about_h: u16 = match (s.about.is_some(), wide, s.runs.comparing()) {
        (false, ..) | (true, false, true) => 0,
        (true, true, _) => 2,
        (true, false, false) => 1,
    };
    let about_h = if !s.runs.comparing()
        && rows_per(avail.saturating_sub(about_h)) < 2
        && rows_per(avail) >= 2
    {
        0
    } else {
        about_h
    };
    let about = Rect::new(area.x, area.y + 1, area.width, about_h.min(area.height));
    let body = area.height.saturating_sub(2 + about_h);
    let free = body.saturating_sub(legend_rows + bottom_rows);
    let (lanes, caption2, lanes2, main_bottom) = if s.runs.comparing() {
        let main = Rect::new(area.x, about.bottom(), area.width, free);
        let (l1, cap, l2) = lanes::compare_areas(main);
        (l1, Some(cap), Some(l2), main.bottom())
    } else {
        // The lanes take the rows they can use (at most three a lane), the strip and the
        // tracks theirs; the rest goes below.
        let per = rows_per(free);
        let h = (lanes::height(n, per, true, band) + extras).min(free);
        let l = Rect::new(area.x, about.bottom(), area.width, h);
        (l, None, None, l.bottom())
    };
    let legend = Rect::new(area.x, main_bottom, area.width, legend_rows);
    let top = legend.bottom();
    let bottom_h = footer.y.saturating_sub(top);
    let knobs_w = if wide { 46 } else { 38.min(area.width / 2) };
    let knobs = Rect::new(area.x, top, knobs_w, bottom_h);
    let rest_x = area.x + knobs_w + 1;
    let rest_w = area.right().saturating_sub(rest_x);
    let (info, log) = if wide {
        let info_w = rest_w / 2;
        (
            Rect::new(rest_x, top, info_w, bottom_h),
            Some(Rect::new(
                rest_x + info_w + 1,
                top,
                rest_w.saturating_sub(info_w + 1),
                bottom_h,
            )),
        )
    } else {
        (Rect::new(rest_x, top, rest_w, bottom_h), None)
    };
    FamilyLayout {
        title,
        about,
        lanes,
        caption2,
        lanes2,
        legend,
        knobs,
        info,
        log,
        footer,
    }
}

/// The knob on screen row `row` of the knob panel in `area`.
pub fn knob_at(s: &FamilyState, area: Rect, row: u16) -> Option<usize> {
    knob_panel::row_at(area, s.knobs().len(), s.focus, row)
}

/// An instant as the run's axis counts it: milliseconds for a run under a second.
fn when(trace: &Trace, t: Millis, lang: Lang) -> String {
    crate::i18n::sim::instant(trace, t, lang)
}

fn knob_rows(s: &FamilyState, lang: Lang) -> Vec<Row> {
    s.knobs()
        .iter()
        .enumerate()
        .map(|(i, k)| {
            let v = s.value(i);
            let frac = match (k, &v) {
                (Knob::Num(spec), Some(Value::Num(n))) if spec.max > spec.min => {
                    Some(((n - spec.min) / (spec.max - spec.min)).clamp(0.0, 1.0))
                }
                (Knob::Num(_), _) => Some(0.0),
                _ => None,
            };
            Row {
                label: knob_name(k.key(), lang).to_string(),
                value: knob_values::shown(k, v.as_ref(), lang),
                frac,
                cycles: matches!(k, Knob::Flag { .. } | Knob::Choice { .. }),
                locked: s.locked.iter().any(|l| l == k.key()),
            }
        })
        .collect()
}

/// What the panel says about the chosen knob: its range, its options, or what text it takes.
fn knob_detail(s: &FamilyState, lang: Lang) -> String {
    let Some(k) = s.knobs().get(s.focus) else {
        return String::new();
    };
    let flag = format!("--{}", k.key().replace('_', "-"));
    match k {
        Knob::Num(spec) => {
            let range = knob_values::range_words(spec, lang);
            format!("{flag}  {}", fam(Fam::Range, lang).replace("{}", &range))
        }
        Knob::Choice { options, .. } => format!(
            "{flag}  {}",
            fam(Fam::Options, lang).replace(
                "{}",
                &options
                    .iter()
                    .map(|o| choice_word(o, lang))
                    .collect::<Vec<_>>()
                    .join(" | ")
            )
        ),
        Knob::Flag { .. } => format!("{flag}  {} | {}", ui(Ui::On, lang), ui(Ui::Off, lang)),
        Knob::Text { key, what } => format!("{flag}  {}", text_hint(key, what, lang)),
    }
}

fn footer_hints(lang: Lang) -> Vec<&'static str> {
    vec![
        fam(Fam::HintKnobs, lang),
        lab(Lab::HintPlay, lang),
        lab(Lab::HintEvent, lang),
        lab(Lab::HintMoment, lang),
        lab(Lab::HintReveal, lang),
        lab(Lab::HintPredict, lang),
        fam(Fam::HintCompare, lang),
        lab(Lab::HintSequence, lang),
        lab(Lab::HintZoom, lang),
        lab(Lab::HintBack, lang),
        lab(Lab::HintKeys, lang),
    ]
}

pub fn render(s: &FamilyState, lang: Lang, theme: Theme, area: Rect, buf: &mut Buffer) {
    let lay = layout(s, area);
    let c = colon(lang);
    let tl = &s.view.tl;
    let end = s.runs.trace.end_ms;
    let changed = crate::tui::screens::changed_words(&s.changed(lang), lang);
    let name = s.preset.as_ref().map_or_else(String::new, |p| {
        format!("  {}", crate::tui::screens::preset_title(p, &changed, lang))
    });
    let cursor = if lanes::in_millis(&s.runs.trace) {
        format!("{} / {} {}", tl.cursor_ms, end, lang.pick("毫秒", "ms"))
    } else {
        format!(
            "{} / {}",
            fmt_secs(tl.cursor_ms),
            crate::i18n::sim::seconds(end, lang)
        )
    };
    // The family's name goes first, unless it would push the playback status off the line.
    let tail = format!(
        "{name}   {} {cursor}   {}",
        ui(Ui::Cursor, lang),
        tl.status(lang)
    );
    let full = format!(
        "{}{c}{}{tail}",
        fam(Fam::Lab, lang),
        family_name(s.family, lang)
    );
    let title = if crate::text::width(&full) <= area.width as usize {
        full
    } else {
        tail.trim_start().to_string()
    };
    line(buf, lay.title, &title, theme.title());
    if let Some(words) = crate::tui::screens::about_words(s.about.as_ref(), &changed, lang) {
        wrapped(buf, lay.about, &words, theme.dim());
    }

    if s.view.seq {
        let main = Rect::new(
            area.x,
            lay.lanes.y,
            area.width,
            lay.legend.y.saturating_sub(lay.lanes.y),
        );
        s.view.render_chart(&s.runs.trace, lang, theme, main, buf);
    } else {
        s.view
            .lanes(&s.runs.trace, end, s.runs.parting, lang, theme)
            .render(lay.lanes, buf);
        if let (Some(cap), Some(l2), Some(other)) = (lay.caption2, lay.lanes2, &s.runs.other) {
            line(
                buf,
                cap,
                &fam(Fam::VariantRun, lang)
                    .replace("{}", variant_words(s.family, s.other_correct, lang)),
                theme.title(),
            );
            let mut l = s.view.lanes(other, end, s.runs.parting, lang, theme);
            // The first run's strip already says where the window is.
            l.overview = false;
            let n = other.lanes.len();
            l.axis = l2.height > lanes::height(n, 1, false, Lanes::has_band(other));
            l.render(l2, buf);
        }
    }
    let items = legend_items(s, theme, lang);
    Legend {
        items: &items,
        lang,
        theme,
    }
    .render(lay.legend, buf);

    let rows = knob_rows(s, lang);
    let detail = knob_detail(s, lang);
    KnobPanel {
        title: fam(Fam::Knobs, lang),
        rows: &rows,
        focus: s.focus,
        detail: &detail,
        detail_style: theme.dim(),
        theme,
    }
    .render(lay.knobs, buf);
    render_info(s, lang, theme, lay.info, lay.log.is_some(), buf);
    if let Some(log) = lay.log {
        s.view
            .render_log(&s.runs.trace, s.runs.parting, lang, theme, log, buf);
    }
    let mut h = footer_hints(lang);
    if !s.locked.is_empty() {
        h.insert(0, lab(Lab::LockedHint, lang));
    }
    s.view
        .render_footer(&s.runs.trace, &h, lang, theme, lay.footer, buf);
}

/// The run's metrics as the engine recorded them: each number, word or list of names, by its
/// JSON key (a phrase in Chinese). Records nested inside (claims, acquisitions) stay out.
pub fn metric_rows(trace: &Trace, lang: Lang) -> Vec<(String, String)> {
    use crate::engine::trace::metric_table::{MetricValue, metrics_of};
    // Only the metrics the family's engine defines: a semaphore has no writer to wait.
    metrics_of(trace.family)
        .iter()
        .map(|spec| {
            let shown = match trace.metrics.get(spec.key) {
                None | Some(MetricValue::Value(None)) => "-".to_string(),
                Some(MetricValue::Number(n)) => format!(
                    "{}{}",
                    crate::tui::screens::secs(n),
                    crate::i18n::sim::metric_unit(spec.unit, lang)
                ),
                Some(MetricValue::Bool(b)) => ui(if b { Ui::On } else { Ui::Off }, lang).into(),
                Some(MetricValue::Verdict(v)) => crate::i18n::sim::verdict_short(v, lang).into(),
                Some(MetricValue::Value(Some(t))) => {
                    crate::i18n::sim::metric_value(&t, lang).to_string()
                }
            };
            (
                crate::i18n::sim::metric_label(spec.key, lang).to_string(),
                shown,
            )
        })
        .collect()
}

/// The panel beside the knobs: the event at the cursor, where compared runs part, then the
/// outcome (hidden until the whole run is shown): the family's summary lines, the invariants
/// and, where there is room, every metric.
fn render_info(
    s: &FamilyState,
    lang: Lang,
    theme: Theme,
    area: Rect,
    roomy: bool,
    buf: &mut Buffer,
) {
    let rows = info_rows(s, lang, theme, area.width, roomy, s.outcome_visible());
    let mut y = area.y;
    for (text, style, h) in rows {
        if y >= area.bottom() {
            break;
        }
        let r = Rect::new(area.x, y, area.width, h.min(area.bottom() - y));
        wrapped(buf, r, &crate::text::glue_units(&text), style);
        y += h;
    }
}

/// The rows the info panel of a wide screen needs once the whole run is shown, so the layout
/// keeps them for it and the lanes do not grow into them at the reveal.
fn info_need(s: &FamilyState, width: u16) -> u16 {
    info_rows(s, Lang::En, Theme { mono: true }, width, true, true)
        .iter()
        .map(|r| r.2)
        .sum()
}

/// The info panel's parts, each with its style and rows, the outcome's only when `revealed`.
fn info_rows(
    s: &FamilyState,
    lang: Lang,
    theme: Theme,
    width: u16,
    roomy: bool,
    revealed: bool,
) -> Vec<(String, Style, u16)> {
    let mut rows: Vec<(String, Style, u16)> = Vec::new();
    let w = width.max(1) as usize;
    let height = |t: &str| {
        crate::text::wrap(&crate::text::glue_units(t), w)
            .len()
            .max(1) as u16
    };
    let explain = s.view.tl.current(&s.runs.trace).map_or_else(
        || ui(Ui::NothingYet, lang).to_string(),
        |e| {
            format!(
                "{}  {}",
                when(&s.runs.trace, e.at_ms, lang),
                describe(e, &s.runs.trace, lang)
            )
        },
    );
    if let Some(story) = crate::tui::widgets::narration::narration(
        &s.runs.trace,
        s.view.tl.cursor_ms,
        s.view.tl.shown_until(s.runs.trace.end_ms),
        lang,
    ) {
        rows.push((
            story.clone(),
            crate::tui::widgets::narration::style(theme),
            height(&story).min(2),
        ));
    }
    rows.push((explain.clone(), Style::new(), height(&explain).min(3)));
    if let Some(other) = &s.runs.other {
        let end = s.runs.trace.end_ms.max(other.end_ms);
        let text = crate::tui::compare::part_words(
            s.runs.parting,
            (s.view.tl.shown_until(end), end),
            || {
                lab(Lab::SameRun, lang)
                    .replace("{}", variant_words(s.family, s.other_correct, lang))
            },
            lang,
        );
        rows.push((
            text.clone(),
            theme.marker(Mark::Differs),
            height(&text).min(2),
        ));
    }
    if !revealed {
        let t = fam(Fam::OutcomeHidden, lang);
        rows.push((t.to_string(), theme.dim(), height(t)));
    } else {
        for l in crate::export::svg::family_lines(&s.runs.trace, lang) {
            rows.push((l.clone(), Style::new(), height(&l)));
        }
        if let Some(o) = &s.runs.other {
            let label = fam(Fam::VariantRun, lang)
                .replace("{}", variant_words(s.family, s.other_correct, lang));
            for l in crate::export::svg::family_lines(o, lang) {
                let t = format!("{label}{}{l}", colon(lang));
                rows.push((t.clone(), theme.dim(), height(&t)));
            }
        }
        for i in s
            .runs
            .trace
            .invariants
            .iter()
            .filter(|i| i.check == Check::Always)
        {
            let style = if i.held { theme.good() } else { theme.bad() };
            let mut t = crate::tui::screens::badge(!i.held, invariant_label(i.name, lang));
            if let Some(at) = i.first_ms.filter(|_| !i.held) {
                t.push_str(
                    &lang
                        .pick("（{}）", "  ({})")
                        .replace("{}", &when(&s.runs.trace, at, lang)),
                );
            }
            rows.push((t.clone(), style, height(&t)));
        }
        if roomy {
            let c = colon(lang);
            rows.push((fam(Fam::Metrics, lang).to_string(), theme.title(), 1));
            for (k, v) in metric_rows(&s.runs.trace, lang) {
                let t = format!("  {k}{c}{v}");
                rows.push((t.clone(), Style::new(), height(&t)));
            }
        }
    }
    rows
}
