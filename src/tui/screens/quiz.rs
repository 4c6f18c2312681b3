//! The closed-book quiz: one question at a time, driven through [`Session`], every answer saved
//! through the progress store before the explanation is shown, then the end-of-session summary.
//!
//! Recall: optional notes, reveal, tick the scoring points covered, the follow-up, self-rating.
//! Choice: letters toggle options. Order: move steps with Shift-Up/Down or `K`/`J`. Model: type
//! a number or pick an option; after answering, `o` opens the exact run in its simulation.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::widgets::{Block, Borders, Widget};

use super::line;
use crate::content::deck::Kind;
use crate::engine::params::Params;
use crate::i18n::{Lang, Ui, ui};
use crate::quiz::item::{Body, Item, ModelInput, PointText, letter};
use crate::quiz::sched::{SelfRating, Time};
use crate::quiz::score::ModelResponse;
use crate::quiz::session::{Graded, Phase, Session};
use crate::quiz::summary::{self, Summary};
use crate::quiz::text::{self as qtext, Label};
use crate::tui::app::{Msg, ScreenId};
use crate::tui::learn::{Learning, Saved, saved_text};
use crate::tui::theme::Theme;

/// How many questions "Mixed exam" asks.
pub const EXAM_SIZE: usize = 10;

/// What to ask: the quiz command's filters.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct QuizRequest {
    pub deck: Option<String>,
    pub topic: Option<String>,
    pub due: bool,
    pub count: Option<usize>,
    /// Fixes the order and the drawn model variants; the clock otherwise.
    pub seed: Option<u64>,
}

/// A key on the quiz screen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QuizMsg {
    /// Enter: reveal, confirm the points, submit, or go on.
    Submit,
    /// `r`: reveal the reference answer (recall).
    Reveal,
    Up,
    Down,
    /// Space: tick the point or pick the option under the cursor.
    Toggle,
    /// A digit: tick point N (1-based), or rate 1/2/3.
    Digit(u8),
    /// A letter: toggle or pick option N (0-based).
    Letter(u8),
    /// Order: move the selected step up (-1) or down (1).
    Move(i8),
    /// Tab: start or stop typing notes.
    Notes,
    /// A character typed into the notes or the number.
    Char(char),
    Backspace,
    /// `o`: open the answered model question's run in its simulation.
    OpenRun,
    /// PgUp/PgDn: scroll an answered question's explanation that does not fit.
    Scroll(i8),
    /// `q` / Esc: ask to leave (or leave the notes box).
    Leave,
    /// The answer to "leave the quiz?".
    Confirm(bool),
}

/// A one-line message until the next key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QuizNotice {
    /// A lesson or simulation was asked for during the session.
    ClosedBook,
    /// The answer is incomplete or not a number.
    Invalid,
    /// `o` before the question is answered, or on a question without a run.
    NoRun,
}

/// What the app must do after a quiz key.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// Leave the quiz screen (the session is over and recorded).
    Done,
    /// Open this run on its simulation screen; Back comes back here.
    OpenRun(Params),
}

#[derive(Debug, Clone)]
pub struct QuizState {
    pub session: Session,
    pub seed: u64,
    /// The language the questions were prepared in.
    pub lang: Lang,
    /// Where the quiz was started from, to go back there at the end.
    pub from: ScreenId,
    /// Model questions that could not be prepared and were left out.
    pub skipped: usize,
    pub notes: String,
    pub typing: bool,
    /// The point, option or step under the cursor.
    pub cursor: usize,
    /// Choice: the options picked; model: the one option picked.
    pub picked: Vec<bool>,
    /// Order: the shown step numbers in the learner's current order.
    pub order: Vec<usize>,
    /// Model: the number typed.
    pub number: String,
    pub confirm: bool,
    pub notice: Option<QuizNotice>,
    pub saved: Option<Saved>,
    /// Set once the session is over.
    pub summary: Option<Summary>,
    /// The learner's answer to the question just answered, to mark it.
    pub answered_with: Vec<usize>,
    /// Rows scrolled past on an answered question (drawing clamps it to what there is).
    pub scroll: usize,
}

impl QuizState {
    pub fn new(items: Vec<Item>, seed: u64, lang: Lang, from: ScreenId, now: Time) -> Self {
        let mut s = Self {
            session: Session::new(items, now),
            seed,
            lang,
            from,
            skipped: 0,
            notes: String::new(),
            typing: false,
            cursor: 0,
            picked: Vec::new(),
            order: Vec::new(),
            number: String::new(),
            confirm: false,
            notice: None,
            saved: None,
            summary: None,
            answered_with: Vec::new(),
            scroll: 0,
        };
        s.enter();
        s
    }

    /// Resets the per-question input for the current question.
    fn enter(&mut self) {
        self.notes.clear();
        self.typing = false;
        self.cursor = 0;
        self.number.clear();
        self.answered_with.clear();
        self.scroll = 0;
        let (picks, steps) = match self.session.current().map(|i| &i.body) {
            Some(Body::Choice { options }) => (options.len(), 0),
            Some(Body::Model {
                input: ModelInput::Options(o),
                ..
            }) => (o.len(), 0),
            Some(Body::Order { shown, .. }) => (0, shown.len()),
            _ => (0, 0),
        };
        self.picked = vec![false; picks];
        self.order = (0..steps).collect();
    }

    /// A session is running: lessons and simulations stay closed.
    pub fn running(&self) -> bool {
        self.summary.is_none()
    }

    pub fn current(&self) -> Option<&Item> {
        self.session.current()
    }

    /// Whether typed characters go to a text field rather than to commands.
    pub fn text_entry(&self) -> bool {
        self.typing || self.number_entry()
    }

    fn number_entry(&self) -> bool {
        self.session.phase() == Phase::Asking
            && matches!(
                self.current().map(|i| &i.body),
                Some(Body::Model {
                    input: ModelInput::Number { .. },
                    ..
                })
            )
    }

    /// How many rows the cursor moves over in this phase.
    fn cursor_len(&self) -> usize {
        let Some(item) = self.current() else {
            return 0;
        };
        match (&item.body, self.session.phase()) {
            (Body::Recall { points, .. }, Phase::Ticking) => points.len(),
            (Body::Recall { follow_up, .. }, Phase::FollowUpTicking) => {
                follow_up.as_ref().map_or(0, |f| f.points.len())
            }
            (Body::Choice { .. } | Body::Model { .. }, Phase::Asking) => self.picked.len(),
            (Body::Order { .. }, Phase::Asking) => self.order.len(),
            _ => 0,
        }
    }

    /// Applies one key. `now` stamps answers; every answer is saved through `learn` at once.
    pub fn update(&mut self, msg: QuizMsg, learn: &mut Learning, now: Time) -> Option<Outcome> {
        self.notice = None;
        if self.confirm {
            if let QuizMsg::Confirm(leave) = msg {
                self.confirm = false;
                if leave {
                    self.session.stop();
                    self.finish(learn, now);
                }
            }
            return None;
        }
        if self.summary.is_some() {
            return match msg {
                QuizMsg::Submit | QuizMsg::Leave | QuizMsg::Confirm(true) => Some(Outcome::Done),
                _ => None,
            };
        }
        let phase = self.session.phase();
        let kind = self.current().map(|i| i.kind);
        match msg {
            QuizMsg::Leave if self.typing => self.typing = false,
            QuizMsg::Leave => self.confirm = true,
            QuizMsg::Confirm(_) => {}
            QuizMsg::Notes if phase != Phase::Answered => self.typing = !self.typing,
            QuizMsg::Notes => {}
            QuizMsg::Char(c) if self.typing => self.notes.push(c),
            QuizMsg::Char(c) if self.number_entry() => {
                if c.is_ascii_digit() || matches!(c, '.' | ',' | '-' | 'e' | 'E') {
                    self.number.push(c);
                }
            }
            QuizMsg::Char(_) => {}
            QuizMsg::Backspace if self.typing => {
                self.notes.pop();
            }
            QuizMsg::Backspace => {
                self.number.pop();
            }
            QuizMsg::Up => self.cursor = self.cursor.saturating_sub(1),
            QuizMsg::Down => {
                self.cursor = (self.cursor + 1).min(self.cursor_len().saturating_sub(1));
            }
            QuizMsg::Toggle => self.toggle(self.cursor),
            QuizMsg::Digit(d) => match phase {
                Phase::Rating => {
                    let r = match d {
                        1 => SelfRating::Forgot,
                        2 => SelfRating::Partial,
                        3 => SelfRating::Solid,
                        _ => return None,
                    };
                    self.session.set_note(self.notes.clone());
                    let g = self.session.rate(r, now).ok().cloned();
                    self.answered(g, learn, now);
                }
                _ if d >= 1 => self.toggle(usize::from(d) - 1),
                _ => {}
            },
            QuizMsg::Letter(i) => self.toggle(usize::from(i)),
            QuizMsg::Move(dir) => self.move_step(dir),
            QuizMsg::Scroll(d) if phase == Phase::Answered => {
                // Far past the end is clamped when drawing; keep the number small anyway.
                let step = 10;
                self.scroll = if d < 0 {
                    self.scroll.saturating_sub(step)
                } else {
                    (self.scroll + step).min(1000)
                };
            }
            QuizMsg::Scroll(_) => {}
            QuizMsg::Reveal if kind == Some(Kind::Recall) => self.submit(learn, now),
            QuizMsg::Reveal => {}
            QuizMsg::Submit => self.submit(learn, now),
            QuizMsg::OpenRun => {
                let run = match (phase, self.current().map(|i| &i.body)) {
                    (Phase::Answered, Some(Body::Model { variant, .. })) => {
                        Some(variant.params.clone())
                    }
                    _ => None,
                };
                match run {
                    Some(p) => return Some(Outcome::OpenRun(p)),
                    None => self.notice = Some(QuizNotice::NoRun),
                }
            }
        }
        None
    }

    fn toggle(&mut self, i: usize) {
        match self.session.phase() {
            Phase::Ticking | Phase::FollowUpTicking if self.session.toggle_point(i).is_ok() => {
                self.cursor = i;
            }
            Phase::Asking => {
                let single = matches!(self.current().map(|i| &i.body), Some(Body::Model { .. }));
                if i < self.picked.len() {
                    if single {
                        self.picked.iter_mut().for_each(|p| *p = false);
                        self.picked[i] = true;
                    } else {
                        self.picked[i] = !self.picked[i];
                    }
                    self.cursor = i;
                }
            }
            _ => {}
        }
    }

    fn move_step(&mut self, dir: i8) {
        if self.session.phase() != Phase::Asking || self.order.is_empty() {
            return;
        }
        let to = self.cursor as i64 + i64::from(dir);
        if to >= 0 && (to as usize) < self.order.len() {
            self.order.swap(self.cursor, to as usize);
            self.cursor = to as usize;
        }
    }

    fn submit(&mut self, learn: &mut Learning, now: Time) {
        self.typing = false;
        let Some(item) = self.current().cloned() else {
            return;
        };
        self.session.set_note(self.notes.clone());
        let graded = match (self.session.phase(), &item.body) {
            (Phase::Asking | Phase::FollowUpAsking, Body::Recall { .. }) => {
                let _ = self.session.reveal();
                self.cursor = 0;
                return;
            }
            (Phase::Ticking | Phase::FollowUpTicking, _) => {
                let _ = self.session.confirm_points();
                self.cursor = 0;
                return;
            }
            (Phase::Rating, _) => return,
            (Phase::Answered, _) => {
                self.session.next();
                self.enter();
                if self.session.is_finished() {
                    self.finish(learn, now);
                }
                return;
            }
            (Phase::Asking, Body::Choice { .. }) => {
                let picked: Vec<usize> =
                    (0..self.picked.len()).filter(|&i| self.picked[i]).collect();
                self.answered_with = picked.clone();
                self.session.answer_choice(&picked, now).ok().cloned()
            }
            (Phase::Asking, Body::Order { .. }) => {
                self.answered_with = self.order.clone();
                self.session.answer_order(&self.order, now).ok().cloned()
            }
            (Phase::Asking, Body::Model { input, .. }) => {
                let response = match input {
                    ModelInput::Number { .. } => self
                        .number
                        .replace(',', ".")
                        .parse::<f64>()
                        .ok()
                        .filter(|x| x.is_finite())
                        .map(ModelResponse::Number),
                    ModelInput::Options(_) => self
                        .picked
                        .iter()
                        .position(|p| *p)
                        .map(ModelResponse::Option),
                };
                if let Some(ModelResponse::Option(i)) = response {
                    self.answered_with = vec![i];
                }
                response.and_then(|r| self.session.answer_model(&r, now).ok().cloned())
            }
            _ => return,
        };
        if graded.is_none() {
            self.answered_with.clear();
        }
        self.answered(graded, learn, now);
    }

    /// Saves an answer the session accepted; an unaccepted one asks again.
    fn answered(&mut self, g: Option<Graded>, learn: &mut Learning, now: Time) {
        match g {
            Some(g) => {
                self.saved = Some(learn.record(&g, now));
                self.cursor = 0;
            }
            None => self.notice = Some(QuizNotice::Invalid),
        }
    }

    /// Ends a running session early, keeping and recording what was answered.
    pub fn stop(&mut self, learn: &mut Learning, now: Time) {
        if self.running() {
            self.session.stop();
            self.finish(learn, now);
        }
    }

    fn finish(&mut self, learn: &mut Learning, now: Time) {
        let s = self.session.summary(now);
        if s.answered > 0 {
            self.saved = Some(learn.record_session(&s, now));
        }
        self.summary = Some(s);
    }
}

/// Quiz keys, taken before the global ones. `None` lets the usual mapping run (`?`, `L`).
pub fn map_key(key: KeyEvent, s: &QuizState) -> Option<Msg> {
    let q = |m| Some(Msg::Quiz(m));
    let shift = key.modifiers.contains(KeyModifiers::SHIFT);
    if s.confirm {
        return match key.code {
            KeyCode::Char('y') | KeyCode::Enter => q(QuizMsg::Confirm(true)),
            KeyCode::Char('n') | KeyCode::Esc | KeyCode::Char('q') => q(QuizMsg::Confirm(false)),
            KeyCode::Char('?') | KeyCode::Char('L') => None,
            _ => q(QuizMsg::Confirm(false)),
        };
    }
    if s.text_entry() {
        match key.code {
            KeyCode::Esc if s.typing => return q(QuizMsg::Leave),
            KeyCode::Tab if s.typing => return q(QuizMsg::Notes),
            KeyCode::Enter => return q(QuizMsg::Submit),
            KeyCode::Backspace => return q(QuizMsg::Backspace),
            KeyCode::Char(c) if s.typing => return q(QuizMsg::Char(c)),
            KeyCode::Char(c) if c.is_ascii_digit() || matches!(c, '.' | ',' | '-') => {
                return q(QuizMsg::Char(c));
            }
            _ => {}
        }
    }
    let phase = s.session.phase();
    let options = s.picked.len();
    match key.code {
        KeyCode::Char('?') | KeyCode::Char('L') => None,
        KeyCode::Esc | KeyCode::Char('q') => q(QuizMsg::Leave),
        KeyCode::Enter => q(QuizMsg::Submit),
        KeyCode::Tab => q(QuizMsg::Notes),
        KeyCode::PageUp => q(QuizMsg::Scroll(-1)),
        KeyCode::PageDown => q(QuizMsg::Scroll(1)),
        KeyCode::Up if shift => q(QuizMsg::Move(-1)),
        KeyCode::Down if shift => q(QuizMsg::Move(1)),
        KeyCode::Char('K') => q(QuizMsg::Move(-1)),
        KeyCode::Char('J') => q(QuizMsg::Move(1)),
        KeyCode::Char(' ') if phase == Phase::Answered => q(QuizMsg::Submit),
        KeyCode::Char(' ') => q(QuizMsg::Toggle),
        KeyCode::Char(c @ '0'..='9') => q(QuizMsg::Digit(c as u8 - b'0')),
        KeyCode::Char(c)
            if c.is_ascii_lowercase()
                && ((c as u8 - b'a') as usize) < options
                && phase == Phase::Asking =>
        {
            q(QuizMsg::Letter(c as u8 - b'a'))
        }
        KeyCode::Up | KeyCode::Char('k') => q(QuizMsg::Up),
        KeyCode::Down | KeyCode::Char('j') => q(QuizMsg::Down),
        KeyCode::Char('r') => q(QuizMsg::Reveal),
        KeyCode::Char('o') => q(QuizMsg::OpenRun),
        KeyCode::Char('n') => q(QuizMsg::Notes),
        _ => None,
    }
}

/// Lines to draw, each with its style; long texts are wrapped first.
struct Lines {
    width: usize,
    rows: Vec<(String, Style)>,
}

impl Lines {
    fn new(width: u16) -> Self {
        Self {
            width: width.max(1) as usize,
            rows: Vec::new(),
        }
    }

    fn push(&mut self, text: &str, style: Style) {
        for l in text.split('\n') {
            let wrapped = crate::text::wrap(l, self.width);
            if wrapped.is_empty() {
                self.rows.push((String::new(), style));
            }
            for w in wrapped {
                self.rows.push((w, style));
            }
        }
    }

    /// Text after a fixed prefix, continuation rows indented under the text.
    fn item(&mut self, prefix: &str, text: &str, style: Style) {
        let indent = crate::text::width(prefix);
        let cols = self.width.saturating_sub(indent).max(1);
        for (k, w) in crate::text::wrap(text, cols).into_iter().enumerate() {
            let lead = if k == 0 {
                prefix.to_string()
            } else {
                " ".repeat(indent)
            };
            self.rows.push((format!("{lead}{w}"), style));
        }
    }

    fn blank(&mut self) {
        self.rows.push((String::new(), Style::new()));
    }

    fn len(&self) -> usize {
        self.rows.len()
    }

    /// Keeps at most `n` rows, the last kept one marked as cut.
    fn cap(&mut self, n: usize) {
        if self.rows.len() > n {
            self.rows.truncate(n.max(1));
            if let Some(last) = self.rows.last_mut() {
                last.0.push_str(" ...");
            }
        }
    }

    fn draw(&self, buf: &mut Buffer, area: Rect, y: &mut u16) {
        for (text, style) in &self.rows {
            if *y >= area.bottom() {
                return;
            }
            line(buf, Rect::new(area.x, *y, area.width, 1), text, *style);
            *y += 1;
        }
    }
}

fn verdict(g: &Graded, lang: Lang, theme: Theme) -> (String, Style) {
    let (word, style) = if g.score == g.max {
        (qtext::label(Label::Right, lang), theme.good())
    } else if g.score == 0 {
        (qtext::label(Label::Wrong, lang), theme.bad())
    } else {
        (qtext::label(Label::PartlyRight, lang), theme.title())
    };
    (
        format!(
            "{word}{}{} {}/{} ({})",
            lang.pick("。", ". "),
            qtext::label(Label::Score, lang),
            g.score,
            g.max,
            qtext::rating(g.rating, lang)
        ),
        style,
    )
}

fn points_list(
    out: &mut Lines,
    points: &[PointText],
    ticked: &[bool],
    cursor: Option<usize>,
    theme: Theme,
) {
    for (k, p) in points.iter().enumerate() {
        let mark = if ticked.get(k).copied().unwrap_or(false) {
            "[x]"
        } else {
            "[ ]"
        };
        let sel = cursor == Some(k);
        let prefix = format!(
            "{}{mark} {}. ({}) ",
            if sel { "> " } else { "  " },
            k + 1,
            p.value
        );
        let style = if sel { theme.focus() } else { Style::new() };
        out.item(&prefix, &p.text, style);
    }
}

/// The body under the prompt: what the learner works with in this phase.
fn body(s: &QuizState, item: &Item, lang: Lang, theme: Theme, width: u16) -> (Lines, Lines) {
    // (flexible text that may be cut, the rest that must stay whole)
    let mut text = Lines::new(width);
    let mut fixed = Lines::new(width);
    let phase = s.session.phase();
    let last = s.session.last();
    let label = |l| qtext::label(l, lang);
    if let Some(g) = last {
        let (v, style) = verdict(g, lang, theme);
        fixed.push(&v, style);
    }
    match &item.body {
        Body::Recall { points, follow_up } => match phase {
            Phase::Asking => {}
            Phase::Ticking => {
                text.push(
                    &format!("{}{}", label(Label::Answer), item.answer),
                    Style::new(),
                );
                fixed.push(label(Label::ScoringPoints), theme.title());
                points_list(
                    &mut fixed,
                    points,
                    s.session.ticked(),
                    Some(s.cursor),
                    theme,
                );
            }
            Phase::FollowUpAsking | Phase::FollowUpTicking | Phase::Rating => {
                if let Some(f) = follow_up {
                    text.push(&f.prompt, theme.title());
                    if phase != Phase::FollowUpAsking {
                        text.push(
                            &format!("{}{}", label(Label::Answer), f.answer),
                            Style::new(),
                        );
                        fixed.push(label(Label::ScoringPoints), theme.title());
                        let cur = (phase == Phase::FollowUpTicking).then_some(s.cursor);
                        points_list(&mut fixed, &f.points, s.session.follow_ticked(), cur, theme);
                    }
                }
                if phase == Phase::Rating {
                    let (score, max) = ticked_score(s, item);
                    fixed.push(
                        &ui(Ui::QuizTickedScore, lang)
                            .replacen("{}", &score.to_string(), 1)
                            .replacen("{}", &max.to_string(), 1),
                        Style::new(),
                    );
                    fixed.push(ui(Ui::QuizRate, lang), theme.title());
                }
            }
            Phase::Answered => {
                text.push(
                    &format!("{}{}", label(Label::Answer), item.answer),
                    Style::new(),
                );
                if let Some(g) = last {
                    let all: Vec<&PointText> = points
                        .iter()
                        .chain(follow_up.iter().flat_map(|f| f.points.iter()))
                        .collect();
                    for (k, p) in all.iter().enumerate() {
                        let got = !g.missed.contains(&k);
                        let (mark, style) = if got {
                            ("[x]", theme.good())
                        } else {
                            ("[ ]", theme.bad())
                        };
                        fixed.item(
                            &format!("  {mark} {}. ({}) ", k + 1, p.value),
                            &p.text,
                            style,
                        );
                    }
                }
            }
            Phase::Finished => {}
        },
        Body::Choice { options } => {
            for (k, o) in options.iter().enumerate() {
                let picked = if phase == Phase::Answered {
                    s.answered_with.contains(&k)
                } else {
                    s.picked.get(k).copied().unwrap_or(false)
                };
                let mark = if picked { "[x]" } else { "[ ]" };
                if phase == Phase::Answered {
                    let (sign, style) = if o.correct {
                        ("+", theme.good())
                    } else {
                        ("-", if picked { theme.bad() } else { theme.dim() })
                    };
                    fixed.item(&format!("{sign} {mark} {}) ", letter(k)), &o.text, style);
                    fixed.item("        ", &o.why, Style::new());
                } else {
                    let sel = k == s.cursor;
                    let style = if sel { theme.focus() } else { Style::new() };
                    let pre = format!("{}{mark} {}) ", if sel { "> " } else { "  " }, letter(k));
                    fixed.item(&pre, &o.text, style);
                }
            }
        }
        Body::Order { shown, correct } => {
            if phase == Phase::Answered {
                fixed.push(ui(Ui::QuizYourOrder, lang), theme.title());
                for (pos, &i) in s.answered_with.iter().enumerate() {
                    let right = correct.get(pos) == Some(&i);
                    let style = if right { theme.good() } else { theme.bad() };
                    let sign = if right { "+" } else { "-" };
                    fixed.item(&format!("{sign} {}. ", pos + 1), &shown[i], style);
                }
                fixed.push(label(Label::RightOrder), theme.title());
                for (pos, &i) in correct.iter().enumerate() {
                    fixed.item(&format!("  {}. ", pos + 1), &shown[i], Style::new());
                }
            } else {
                for (pos, &i) in s.order.iter().enumerate() {
                    let sel = pos == s.cursor;
                    let style = if sel { theme.focus() } else { Style::new() };
                    let pre = format!("{}{}. ", if sel { "> " } else { "  " }, pos + 1);
                    fixed.item(&pre, &shown[i], style);
                }
            }
        }
        Body::Model { answer, input, .. } => {
            match input {
                ModelInput::Number { .. } if phase == Phase::Asking => {
                    fixed.push(
                        &format!("{}{}_", ui(Ui::QuizYourAnswer, lang), s.number),
                        theme.focus(),
                    );
                }
                ModelInput::Number { .. } => {}
                ModelInput::Options(opts) => {
                    for (k, (name, value)) in opts.iter().enumerate() {
                        let picked = if phase == Phase::Answered {
                            s.answered_with.contains(&k)
                        } else {
                            s.picked.get(k).copied().unwrap_or(false)
                        };
                        let mark = if picked { "(*)" } else { "( )" };
                        let sel = phase == Phase::Asking && k == s.cursor;
                        let style = if sel {
                            theme.focus()
                        } else if phase == Phase::Answered && value == answer {
                            theme.good()
                        } else {
                            Style::new()
                        };
                        let pre =
                            format!("{}{mark} {}) ", if sel { "> " } else { "  " }, letter(k));
                        fixed.item(&pre, name, style);
                    }
                }
            }
            if phase == Phase::Answered {
                let shown = input.show(answer);
                if let ModelInput::Number { .. } = input {
                    fixed.push(
                        &format!("{}{}", ui(Ui::QuizYourAnswer, lang), s.number),
                        Style::new(),
                    );
                }
                fixed.push(
                    &format!("{}{shown}", label(Label::EngineComputes),),
                    theme.title(),
                );
                fixed.push(ui(Ui::QuizOpenRun, lang), theme.dim());
            }
        }
    }
    if phase == Phase::Answered && item.kind != Kind::Recall {
        text.push(
            &format!("{}{}", label(Label::Explanation), item.answer),
            Style::new(),
        );
    }
    (text, fixed)
}

/// The points ticked so far on a recall question, and the most it can earn.
fn ticked_score(s: &QuizState, item: &Item) -> (u32, u32) {
    let Body::Recall { points, follow_up } = &item.body else {
        return (0, 0);
    };
    let all = points
        .iter()
        .chain(follow_up.iter().flat_map(|f| f.points.iter()));
    let ticks = s.session.ticked().iter().chain(s.session.follow_ticked());
    let score = all
        .zip(ticks)
        .filter(|(_, t)| **t)
        .map(|(p, _)| p.value)
        .sum();
    (score, item.max_score())
}

fn hint(s: &QuizState, lang: Lang) -> &'static str {
    if s.confirm {
        return ui(Ui::QuizConfirmLeave, lang);
    }
    if s.summary.is_some() {
        return ui(Ui::QuizHintEnd, lang);
    }
    if s.typing {
        return ui(Ui::QuizHintNotes, lang);
    }
    let Some(item) = s.current() else {
        return ui(Ui::QuizHintEnd, lang);
    };
    match (s.session.phase(), &item.body) {
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
    }
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
    let title = match (&s.summary, s.current()) {
        (None, Some(item)) => format!(
            "{}  {} {}/{} · {} · {}",
            ui(Ui::QuizTitle, lang),
            qtext::label(Label::Question, lang),
            done + 1,
            total,
            qtext::kind(item.kind, lang),
            item.id
        ),
        _ => ui(Ui::QuizTitle, lang).to_string(),
    };
    line(buf, inner, &title, theme.title());
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
    let footer_rows = 2;
    let main = Rect::new(
        inner.x,
        inner.y + 2,
        inner.width,
        inner.height.saturating_sub(2 + footer_rows),
    );
    if let Some(sum) = &s.summary {
        render_summary(sum, s.skipped, lang, theme, main, buf);
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

fn render_question(
    s: &QuizState,
    item: &Item,
    lang: Lang,
    theme: Theme,
    area: Rect,
    buf: &mut Buffer,
) {
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
    let prompt_cap = prompt
        .len()
        .min(room.saturating_sub(fixed_rows + text.len().min(3)).max(3));
    prompt.cap(prompt_cap);
    let left = room.saturating_sub(prompt.len() + fixed_rows + 1);
    text.cap(left.max(1));
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

fn render_summary(
    sum: &Summary,
    skipped: usize,
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
    if skipped > 0 {
        out.push(
            &ui(Ui::QuizSkipped, lang).replace("{}", &skipped.to_string()),
            theme.dim(),
        );
    }
    if !sum.topics.is_empty() {
        out.blank();
        out.push(qtext::label(Label::ByTopic, lang), theme.title());
        for t in &sum.topics {
            out.push(
                &format!(
                    "  {:<28} {}/{} ({:.0}%)",
                    t.topic,
                    t.score,
                    t.max,
                    summary::percent(t.score, t.max)
                ),
                Style::new(),
            );
        }
    }
    if !sum.missed.is_empty() {
        out.blank();
        out.push(qtext::label(Label::PointsMissed, lang), theme.title());
        for m in &sum.missed {
            out.item(
                &format!("  {} #{} (x{}): ", m.question, m.point + 1, m.times),
                &m.text,
                Style::new(),
            );
        }
    }
    let mut y = area.y;
    out.draw(buf, area, &mut y);
}
