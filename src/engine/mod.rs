//! The model engine: a pure, deterministic simulation of locks, leases and fencing.
//!
//! Nothing in here touches a terminal, a file, the wall clock or a thread. Every scenario turns
//! parameters into a [`Trace`], and every view in locklab draws from that trace alone.

pub mod coord;
pub mod lease;
pub mod params;
pub mod queue;
pub mod resource;
pub mod scenario;
pub mod time;
pub mod trace;

pub use params::{AbcParams, FrozenParams, HerdParams, Params};
pub use time::Millis;
pub use trace::Trace;

/// Runs any scenario from its parameters.
pub fn run(params: &Params) -> Trace {
    match params {
        Params::Frozen(p) => scenario::frozen::run(p),
        Params::Abc(p) => scenario::abc::run(p),
        Params::Herd(p) => scenario::herd::run(p),
    }
}
