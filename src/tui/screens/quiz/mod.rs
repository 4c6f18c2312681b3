//! The closed-book quiz, the interview and the self-test: one question at a time, driven
//! through [`Session`], every answer saved through the progress store before the explanation
//! is shown, then the end-of-session summary.
//!
//! Recall: optional notes (kept beside the reference once revealed), an optional hint (`h`),
//! reveal, tick the scoring points covered, each follow-up round, self-rating. Choice: letters
//! toggle options. Order: move steps with Shift-Up/Down or `K`/`J`. Model: type a number or
//! pick an option; after answering, `o` opens the exact run in its simulation. An interview
//! shows its clock and, with a time limit, ends after the question in progress once it is up.
//!
//! [`start`] chooses the questions, [`keys`] maps keys, [`update`] applies them, and
//! [`view`] ([`body`], [`end`]) draws the question and the summary.

pub mod body;
pub mod end;
pub mod keys;
pub mod start;
pub mod update;
pub mod view;

use crate::content::lesson::Lesson;
use crate::engine::params::Params;
use crate::i18n::Lang;
use crate::quiz::item::{Body, ModelInput, PreparedQuestion};
use crate::quiz::report::{QuestionReport, TopicReport};
use crate::quiz::sched::Time;
use crate::quiz::session::{Phase, Session, SessionKind};
use crate::quiz::summary::Summary;
use crate::tui::app::ScreenId;
use crate::tui::learn::Saved;

pub use keys::{KEYS, map_modal};
pub use start::{EXAM_SIZE, QuizRequest, begin};
pub use view::render;

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
    /// What was given for each choice, order and model question answered, by id.
    pub given: std::collections::BTreeMap<String, crate::quiz::report::Given>,
    /// Rows scrolled past on an answered question (drawing clamps it to what there is).
    pub scroll: usize,
    /// The clock as of the last message, for the interview's timer.
    pub now: Time,
    /// An interview's time limit in seconds.
    pub limit: Option<Time>,
    pub time_up: bool,
    /// The lessons in both languages, for the study links of the result screen.
    pub lessons: Vec<Lesson>,
    /// The session's questions prepared in the other language, in the same order and with the
    /// same variants, so that the result screen can be told again after `L`.
    pub translated: Vec<PreparedQuestion>,
    /// The interview report, once the session is over.
    pub report: Vec<TopicReport>,
    /// Each answered question, once the session is over.
    pub questions: Vec<QuestionReport>,
    /// The study link under the cursor in the report (an index into [`QuizState::links`]).
    pub link: usize,
    /// The report's view follows the link cursor (after Up/Down) rather than `scroll`.
    pub follow_link: bool,
}

impl QuizState {
    pub fn new(
        items: Vec<PreparedQuestion>,
        seed: u64,
        lang: Lang,
        from: ScreenId,
        now: Time,
    ) -> Self {
        Self::of_kind(items, SessionKind::Quiz, seed, lang, from, now)
    }

    pub fn of_kind(
        items: Vec<PreparedQuestion>,
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
            given: Default::default(),
            scroll: 0,
            now,
            limit: None,
            time_up: false,
            lessons: Vec::new(),
            translated: Vec::new(),
            report: Vec::new(),
            questions: Vec::new(),
            link: 0,
            follow_link: false,
        };
        s.enter();
        s
    }

    /// Every study link of the result screen, in the order shown: the interview's by topic
    /// first, then every session's by question.
    pub fn links(&self) -> Vec<&crate::quiz::report::StudyLink> {
        let by_topic = self.report.iter().flat_map(|t| t.links.iter());
        by_topic
            .chain(self.questions.iter().flat_map(|q| q.links.iter()))
            .collect()
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

    pub fn current(&self) -> Option<&PreparedQuestion> {
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
}
