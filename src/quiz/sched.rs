//! Spaced review with FSRS, the scheduler Anki uses.
//!
//! A review is graded on FSRS's four buttons. Self-rated recall maps forgot → Again,
//! partial → Hard, solid → Good; automatically scored kinds map by the share of points earned:
//! below 50 % Again, below 80 % Hard, below 100 % Good, 100 % Easy.
//!
//! `fsrs::MemoryState` cannot be serialised, so [`Card`] keeps stability and difficulty as plain
//! numbers, with the due time, the last review and the review counts. Times are Unix seconds;
//! "today" is the learner's local day, given as a [`Calendar`]. Nothing here reads a clock or
//! the time zone: callers pass `now` and the calendar.

use serde::{Deserialize, Serialize};

/// Unix seconds, UTC.
pub type Time = i64;
pub const DAY: Time = 86_400;
/// The share of reviews FSRS aims to have remembered when a card comes due.
pub const DESIRED_RETENTION: f32 = 0.9;

/// FSRS's four grades.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Rating {
    Again,
    Hard,
    Good,
    Easy,
}

impl Rating {
    pub const ALL: [Rating; 4] = [Rating::Again, Rating::Hard, Rating::Good, Rating::Easy];

    pub fn name(self) -> &'static str {
        match self {
            Rating::Again => "again",
            Rating::Hard => "hard",
            Rating::Good => "good",
            Rating::Easy => "easy",
        }
    }

    /// The grade for an automatically scored answer worth `score` of `max` points.
    pub fn from_score(score: u32, max: u32) -> Rating {
        if max == 0 {
            return Rating::Again;
        }
        // Integer comparisons, so 4 of 5 is exactly 80 % and lands on Good.
        let (s, m) = (u64::from(score.min(max)), u64::from(max));
        if s * 100 < m * 50 {
            Rating::Again
        } else if s * 100 < m * 80 {
            Rating::Hard
        } else if s < m {
            Rating::Good
        } else {
            Rating::Easy
        }
    }
}

/// How a learner rates their own recall answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SelfRating {
    Forgot,
    Partial,
    Solid,
}

impl SelfRating {
    pub fn rating(self) -> Rating {
        match self {
            SelfRating::Forgot => Rating::Again,
            SelfRating::Partial => Rating::Hard,
            SelfRating::Solid => Rating::Good,
        }
    }
}

/// The scheduler's memory of one question.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Card {
    pub stability: f32,
    pub difficulty: f32,
    pub due: Time,
    pub last_review: Time,
    pub reps: u32,
    /// Reviews graded Again after the first.
    #[serde(default)]
    pub lapses: u32,
}

/// Applies one review at `now` to a card (`None` for a question never reviewed).
pub fn review(card: Option<&Card>, rating: Rating, now: Time) -> Card {
    let fsrs = fsrs::FSRS::default();
    let memory = card.map(|c| fsrs::MemoryState {
        stability: c.stability,
        difficulty: c.difficulty,
    });
    let elapsed_days = card.map_or(0, |c| ((now - c.last_review).max(0) / DAY) as u32);
    let (stability, difficulty, interval_days) =
        match fsrs.next_states(memory, DESIRED_RETENTION, elapsed_days) {
            Ok(next) => {
                let s = match rating {
                    Rating::Again => next.again,
                    Rating::Hard => next.hard,
                    Rating::Good => next.good,
                    Rating::Easy => next.easy,
                };
                (s.memory.stability, s.memory.difficulty, s.interval)
            }
            // FSRS refuses states it considers invalid (a hand-edited file); start the card
            // afresh rather than lose the review.
            Err(_) => fallback(rating),
        };
    let interval = if interval_days.is_finite() {
        (f64::from(interval_days.max(0.0)) * DAY as f64).round() as Time
    } else {
        DAY
    };
    let (reps, lapses) = card.map_or((0, 0), |c| (c.reps, c.lapses));
    Card {
        stability,
        difficulty,
        due: now.saturating_add(interval),
        last_review: now,
        // A hand-edited or merged file can hold any count: stay at the top, never wrap to 0.
        reps: reps.saturating_add(1),
        lapses: lapses.saturating_add(u32::from(card.is_some() && rating == Rating::Again)),
    }
}

fn fallback(rating: Rating) -> (f32, f32, f32) {
    let fsrs = fsrs::FSRS::default();
    match fsrs.next_states(None, DESIRED_RETENTION, 0) {
        Ok(n) => {
            let s = match rating {
                Rating::Again => n.again,
                Rating::Hard => n.hard,
                Rating::Good => n.good,
                Rating::Easy => n.easy,
            };
            (s.memory.stability, s.memory.difficulty, s.interval)
        }
        Err(_) => (1.0, 5.0, 1.0),
    }
}

/// Where the learner's days begin: their offset from UTC, in seconds, taken at the time of use
/// (a forecast that spans a daylight-saving change is off by that hour).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Calendar {
    pub utc_offset: Time,
}

impl Calendar {
    pub const UTC: Calendar = Calendar { utc_offset: 0 };

    /// The local day holding `t`, counted from 1970-01-01.
    pub fn day(self, t: Time) -> Time {
        (t + self.utc_offset).div_euclid(DAY)
    }

    /// The Unix time at which the local day holding `t` begins.
    pub fn day_start(self, t: Time) -> Time {
        self.day(t) * DAY - self.utc_offset
    }
}

/// Whether a card is due by the end of the learner's day holding `now`.
pub fn due_today(card: &Card, now: Time, cal: Calendar) -> bool {
    card.due < cal.day_start(now) + DAY
}

/// How many cards fall due on each of the next `days` local days; day 0 (today) includes every
/// overdue card.
pub fn forecast<'a>(
    cards: impl IntoIterator<Item = &'a Card>,
    now: Time,
    days: usize,
    cal: Calendar,
) -> Vec<u32> {
    let mut out = vec![0u32; days];
    let today = cal.day_start(now);
    for c in cards {
        let d = (c.due - today).div_euclid(DAY).max(0);
        if let Some(slot) = usize::try_from(d).ok().and_then(|d| out.get_mut(d)) {
            *slot = slot.saturating_add(1);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const T0: Time = 1_780_000_000;

    #[test]
    fn a_card_at_the_largest_count_stays_there_after_a_review() {
        let top = Card {
            stability: 3.0,
            difficulty: 5.0,
            due: T0,
            last_review: T0 - DAY,
            reps: u32::MAX,
            lapses: u32::MAX,
        };
        let next = review(Some(&top), Rating::Again, T0);
        assert_eq!((next.reps, next.lapses), (u32::MAX, u32::MAX));
    }

    #[test]
    fn score_mapping_boundaries() {
        assert_eq!(Rating::from_score(0, 4), Rating::Again);
        assert_eq!(Rating::from_score(1, 3), Rating::Again);
        assert_eq!(Rating::from_score(1, 2), Rating::Hard);
        assert_eq!(Rating::from_score(3, 4), Rating::Hard);
        assert_eq!(Rating::from_score(4, 5), Rating::Good);
        assert_eq!(Rating::from_score(9, 10), Rating::Good);
        assert_eq!(Rating::from_score(5, 5), Rating::Easy);
        assert_eq!(Rating::from_score(0, 0), Rating::Again);
    }

    #[test]
    fn self_ratings_map_to_the_three_lower_grades() {
        assert_eq!(SelfRating::Forgot.rating(), Rating::Again);
        assert_eq!(SelfRating::Partial.rating(), Rating::Hard);
        assert_eq!(SelfRating::Solid.rating(), Rating::Good);
    }

    #[test]
    fn better_grades_push_the_first_review_further_out() {
        let dues: Vec<Time> = Rating::ALL
            .iter()
            .map(|r| review(None, *r, T0).due)
            .collect();
        assert!(dues.windows(2).all(|w| w[0] < w[1]), "{dues:?}");
        for r in Rating::ALL {
            let c = review(None, r, T0);
            assert_eq!((c.reps, c.lapses, c.last_review), (1, 0, T0));
            assert!(c.stability > 0.0 && (1.0..=10.0).contains(&c.difficulty));
        }
        // An Again card comes back the same day; Good waits at least a day.
        assert!(review(None, Rating::Again, T0).due < T0 + DAY);
        assert!(review(None, Rating::Good, T0).due >= T0 + DAY);
    }

    #[test]
    fn successful_reviews_grow_stability_and_again_counts_a_lapse() {
        let first = review(None, Rating::Good, T0);
        let second = review(Some(&first), Rating::Good, first.due);
        assert!(second.stability > first.stability);
        assert!(second.due - second.last_review > first.due - first.last_review);
        assert_eq!(second.reps, 2);
        let lapsed = review(Some(&second), Rating::Again, second.due);
        assert!(lapsed.stability < second.stability);
        assert_eq!(lapsed.lapses, 1);
        // Forgetting makes the question harder in FSRS's eyes.
        assert!(lapsed.difficulty > second.difficulty);
    }

    #[test]
    fn the_schedule_is_deterministic() {
        let a = review(
            Some(&review(None, Rating::Hard, T0)),
            Rating::Easy,
            T0 + 3 * DAY,
        );
        let b = review(
            Some(&review(None, Rating::Hard, T0)),
            Rating::Easy,
            T0 + 3 * DAY,
        );
        assert_eq!(a, b);
    }

    #[test]
    fn forecast_counts_overdue_cards_today() {
        let card = |due| Card {
            stability: 1.0,
            difficulty: 5.0,
            due,
            last_review: T0 - DAY,
            reps: 1,
            lapses: 0,
        };
        let today = Calendar::UTC.day_start(T0);
        let cards = [
            card(T0 - 5 * DAY),
            card(today + 10),
            card(today + DAY),
            card(today + 13 * DAY + 5),
            card(today + 14 * DAY),
        ];
        let f = forecast(&cards, T0, 14, Calendar::UTC);
        assert_eq!(f.len(), 14);
        assert_eq!((f[0], f[1], f[13]), (2, 1, 1));
        assert_eq!(f.iter().sum::<u32>(), 4);
        assert!(
            due_today(&cards[0], T0, Calendar::UTC) && !due_today(&cards[2], T0, Calendar::UTC)
        );
    }

    #[test]
    fn local_days_follow_the_offset() {
        let utc8 = Calendar {
            utc_offset: 8 * 3600,
        };
        let west = Calendar {
            utc_offset: -5 * 3600,
        };
        // 2026-09-21 23:00 UTC is already the 22nd at UTC+8, still the 21st at UTC-5.
        let t = 1_790_031_600;
        assert_eq!(utc8.day(t), Calendar::UTC.day(t) + 1);
        assert_eq!(west.day(t), Calendar::UTC.day(t));
        // 07:00 local on the 22nd at UTC+8; 18:00 local on the 21st at UTC-5.
        assert_eq!(utc8.day_start(t), t - 7 * 3600);
        assert_eq!(west.day_start(t), t - 18 * 3600);
        let card = Card {
            stability: 1.0,
            difficulty: 5.0,
            due: t + 3 * 3600,
            last_review: t,
            reps: 1,
            lapses: 0,
        };
        // Due at 02:00 UTC on the 22nd: tomorrow in UTC, still today at UTC+8 (10:00).
        assert!(!due_today(&card, t, Calendar::UTC));
        assert!(due_today(&card, t, utc8));
    }
}
