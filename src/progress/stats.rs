//! Numbers for `locklab progress`: answers, per-deck mastery, due today, the 14-day forecast,
//! the day streak and the scoring points missed most often. Pure: `now` is passed in.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use super::Progress;
use crate::quiz::sched::{self, Calendar, Time};
use crate::quiz::select::Bank;

pub const FORECAST_DAYS: usize = 14;

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DeckMastery {
    pub deck: String,
    /// Questions in the bank's deck.
    pub questions: u32,
    /// Of those, answered at least once.
    pub seen: u32,
    /// Mean of each question's latest percentage, unseen questions counting 0.
    pub mastery: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Missed {
    pub question: String,
    pub point: usize,
    pub times: u32,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Overview {
    pub answers: u32,
    pub sessions: u32,
    pub questions_seen: u32,
    pub decks: Vec<DeckMastery>,
    pub due_today: u32,
    /// Cards due on each local day from today; today includes overdue ones.
    pub forecast: Vec<u32>,
    /// Consecutive local days with an answer, ending today (or yesterday, if none yet today).
    pub streak: u32,
    pub missed: Vec<Missed>,
    pub last_answer: Option<Time>,
}

pub fn overview(p: &Progress, bank: Option<&Bank>, now: Time, cal: Calendar) -> Overview {
    let mut latest: BTreeMap<&str, f64> = BTreeMap::new();
    for a in &p.answers {
        let pct = if a.max == 0 {
            0.0
        } else {
            f64::from(a.score) / f64::from(a.max)
        };
        // Answers are in time order, so the last one wins.
        latest.insert(&a.question, pct);
    }
    let decks = bank.map_or_else(Vec::new, |b| {
        b.decks
            .iter()
            .map(|d| {
                let ids: Vec<&str> = d
                    .deck
                    .questions
                    .iter()
                    .map(|q| q.id.get_ref().as_str())
                    .collect();
                let seen = ids.iter().filter(|id| latest.contains_key(*id)).count();
                // A fold from +0.0: an empty f64 sum is -0.0, which prints as "-0".
                let sum = ids
                    .iter()
                    .filter_map(|id| latest.get(id))
                    .fold(0.0, |a, b| a + b);
                DeckMastery {
                    deck: d.deck.deck.get_ref().clone(),
                    questions: ids.len() as u32,
                    seen: seen as u32,
                    mastery: if ids.is_empty() {
                        0.0
                    } else {
                        sum * 100.0 / ids.len() as f64
                    },
                }
            })
            .collect()
    });
    let live = |id: &str| bank.is_none_or(|b| b.find(id).is_some());
    // Only questions still in the bank can come due; history of removed ones stays in the file.
    let cards: Vec<_> = p
        .cards
        .iter()
        .filter(|(id, _)| live(id))
        .map(|(_, c)| c)
        .collect();
    let due_today = cards
        .iter()
        .filter(|c| sched::due_today(c, now, cal))
        .count() as u32;
    let forecast = sched::forecast(cards.iter().copied(), now, FORECAST_DAYS, cal);
    let mut missed: BTreeMap<(&str, usize), u32> = BTreeMap::new();
    for a in &p.answers {
        for &i in &a.missed {
            let n = missed.entry((&a.question, i)).or_default();
            *n = n.saturating_add(1);
        }
    }
    let mut missed: Vec<Missed> = missed
        .into_iter()
        .map(|((q, point), times)| Missed {
            question: q.to_string(),
            point,
            times,
        })
        .collect();
    missed.sort_by_key(|m| std::cmp::Reverse(m.times));
    missed.truncate(5);
    Overview {
        answers: p.answers.len() as u32,
        sessions: p.sessions.len() as u32,
        questions_seen: latest.len() as u32,
        decks,
        due_today,
        forecast,
        streak: streak(p.answers.iter().map(|a| a.at), now, cal),
        missed,
        last_answer: p.answers.iter().map(|a| a.at).max(),
    }
}

/// Consecutive local days with at least one answer, ending today or yesterday.
pub fn streak(times: impl Iterator<Item = Time>, now: Time, cal: Calendar) -> u32 {
    let days: BTreeSet<Time> = times.map(|t| cal.day(t)).collect();
    let today = cal.day(now);
    let mut day = if days.contains(&today) {
        today
    } else {
        today - 1
    };
    let mut n = 0;
    while days.contains(&day) {
        n += 1;
        day -= 1;
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::quiz::sched::DAY;

    #[test]
    fn streaks_count_back_from_today_or_yesterday() {
        let now = 100 * DAY + 500;
        assert_eq!(
            streak(
                [now, now - DAY, now - 2 * DAY].into_iter(),
                now,
                Calendar::UTC
            ),
            3
        );
        assert_eq!(
            streak([now - DAY, now - 2 * DAY].into_iter(), now, Calendar::UTC),
            2
        );
        assert_eq!(streak([now - 2 * DAY].into_iter(), now, Calendar::UTC), 0);
        assert_eq!(
            streak([now, now - 2 * DAY].into_iter(), now, Calendar::UTC),
            1
        );
        assert_eq!(streak(std::iter::empty(), now, Calendar::UTC), 0);
    }
}
