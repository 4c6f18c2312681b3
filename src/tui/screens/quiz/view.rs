//! Drawing the quiz screen while a question is asked: the title (with the interview's clock),
//! the prompt, notes, hint, the reference answer with the learner's notes beside it, the points,
//! options or steps, and after answering the verdict and explanations. Drawing only reads state.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::widgets::{Block, Borders, Widget};

use super::super::line;
use super::body::{Lines, body};
use super::{QuizNotice, QuizState};
use crate::content::deck::Kind;
use crate::i18n::{Lang, Ui, ui};
use crate::quiz::item::{Body, ModelInput, PreparedQuestion};
use crate::quiz::session::{Phase, SessionKind};
use crate::quiz::words::{self as qtext, Label};
use crate::tui::learn::{Learning, Saved, saved_text};
use crate::tui::theme::Theme;

/// The width from which the learner's notes stand in a column beside the reference answer.
const NOTES_BESIDE_COLS: u16 = 100;

fn hint(s: &QuizState, lang: Lang) -> &'static str {
    if s.confirm {
        return ui(Ui::QuizConfirmLeave, lang);
    }
    if s.summary.is_some() {
        if !s.links().is_empty() {
            return qtext::label(Label::KeysReport, lang);
        }
        return ui(Ui::QuizHintEnd, lang);
    }
    if s.typing {
        return ui(Ui::QuizHintNotes, lang);
    }
    let Some(item) = s.current() else {
        return ui(Ui::QuizHintEnd, lang);
    };
    let hint = item.hint.is_some() && !s.session.hint_taken();
    match (s.session.phase(), &item.body) {
        (Phase::Asking, Body::Recall { .. }) if hint => qtext::label(Label::KeysRecallHint, lang),
        (
            Phase::Asking,
            Body::Model {
                input: ModelInput::Number { .. },
                ..
            },
        ) if hint => qtext::label(Label::KeysNumberHint, lang),
        (Phase::Asking, Body::Model { .. }) if hint => qtext::label(Label::KeysOptionHint, lang),
        (Phase::Asking | Phase::FollowUpAsking, Body::Recall { .. }) => {
            ui(Ui::QuizHintRecall, lang)
        }
        (Phase::Ticking | Phase::FollowUpTicking, _) => ui(Ui::QuizHintTick, lang),
        (Phase::Rating, _) => ui(Ui::QuizHintRate, lang),
        (Phase::Answered, Body::Model { .. }) => ui(Ui::QuizHintAnsweredModel, lang),
        (Phase::Answered, _) => ui(Ui::QuizHintAnswered, lang),
        (_, Body::Choice { .. }) => ui(Ui::QuizHintChoice, lang),
        (_, Body::Order { .. }) => ui(Ui::QuizHintOrder, lang),
        (
            _,
            Body::Model {
                input: ModelInput::Number { .. },
                ..
            },
        ) => ui(Ui::QuizHintNumber, lang),
        (_, Body::Model { .. }) => ui(Ui::QuizHintOption, lang),
        _ => ui(Ui::QuizHintAnswered, lang),
    }
}

fn notice_text(s: &QuizState, lang: Lang) -> Option<String> {
    match s.notice? {
        QuizNotice::ClosedBook => Some(ui(Ui::QuizClosedBook, lang).to_string()),
        QuizNotice::Invalid => Some(qtext::invalid(lang).to_string()),
        QuizNotice::NoRun => Some(ui(Ui::QuizNoRun, lang).to_string()),
        QuizNotice::TimeUp => Some(qtext::label(Label::TimeUp, lang).to_string()),
    }
}

/// The session's name: quiz, interview or self-test.
pub fn title_of(kind: SessionKind, lang: Lang) -> &'static str {
    match kind {
        SessionKind::Quiz => ui(Ui::QuizTitle, lang),
        SessionKind::Interview => qtext::label(Label::InterviewTitle, lang),
        SessionKind::SelfTest => qtext::label(Label::SelfTestTitle, lang),
    }
}

/// Where the question or the result list is drawn: under the title and status rows, above the
/// two footer rows, one column in from each side.
pub fn main_area(area: Rect) -> Rect {
    let footer_rows = 2;
    Rect::new(
        area.x + 1,
        area.y + 2,
        area.width.saturating_sub(2),
        area.height.saturating_sub(2 + footer_rows),
    )
}

pub fn render(
    s: &QuizState,
    learn: &Learning,
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
    let (done, total) = s.session.position();
    let name = title_of(s.session.kind(), lang);
    let title = match (&s.summary, s.current()) {
        (None, Some(item)) => format!(
            "{name}  {}",
            qtext::question_head(done, total, item.kind, item.difficulty, lang)
        ),
        _ => name.to_string(),
    };
    // An interview's clock sits at the right of the title row, the title cut to make room.
    let clock = s.timed().then(|| {
        format!(
            "{} {}",
            qtext::label(Label::Time, lang),
            qtext::clock(s.elapsed(), s.limit)
        )
    });
    let clock_cols = clock
        .as_deref()
        .map_or(0, |c| crate::text::width(c) as u16 + 2);
    line(
        buf,
        Rect::new(inner.x, inner.y, inner.width.saturating_sub(clock_cols), 1),
        &title,
        theme.title(),
    );
    if let Some(c) = &clock {
        let w = crate::text::width(c) as u16;
        let style = if s.time_up { theme.bad() } else { theme.dim() };
        line(
            buf,
            Rect::new(inner.right().saturating_sub(w), inner.y, w, 1),
            c,
            style,
        );
    }
    // The save status: read-only stores say so from the start.
    let status = match &s.saved {
        Some(saved) => saved_text(saved, lang),
        None if learn.store.is_none() => saved_text(&Saved::NoStore, lang),
        None if !learn.writable() => saved_text(&Saved::ReadOnly, lang),
        None => String::new(),
    };
    let status_style = match s.saved {
        Some(Saved::Saved(_)) | None if learn.writable() => theme.dim(),
        _ => theme.bad(),
    };
    line(
        buf,
        Rect::new(inner.x, inner.y + 1, inner.width, 1),
        &status,
        status_style,
    );
    // The question's deck at the right of the status row, by its title.
    if let (None, Some(item)) = (&s.summary, s.current()) {
        let deck = learn.deck_title(&item.deck, lang);
        let w = crate::text::width(&deck) as u16;
        let free = inner
            .width
            .saturating_sub(crate::text::width(&status) as u16 + 2);
        if w <= free {
            line(
                buf,
                Rect::new(inner.right() - w, inner.y + 1, w, 1),
                &deck,
                theme.dim(),
            );
        }
    }
    let main = main_area(area);
    if let Some(sum) = &s.summary {
        super::end::render(s, sum, learn, lang, theme, main, buf);
    } else if let Some(item) = s.current() {
        render_question(s, item, lang, theme, main, buf);
    }
    let bottom = area.bottom().saturating_sub(1);
    if let Some(n) = notice_text(s, lang) {
        line(
            buf,
            Rect::new(inner.x, bottom.saturating_sub(1), inner.width, 1),
            &n,
            theme.bad(),
        );
    }
    let hint_style = if s.confirm {
        theme.cursor()
    } else {
        theme.dim()
    };
    line(
        buf,
        Rect::new(inner.x, bottom, inner.width, 1),
        hint(s, lang),
        hint_style,
    );
}

/// The learner's notes once the reference is on screen (recall, after revealing).
fn notes_to_compare(s: &QuizState, item: &PreparedQuestion) -> Option<String> {
    let phase = s.session.phase();
    let after = !matches!(phase, Phase::Asking | Phase::Finished);
    (item.kind == Kind::Recall && after && (!s.notes.is_empty() || s.typing)).then(|| {
        if s.typing {
            format!("{}_", s.notes)
        } else {
            s.notes.clone()
        }
    })
}

/// A bordered box holding `text`, its end kept in view.
fn notes_box(buf: &mut Buffer, rect: Rect, title: &str, text: &str, style: Style) {
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(style)
        .title(title.to_string());
    let inside = block.inner(rect);
    block.render(rect, buf);
    let mut notes = Lines::new(inside.width);
    notes.push(text, Style::new());
    let skip = notes.len().saturating_sub(inside.height as usize);
    notes.rows.drain(..skip);
    let mut ny = inside.y;
    notes.draw(buf, inside, &mut ny);
}

fn render_question(
    s: &QuizState,
    item: &PreparedQuestion,
    lang: Lang,
    theme: Theme,
    area: Rect,
    buf: &mut Buffer,
) {
    let mut area = area;
    let mut notes_above = None;
    if let Some(notes) = notes_to_compare(s, item) {
        let style = if s.typing { theme.title() } else { theme.dim() };
        let title = qtext::label(Label::NotesTitle, lang);
        if area.width >= NOTES_BESIDE_COLS {
            // Side by side: the reference on the left, what the learner wrote on the right.
            let right = area.width / 3;
            let mut probe = Lines::new(right.saturating_sub(2));
            probe.push(&notes, Style::new());
            let h = (probe.len() as u16 + 2).max(5).min(area.height);
            let rect = Rect::new(area.right() - right, area.y, right, h);
            notes_box(buf, rect, title, &notes, style);
            area.width -= right + 1;
        } else {
            notes_above = Some((notes, style, title));
        }
    }
    if let Some((notes, style, title)) = notes_above {
        let mut probe = Lines::new(area.width.saturating_sub(2));
        probe.push(&notes, Style::new());
        let h = (probe.len() as u16 + 2).min(5).min(area.height / 3).max(3);
        notes_box(
            buf,
            Rect::new(area.x, area.y, area.width, h),
            title,
            &notes,
            style,
        );
        area.y += h;
        area.height = area.height.saturating_sub(h);
    }
    let mut prompt = Lines::new(area.width);
    prompt.push(&item.prompt, Style::new());
    let notes_box = s.session.phase() == Phase::Asking && item.kind == Kind::Recall;
    let notes_rows: u16 = if notes_box {
        6.min(area.height / 3).max(3)
    } else {
        0
    };
    let (mut text, fixed) = body(s, item, lang, theme, area.width);
    let rows = area.height as usize;
    if s.session.phase() == Phase::Answered && prompt.len() + 1 + text.len() + fixed.len() > rows {
        // After answering, everything is worth reading: scroll instead of cutting.
        // The verdict and the marked answer first, then the explanation.
        let mut all = prompt;
        all.blank();
        all.rows.extend(fixed.rows);
        all.rows.append(&mut text.rows);
        let max = all.len() - rows;
        let top = s.scroll.min(max);
        all.rows.drain(..top);
        all.rows.truncate(rows);
        let more = ui(Ui::QuizMore, lang)
            .replacen("{}", &(top + rows).to_string(), 1)
            .replacen("{}", &(max + rows).to_string(), 1);
        if let Some(last) = all.rows.last_mut() {
            *last = (more, theme.cursor());
        }
        let mut y = area.y;
        all.draw(buf, area, &mut y);
        return;
    }
    // The prompt keeps at least three rows, the fixed part (points, options) stays whole when it
    // can, the reference text gets what is left.
    let fixed_rows = fixed.len();
    let gap = 1;
    let room = rows.saturating_sub(notes_rows as usize + gap);
    // Once the answer is revealed the prompt has been read: it may shrink to two rows.
    let revealed = s.session.phase() != Phase::Asking;
    let crowded = prompt.len() + 1 + text.len() + fixed_rows > room;
    let prompt_cap = if revealed && crowded {
        prompt.len().min(2)
    } else {
        prompt
            .len()
            .min(room.saturating_sub(fixed_rows + text.len().min(3)).max(3))
    };
    prompt.cap(prompt_cap);
    let left = room.saturating_sub(prompt.len() + fixed_rows + 1).max(1);
    if text.len() > left && revealed {
        // The reference answer scrolls in its own rows; the points stay in view to tick.
        let max = text.len() - left;
        let top = s.scroll.min(max);
        text.rows.drain(..top);
        text.rows.truncate(left);
        let more = ui(Ui::QuizMore, lang)
            .replacen("{}", &(top + left).to_string(), 1)
            .replacen("{}", &(max + left).to_string(), 1);
        if let Some(last) = text.rows.last_mut() {
            *last = (more, theme.cursor());
        }
    } else {
        text.cap(left);
    }
    let mut y = area.y;
    prompt.draw(buf, area, &mut y);
    y += 1;
    if notes_box && y < area.bottom() {
        let h = notes_rows.min(area.bottom() - y);
        let rect = Rect::new(area.x, y, area.width, h);
        let style = if s.typing { theme.title() } else { theme.dim() };
        let block = Block::default()
            .borders(Borders::ALL)
            .border_style(style)
            .title(ui(Ui::QuizNotes, lang));
        let inside = block.inner(rect);
        block.render(rect, buf);
        let shown = if s.typing {
            format!("{}_", s.notes)
        } else {
            s.notes.clone()
        };
        let mut notes = Lines::new(inside.width);
        notes.push(&shown, Style::new());
        // Keep the end of the notes in view while typing.
        let skip = notes.len().saturating_sub(inside.height as usize);
        notes.rows.drain(..skip);
        let mut ny = inside.y;
        notes.draw(buf, inside, &mut ny);
        y += h;
    }
    if s.session.phase() == Phase::Answered {
        fixed.draw(buf, area, &mut y);
        text.draw(buf, area, &mut y);
    } else {
        text.draw(buf, area, &mut y);
        fixed.draw(buf, area, &mut y);
    }
}
