//! The closed-book quiz, the interview and the self-test: one question at a time, driven
//! through [`Session`], every answer saved through the progress store before the explanation
//! is shown, then the end-of-session summary (drawn by [`super::quiz_view`] and
//! [`super::quiz_end`]).
//!
//! Recall: optional notes (kept beside the reference once revealed), an optional hint (`h`),
//! reveal, tick the scoring points covered, each follow-up round, self-rating. Choice: letters
//! toggle options. Order: move steps with Shift-Up/Down or `K`/`J`. Model: type a number or
//! pick an option; after answering, `o` opens the exact run in its simulation. An interview
//! shows its clock and, with a time limit, ends after the question in progress once it is up.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use crate::content::deck::Kind;
use crate::content::lesson::Lesson;
use crate::engine::params::Params;
use crate::i18n::Lang;
use crate::quiz::item::{Body, Item, ModelInput};
use crate::quiz::report::{self, TopicReport};
use crate::quiz::sched::{SelfRating, Time};
use crate::quiz::score::ModelResponse;
use crate::quiz::session::{Graded, Phase, Session, SessionKind};
use crate::quiz::summary::Summary;
use crate::tui::app::{Msg, ScreenId};
use crate::tui::learn::{Learning, Saved};

pub use super::quiz_view::render;

/// How many questions "Mixed exam" asks.
pub const EXAM_SIZE: usize = 10;

/// What to ask: the quiz command's filters, or an interview, or the self-test.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct QuizRequest {
    pub deck: Option<String>,
    pub topic: Option<String>,
    pub kind: Option<Kind>,
    pub difficulty: Option<u8>,
    pub due: bool,
    pub count: Option<usize>,
    /// Fixes the order and the drawn model variants; the clock otherwise.
    pub seed: Option<u64>,
    pub mode: SessionKind,
    /// An interview's time limit.
    pub minutes: Option<u32>,
}

impl QuizRequest {
    pub fn interview(
        deck: Option<String>,
        count: Option<usize>,
        minutes: Option<u32>,
        seed: Option<u64>,
    ) -> Self {
        Self {
            deck,
            count,
            minutes,
            seed,
            mode: SessionKind::Interview,
            ..Self::default()
        }
    }

    pub fn self_test() -> Self {
        Self {
            mode: SessionKind::SelfTest,
            ..Self::default()
        }
    }
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
    /// `h`: take the question's hint.
    Hint,
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
    /// An interview's time ran out: the question in progress is the last.
    TimeUp,
}

/// What the app must do after a quiz key.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// Leave the quiz screen (the session is over and recorded).
    Done,
    /// Open this run on its simulation screen; Back comes back here.
    OpenRun(Params),
    /// After an interview: open this study link (`lesson:NN-topic#N` or `sim:PRESET`); Back
    /// comes back to the report.
    Study(String),
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
    /// The clock as of the last message, for the interview's timer.
    pub now: Time,
    /// An interview's time limit in seconds.
    pub limit: Option<Time>,
    pub time_up: bool,
    /// The lessons in the session's language, for the interview report.
    pub lessons: Vec<Lesson>,
    /// The interview report, once the session is over.
    pub report: Vec<TopicReport>,
    /// The study link under the cursor in the report (an index into [`QuizState::links`]).
    pub link: usize,
    /// The report's view follows the link cursor (after Up/Down) rather than `scroll`.
    pub follow_link: bool,
}

impl QuizState {
    pub fn new(items: Vec<Item>, seed: u64, lang: Lang, from: ScreenId, now: Time) -> Self {
        Self::of_kind(items, SessionKind::Quiz, seed, lang, from, now)
    }

    pub fn of_kind(
        items: Vec<Item>,
        kind: SessionKind,
        seed: u64,
        lang: Lang,
        from: ScreenId,
        now: Time,
    ) -> Self {
        let mut s = Self {
            session: Session::of_kind(items, kind, now),
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
            now,
            limit: None,
            time_up: false,
            lessons: Vec::new(),
            report: Vec::new(),
            link: 0,
            follow_link: false,
        };
        s.enter();
        s
    }

    /// Every study link of the report, in the order shown.
    pub fn links(&self) -> Vec<&crate::quiz::report::StudyLink> {
        self.report.iter().flat_map(|t| t.links.iter()).collect()
    }

    /// Seconds since the session started, as of the last message.
    pub fn elapsed(&self) -> Time {
        (self.now - self.session.started()).max(0)
    }

    /// Whether the clock is shown (an interview) and so the screen wants redrawing as it runs.
    pub fn timed(&self) -> bool {
        self.session.kind() == SessionKind::Interview && self.running()
    }

    /// Notices the end of an interview's time: the rounds not yet asked are dropped and the
    /// question in progress becomes the last.
    fn watch_clock(&mut self, now: Time) {
        self.now = now;
        if let Some(limit) = self.limit
            && self.running()
            && !self.time_up
            && self.elapsed() >= limit
        {
            self.time_up = true;
            self.session.cut_rounds();
            self.notice = Some(QuizNotice::TimeUp);
        }
    }

    /// The clock moved on without a key (the loop's idle wake-up).
    pub fn tick(&mut self, now: Time) {
        let before = self.notice;
        self.watch_clock(now);
        if self.notice.is_none() {
            self.notice = before;
        }
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
            (Body::Recall { follow_ups, .. }, Phase::FollowUpTicking) => follow_ups
                .get(self.session.round())
                .map_or(0, |f| f.points.len()),
            (Body::Choice { .. } | Body::Model { .. }, Phase::Asking) => self.picked.len(),
            (Body::Order { .. }, Phase::Asking) => self.order.len(),
            _ => 0,
        }
    }

    /// Applies one key. `now` stamps answers; every answer is saved through `learn` at once.
    pub fn update(&mut self, msg: QuizMsg, learn: &mut Learning, now: Time) -> Option<Outcome> {
        self.notice = None;
        self.watch_clock(now);
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
                QuizMsg::Scroll(d) => {
                    self.scroll_by(d);
                    self.follow_link = false;
                    None
                }
                QuizMsg::Up => {
                    self.link = self.link.saturating_sub(1);
                    self.follow_link = true;
                    None
                }
                QuizMsg::Down => {
                    self.link = (self.link + 1).min(self.links().len().saturating_sub(1));
                    self.follow_link = true;
                    None
                }
                QuizMsg::OpenRun => self
                    .links()
                    .get(self.link)
                    .map(|l| Outcome::Study(l.target())),
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
            QuizMsg::Scroll(d) if phase != Phase::Asking => self.scroll_by(d),
            QuizMsg::Scroll(_) => {}
            QuizMsg::Reveal if kind == Some(Kind::Recall) => self.submit(learn, now),
            QuizMsg::Reveal => {}
            QuizMsg::Hint => {
                // A hint that does not exist, or comes too late, changes nothing.
                let _ = self.session.take_hint();
            }
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

    fn scroll_by(&mut self, d: i8) {
        // An answered question or the summary scrolls the whole screen; while ticking only the
        // few rows of the reference answer scroll. Far past the end is clamped when drawing.
        let whole = self.summary.is_some() || self.session.phase() == Phase::Answered;
        let step = if whole { 10 } else { 3 };
        self.scroll = if d < 0 {
            self.scroll.saturating_sub(step)
        } else {
            (self.scroll + step).min(1000)
        };
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
                self.scroll = 0;
                return;
            }
            (Phase::Ticking | Phase::FollowUpTicking, _) => {
                let _ = self.session.confirm_points();
                self.cursor = 0;
                self.scroll = 0;
                return;
            }
            (Phase::Rating, _) => return,
            (Phase::Answered, _) => {
                if self.time_up {
                    self.session.stop();
                } else {
                    self.session.next();
                }
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
                self.scroll = 0;
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
        if self.session.kind() == SessionKind::Interview {
            self.report = report::by_topic(
                self.session.items(),
                self.session.results(),
                &self.lessons,
                self.lang,
            );
        }
        self.scroll = 0;
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
        // Only recall and model questions carry hints, and neither has an option `h`.
        KeyCode::Char('h')
            if phase == Phase::Asking && s.current().is_some_and(|i| i.hint.is_some()) =>
        {
            q(QuizMsg::Hint)
        }
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
