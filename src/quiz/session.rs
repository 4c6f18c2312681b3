//! A closed-book quiz session as a state machine, free of terminals and clocks.
//!
//! Every question starts in [`Phase::Asking`]. A recall question is revealed and its scoring
//! points ticked, then each follow-up round asked is revealed and ticked in turn (a quiz asks
//! the first round); an interview, and the self-test's closing question, ask and take the answer
//! of every round first and only then show each reference to tick, in order. Then the answer is self-rated; the
//! score is the sum of the ticked points. Choice, order and model questions are answered once
//! and scored automatically. Either way the question ends in [`Phase::Answered`] with a
//! [`Graded`] result (the caller saves it, then shows the explanation) until [`Session::next`].
//!
//! A recall or model question may carry a hint: taking it (before answering) is recorded, caps
//! the opening question's points at half and the review grade at Hard.

use serde::{Deserialize, Serialize};

use super::item::{Body, PreparedQuestion, hint_cap};
use super::sched::{Rating, SelfRating, Time};
use super::score::{self, Invalid, ModelResponse};
use super::summary::{self, Summary};
use crate::content::deck::Kind;

/// How many questions an interview asks unless told otherwise.
pub const INTERVIEW_SIZE: usize = 3;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// The prompt is shown; recall waits to be revealed, the other kinds wait for an answer.
    Asking,
    /// Recall: the reference answer is shown and its points are being ticked.
    Ticking,
    /// Recall: a follow-up prompt is shown ([`Session::round`] says which).
    FollowUpAsking,
    /// Recall: a follow-up's answer is shown and its points are being ticked.
    FollowUpTicking,
    /// Recall: waiting for forgot / partial / solid.
    Rating,
    /// Scored; the explanation can be shown.
    Answered,
    /// No question left, or the learner stopped.
    Finished,
}

/// What kind of session this is, kept with its record in the progress file.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SessionKind {
    #[default]
    Quiz,
    Interview,
    SelfTest,
}

/// The points earned in one round of a recall question (the opening question is round 0).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RoundScore {
    pub score: u32,
    pub max: u32,
}

/// The result of one answered question: what the progress file stores.
#[derive(Debug, Clone, PartialEq)]
pub struct Graded {
    pub id: String,
    pub deck: String,
    pub kind: Kind,
    pub topics: Vec<String>,
    pub score: u32,
    /// The points the answer earned before a hint capped them (equal to `score` without one).
    pub earned: u32,
    pub max: u32,
    pub rating: Rating,
    pub self_rating: Option<SelfRating>,
    /// Recall: 0-based numbers of the points not ticked (follow-up points continue the count).
    pub missed: Vec<usize>,
    pub at: Time,
    pub note: String,
    /// The hint was taken before answering.
    pub hint: bool,
    /// Recall: each round asked, the opening question first; empty for the other kinds.
    pub rounds: Vec<RoundScore>,
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
    items: Vec<PreparedQuestion>,
    kind: SessionKind,
    index: usize,
    phase: Phase,
    /// The follow-up round being asked or ticked (0-based), in the follow-up phases.
    round: usize,
    /// Ticks per round, the opening question first.
    ticked: Vec<Vec<bool>>,
    hint: bool,
    note: String,
    results: Vec<Graded>,
    started: Time,
}

impl Session {
    pub fn new(items: Vec<PreparedQuestion>, started: Time) -> Self {
        Self::of_kind(items, SessionKind::Quiz, started)
    }

    pub fn of_kind(items: Vec<PreparedQuestion>, kind: SessionKind, started: Time) -> Self {
        let mut s = Self {
            items,
            kind,
            index: 0,
            phase: Phase::Asking,
            round: 0,
            ticked: Vec::new(),
            hint: false,
            note: String::new(),
            results: Vec::new(),
            started,
        };
        s.enter();
        s
    }

    fn enter(&mut self) {
        self.note.clear();
        self.hint = false;
        self.round = 0;
        match self.items.get(self.index) {
            None => self.phase = Phase::Finished,
            Some(item) => {
                self.phase = Phase::Asking;
                self.ticked = match &item.body {
                    Body::Recall { points, follow_ups } => std::iter::once(points.len())
                        .chain(follow_ups.iter().map(|f| f.points.len()))
                        .map(|n| vec![false; n])
                        .collect(),
                    _ => Vec::new(),
                };
            }
        }
    }

    pub fn kind(&self) -> SessionKind {
        self.kind
    }

    pub fn started(&self) -> Time {
        self.started
    }

    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The follow-up round asked or ticked (0-based) in the follow-up phases.
    pub fn round(&self) -> usize {
        self.round
    }

    pub fn current(&self) -> Option<&PreparedQuestion> {
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

    pub fn items(&self) -> &[PreparedQuestion] {
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

    /// The opening question's ticks.
    pub fn ticked(&self) -> &[bool] {
        self.ticked.first().map_or(&[], Vec::as_slice)
    }

    /// The ticks of follow-up round `round` (0-based).
    pub fn round_ticked(&self, round: usize) -> &[bool] {
        self.ticked.get(round + 1).map_or(&[], Vec::as_slice)
    }

    /// Whether the hint of the current question was taken.
    pub fn hint_taken(&self) -> bool {
        self.hint
    }

    fn expect(&self, phases: &[Phase]) -> Result<&PreparedQuestion, SessionError> {
        match self.items.get(self.index) {
            Some(item) if phases.contains(&self.phase) => Ok(item),
            _ => Err(SessionError::WrongPhase(self.phase)),
        }
    }

    /// Takes the current question's hint (before answering) and returns it. Taking it twice
    /// is the same as once.
    pub fn take_hint(&mut self) -> Result<String, SessionError> {
        let item = self.expect(&[Phase::Asking])?;
        let hint = item
            .hint
            .clone()
            .ok_or(SessionError::Invalid(Invalid::WrongKind))?;
        self.hint = true;
        Ok(hint)
    }

    /// Whether every round is asked and answered before any reference is shown, as an
    /// interviewer does: in an interview, and in the self-test's closing rounds, where a
    /// revealed answer would give the next round away.
    pub fn defers_rounds(&self) -> bool {
        matches!(self.kind, SessionKind::Interview | SessionKind::SelfTest)
    }

    /// Recall: the learner has answered the prompt shown. Shows the reference answer (or the
    /// follow-up's) so points can be ticked; in an interview, asks the next round first, and
    /// shows the opening reference only once the last round is answered.
    pub fn reveal(&mut self) -> Result<(), SessionError> {
        let item = self.expect(&[Phase::Asking, Phase::FollowUpAsking])?;
        if item.kind != Kind::Recall {
            return Err(SessionError::Invalid(Invalid::WrongKind));
        }
        let rounds = self.rounds_asked();
        self.phase = match self.phase {
            Phase::Asking if self.defers_rounds() && rounds > 0 => {
                self.round = 0;
                Phase::FollowUpAsking
            }
            Phase::Asking => Phase::Ticking,
            _ if self.defers_rounds() && self.round + 1 < rounds => {
                self.round += 1;
                Phase::FollowUpAsking
            }
            _ if self.defers_rounds() => Phase::Ticking,
            _ => Phase::FollowUpTicking,
        };
        Ok(())
    }

    /// The ticks of the answer being ticked.
    fn ticking(&mut self) -> Result<&mut Vec<bool>, SessionError> {
        self.expect(&[Phase::Ticking, Phase::FollowUpTicking])?;
        let slot = if self.phase == Phase::Ticking {
            0
        } else {
            self.round + 1
        };
        self.ticked
            .get_mut(slot)
            .ok_or(SessionError::Invalid(Invalid::OutOfRange))
    }

    /// Ticks or unticks scoring point `i` (0-based) of the answer being ticked.
    pub fn toggle_point(&mut self, i: usize) -> Result<(), SessionError> {
        let slot = self
            .ticking()?
            .get_mut(i)
            .ok_or(SessionError::Invalid(Invalid::OutOfRange))?;
        *slot = !*slot;
        Ok(())
    }

    /// Sets exactly which points (0-based) of the answer being ticked are covered.
    pub fn set_points(&mut self, covered: &[usize]) -> Result<(), SessionError> {
        let list = self.ticking()?;
        if covered.iter().any(|&i| i >= list.len()) {
            return Err(SessionError::Invalid(Invalid::OutOfRange));
        }
        list.iter_mut().for_each(|t| *t = false);
        for &i in covered {
            list[i] = true;
        }
        Ok(())
    }

    fn rounds_asked(&self) -> usize {
        match self.items.get(self.index).map(|i| &i.body) {
            Some(Body::Recall { follow_ups, .. }) => follow_ups.len(),
            _ => 0,
        }
    }

    /// Recall: done ticking; on to the next follow-up round if there is one, else to the
    /// self-rating.
    pub fn confirm_points(&mut self) -> Result<(), SessionError> {
        self.expect(&[Phase::Ticking, Phase::FollowUpTicking])?;
        let next = match self.phase {
            Phase::Ticking => 0,
            _ => self.round + 1,
        };
        if next < self.rounds_asked() {
            self.round = next;
            // In an interview every round has been answered already: on to its reference.
            self.phase = if self.defers_rounds() {
                Phase::FollowUpTicking
            } else {
                Phase::FollowUpAsking
            };
        } else {
            self.phase = Phase::Rating;
        }
        Ok(())
    }

    /// Recall: the time is up. The rounds not yet shown are dropped from this question (they
    /// were never asked, so they neither score nor count as missed); an answer being ticked
    /// keeps its ticks and may still be confirmed; a round not yet revealed goes straight to
    /// the self-rating.
    ///
    /// In an interview the references come after every answer, so a cut while a round is being
    /// asked keeps the rounds already answered and goes on to the opening reference; once the
    /// references are shown every round kept has been answered, and nothing is cut.
    pub fn cut_rounds(&mut self) {
        let deferred = self.defers_rounds();
        let keep = match self.phase {
            Phase::Ticking | Phase::FollowUpTicking if deferred => return,
            Phase::Asking | Phase::Ticking => 0,
            Phase::FollowUpAsking => self.round,
            Phase::FollowUpTicking => self.round + 1,
            _ => return,
        };
        if let Some(Body::Recall { follow_ups, .. }) =
            self.items.get_mut(self.index).map(|i| &mut i.body)
        {
            follow_ups.truncate(keep);
        }
        self.ticked.truncate(keep + 1);
        if self.phase == Phase::FollowUpAsking {
            self.phase = if deferred {
                Phase::Ticking
            } else {
                Phase::Rating
            };
        }
    }

    /// Recall: rates the answer and scores it as the sum of the ticked points.
    pub fn rate(&mut self, rating: SelfRating, now: Time) -> Result<&Graded, SessionError> {
        let item = self.expect(&[Phase::Rating])?;
        let Body::Recall { points, follow_ups } = &item.body else {
            return Err(SessionError::Invalid(Invalid::WrongKind));
        };
        let lists = std::iter::once(points).chain(follow_ups.iter().map(|f| &f.points));
        let mut rounds = Vec::new();
        let mut missed = Vec::new();
        let mut n = 0;
        let mut earned_opening = 0;
        for (r, (list, ticks)) in lists.zip(&self.ticked).enumerate() {
            let mut score = 0;
            for (p, t) in list.iter().zip(ticks) {
                if *t {
                    score += p.value;
                } else {
                    missed.push(n);
                }
                n += 1;
            }
            let max = list.iter().map(|p| p.value).sum();
            if r == 0 {
                earned_opening = score;
                if self.hint {
                    score = score.min(hint_cap(max));
                }
            }
            rounds.push(RoundScore { score, max });
        }
        let score = rounds.iter().map(|r| r.score).sum();
        let earned = earned_opening + rounds.iter().skip(1).map(|r| r.score).sum::<u32>();
        let graded = Graded {
            rounds,
            earned,
            ..self.graded(
                score,
                self.capped(rating.rating()),
                Some(rating),
                missed,
                now,
            )
        };
        Ok(self.record(graded))
    }

    /// A grade no better than Hard once the hint was taken.
    fn capped(&self, r: Rating) -> Rating {
        if self.hint { r.min(Rating::Hard) } else { r }
    }

    /// Choice: answers with the picked options (0-based, as shown).
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
        let rating = self.capped(Rating::from_score(score, max));
        let earned = score;
        let score = if self.hint {
            score.min(hint_cap(max))
        } else {
            score
        };
        let graded = Graded {
            earned,
            ..self.graded(score, rating, None, Vec::new(), now)
        };
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
            earned: score,
            max: item.max_score(),
            rating,
            self_rating,
            missed,
            at,
            note: self.note.clone(),
            hint: self.hint,
            rounds: Vec::new(),
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
        summary::summarize(self.kind, &self.items, &self.results, self.started, now)
    }
}
