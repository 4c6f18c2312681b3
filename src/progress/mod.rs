//! The learner's progress: every answer, the scheduler state per question, session summaries.
//!
//! [`Progress`] is the data and its pure operations (record, merge, aliases); [`store`] keeps it
//! in one TOML file with atomic replace, an advisory lock and migrations; [`file`] reads and
//! writes that file's text a record at a time; [`compact`] keeps each record small; [`stats`]
//! summarises it; [`export`] writes CSV or JSON; [`cmd`] is `locklab progress`.

pub mod compact;
pub mod error;
pub mod export;
pub mod file;
pub mod stats;
pub mod store;
pub mod words;

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

pub use compact::{Extra, Name};

use crate::content::deck::Kind;
use crate::quiz::sched::{self, Card, Rating, SelfRating, Time};
use crate::quiz::session::{Graded, SessionKind};
use crate::quiz::summary::{Summary, Tiers};

/// The version of the file layout this build writes.
pub const SCHEMA_VERSION: u32 = 1;

/// One answered question. Ids are shared [`Name`]s, so a history of a million answers stays
/// small in memory.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Answer {
    pub at: Time,
    pub question: Name,
    pub deck: Name,
    pub kind: Kind,
    pub score: u32,
    pub max: u32,
    pub rating: Rating,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub self_rating: Option<SelfRating>,
    /// Recall: 0-based numbers of the points not covered.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub missed: Vec<usize>,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub note: String,
    /// Keys this build does not know, kept as they were.
    #[serde(flatten, default, skip_serializing_if = "Extra::is_empty")]
    pub extra: Extra,
    /// The hint was taken before answering (the score was capped).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub hint: bool,
}

impl Answer {
    /// What makes two answers the same answer when files are merged.
    fn key(&self) -> (Time, &str, u32, u32, Rating) {
        (self.at, &self.question, self.score, self.max, self.rating)
    }
}

/// A finished (or stopped) session.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SessionRecord {
    pub started: Time,
    pub ended: Time,
    pub questions: u32,
    pub answered: u32,
    pub score: u32,
    pub max: u32,
    /// Keys this build does not know, kept as they were.
    #[serde(flatten, default, skip_serializing_if = "Extra::is_empty")]
    pub extra: Extra,
    /// A quiz, an interview or the self-test.
    #[serde(default, skip_serializing_if = "is_quiz")]
    pub kind: SessionKind,
    /// The self-test: how its answers were rated.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tiers: Option<Tiers>,
    /// The self-test: the same answers' tiers computed from the points they covered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scored_tiers: Option<Tiers>,
}

fn is_quiz(k: &SessionKind) -> bool {
    *k == SessionKind::Quiz
}

/// Keys of the file this build does not know, outside the answers and sessions: at the top level
/// and in each card (by question id). Written back unchanged.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Unknown {
    pub top: Extra,
    pub cards: BTreeMap<String, Extra>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Progress {
    pub schema_version: u32,
    #[serde(default)]
    pub answers: Vec<Answer>,
    /// Scheduler state by question id.
    #[serde(default)]
    pub cards: BTreeMap<String, Card>,
    #[serde(default)]
    pub sessions: Vec<SessionRecord>,
    #[serde(skip)]
    pub unknown: Unknown,
}

impl Default for Progress {
    fn default() -> Self {
        Self {
            schema_version: SCHEMA_VERSION,
            answers: Vec::new(),
            cards: BTreeMap::new(),
            sessions: Vec::new(),
            unknown: Unknown::default(),
        }
    }
}

impl Progress {
    /// Records an answered question and reschedules it.
    pub fn record(&mut self, g: &Graded) {
        self.answers.push(Answer {
            at: g.at,
            question: self.name(&g.id),
            deck: self.name(&g.deck),
            kind: g.kind,
            score: g.score,
            max: g.max,
            rating: g.rating,
            self_rating: g.self_rating,
            missed: g.missed.clone(),
            note: g.note.clone(),
            extra: Extra::default(),
            hint: g.hint,
        });
        let card = sched::review(self.cards.get(&g.id), g.rating, g.at);
        self.cards.insert(g.id.clone(), card);
    }

    /// Every self-test in the progress file, oldest first.
    pub fn self_tests(&self) -> Vec<&SessionRecord> {
        self.sessions
            .iter()
            .filter(|s| s.kind == SessionKind::SelfTest)
            .collect()
    }

    /// How many predictions the learner has made in the lab (answers of their own kind).
    pub fn predictions(&self) -> usize {
        self.answers
            .iter()
            .filter(|a| a.kind == Kind::Prediction)
            .count()
    }

    /// How many of those predictions were right.
    pub fn predictions_right(&self) -> usize {
        self.answers
            .iter()
            .filter(|a| a.kind == Kind::Prediction && a.max > 0 && a.score == a.max)
            .count()
    }

    pub fn record_session(&mut self, s: &Summary) {
        self.sessions.push(SessionRecord {
            started: s.started,
            ended: s.ended,
            questions: s.questions,
            answered: s.answered,
            score: s.score,
            max: s.max,
            extra: Extra::default(),
            kind: s.kind,
            tiers: (s.kind == SessionKind::SelfTest).then_some(s.tiers),
            scored_tiers: (s.kind == SessionKind::SelfTest).then_some(s.scored),
        });
    }

    /// The shared name for an id already in the history, else a new one.
    fn name(&self, id: &str) -> Name {
        self.answers
            .iter()
            .rev()
            .take(64)
            .find_map(|a| {
                if a.question == id {
                    Some(a.question.clone())
                } else if a.deck == id {
                    Some(a.deck.clone())
                } else {
                    None
                }
            })
            .unwrap_or_else(|| Name::from(id))
    }

    /// Refuses records no locklab writes: a score above its maximum (a hand-edited file), which
    /// would otherwise show as a percentage above 100.
    pub fn validate(&self) -> Result<(), error::InvalidRecord> {
        use error::InvalidRecord;
        for (i, a) in self.answers.iter().enumerate() {
            if a.score > a.max {
                return Err(InvalidRecord::AnswerOverMax {
                    number: i + 1,
                    // A hand-edited id may hold a line break: the message stays one line.
                    question: crate::text::printable(&a.question, false).into_owned(),
                    score: a.score,
                    max: a.max,
                });
            }
        }
        for (i, s) in self.sessions.iter().enumerate() {
            if s.score > s.max || s.answered > s.questions {
                return Err(InvalidRecord::SessionOverMax {
                    number: i + 1,
                    score: s.score,
                    max: s.max,
                    answered: s.answered,
                    questions: s.questions,
                });
            }
        }
        Ok(())
    }

    /// Moves the history of renamed questions to their current ids (`aliases`: old id to new).
    /// Returns how many answers moved. History of questions no longer in the bank is kept.
    pub fn apply_aliases(&mut self, aliases: &BTreeMap<String, String>) -> usize {
        let mut moved = 0;
        let mut names: BTreeMap<&str, Name> = BTreeMap::new();
        for a in &mut self.answers {
            if let Some(new) = aliases.get(a.question.as_str()) {
                a.question = names
                    .entry(new.as_str())
                    .or_insert_with(|| Name::from(new))
                    .clone();
                moved += 1;
            }
        }
        if moved > 0 {
            self.rebuild_cards();
        }
        moved
    }

    /// Adds the answers and sessions of `other` that this file lacks, then recomputes the
    /// schedule from the merged history. Returns how many answers were added.
    pub fn merge(&mut self, other: &Progress) -> usize {
        let have: BTreeSet<_> = self.answers.iter().map(|a| a.key()).collect();
        let new: Vec<Answer> = other
            .answers
            .iter()
            .filter(|a| !have.contains(&a.key()))
            .cloned()
            .collect();
        // The other file may repeat an answer too; keep one of each.
        let mut seen = BTreeSet::new();
        let new: Vec<Answer> = new
            .into_iter()
            .filter(|a| seen.insert((a.at, a.question.clone(), a.score, a.max, a.rating)))
            .collect();
        let added = new.len();
        self.answers.extend(new);
        self.answers.sort_by_key(|a| a.at);
        for s in &other.sessions {
            if !self.sessions.contains(s) {
                self.sessions.push(s.clone());
            }
        }
        self.sessions.sort_by_key(|s| s.started);
        self.rebuild_cards();
        added
    }

    /// Recomputes every card by replaying the answers in time order.
    pub fn rebuild_cards(&mut self) {
        let mut order: Vec<&Answer> = self.answers.iter().collect();
        order.sort_by_key(|a| a.at);
        let mut cards: BTreeMap<String, Card> = BTreeMap::new();
        for a in order {
            let c = sched::review(cards.get(a.question.as_str()), a.rating, a.at);
            cards.insert(a.question.to_string(), c);
        }
        self.cards = cards;
    }
}

/// Formats Unix seconds as an RFC 3339 UTC time (`2026-11-30T07:08:02Z`), whole seconds.
pub fn fmt_utc(t: Time) -> String {
    match jiff::Timestamp::from_second(t) {
        Ok(ts) => ts.strftime("%Y-%m-%dT%H:%M:%SZ").to_string(),
        // Past jiff's range (years beyond ±9999): the raw seconds, still unambiguous.
        Err(_) => format!("@{t}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utc_formatting() {
        assert_eq!(fmt_utc(0), "1970-01-01T00:00:00Z");
        assert_eq!(fmt_utc(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(fmt_utc(1_796_022_482), "2026-11-30T07:08:02Z");
        assert_eq!(fmt_utc(-1), "1969-12-31T23:59:59Z");
    }
}
