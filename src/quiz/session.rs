//! A closed-book quiz session as a state machine, free of terminals and clocks.
//!
//! Every question starts in [`Phase::Asking`]. A recall question is revealed, its scoring points
//! ticked, its follow-up (if any) revealed and ticked, then self-rated; the score is the sum of
//! the ticked points. Choice, order and model questions are answered once and scored
//! automatically. Either way the question ends in [`Phase::Answered`] with a [`Graded`] result
//! (the caller saves it, then shows the explanation) until [`Session::next`].

use super::item::{Body, Item};
use super::sched::{Rating, SelfRating, Time};
use super::score::{self, Invalid, ModelResponse};
use super::summary::{self, Summary};
use crate::content::deck::Kind;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// The prompt is shown; recall waits to be revealed, the other kinds wait for an answer.
    Asking,
    /// Recall: the reference answer is shown and its points are being ticked.
    Ticking,
    /// Recall: the follow-up prompt is shown.
    FollowUpAsking,
    /// Recall: the follow-up answer is shown and its points are being ticked.
    FollowUpTicking,
    /// Recall: waiting for forgot / partial / solid.
    Rating,
    /// Scored; the explanation can be shown.
    Answered,
    /// No question left, or the learner stopped.
    Finished,
}

/// The result of one answered question: what the progress file stores.
#[derive(Debug, Clone, PartialEq)]
pub struct Graded {
    pub id: String,
    pub deck: String,
    pub kind: Kind,
    pub topics: Vec<String>,
    pub score: u32,
    pub max: u32,
    pub rating: Rating,
    pub self_rating: Option<SelfRating>,
    /// Recall: 0-based numbers of the points not ticked (follow-up points continue the count).
    pub missed: Vec<usize>,
    pub at: Time,
    pub note: String,
}

/// A wrong move for the current phase, or a response that does not fit the question.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SessionError {
    WrongPhase(Phase),
    Invalid(Invalid),
}

impl From<Invalid> for SessionError {
    fn from(e: Invalid) -> Self {
        SessionError::Invalid(e)
    }
}

#[derive(Debug, Clone)]
pub struct Session {
    items: Vec<Item>,
    index: usize,
    phase: Phase,
    ticked: Vec<bool>,
    follow_ticked: Vec<bool>,
    note: String,
    results: Vec<Graded>,
    started: Time,
}

impl Session {
    pub fn new(items: Vec<Item>, started: Time) -> Self {
        let mut s = Self {
            items,
            index: 0,
            phase: Phase::Asking,
            ticked: Vec::new(),
            follow_ticked: Vec::new(),
            note: String::new(),
            results: Vec::new(),
            started,
        };
        s.enter();
        s
    }

    fn enter(&mut self) {
        self.note.clear();
        match self.items.get(self.index) {
            None => self.phase = Phase::Finished,
            Some(item) => {
                self.phase = Phase::Asking;
                let (main, follow) = match &item.body {
                    Body::Recall { points, follow_up } => (
                        points.len(),
                        follow_up.as_ref().map_or(0, |f| f.points.len()),
                    ),
                    _ => (0, 0),
                };
                self.ticked = vec![false; main];
                self.follow_ticked = vec![false; follow];
            }
        }
    }

    pub fn phase(&self) -> Phase {
        self.phase
    }

    pub fn current(&self) -> Option<&Item> {
        if self.phase == Phase::Finished {
            None
        } else {
            self.items.get(self.index)
        }
    }

    /// 0-based position of the current question, and the number of questions.
    pub fn position(&self) -> (usize, usize) {
        (self.index, self.items.len())
    }

    pub fn items(&self) -> &[Item] {
        &self.items
    }

    pub fn results(&self) -> &[Graded] {
        &self.results
    }

    /// The result of the question just answered.
    pub fn last(&self) -> Option<&Graded> {
        (self.phase == Phase::Answered)
            .then(|| self.results.last())
            .flatten()
    }

    pub fn note(&self) -> &str {
        &self.note
    }

    /// The learner's own notes on the current question, kept with its answer.
    pub fn set_note(&mut self, note: impl Into<String>) {
        self.note = note.into();
    }

    pub fn ticked(&self) -> &[bool] {
        &self.ticked
    }

    pub fn follow_ticked(&self) -> &[bool] {
        &self.follow_ticked
    }

    fn expect(&self, phases: &[Phase]) -> Result<&Item, SessionError> {
        match self.items.get(self.index) {
            Some(item) if phases.contains(&self.phase) => Ok(item),
            _ => Err(SessionError::WrongPhase(self.phase)),
        }
    }

    /// Recall: shows the reference answer (or the follow-up's) so points can be ticked.
    pub fn reveal(&mut self) -> Result<(), SessionError> {
        let item = self.expect(&[Phase::Asking, Phase::FollowUpAsking])?;
        if item.kind != Kind::Recall {
            return Err(SessionError::Invalid(Invalid::WrongKind));
        }
        self.phase = match self.phase {
            Phase::Asking => Phase::Ticking,
            _ => Phase::FollowUpTicking,
        };
        Ok(())
    }

    /// Ticks or unticks scoring point `i` (0-based) of the answer being ticked.
    pub fn toggle_point(&mut self, i: usize) -> Result<(), SessionError> {
        self.expect(&[Phase::Ticking, Phase::FollowUpTicking])?;
        let list = if self.phase == Phase::Ticking {
            &mut self.ticked
        } else {
            &mut self.follow_ticked
        };
        let slot = list
            .get_mut(i)
            .ok_or(SessionError::Invalid(Invalid::OutOfRange))?;
        *slot = !*slot;
        Ok(())
    }

    /// Sets exactly which points (0-based) of the answer being ticked are covered.
    pub fn set_points(&mut self, covered: &[usize]) -> Result<(), SessionError> {
        self.expect(&[Phase::Ticking, Phase::FollowUpTicking])?;
        let list = if self.phase == Phase::Ticking {
            &mut self.ticked
        } else {
            &mut self.follow_ticked
        };
        if covered.iter().any(|&i| i >= list.len()) {
            return Err(SessionError::Invalid(Invalid::OutOfRange));
        }
        list.iter_mut().for_each(|t| *t = false);
        for &i in covered {
            list[i] = true;
        }
        Ok(())
    }

    /// Recall: done ticking; on to the follow-up if there is one, else to the self-rating.
    pub fn confirm_points(&mut self) -> Result<(), SessionError> {
        let item = self.expect(&[Phase::Ticking, Phase::FollowUpTicking])?;
        let has_follow_up = matches!(
            &item.body,
            Body::Recall {
                follow_up: Some(_),
                ..
            }
        );
        self.phase = if self.phase == Phase::Ticking && has_follow_up {
            Phase::FollowUpAsking
        } else {
            Phase::Rating
        };
        Ok(())
    }

    /// Recall: rates the answer and scores it as the sum of the ticked points.
    pub fn rate(&mut self, rating: SelfRating, now: Time) -> Result<&Graded, SessionError> {
        let item = self.expect(&[Phase::Rating])?;
        let Body::Recall { points, follow_up } = &item.body else {
            return Err(SessionError::Invalid(Invalid::WrongKind));
        };
        let all = points
            .iter()
            .chain(follow_up.iter().flat_map(|f| f.points.iter()));
        let ticks = self.ticked.iter().chain(self.follow_ticked.iter());
        let mut score = 0;
        let mut missed = Vec::new();
        for (i, (p, t)) in all.zip(ticks).enumerate() {
            if *t {
                score += p.value;
            } else {
                missed.push(i);
            }
        }
        let graded = self.graded(score, rating.rating(), Some(rating), missed, now);
        Ok(self.record(graded))
    }

    /// Choice: answers with the picked options (0-based).
    pub fn answer_choice(&mut self, picked: &[usize], now: Time) -> Result<&Graded, SessionError> {
        let item = self.expect(&[Phase::Asking])?;
        let s = score::choice(item, picked)?;
        self.auto(s, now)
    }

    /// Order: answers with the shown step numbers (0-based) in the learner's order.
    pub fn answer_order(&mut self, sequence: &[usize], now: Time) -> Result<&Graded, SessionError> {
        let item = self.expect(&[Phase::Asking])?;
        let s = score::order(item, sequence)?;
        self.auto(s, now)
    }

    /// Model: answers with a number or an option.
    pub fn answer_model(
        &mut self,
        response: &ModelResponse,
        now: Time,
    ) -> Result<&Graded, SessionError> {
        let item = self.expect(&[Phase::Asking])?;
        let s = score::model(item, response)?;
        self.auto(s, now)
    }

    fn auto(&mut self, score: u32, now: Time) -> Result<&Graded, SessionError> {
        let max = self.items[self.index].max_score();
        let graded = self.graded(score, Rating::from_score(score, max), None, Vec::new(), now);
        Ok(self.record(graded))
    }

    fn graded(
        &self,
        score: u32,
        rating: Rating,
        self_rating: Option<SelfRating>,
        missed: Vec<usize>,
        at: Time,
    ) -> Graded {
        let item = &self.items[self.index];
        Graded {
            id: item.id.clone(),
            deck: item.deck.clone(),
            kind: item.kind,
            topics: item.topics.clone(),
            score,
            max: item.max_score(),
            rating,
            self_rating,
            missed,
            at,
            note: self.note.clone(),
        }
    }

    fn record(&mut self, g: Graded) -> &Graded {
        self.results.push(g);
        self.phase = Phase::Answered;
        &self.results[self.results.len() - 1]
    }

    /// Moves past an answered question (or skips one not answered).
    pub fn next(&mut self) {
        if self.phase != Phase::Finished {
            self.index += 1;
            self.enter();
        }
    }

    /// Stops early; what was answered stays answered.
    pub fn stop(&mut self) {
        self.phase = Phase::Finished;
    }

    pub fn is_finished(&self) -> bool {
        self.phase == Phase::Finished
    }

    /// The end-of-session summary as of `now`.
    pub fn summary(&self, now: Time) -> Summary {
        summary::summarize(&self.items, &self.results, self.started, now)
    }
}
