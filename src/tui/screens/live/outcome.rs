//! A finished live run on screen: what ran and where, the live lanes above the model's on one
//! time axis (or the two herd charts side by side), the facts side by side with a `≠` where they
//! differ and, for a known difference, why; and the command that prints it all.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::widgets::Widget;

use super::Outcome;
use crate::engine::trace::{Family, Lane, Metrics, Role, SpanState, Trace};
use crate::export::text::glyph;
use crate::i18n::{Lang, Ui, ui};
use crate::live::words;
use crate::tui::screens::{line, wrapped};
use crate::tui::theme::Theme;
use crate::tui::widgets::herd_chart::HerdChart;
use crate::tui::widgets::lanes::Lanes;

/// Rows a text takes wrapped to `width`.
pub(super) fn rows_of(text: &str, width: u16) -> u16 {
    (crate::text::wrap(text, width as usize).len() as u16).max(1)
}

/// Writes wrapped text at row `y` and moves `y` past it.
pub(super) fn put(buf: &mut Buffer, area: Rect, y: &mut u16, text: &str, style: Style) {
    if *y >= area.bottom() {
        return;
    }
    let h = rows_of(text, area.width);
    let r = Rect::new(area.x, *y, area.width, h.min(area.bottom() - *y));
    wrapped(buf, r, text, style);
    *y += h;
}

/// The comparison as aligned rows: a header, one row a fact or an instant with `≠` where the
/// runs differ (an instant also says how far apart the two are, against what is allowed).
fn table(o: &Outcome, lang: Lang) -> Vec<(String, bool)> {
    let (_, fact, model, live) = words::compare_header(lang);
    let w = crate::text::width;
    let cells: Vec<[String; 4]> = o.rows.iter().map(|r| words::row_cells(r, lang)).collect();
    let width_of = |i: usize, head: &str| {
        cells
            .iter()
            .map(|c| w(&c[i]))
            .chain([w(head)])
            .max()
            .unwrap_or(0)
            + 2
    };
    let (fact_w, model_w, live_w) = (width_of(0, fact), width_of(1, model), width_of(2, live));
    let col = |s: &str, cols: usize| format!("{s}{}", " ".repeat(cols.saturating_sub(w(s))));
    let mut out = vec![(
        format!("  {}{}{live}", col(fact, fact_w), col(model, model_w)),
        true,
    )];
    for (r, [what, m, l, verdict]) in o.rows.iter().zip(&cells) {
        let mark = if r.same() { " " } else { "≠" };
        let text = format!(
            "{mark} {}{}{}{verdict}",
            col(what, fact_w),
            col(m, model_w),
            col(l, live_w)
        );
        out.push((text.trim_end().to_string(), r.same()));
    }
    out
}

/// Shares out the rows an area has, in order of what matters most.
struct Rows(u16);

impl Rows {
    /// Takes `h` rows if they are left.
    fn take(&mut self, h: u16) -> bool {
        let fits = h <= self.0;
        if fits {
            self.0 -= h;
        }
        fits
    }
}

/// The result of a run. The heading, the comparison and its verdict always show; below them in
/// importance come the picture, why a known difference differs, the legend, the server and its
/// scaling, then the hint, each only if it fits whole.
pub(super) fn render(
    o: &Outcome,
    name: &str,
    lang: Lang,
    theme: Theme,
    area: Rect,
    buf: &mut Buffer,
) {
    let wdt = area.width;
    let heading = words::title(name.trim_start_matches("A/B/C  "), lang);
    let server = words::server_line(&o.version, &o.addr, true, lang);
    let scaling = o.scaling.as_ref().map(|s| words::scaling_line(s, lang));
    let rows = table(o, lang);
    let differences = o.rows.iter().filter(|r| !r.same()).count();
    let verdict = words::verdict(differences, lang);
    let reasons: Vec<(&str, &str)> = o
        .rows
        .iter()
        .filter(|r| !r.same())
        .filter_map(|r| words::why_different(r.aspect, lang))
        .collect();
    let hint = words::more_hint(&o.command, lang);
    let instants = o.tick_phase.map(|phase| words::instants_note(phase, lang));
    let herd = o.live.family == Family::Herd;
    let note = herd.then(|| words::herd_note(lang));
    let legend = legend_items(o, lang);
    let table_h: u16 = rows.iter().map(|(t, _)| rows_of(t, wdt)).sum();
    let essential = 1 + table_h + rows_of(&verdict, wdt);
    // A table taller than the area (many instants on a small screen) is cut at the bottom:
    // the verdict then goes right under the heading, so the count of differences still shows.
    let verdict_first = essential > area.height;
    let mut room = Rows(area.height.saturating_sub(essential));

    let pic_h = if herd {
        // As many releases as fit, but a chart of fewer than three is no picture.
        let legend_h = rows_of(ui(Ui::HerdLegend, lang), wdt);
        let want = 1 + legend_h + herd_rows(&o.live).max(herd_rows(&o.model)) as u16;
        let got = want.min(room.0);
        if got >= 4 + legend_h && room.take(got) {
            got
        } else {
            0
        }
    } else {
        // Both runs' lanes, each with its band, under one axis: two rows a lane when they fit,
        // else one, so that no client of either run is left out.
        [2, 1]
            .into_iter()
            .map(|per| lanes_height(o, per))
            .find(|&h| room.take(h))
            .unwrap_or(0)
    };
    // Why a known difference differs: in full if it fits, else in a few words.
    let full_h: u16 = reasons.iter().map(|(_, long)| rows_of(long, wdt)).sum();
    let short_h: u16 = reasons.iter().map(|(short, _)| rows_of(short, wdt)).sum();
    let why: Vec<&str> = if reasons.is_empty() {
        Vec::new()
    } else if room.take(full_h) {
        reasons.iter().map(|(_, long)| *long).collect()
    } else if room.take(short_h) {
        reasons.iter().map(|(short, _)| *short).collect()
    } else {
        Vec::new()
    };
    let legend_h = legend_rows(&legend, wdt);
    let show_legend = !herd && pic_h > 0 && room.take(legend_h);
    let gap_after_pic = pic_h > 0 && room.take(1);
    let show_server = room.take(rows_of(&server, wdt));
    let show_note = note.is_some_and(|n| room.take(rows_of(n, wdt)));
    let show_scaling = scaling.as_ref().is_some_and(|s| room.take(rows_of(s, wdt)));
    let show_hint = room.take(1 + rows_of(&hint, wdt));
    let show_instants = instants
        .as_ref()
        .is_some_and(|n| room.take(rows_of(n, wdt)));
    let gap_before_pic = pic_h > 0 && room.take(1);

    let mut y = area.y;
    put(buf, area, &mut y, &heading, theme.title());
    let verdict_style = if differences == 0 {
        theme.good()
    } else {
        theme.bad()
    };
    if verdict_first {
        put(buf, area, &mut y, &verdict, verdict_style);
    }
    // With no room for the scaling sentence, its gist goes after the heading when it fits.
    if let (false, Some(sc)) = (show_scaling, &o.scaling) {
        let short = format!("  {}", words::scaling_short(sc, lang));
        let x = area.x + crate::text::width(&heading) as u16;
        if x + (crate::text::width(&short) as u16) <= area.right() {
            buf.set_stringn(x, y - 1, &short, (area.right() - x) as usize, theme.dim());
        }
    }
    if show_server {
        put(buf, area, &mut y, &server, theme.dim());
    }
    if let (true, Some(s)) = (show_scaling, &scaling) {
        put(buf, area, &mut y, s, theme.dim());
    }
    if gap_before_pic {
        y += 1;
    }
    if pic_h > 0 {
        let r = Rect::new(area.x, y, wdt, pic_h);
        if herd {
            herd_charts(o, lang, theme, r, buf);
        } else {
            abc_lanes(o, lang, theme, r, buf);
        }
        y += pic_h;
    }
    if show_legend {
        draw_legend(&legend, theme, Rect::new(area.x, y, wdt, legend_h), buf);
        y += legend_h;
    }
    if gap_after_pic {
        y += 1;
    }
    if let (true, Some(n)) = (show_note, note) {
        put(buf, area, &mut y, n, theme.dim());
    }
    for (i, (text, same)) in rows.iter().enumerate() {
        let style = match (i, same) {
            (0, _) => theme.dim(),
            (_, true) => Style::new(),
            (_, false) => theme.bad(),
        };
        put(buf, area, &mut y, text, style);
    }
    if !verdict_first {
        put(buf, area, &mut y, &verdict, verdict_style);
    }
    for w in &why {
        put(buf, area, &mut y, w, theme.dim());
    }
    if let (true, Some(n)) = (show_instants, &instants) {
        put(buf, area, &mut y, n, theme.dim());
    }
    if show_hint {
        y += 1;
        put(buf, area, &mut y, &hint, theme.dim());
    }
}

/// The lanes of a trace's lock clients.
fn client_lanes(t: &Trace) -> Vec<&Lane> {
    t.lanes
        .iter()
        .filter(|l| t.role(l.actor) == Some(Role::Client))
        .collect()
}

/// The rows the live and the model lanes take at `per` rows a lane: one axis, each run's
/// clients and each run's band.
fn lanes_height(o: &Outcome, per: u16) -> u16 {
    use crate::tui::widgets::lanes::height;
    height(
        client_lanes(&o.live).len(),
        per,
        true,
        Lanes::has_band(&o.live),
    ) + height(
        client_lanes(&o.model).len(),
        per,
        false,
        Lanes::has_band(&o.model),
    )
}

/// The live clients' lanes above the model's, on one time axis so that the two line up.
fn abc_lanes<'a>(o: &'a Outcome, lang: Lang, theme: Theme, area: Rect, buf: &mut Buffer) {
    let end_ms = o.live.end_ms.max(o.model.end_ms);
    let widget = |t: &'a Trace, prefix: &str, axis: bool| -> Lanes<'a> {
        let mut l = Lanes::of(t, lang, theme);
        l.rows = client_lanes(t)
            .into_iter()
            .map(|lane| (format!("{prefix} {}", t.name(lane.actor)), lane))
            .collect();
        l.window = (0, end_ms);
        l.cursor_ms = end_ms;
        l.shown_until = end_ms;
        l.axis = axis;
        l.max_per_lane = 2;
        l
    };
    let live = widget(&o.live, words::live_label(lang), true);
    // The model's lanes go under the live ones without an axis of their own: the same window
    // gives both the same columns.
    let model = widget(&o.model, words::model_label(lang), false);
    let per = if lanes_height(o, 2) <= area.height {
        2
    } else {
        1
    };
    let live_h =
        crate::tui::widgets::lanes::height(live.rows.len(), per, true, Lanes::has_band(&o.live))
            .min(area.height);
    let model_h =
        crate::tui::widgets::lanes::height(model.rows.len(), per, false, Lanes::has_band(&o.model))
            .min(area.height - live_h);
    live.render(Rect::new(area.x, area.y, area.width, live_h), buf);
    model.render(Rect::new(area.x, area.y + live_h, area.width, model_h), buf);
}

/// Each lane state the two runs show, with its glyph, in the order they first appear.
fn legend_items(o: &Outcome, lang: Lang) -> Vec<(char, SpanState, &'static str)> {
    let mut items: Vec<(char, SpanState, &'static str)> = Vec::new();
    for t in [&o.live, &o.model] {
        for lane in client_lanes(t) {
            for span in &lane.spans {
                if matches!(span.state, SpanState::Idle | SpanState::Empty) {
                    continue;
                }
                let g = glyph(span.state, t);
                let name = crate::i18n::sim::state_name(span.state, lang);
                if !items.iter().any(|(c, _, n)| *c == g && *n == name) {
                    items.push((g, span.state, name));
                }
            }
        }
    }
    items
}

/// The legend's items laid out in rows of at most `width` columns.
fn legend_layout(items: &[(char, SpanState, &'static str)], width: u16) -> Vec<Vec<usize>> {
    let mut rows: Vec<Vec<usize>> = Vec::new();
    let mut used = 0usize;
    for (i, (_, _, name)) in items.iter().enumerate() {
        let w = 2 + crate::text::width(name);
        match rows.last_mut() {
            Some(row) if used + 3 + w <= width as usize => {
                row.push(i);
                used += 3 + w;
            }
            _ => {
                rows.push(vec![i]);
                used = w;
            }
        }
    }
    rows
}

fn legend_rows(items: &[(char, SpanState, &'static str)], width: u16) -> u16 {
    legend_layout(items, width).len() as u16
}

/// Each glyph in its state's colour, then its name.
fn draw_legend(
    items: &[(char, SpanState, &'static str)],
    theme: Theme,
    area: Rect,
    buf: &mut Buffer,
) {
    let area = area.intersection(buf.area);
    for (r, row) in legend_layout(items, area.width).iter().enumerate() {
        let y = area.y + r as u16;
        if y >= area.bottom() {
            return;
        }
        let mut x = area.x;
        for (k, &i) in row.iter().enumerate() {
            let (g, state, name) = items[i];
            if k > 0 {
                x += 3;
            }
            if x >= area.right() {
                break;
            }
            buf[(x, y)].set_char(g).set_style(theme.state(state));
            let room = area.right().saturating_sub(x + 2) as usize;
            buf.set_stringn(x + 2, y, name, room, theme.dim());
            x += 2 + crate::text::width(name) as u16;
        }
    }
}

fn herd_rows(t: &Trace) -> usize {
    match &t.metrics {
        Metrics::Herd(m) => m.rows.len(),
        _ => 0,
    }
}

/// The live herd's chart beside the model's: one row per release, the same scale each side.
fn herd_charts(o: &Outcome, lang: Lang, theme: Theme, area: Rect, buf: &mut Buffer) {
    let half = area.width / 2;
    let legend_h = rows_of(ui(Ui::HerdLegend, lang), area.width);
    let chart_h = area.height.saturating_sub(1 + legend_h);
    for (i, (t, label)) in [
        (&o.live, words::live_label(lang)),
        (&o.model, words::model_label(lang)),
    ]
    .into_iter()
    .enumerate()
    {
        let x = area.x + i as u16 * half;
        let w = half.saturating_sub(1);
        let label = words::herd_chart_label(label, lang);
        line(buf, Rect::new(x, area.y, w, 1), &label, theme.title());
        if let Metrics::Herd(m) = &t.metrics {
            HerdChart {
                metrics: m,
                more: ui(Ui::MoreRows, lang).to_string(),
                key: false,
                lang,
                theme,
            }
            .render(Rect::new(x, area.y + 1, w, chart_h), buf);
        }
    }
    let legend = Rect::new(area.x, area.y + 1 + chart_h, area.width, legend_h);
    wrapped(buf, legend, ui(Ui::HerdLegend, lang), theme.dim());
}
