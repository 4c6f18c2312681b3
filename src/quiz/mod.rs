//! Closed-book quizzes: question selection, the session state machine, scoring, the FSRS review
//! schedule, the end-of-session summary, and plain (line-by-line) mode.
//!
//! The core is pure: no terminal, no clock (callers pass `now`), no files; plain mode and
//! `locklab quiz` in [`cmd`] bring in stdin, stdout and the progress store.

pub mod clock;
pub mod explain;
pub mod explain_knobs;
pub mod facts;
pub mod item;
pub mod report;
pub mod sched;
pub mod score;
pub mod select;
/// The self-test's list is content; the quiz reaches it by its old name too.
pub use crate::content::selftest;
pub mod session;
pub mod summary;
pub mod words;
