//! Drawing the A/B/C screen: title, lanes (two runs when comparing), legend, service panel, the
//! event at the cursor, invariant badges, the recipe line, the log and the footer.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget, Wrap};

use super::{AbcState, RecipeVariant};
use crate::engine::Params;
use crate::engine::time::{Millis, fmt_secs};
use crate::engine::trace::{Metrics, Trace};
use crate::i18n::lab::{Lab, lab};
use crate::i18n::{Lang, Ui, describe, invariant_label, ui};
use crate::tui::screens::{badge, colon, line, plain_spaces, wrapped};
use crate::tui::theme::{Mark, Theme};
use crate::tui::widgets::legend::{self, Legend};
use crate::tui::widgets::service_panel::{self, ServicePanel};
use crate::tui::widgets::{clip_cols, lanes};

/// Invariant badges: `[ok]` while an invariant holds, `[!!]` from its first violation on (so
/// the mono theme still tells them apart). They speak of the cursor while the future is hidden
/// and of the whole run once it is shown, and say which.
fn badges<'a>(
    trace: &Trace,
    at: Millis,
    whole: bool,
    lang: Lang,
    theme: Theme,
    only_broken: bool,
) -> Line<'a> {
    let c = colon(lang);
    let at = if whole { trace.end_ms } else { at };
    let scope = if whole {
        lab(Lab::BadgesWholeRun, lang)
    } else {
        lab(Lab::BadgesAtCursor, lang)
    };
    let mut spans = vec![Span::raw(format!("{}{c}", ui(Ui::Invariants, lang)))];
    let mut broken_any = false;
    for inv in trace
        .invariants
        .iter()
        .filter(|i| i.check == crate::engine::trace::Check::Always)
    {
        let broken = inv.first_violation_ms().is_some_and(|t| t <= at);
        broken_any |= broken;
        if only_broken && !broken {
            continue;
        }
        let style = if broken { theme.bad() } else { theme.good() };
        spans.push(Span::styled(
            badge(broken, invariant_label(inv.name, lang)),
            style,
        ));
        spans.push(Span::raw("  "));
    }
    if only_broken && !broken_any {
        spans.push(Span::styled(
            badge(false, lab(Lab::BadgesAllHold, lang)),
            theme.good(),
        ));
        spans.push(Span::raw("  "));
    }
    // Last, so a narrow screen wraps the badges as it did before and none loses its name.
    spans.push(Span::styled(format!("{scope}  "), theme.dim()));
    Line::from(spans)
}

fn footer_hints(lang: Lang) -> Vec<&'static str> {
    [
        Lab::HintPreset,
        Lab::HintPlay,
        Lab::HintEvent,
        Lab::HintMoment,
        Lab::HintReveal,
        Lab::HintRecipe,
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

pub fn render(s: &AbcState, lang: Lang, theme: Theme, area: Rect, buf: &mut Buffer) {
    let band = lanes::Lanes::has_band(&s.runs.trace)
        || s.runs.other.as_ref().is_some_and(lanes::Lanes::has_band);
    let lay = s.layout(area);
    let c = colon(lang);
    let tl = &s.view.tl;
    let cursor = tl.cursor_ms;
    let end = s.end_ms();
    let changed = crate::tui::screens::changed_words(&s.changed(lang), lang);
    let name = match &s.story {
        Some(story) => story.name.as_str(),
        None => s.preset().map_or("-", |p| p.name.as_str()),
    };
    // A toggled run is no longer the one the preset (or the story) names: the title says so.
    let name = crate::tui::screens::preset_title(name, &changed, lang);
    let name = name.as_str();
    // A counterexample has a name of its own, not a place in the preset list.
    let (which, place) = match &s.story {
        Some(_) => (name.to_string(), String::new()),
        None => (
            format!(
                "{} {} ({}/{})",
                ui(Ui::Preset, lang),
                name,
                s.index + 1,
                s.presets.len()
            ),
            format!(" ({}/{})", s.index + 1, s.presets.len()),
        ),
    };
    let full = format!(
        "{}   {which}   {} {} / {}   {}",
        ui(Ui::HomeAbc, lang),
        ui(Ui::Cursor, lang),
        fmt_secs(cursor),
        crate::i18n::sim::seconds(end, lang),
        tl.status(lang),
    );
    // On a narrow terminal the title keeps what changes: the preset, the time, the playback.
    let title = if crate::text::width(&full) <= lay.title.width as usize {
        full
    } else {
        format!(
            "{name}{place}  {} / {}  {}",
            fmt_secs(cursor),
            crate::i18n::sim::seconds(end, lang),
            tl.status(lang)
        )
    };
    line(buf, lay.title, &title, theme.title());
    let about = match &s.story {
        Some(story) => Some(&story.about),
        None => s.preset().map(|p| &p.about),
    };
    if let Some(words) = crate::tui::screens::about_words(about, &changed, lang) {
        wrapped(buf, lay.about, &words, theme.dim());
    }
    let parting = s.runs.parting;
    if s.view.seq {
        s.view
            .render_chart(&s.runs.trace, lang, theme, lay.main, buf);
    } else {
        let l = s.view.lanes(&s.runs.trace, end, parting, lang, theme);
        lanes::Lanes {
            max_per_lane: 4,
            ..l
        }
        .render(lay.lanes, buf);
        if let (Some(cap), Some(l2), Some(other)) = (lay.caption2, lay.lanes2, &s.runs.other) {
            let mut flipped = s.params.clone();
            s.last.flip(&mut flipped);
            let (_, words) = s.last.describe(&flipped, lang);
            let text = match s.story.as_ref().and_then(|st| st.correct.as_ref()) {
                Some(_) => format!(
                    "{}{c}{}   ",
                    ui(Ui::Compare, lang),
                    crate::i18n::explore::compare_caption(lang)
                ),
                None => format!(
                    "{}{c}{}   ",
                    ui(Ui::Compare, lang),
                    ui(Ui::Flipped, lang).replace("{}", &words)
                ),
            };
            line(buf, cap, &text, theme.title());
            let used = crate::text::width(&text) as u16;
            if cap.width > used {
                let room = Rect {
                    x: cap.x + used,
                    width: cap.width - used,
                    ..cap
                };
                badges(other, cursor, s.outcome_visible(), lang, theme, true).render(room, buf);
                plain_spaces(buf, room);
            }
            let mut l = s.view.lanes(other, end, parting, lang, theme);
            // The first run's strip already says where the window is.
            l.overview = false;
            l.axis = l2.height > lanes::height(other.lanes.len(), 1, false, band);
            l.render(l2, buf);
        }
    }
    let traces: Vec<&Trace> = std::iter::once(&s.runs.trace)
        .chain(s.runs.other.as_ref())
        .collect();
    let items = legend::fitting(
        legend::items(
            &traces,
            &legend::planned_classes(&Params::Abc(s.params.clone())),
            s.runs.comparing(),
            theme,
            lang,
        ),
        || {
            legend::drawn_items(
                &traces,
                tl.shown_until(end),
                s.runs.comparing(),
                theme,
                lang,
            )
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

    if lay.service.height > 1 {
        ServicePanel {
            trace: &s.runs.trace,
            at_ms: cursor,
            lang,
            theme,
        }
        .render(lay.service, buf);
    } else {
        line(
            buf,
            lay.service,
            &service_panel::one_line(&s.runs.trace, cursor, lang),
            theme.warn(),
        );
    }
    let explain = tl.current(&s.runs.trace).map_or_else(
        || ui(Ui::NothingYet, lang).to_string(),
        |e| {
            format!(
                "{}  {}",
                crate::i18n::sim::seconds(e.at_ms, lang),
                describe(e, &s.runs.trace, lang)
            )
        },
    );
    let mut ev = lay.event;
    if let Some(other) = &s.runs.other {
        // One row says where the runs part (or why they do not).
        let text = compare_words(s, other, lang);
        let r = Rect {
            height: 1.min(ev.height),
            ..ev
        };
        let h = if lay.log.is_some() {
            let need = crate::text::wrap(&text, r.width.max(1) as usize).len() as u16;
            need.clamp(1, 3).min(ev.height)
        } else {
            1.min(ev.height)
        };
        wrapped(
            buf,
            Rect { height: h, ..r },
            &text,
            theme.marker(Mark::Differs),
        );
        ev = Rect {
            y: ev.y + h,
            height: ev.height.saturating_sub(h),
            ..ev
        };
    }
    // The story so far, above the event at the cursor, where the event keeps a row.
    if ev.height >= 2
        && let Some(story) = crate::tui::widgets::narration::narration(
            &s.runs.trace,
            cursor,
            tl.shown_until(end),
            lang,
        )
    {
        let r = Rect { height: 1, ..ev };
        line(
            buf,
            r,
            &clip_cols(&story, r.width as usize),
            crate::tui::widgets::narration::style(theme),
        );
        ev = Rect {
            y: ev.y + 1,
            height: ev.height - 1,
            ..ev
        };
    }
    wrapped(buf, ev, &explain, Style::new());
    let mut b = badges(
        &s.runs.trace,
        cursor,
        s.outcome_visible(),
        lang,
        theme,
        false,
    );
    if let Metrics::Abc(m) = &s.runs.trace.metrics {
        let text = if s.outcome_visible() {
            let list: Vec<String> = m.wakeups_per_release.iter().map(u32::to_string).collect();
            let list = if list.is_empty() {
                ui(Ui::None, lang).to_string()
            } else {
                list.join(", ")
            };
            format!("{}{c}[{list}]", ui(Ui::Wakeups, lang))
        } else {
            lab(Lab::WakeupsHidden, lang).to_string()
        };
        // The count stays beside its name, as a badge does.
        b.spans
            .push(Span::styled(crate::text::unbreakable(&text), Style::new()));
    }
    let mut rows = vec![b];
    if s.outcome_visible()
        && let Some(summary) = run_summary(&s.runs.trace, lang)
    {
        rows.push(Line::from(summary));
    }
    Paragraph::new(rows)
        .wrap(Wrap { trim: true })
        .render(lay.badges, buf);
    plain_spaces(buf, lay.badges);
    let recipe: Vec<String> = RecipeVariant::ALL
        .iter()
        .filter(|v| v.shown(&s.params))
        .map(|v| {
            let (k, words) = v.describe(&s.params, lang);
            let lock = if s.locked.iter().any(|l| l == v.key()) {
                "⊘"
            } else {
                ""
            };
            format!("[{k}]{lock} {words}")
        })
        .collect();
    // Each setting stays whole on its row, so a key never ends a row without its words; when
    // whole settings do not fit the rows there are, they flow on instead, so none is lost.
    let rows = pack(&recipe, lay.recipe.width as usize);
    if rows.len() <= lay.recipe.height as usize {
        for (i, row) in rows.iter().enumerate() {
            let r = Rect {
                y: lay.recipe.y + i as u16,
                height: 1,
                ..lay.recipe
            };
            line(buf, r, row, theme.title());
        }
    } else {
        wrapped(buf, lay.recipe, &recipe.join("  "), theme.title());
    }
    if let Some(log) = lay.log {
        s.view
            .render_log(&s.runs.trace, parting, lang, theme, log, buf);
    }
    s.view.render_footer(
        &s.runs.trace,
        &footer_hints(lang),
        lang,
        theme,
        lay.footer,
        buf,
    );
}

/// The run's outcome in one row, as the engine counted it: duplicate nodes, the clients left
/// stuck and the stale writes the resource accepted. Only for a revealed run.
fn run_summary(trace: &Trace, lang: Lang) -> Option<String> {
    let Metrics::Abc(m) = &trace.metrics else {
        return None;
    };
    let stuck = if m.stuck_clients.is_empty() {
        ui(Ui::None, lang).to_string()
    } else {
        m.stuck_clients.join(lang.pick("、", ", "))
    };
    Some(
        lab(Lab::RunSummary, lang)
            .replace("{dup}", &m.duplicate_nodes.to_string())
            .replace("{stuck}", &stuck)
            .replace("{stale}", &m.stale_writes_accepted.to_string()),
    )
}

/// Where the two runs part, or that the flipped setting changed nothing here and why.
fn compare_words(s: &AbcState, other: &Trace, lang: Lang) -> String {
    let end = s.runs.trace.end_ms.max(other.end_ms);
    crate::tui::compare::part_words(
        s.runs.parting,
        (s.view.tl.shown_until(end), end),
        || {
            let mut flipped = s.params.clone();
            s.last.flip(&mut flipped);
            let (_, words) = s.last.describe(&flipped, lang);
            format!(
                "{} {}",
                lab(Lab::SameRun, lang).replace("{}", &words),
                lab(s.last.why_same(), lang)
            )
        },
        lang,
    )
}

/// Packs items into rows of at most `width` columns, two spaces apart, an item never split
/// (one wider than a row gets a row to itself and is cut there).
fn pack(items: &[String], width: usize) -> Vec<String> {
    let mut rows: Vec<String> = Vec::new();
    for item in items {
        match rows.last_mut() {
            Some(row) if crate::text::width(row) + 2 + crate::text::width(item) <= width => {
                row.push_str("  ");
                row.push_str(item);
            }
            _ => rows.push(item.clone()),
        }
    }
    rows
}

#[cfg(test)]
mod pack_tests {
    #[test]
    fn items_stay_whole() {
        let items: Vec<String> = ["[a] one", "[b] two", "[c] three"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert_eq!(super::pack(&items, 16), ["[a] one  [b] two", "[c] three"]);
        assert_eq!(super::pack(&items, 5), ["[a] one", "[b] two", "[c] three"]);
    }
}
