//! A private PostgreSQL for the live lab: the store of the task claims and the job rows, with
//! the database's own clock, and a fenced row other live runs can write through.

pub mod clock;
pub mod fenced;
pub mod server;

pub use server::{Database, start};
