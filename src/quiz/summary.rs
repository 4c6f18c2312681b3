//! The end-of-session summary: score, percent, time, per-topic breakdown and the scoring points
//! missed most often.

use std::collections::BTreeMap;

use serde::Serialize;

use super::item::PreparedQuestion;
use super::sched::{SelfRating, Time};
use super::session::{Graded, SessionKind};

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TopicScore {
    pub topic: String,
    pub answered: u32,
    pub score: u32,
    pub max: u32,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MissedPoint {
    pub question: String,
    /// 0-based, follow-up points continuing the count.
    pub point: usize,
    pub text: String,
    pub times: u32,
}

/// How many recall answers were rated forgot, partial and solid.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Tiers {
    pub forgot: u32,
    pub partial: u32,
    pub solid: u32,
}

impl Tiers {
    pub fn add(&mut self, r: SelfRating) {
        match r {
            SelfRating::Forgot => self.forgot += 1,
            SelfRating::Partial => self.partial += 1,
            SelfRating::Solid => self.solid += 1,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Summary {
    pub kind: SessionKind,
    pub started: Time,
    pub ended: Time,
    pub seconds: Time,
    pub questions: u32,
    pub answered: u32,
    pub score: u32,
    pub max: u32,
    /// 0 to 100; 0 when nothing was answered.
    pub percent: f64,
    /// Sorted by topic name.
    pub topics: Vec<TopicScore>,
    /// Most often missed first, then by question id; at most [`MISSED_SHOWN`].
    pub missed: Vec<MissedPoint>,
    /// The self-ratings of the recall answers.
    pub tiers: Tiers,
    /// The same answers' tiers computed from the scoring points covered, to compare with
    /// [`Summary::tiers`]: a self-rating alone lets 0 points count as solid.
    pub scored: Tiers,
    /// Recall answers rated higher than their points show.
    pub overrated: u32,
    /// Answers given after taking the hint.
    pub hints: u32,
}

pub const MISSED_SHOWN: usize = 5;

/// The text of point `i` of a recall item, follow-up points continuing the count.
pub fn point_text(item: &PreparedQuestion, i: usize) -> Option<&str> {
    item.all_points().get(i).map(|p| p.text.as_str())
}

/// The tier an answer's points put it in, before any hint cap: every point covered is solid,
/// none is forgot, anything between is partial.
pub fn tier_from_points(earned: u32, max: u32) -> SelfRating {
    if earned == 0 {
        SelfRating::Forgot
    } else if earned >= max {
        SelfRating::Solid
    } else {
        SelfRating::Partial
    }
}

pub fn percent(score: u32, max: u32) -> f64 {
    if max == 0 {
        0.0
    } else {
        f64::from(score) * 100.0 / f64::from(max)
    }
}

pub fn summarize(
    kind: SessionKind,
    items: &[PreparedQuestion],
    results: &[Graded],
    started: Time,
    ended: Time,
) -> Summary {
    let score = results.iter().map(|g| g.score).sum();
    let max = results.iter().map(|g| g.max).sum();
    let mut topics: BTreeMap<&str, TopicScore> = BTreeMap::new();
    let mut missed: BTreeMap<(&str, usize), MissedPoint> = BTreeMap::new();
    for g in results {
        for t in &g.topics {
            let e = topics.entry(t).or_insert_with(|| TopicScore {
                topic: t.clone(),
                answered: 0,
                score: 0,
                max: 0,
            });
            e.answered += 1;
            e.score += g.score;
            e.max += g.max;
        }
        let item = items.iter().find(|i| i.id == g.id);
        for &p in &g.missed {
            let text = item.and_then(|i| point_text(i, p)).unwrap_or_default();
            missed
                .entry((g.id.as_str(), p))
                .or_insert_with(|| MissedPoint {
                    question: g.id.clone(),
                    point: p,
                    text: text.to_string(),
                    times: 0,
                })
                .times += 1;
        }
    }
    let mut missed: Vec<MissedPoint> = missed.into_values().collect();
    missed.sort_by_key(|m| std::cmp::Reverse(m.times));
    missed.truncate(MISSED_SHOWN);
    let mut tiers = Tiers::default();
    let mut scored = Tiers::default();
    let mut overrated = 0;
    for g in results {
        let Some(r) = g.self_rating else { continue };
        let by_points = tier_from_points(g.earned, g.max);
        tiers.add(r);
        scored.add(by_points);
        if r > by_points {
            overrated += 1;
        }
    }
    Summary {
        kind,
        started,
        ended,
        seconds: (ended - started).max(0),
        questions: items.len() as u32,
        answered: results.len() as u32,
        score,
        max,
        percent: percent(score, max),
        topics: topics.into_values().collect(),
        missed,
        tiers,
        scored,
        overrated,
        hints: results.iter().filter(|g| g.hint).count() as u32,
    }
}
