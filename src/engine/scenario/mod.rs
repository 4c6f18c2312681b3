//! Scenario families: each turns its parameters into a [`Trace`](super::Trace).

pub mod abc;
pub mod frozen;
pub mod herd;
