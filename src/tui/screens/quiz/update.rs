//! How a quiz key changes the session: notes and typed numbers, ticking points, picking
//! options, moving steps, submitting, rating, and ending the session. Every accepted answer is
//! saved through the progress store before its explanation is shown.

use super::{Outcome, QuizMsg, QuizNotice, QuizState};
use crate::content::deck::Kind;
use crate::i18n::Lang;
use crate::quiz::item::{Body, ModelInput};
use crate::quiz::report;
use crate::quiz::sched::{SelfRating, Time};
use crate::quiz::score::ModelResponse;
use crate::quiz::session::{Graded, Phase, SessionKind};
use crate::tui::learn::Learning;

impl QuizState {
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
                // Enter opens the chosen study link; with none, it leaves like q.
                QuizMsg::Submit if !self.links().is_empty() => self
                    .links()
                    .get(self.link)
                    .map(|l| Outcome::Study(l.target())),
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
        } else {
            let given = match &item.body {
                Body::Order { .. } => Some(report::Given::Order(self.answered_with.clone())),
                Body::Model {
                    input: ModelInput::Number { .. },
                    ..
                } => Some(report::Given::Number(self.number.clone())),
                Body::Choice { .. } | Body::Model { .. } => {
                    Some(report::Given::Picked(self.answered_with.clone()))
                }
                Body::Recall { .. } => None,
            };
            if let Some(g) = given {
                self.given.insert(item.id.clone(), g);
            }
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
        self.tell(self.lang);
        self.scroll = 0;
        self.summary = Some(s);
    }

    /// The result screen's reports, in `lang`: from the questions as asked, or from the same
    /// questions prepared in the other language.
    fn tell(&mut self, lang: Lang) {
        let items = if lang == self.lang || self.translated.len() != self.session.items().len() {
            self.session.items()
        } else {
            &self.translated
        };
        if self.session.kind() == SessionKind::Interview {
            self.report = report::by_topic(items, self.session.results(), &self.lessons, lang);
        }
        self.questions = report::by_question(
            items,
            self.session.results(),
            &self.given,
            &self.lessons,
            lang,
        );
    }

    /// After `L`: a finished session's result screen is told again in `lang`.
    pub fn relang(&mut self, lang: Lang) {
        if self.summary.is_some() {
            self.tell(lang);
        }
    }
}
