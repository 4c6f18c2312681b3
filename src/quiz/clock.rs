//! The wall clock and the learner's calendar: the only place quizzes and progress read the time.

use super::sched::{Calendar, Time};

/// The wall clock, in Unix seconds: the only place quizzes read it.
pub fn now() -> Time {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as Time)
}

/// The learner's calendar at `now`: the system time zone's offset, UTC when it is unknown.
pub fn calendar(now: Time) -> Calendar {
    let offset = jiff::Timestamp::from_second(now)
        .map(|t| jiff::tz::TimeZone::system().to_offset(t).seconds())
        .unwrap_or(0);
    Calendar {
        utc_offset: Time::from(offset),
    }
}
