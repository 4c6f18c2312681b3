//! Progress: mastery per deck as bars, the score of each session as a sparkline, the 14-day due
//! forecast and the day streak. Everything comes from [`Learning::overview`], computed when the
//! progress changes; drawing only reads it.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::widgets::{Sparkline, Widget};

use super::line;
use crate::i18n::{Lang, Ui, ui};
use crate::progress::words as pwords;
use crate::quiz::words::{self as qtext, Label};
use crate::tui::learn::Learning;
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

pub fn render(learn: &Learning, lang: Lang, theme: Theme, area: Rect, buf: &mut Buffer) {
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
    let mut y = inner.y + 2;
    for m in learn.messages(lang) {
        line(buf, row(y), &m, theme.bad());
        y += 1;
    }
    let Some(o) = &learn.overview else {
        line(buf, row(y), ui(Ui::StatsNoFile, lang), Style::new());
        return;
    };
    line(
        buf,
        row(y),
        &pwords::overview_line(o.answers, o.questions_seen, o.sessions, o.streak, lang),
        Style::new(),
    );
    y += 1;
    let streak = ui(Ui::StatsStreak, lang).replace("{}", &o.streak.to_string());
    line(buf, row(y), &streak, theme.good());
    y += 1;
    if let Some(n) = learn.store.as_ref().map(|s| s.data().predictions()) {
        let made =
            crate::i18n::present::present(crate::i18n::present::Present::PredictionsMade, lang)
                .replace("{}", &n.to_string());
        line(buf, row(y), &made, Style::new());
        y += 1;
    }
    y = self_tests(learn, lang, theme, inner, y, buf);
    y += 1;

    // Forecast: today's count, then each day as +offset:count.
    let days: Vec<String> = o
        .forecast
        .iter()
        .enumerate()
        .map(|(d, n)| format!("+{d}:{n}"))
        .collect();
    line(
        buf,
        row(y),
        qtext::label(Label::Forecast, lang),
        theme.title(),
    );
    y += 1;
    line(
        buf,
        row(y),
        &format!(
            "{}{}{}   {}",
            qtext::label(Label::DueToday, lang),
            lang.pick("", " "),
            o.due_today,
            days.join(" ")
        ),
        Style::new(),
    );
    y += 2;

    // The bottom block holds the score history; the decks get the rows above it.
    let spark_rows: u16 = if inner.height >= 40 { 6 } else { 3 };
    let spark_top = hint.saturating_sub(spark_rows + 2);
    line(
        buf,
        row(y),
        qtext::label(Label::MasteryByDeck, lang),
        theme.title(),
    );
    y += 1;
    let name_cols = 26usize;
    let bar_cols = (inner.width as usize)
        .saturating_sub(name_cols + 20)
        .clamp(10, 40);
    let deck_rows = spark_top.saturating_sub(y + 1) as usize;
    for d in o.decks.iter().take(deck_rows) {
        let text = format!(
            "{:<name_cols$} {} {:>3.0}%  {}/{}",
            d.deck,
            bar(d.mastery, bar_cols),
            d.mastery,
            d.seen,
            d.questions
        );
        line(buf, row(y), &text, Style::new());
        y += 1;
    }
    if o.decks.len() > deck_rows && deck_rows > 0 {
        // The last row says how many are cut rather than silently dropping them.
        let more =
            ui(Ui::MoreRows, lang).replace("{}", &(o.decks.len() - deck_rows + 1).to_string());
        let width = inner.width as usize;
        line(buf, row(y - 1), &format!("{more:<width$}"), theme.dim());
    }
    let y = spark_top.max(y + 1);
    line(buf, row(y), ui(Ui::StatsHistory, lang), theme.title());
    if learn.history.is_empty() {
        line(buf, row(y + 1), ui(Ui::StatsNoSessions, lang), theme.dim());
        return;
    }
    let last = learn.history.last().copied().unwrap_or(0);
    line(
        buf,
        row(y + 1),
        &ui(Ui::StatsLastSession, lang).replace("{}", &last.to_string()),
        Style::new(),
    );
    let spark = Rect::new(
        inner.x,
        y + 2,
        inner.width.min(learn.history.len() as u16).max(1),
        spark_rows.min(hint.saturating_sub(y + 2)),
    );
    // The newest sessions when there are more than columns.
    let skip = learn.history.len().saturating_sub(spark.width as usize);
    Sparkline::default()
        .data(&learn.history[skip..])
        .max(100)
        .style(theme.good())
        .render(spark.intersection(buf.area), buf);
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
