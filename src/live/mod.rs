//! The live lab: the model's stories on a real ZooKeeper, Redlock on real Redis servers
//! ([`redis`]), and the etcd lease lock on a real etcd ([`etcd`]).
//!
//! A run starts a private ZooKeeper server (Debian's `zookeeperd`) on a loopback port, or uses
//! one given with `--zk`, opens one real session per lock client, makes the preset's faults for
//! real (a proxy per client for cuts and lost replies, a stopped thread for a freeze) and
//! records everything it sees into the same [`Trace`](crate::engine::Trace) the model
//! produces, so every view can show it and [`diff`] can hold the two side by side.
//!
//! Nothing here runs until a live run starts: no runtime, no thread, no server.

pub mod abc;
pub mod children;
mod client;
pub mod diff;
pub mod election;
pub mod ensemble;
pub mod etcd;
mod finish;
pub mod guard;
pub mod herd;
pub mod instants;
pub mod log;
pub mod net;
pub mod pg;
pub mod proxy;
pub mod queue;
pub mod redis;
pub mod scale;
pub mod server;
pub mod stuck;
pub mod tasks;
pub mod tick;
pub mod words;

/// Why a scenario has no live counterpart yet, if it has none: the live clients neither read
/// nor set a data node.
pub fn unsupported(p: &crate::engine::params::AbcParams) -> Option<&'static str> {
    if p.data_write != crate::engine::params::DataWrite::Off {
        return Some(
            "holders that update a data node (data_write) are not run live: the live client neither reads nor sets one",
        );
    }
    if !p.schedule.is_empty() {
        return Some("a scheduled run (an explorer's counterexample) is not run live");
    }
    None
}

/// The live lab's families, in the order its screen lists them: each is one `locklab live`
/// subcommand.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum LiveFamily {
    Abc,
    Ensemble,
    Herd,
    Rwlock,
    Semaphore,
    Election,
    Tasks,
    Redlock,
    Etcd,
}

impl LiveFamily {
    /// The `locklab live` subcommand that runs it.
    pub fn command(self) -> &'static str {
        match self {
            LiveFamily::Abc | LiveFamily::Ensemble => "abc",
            LiveFamily::Herd => "herd",
            LiveFamily::Rwlock => "rwlock",
            LiveFamily::Semaphore => "semaphore",
            LiveFamily::Election => "election",
            LiveFamily::Tasks => "tasks",
            LiveFamily::Redlock => "redlock",
            LiveFamily::Etcd => "etcd",
        }
    }
}

/// The live family that runs a catalogue preset, or `None` where the live lab has no
/// counterpart for it (a family it does not run, or a knob it cannot make for real).
pub fn family_of(p: &crate::scenario::Preset) -> Option<LiveFamily> {
    use crate::engine::params::Params;
    let (family, why) = match &p.params {
        Params::Abc(a) => (LiveFamily::Abc, unsupported(a)),
        Params::Redlock(r) => (LiveFamily::Redlock, redis::run::unsupported(r)),
        Params::Etcd(e) => (LiveFamily::Etcd, etcd::run::unsupported(e)),
        Params::Rwlock(r) => (
            LiveFamily::Rwlock,
            queue::unsupported(&queue::QueueParams::Rwlock(r.clone())),
        ),
        Params::Semaphore(s) => (
            LiveFamily::Semaphore,
            queue::unsupported(&queue::QueueParams::Semaphore(s.clone())),
        ),
        Params::Election(_) => (LiveFamily::Election, None),
        Params::Tasks(t) => (LiveFamily::Tasks, tasks::unsupported(t)),
        _ => return None,
    };
    why.is_none().then_some(family)
}

/// A live run's failure: the program's one error, with the exit status to use (2 for what the
/// user can fix).
pub use crate::error::UserError;
