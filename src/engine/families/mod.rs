//! Each family of scenarios: which actors, which faults, what to watch and what to measure.

pub mod abc;
pub mod election;
pub mod frozen;
pub mod herd;
pub mod moments;
pub mod queue;
pub mod redlock;
pub mod snowflake;
pub mod tasks;
pub mod zk_facts;
