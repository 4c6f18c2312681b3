//! The end of a session: score, percent and time, then for a quiz the per-topic breakdown and
//! the points missed most often; for an interview every point missed, grouped by topic, with
//! the lesson sections and simulations that teach it; for the self-test the self-ratings and
//! the earlier runs to compare with. Drawing only reads state.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;

use super::QuizState;
use super::body::Lines;
use crate::i18n::{Lang, Ui, ui};
use crate::progress::words as pwords;
use crate::quiz::session::SessionKind;
use crate::quiz::summary::{self, Summary};
use crate::quiz::words::{self as qtext, Label};
use crate::tui::learn::Learning;
use crate::tui::theme::Theme;

pub fn render(
    s: &QuizState,
    sum: &Summary,
    learn: &Learning,
    lang: Lang,
    theme: Theme,
    area: Rect,
    buf: &mut Buffer,
) {
    let mut out = Lines::new(area.width);
    out.push(
        &format!(
            "{} {}/{} · {}/{} ({:.0}%) · {}",
            qtext::label(Label::SessionAnswered, lang),
            sum.answered,
            sum.questions,
            sum.score,
            sum.max,
            sum.percent,
            qtext::duration(sum.seconds, lang)
        ),
        theme.title(),
    );
    if s.skipped > 0 {
        out.push(
            &ui(Ui::QuizSkipped, lang).replace("{}", &s.skipped.to_string()),
            theme.dim(),
        );
    }
    if sum.kind != SessionKind::Quiz && sum.answered > 0 {
        out.push(
            &format!(
                "{}{}",
                qtext::label(Label::SelfRatings, lang),
                qtext::tiers(&sum.tiers, lang)
            ),
            Style::new(),
        );
    }
    if !sum.topics.is_empty() {
        out.blank();
        out.push(qtext::label(Label::ByTopic, lang), theme.title());
        for t in &sum.topics {
            let pct = summary::percent(t.score, t.max);
            out.push(
                &format!(
                    "  {} {} {}/{} ({pct:.0}%)",
                    crate::text::pad(crate::i18n::topics::topic_name(&t.topic, lang), 24),
                    bar(pct),
                    t.score,
                    t.max,
                ),
                Style::new(),
            );
        }
    }
    let cursor_row = match sum.kind {
        SessionKind::Interview => report(s, lang, theme, &mut out),
        SessionKind::SelfTest => {
            history(learn, lang, theme, &mut out);
            questions(s, learn, lang, theme, &mut out)
        }
        SessionKind::Quiz => questions(s, learn, lang, theme, &mut out),
    };
    // What does not fit scrolls with PgUp/PgDn, like an answered question.
    let rows = area.height as usize;
    if out.len() > rows {
        let max = out.len() - rows;
        // After Up/Down the view keeps the chosen link in the middle; PgUp/PgDn take over again.
        let top = match cursor_row {
            Some(r) if s.follow_link => r.saturating_sub(rows / 2).min(max),
            _ => s.scroll.min(max),
        };
        out.rows.drain(..top);
        out.rows.truncate(rows);
        let more = ui(Ui::QuizMore, lang)
            .replacen("{}", &(top + rows).to_string(), 1)
            .replacen("{}", &(max + rows).to_string(), 1);
        if let Some(last) = out.rows.last_mut() {
            *last = (more, theme.cursor());
        }
    }
    let mut y = area.y;
    out.draw(buf, area, &mut y);
}

/// The interview report: each topic, the points missed in it, and where to study them.
/// Returns the row of the link under the cursor.
fn report(s: &QuizState, lang: Lang, theme: Theme, out: &mut Lines) -> Option<usize> {
    if s.session.results().is_empty() {
        return None;
    }
    out.blank();
    if s.report.is_empty() {
        out.push(qtext::label(Label::NothingMissed, lang), theme.good());
        return None;
    }
    let mut cursor_row = None;
    out.push(qtext::label(Label::MissedByTopic, lang), theme.title());
    let mut k = 0;
    for t in &s.report {
        out.push(
            &format!("  {}", crate::i18n::topics::topic_name(&t.topic, lang)),
            theme.title(),
        );
        for m in &t.missed {
            out.item("    - ", m, Style::new());
        }
        out.push(
            &format!("    {}", qtext::label(Label::StudyHere, lang)),
            theme.dim(),
        );
        // Each link on its own row; the one under the cursor opens with `o`.
        for l in &t.links {
            let (mark, style) = if k == s.link {
                cursor_row = Some(out.len());
                ("    > ", theme.focus())
            } else {
                ("      ", Style::new())
            };
            out.item(mark, &l.words(lang), style);
            k += 1;
        }
    }
    cursor_row
}

/// Ten cells filled by tenths of `pct`.
fn bar(pct: f64) -> String {
    let full = ((pct / 10.0).round() as usize).min(10);
    format!("{}{}", "█".repeat(full), "░".repeat(10 - full))
}

/// Each question answered: its prompt, its points, what was missed and where it is taught,
/// each link on its own row (`o` opens the one under the cursor). Returns that link's row.
fn questions(
    s: &QuizState,
    learn: &Learning,
    lang: Lang,
    theme: Theme,
    out: &mut Lines,
) -> Option<usize> {
    if s.questions.is_empty() {
        return None;
    }
    out.blank();
    out.push(qtext::label(Label::EachQuestion, lang), theme.title());
    let mut cursor_row = None;
    let mut k = 0;
    for (n, q) in s.questions.iter().enumerate() {
        let style = if q.score == q.max {
            theme.good()
        } else {
            theme.bad()
        };
        out.item(
            &format!("  {}. [{}/{}] ", n + 1, q.score, q.max),
            &q.prompt,
            style,
        );
        // When the scheduler brings it back, from the card the answer was saved to.
        if let Some(card) = learn
            .store
            .as_ref()
            .and_then(|st| st.data().cards.get(&q.id))
        {
            out.push(
                &format!("     {}", qtext::comes_back(card.due - s.now, lang)),
                theme.dim(),
            );
        }
        for m in &q.missed {
            out.item(
                &format!("     {}", qtext::label(Label::Missed, lang)),
                m,
                theme.dim(),
            );
        }
        for l in &q.links {
            let (mark, style) = if k == s.link {
                cursor_row = Some(out.len());
                ("   > ", theme.focus())
            } else {
                ("     ", Style::new())
            };
            out.item(mark, &l.words(lang), style);
            k += 1;
        }
    }
    cursor_row
}

/// The self-tests taken so far, newest last.
fn history(learn: &Learning, lang: Lang, theme: Theme, out: &mut Lines) {
    let Some(store) = &learn.store else {
        return;
    };
    let runs = store.data().self_tests();
    if runs.is_empty() {
        return;
    }
    out.blank();
    out.push(qtext::label(Label::SelfTestHistory, lang), theme.title());
    for r in runs.iter().rev().take(5).rev() {
        out.push(
            &format!("  {}", pwords::self_test_run(r, lang)),
            Style::new(),
        );
    }
}
