//! Progress as a dashboard: the counts and the day streak, the 14-day due forecast as a bar
//! chart, mastery per deck in a list that scrolls, and each session's score as a chart. Everything comes from [`Learning::overview`], computed when the
//! progress changes; drawing only reads it.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::layout::{Constraint, Layout};
use ratatui::style::Style;
use ratatui::symbols::Marker;
use ratatui::text::Line;
use ratatui::widgets::{Axis, Bar, BarChart, BarGroup, Chart, Dataset, GraphType, Widget};

use super::line;
use crate::i18n::{Lang, Ui, ui};
use crate::progress::words as pwords;
use crate::quiz::words::{self as qtext, Label};
use crate::tui::app::AppMsg;
use crate::tui::keys::{Binding, U, info, scroll_rows};
use crate::tui::learn::Learning;
use crate::tui::screen::{Cx, Screen, View};
use crate::tui::theme::Theme;

/// A bar of `width` cells for `percent` (0 to 100), in plain ASCII so it aligns everywhere.
pub fn bar(percent: f64, width: usize) -> String {
    let filled = ((percent.clamp(0.0, 100.0) / 100.0) * width as f64).round() as usize;
    format!(
        "[{}{}]",
        "#".repeat(filled),
        ".".repeat(width - filled.min(width))
    )
}

/// Where the deck list starts, kept within the list by [`top`]; Up/Down and PgUp/PgDn move it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct StatsView {
    pub top: usize,
}

impl StatsView {
    /// Moves the deck list by `rows`, within the `decks` there are.
    pub fn scroll(&mut self, rows: i64, decks: usize) {
        let last = decks.saturating_sub(1) as i64;
        self.top = (self.top as i64 + rows).clamp(0, last) as usize;
    }
}

/// Progress's keys: the deck list scrolls.
pub const SCROLL: &[Binding] = &scroll_rows(Ui::KeyScroll);

/// The wheel, after [`SCROLL`].
pub const KEYS: &[Binding] = &[info("wheel", U(Ui::KeyMouseWheel))];

impl Screen for StatsView {
    type Reply = std::convert::Infallible;

    fn handle(&mut self, msg: AppMsg, cx: &mut Cx<'_>) -> Option<Self::Reply> {
        let decks = cx.learn.overview.as_ref().map_or(0, |o| o.decks.len());
        let page = i64::from(cx.area.height / 3).max(1);
        let all = decks as i64;
        match msg {
            AppMsg::Up => self.scroll(-1, decks),
            AppMsg::Down => self.scroll(1, decks),
            AppMsg::Scroll(d) | AppMsg::Wheel(d) => self.scroll(i64::from(d) * page, decks),
            AppMsg::Jump(to_end) => self.scroll(if to_end { all } else { -all }, decks),
            _ => {}
        }
        None
    }

    fn draw(&self, v: &View<'_>, area: Rect, buf: &mut Buffer) {
        render(v.learn, *self, v.lang, v.theme, area, buf);
    }
}

/// The first deck shown when `rows` fit: never past the point where the list's end shows.
fn top(view: StatsView, decks: usize, rows: usize) -> usize {
    view.top.min(decks.saturating_sub(rows))
}

pub fn render(
    learn: &Learning,
    view: StatsView,
    lang: Lang,
    theme: Theme,
    area: Rect,
    buf: &mut Buffer,
) {
    let inner = Rect::new(
        area.x + 1,
        area.y,
        area.width.saturating_sub(2),
        area.height,
    );
    let row = |y: u16| Rect::new(inner.x, y, inner.width, 1);
    line(buf, row(inner.y), ui(Ui::StatsTitle, lang), theme.title());
    let hint = inner.bottom().saturating_sub(1);
    line(buf, row(hint), ui(Ui::StatsHint, lang), theme.dim());
    let mut y = inner.y + 1;
    for m in learn.messages(lang) {
        line(buf, row(y), &m, theme.bad());
        y += 1;
    }
    let Some(o) = &learn.overview else {
        line(buf, row(y), ui(Ui::StatsNoFile, lang), Style::new());
        return;
    };
    // The counts and the streak, once.
    line(
        buf,
        row(y),
        &pwords::overview_line(o.answers, o.questions_seen, o.sessions, o.streak, lang),
        theme.good(),
    );
    y += 1;
    if let Some(data) = learn.store.as_ref().map(|s| s.data()) {
        let made =
            crate::i18n::present::present(crate::i18n::present::Present::PredictionsScore, lang)
                .replacen("{}", &data.predictions().to_string(), 1)
                .replacen("{}", &data.predictions_right().to_string(), 1);
        line(buf, row(y), &made, Style::new());
        y += 1;
    }
    y = self_tests(learn, lang, theme, inner, y, buf);

    // The forecast: one bar per day, the day under it, today first.
    line(
        buf,
        row(y),
        qtext::label(Label::Forecast, lang),
        theme.title(),
    );
    y += 1;
    let forecast_rows = if inner.height >= 40 { 8 } else { 4 };
    let days: Vec<String> = (0..o.forecast.len())
        .map(|d| match d {
            0 => lang.pick("今", "now").to_string(),
            d => format!("+{d}"),
        })
        .collect();
    let bars: Vec<Bar> = o
        .forecast
        .iter()
        .zip(&days)
        .map(|(n, d)| {
            Bar::default()
                .value(u64::from(*n))
                .label(Line::from(d.as_str()))
        })
        .collect();
    let chart = Rect::new(inner.x, y, inner.width, forecast_rows).intersection(buf.area);
    BarChart::default()
        .data(BarGroup::default().bars(&bars))
        .bar_width(4)
        .bar_gap(1)
        .bar_style(theme.good())
        .value_style(theme.title())
        .render(chart, buf);
    y += forecast_rows + 1;

    // Below: mastery per deck on the left (it scrolls), the score history on the right.
    let below = Rect::new(inner.x, y, inner.width, hint.saturating_sub(y + 1));
    let [left, right] =
        Layout::horizontal([Constraint::Percentage(55), Constraint::Percentage(45)]).areas(below);
    decks(learn, o, view, lang, theme, left, buf);
    history(learn, lang, theme, right, buf);
}

/// Mastery per deck, one row each, by the deck's title; the rows above and below are counted.
fn decks(
    learn: &Learning,
    o: &crate::progress::stats::Overview,
    view: StatsView,
    lang: Lang,
    theme: Theme,
    area: Rect,
    buf: &mut Buffer,
) {
    if area.height < 2 {
        return;
    }
    let rows = area.height as usize - 1;
    let first = top(view, o.decks.len(), rows);
    let shown = (first + rows).min(o.decks.len());
    let title = format!(
        "{} {}-{}/{}",
        qtext::label(Label::MasteryByDeck, lang),
        first + 1,
        shown,
        o.decks.len()
    );
    line(
        buf,
        Rect::new(area.x, area.y, area.width, 1),
        &title,
        theme.title(),
    );
    let bar_cols = 10;
    let name_cols = (area.width as usize)
        .saturating_sub(bar_cols + 2 + 12)
        .max(8);
    for (i, d) in o.decks[first..shown].iter().enumerate() {
        let name = learn.deck_title(&d.deck, lang);
        let text = format!(
            "{} {} {:>3.0}% {}/{}",
            crate::text::pad(&crate::text::clip_cols(&name, name_cols), name_cols),
            bar(d.mastery, bar_cols),
            d.mastery,
            d.seen,
            d.questions
        );
        let y = area.y + 1 + i as u16;
        line(
            buf,
            Rect::new(area.x, y, area.width, 1),
            &text,
            Style::new(),
        );
    }
}

/// Each session's score as a line over the sessions, with labelled axes.
fn history(learn: &Learning, lang: Lang, theme: Theme, area: Rect, buf: &mut Buffer) {
    if area.height < 3 {
        return;
    }
    line(
        buf,
        Rect::new(area.x, area.y, area.width, 1),
        ui(Ui::StatsHistory, lang),
        theme.title(),
    );
    if learn.history.is_empty() {
        line(
            buf,
            Rect::new(area.x, area.y + 1, area.width, 1),
            ui(Ui::StatsNoSessions, lang),
            theme.dim(),
        );
        return;
    }
    let last = learn.history.last().copied().unwrap_or(0);
    line(
        buf,
        Rect::new(area.x, area.y + 1, area.width, 1),
        &ui(Ui::StatsLastSession, lang).replace("{}", &last.to_string()),
        Style::new(),
    );
    let points: Vec<(f64, f64)> = learn
        .history
        .iter()
        .enumerate()
        .map(|(i, p)| ((i + 1) as f64, *p as f64))
        .collect();
    let n = points.len().max(2) as f64;
    let data = [Dataset::default()
        .marker(Marker::Braille)
        .graph_type(GraphType::Line)
        .style(theme.good())
        .data(&points)];
    let chart = Chart::new(data.to_vec())
        .x_axis(
            Axis::default()
                .title(lang.pick("次", "session"))
                .bounds([1.0, n])
                .labels(["1".to_string(), format!("{}", points.len())]),
        )
        .y_axis(
            Axis::default()
                .bounds([0.0, 100.0])
                .labels(["0", "50", "100"]),
        );
    let rect = Rect::new(area.x, area.y + 2, area.width, area.height - 2).intersection(buf.area);
    chart.render(rect, buf);
}

/// The self-test history: the latest run, then the percentages of up to five before it, on one
/// row (two on a narrow screen). Returns the next free row.
fn self_tests(
    learn: &Learning,
    lang: Lang,
    theme: Theme,
    inner: Rect,
    y: u16,
    buf: &mut Buffer,
) -> u16 {
    let row = |y: u16| Rect::new(inner.x, y, inner.width, 1);
    let Some(store) = &learn.store else {
        return y;
    };
    let runs = store.data().self_tests();
    let Some(last) = runs.last() else {
        line(
            buf,
            row(y),
            qtext::label(Label::NoSelfTest, lang),
            theme.dim(),
        );
        return y + 1;
    };
    let mut text = format!(
        "{}{}",
        qtext::label(Label::LastSelfTest, lang),
        pwords::self_test_run(last, lang)
    );
    let earlier: Vec<String> = runs
        .iter()
        .rev()
        .skip(1)
        .take(5)
        .map(|r| format!("{:.0}%", crate::quiz::summary::percent(r.score, r.max)))
        .collect();
    if !earlier.is_empty() {
        text.push_str(&match lang {
            Lang::Zh => format!("  （之前 {}）", earlier.join(" ")),
            Lang::En => format!("  (before: {})", earlier.join(" ")),
        });
    }
    // On a narrow screen the run takes two rows rather than being cut.
    let rows = crate::text::wrap(&text, inner.width as usize);
    for (i, r) in rows.iter().take(2).enumerate() {
        line(buf, row(y + i as u16), r, Style::new());
    }
    y + rows.len().clamp(1, 2) as u16
}

#[cfg(test)]
mod tests {
    use super::bar;

    #[test]
    fn bars_fill_in_proportion() {
        assert_eq!(bar(0.0, 4), "[....]");
        assert_eq!(bar(50.0, 4), "[##..]");
        assert_eq!(bar(100.0, 4), "[####]");
        assert_eq!(bar(250.0, 4), "[####]");
    }
}
