//! Each family of scenarios: which actors, which faults, what to watch and what to measure.

pub mod abc;
pub mod election;
pub mod etcd;
pub mod etcd_facts;
pub mod frozen;
pub mod herd;
pub mod moments;
pub mod queue;
pub mod queue_checks;
pub mod redlock;
pub mod snowflake;
pub mod tasks;
pub mod zk_facts;
