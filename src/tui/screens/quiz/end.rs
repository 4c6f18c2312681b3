//! The end of a session: score, percent and time, a bar per topic, then for an interview every
//! point missed grouped by topic, for the self-test its earlier runs, and for every session the
//! list of questions (points, the answer given against the right one, when it comes back, the
//! links that teach it). Drawing and clicks share one layout; drawing only reads state.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;

use super::QuizState;
use super::body::Lines;
use crate::i18n::{Lang, Ui, ui};
use crate::progress::words as pwords;
use crate::quiz::report::Compared;
use crate::quiz::session::SessionKind;
use crate::quiz::summary::{self, Summary};
use crate::quiz::words::{self as qtext, Label};
use crate::tui::learn::Learning;
use crate::tui::theme::Theme;

/// The result screen laid out at one width: its rows and the rows each study link takes.
struct Laid {
    out: Lines,
    /// For link `k` (in [`QuizState::links`] order), its rows `start..end`.
    links: Vec<std::ops::Range<usize>>,
}

fn lay_out(
    s: &QuizState,
    sum: &Summary,
    learn: &Learning,
    lang: Lang,
    theme: Theme,
    width: u16,
) -> Laid {
    let mut out = Lines::new(width);
    let mut links = Vec::new();
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
    // Every kind of session ends on the same list of questions; the interview first shows
    // what was missed by topic, the self-test its earlier runs.
    match sum.kind {
        SessionKind::Interview => report(s, lang, theme, &mut out, &mut links),
        SessionKind::SelfTest => history(learn, lang, theme, &mut out),
        SessionKind::Quiz => {}
    }
    questions(s, learn, lang, theme, &mut out, &mut links);
    Laid { out, links }
}

/// The first row shown when `laid` does not fit in `rows`: the chosen link in the middle after
/// Up/Down, else where PgUp/PgDn left it.
fn first_row(s: &QuizState, laid: &Laid, rows: usize) -> usize {
    let max = laid.out.len().saturating_sub(rows);
    match laid.links.get(s.link) {
        Some(r) if s.follow_link => r.start.saturating_sub(rows / 2).min(max),
        _ => s.scroll.min(max),
    }
}

pub fn render(
    s: &QuizState,
    sum: &Summary,
    learn: &Learning,
    lang: Lang,
    theme: Theme,
    area: Rect,
    buf: &mut Buffer,
) {
    let laid = lay_out(s, sum, learn, lang, theme, area.width);
    // What does not fit scrolls with PgUp/PgDn, like an answered question.
    let rows = area.height as usize;
    let top = first_row(s, &laid, rows);
    let mut out = laid.out;
    if out.len() > rows {
        let max = out.len() - rows;
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

/// The study link drawn at screen row `row` of `area`, if any (the scroll mark on the last
/// row is not a link).
pub fn link_at(
    s: &QuizState,
    sum: &Summary,
    learn: &Learning,
    lang: Lang,
    area: Rect,
    row: u16,
) -> Option<usize> {
    if row < area.y || row >= area.bottom() {
        return None;
    }
    let laid = lay_out(s, sum, learn, lang, Theme { mono: true }, area.width);
    let rows = area.height as usize;
    let cut = laid.out.len() > rows;
    let shown = (row - area.y) as usize;
    if cut && shown + 1 == rows {
        return None;
    }
    let at = first_row(s, &laid, rows) + shown;
    laid.links.iter().position(|r| r.contains(&at))
}

/// The interview report: each topic, the points missed in it, and where to study them.
fn report(
    s: &QuizState,
    lang: Lang,
    theme: Theme,
    out: &mut Lines,
    links: &mut Vec<std::ops::Range<usize>>,
) {
    if s.session.results().is_empty() {
        return;
    }
    out.blank();
    if s.report.is_empty() {
        out.push(qtext::label(Label::NothingMissed, lang), theme.good());
        return;
    }
    out.push(qtext::label(Label::MissedByTopic, lang), theme.title());
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
        // Each link on its own row; the one under the cursor opens with Enter or `o`.
        for l in &t.links {
            link_row(s, lang, theme, out, links, "    ", l);
        }
    }
}

/// One study link on its own rows, marked when it is the chosen one; its rows are noted for
/// clicks.
fn link_row(
    s: &QuizState,
    lang: Lang,
    theme: Theme,
    out: &mut Lines,
    links: &mut Vec<std::ops::Range<usize>>,
    indent: &str,
    l: &crate::quiz::report::StudyLink,
) {
    let (mark, style) = if links.len() == s.link {
        ("> ", theme.focus())
    } else {
        ("  ", Style::new())
    };
    let start = out.len();
    out.item(&format!("{indent}{mark}"), &l.words(lang), style);
    links.push(start..out.len());
}

/// Ten cells filled by tenths of `pct`.
fn bar(pct: f64) -> String {
    let full = ((pct / 10.0).round() as usize).min(10);
    format!("{}{}", "█".repeat(full), "░".repeat(10 - full))
}

/// Each question answered: its prompt, its points, what was answered against what was right,
/// when it comes back, what was missed and where it is taught, each link on its own row.
fn questions(
    s: &QuizState,
    learn: &Learning,
    lang: Lang,
    theme: Theme,
    out: &mut Lines,
    links: &mut Vec<std::ops::Range<usize>>,
) {
    if s.questions.is_empty() {
        return;
    }
    out.blank();
    out.push(qtext::label(Label::EachQuestion, lang), theme.title());
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
        if let Some(c) = &q.compared {
            compared(c, lang, theme, out);
        }
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
            link_row(s, lang, theme, out, links, "   ", l);
        }
    }
}

/// What was answered, then what was right, each under the question.
fn compared(c: &Compared, lang: Lang, theme: Theme, out: &mut Lines) {
    let label = |l| qtext::label(l, lang);
    let list = |v: &[String]| match v {
        [] => label(Label::NothingPicked).to_string(),
        v => v.join(lang.pick("；", "; ")),
    };
    let (given, right) = match c {
        Compared::Choice { given, right } => (list(given), list(right)),
        Compared::Order {
            in_place,
            steps,
            right,
        } => (
            label(Label::StepsInPlace)
                .replace("{in}", &in_place.to_string())
                .replace("{of}", &steps.to_string()),
            right.join(" → "),
        ),
        Compared::Model { given, right } => (given.clone(), right.clone()),
    };
    let indent = "     ";
    out.item(
        &format!("{indent}{}", label(Label::YourAnswer)),
        &given,
        Style::new(),
    );
    out.item(
        &format!("{indent}{}", label(Label::RightAnswer)),
        &right,
        theme.good(),
    );
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
