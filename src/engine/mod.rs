//! The model engine: a pure, deterministic simulation of locks, leases and fencing.
//!
//! Nothing in here touches a terminal, a file, the wall clock or a thread. Parameters build a
//! [`world::World`] of actors; a timed run steps it and records a typed [`Trace`], and every
//! view in locklab draws from that trace alone.

pub mod actors;
pub mod families;
pub mod invariants;
pub mod msg;
pub mod params;
pub mod registry;
pub mod time;
pub mod trace;
pub mod world;
pub mod zk;

pub use params::{AbcParams, FrozenParams, HerdParams, Params};
pub use time::Millis;
pub use trace::Trace;

/// Runs any scenario from its parameters.
pub fn run(params: &Params) -> Trace {
    match params {
        Params::Frozen(p) => families::frozen::run(p),
        Params::Abc(p) => families::abc::run(p),
        Params::Herd(p) => families::herd::run(p),
        Params::Rwlock(p) => families::queue::run_rwlock(p),
        Params::Semaphore(p) => families::queue::run_semaphore(p),
        Params::Election(p) => families::election::run(p),
        Params::Tasks(p) => families::tasks::run(p),
        Params::Redlock(p) => families::redlock::run(p),
        Params::Snowflake(p) => families::snowflake::run(p),
        Params::Etcd(p) => families::etcd::run(p),
    }
}
