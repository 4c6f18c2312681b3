//! The A/B/C queue's parameters and faults.

use serde::Serialize;

use super::{NumSpec, ParamError, Unit, unknown};
use crate::engine::time::{Millis, from_secs};
use crate::engine::world::schedule::Scheduled;

pub use crate::engine::actors::recipe::{
    DataWrite, OnDisconnect, OnLoss, OnTimeout, Recovery, Registration, TokenSource, WatchMode,
};

/// A fault the A/B/C scenario can schedule. Clients are named `A`, `B`, `C`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Fault {
    /// A GC pause: the client sends nothing and does nothing; its timers fire when it wakes.
    Freeze {
        client: String,
        at_ms: Millis,
        len_ms: Millis,
    },
    /// The network between the client and the coordination service goes silent for an
    /// interval; the client notices only after its read timeout.
    Disconnect {
        client: String,
        at_ms: Millis,
        len_ms: Millis,
    },
    /// The client process dies; its session ends when the service notices.
    Crash { client: String, at_ms: Millis },
    /// The client's connection breaks just as the service answers its first create: the node
    /// exists, the response is lost, and the client sees a connection loss.
    DropCreateResponse { client: String },
    /// Right after `reader` reads the children, `owner`'s node is deleted (its holder releases)
    /// before `reader`'s next request arrives.
    DeleteBetween { owner: String, reader: String },
    /// The client's acquire call times out at `at_ms` (a `tryLock` with a deadline) while it
    /// still waits; what it does with its node is the recipe's `on_timeout`.
    GiveUp { client: String, at_ms: Millis },
}

impl Fault {
    pub fn client(&self) -> &str {
        match self {
            Fault::Freeze { client, .. }
            | Fault::Disconnect { client, .. }
            | Fault::Crash { client, .. }
            | Fault::DropCreateResponse { client }
            | Fault::GiveUp { client, .. } => client,
            Fault::DeleteBetween { reader, .. } => reader,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AbcParams {
    pub session_timeout_ms: Millis,
    pub delay_ms: Millis,
    /// How long a client keeps the lock once it holds it.
    pub hold_ms: Millis,
    /// A holder writes to the resource this long after taking the lock.
    pub write_after_ms: Millis,
    /// A, B and C start this far apart.
    pub start_gap_ms: Millis,
    pub duration_ms: Millis,
    /// The server's tick: session timeouts are granted within 2 to 20 ticks and expire on a
    /// tick boundary.
    pub tick_ms: Millis,
    /// Where the server's tick grid falls: boundaries at `tick_phase + k * tick` from the run's
    /// start. ZooKeeper's are multiples of tickTime on its own clock, so a real server's phase
    /// is wherever its clock stood when the run began.
    pub tick_phase_ms: Millis,
    pub watch: WatchMode,
    pub recovery: Recovery,
    pub registration: Registration,
    pub on_disconnect: OnDisconnect,
    pub on_loss: OnLoss,
    pub fencing: bool,
    /// Where a holder's fencing token comes from.
    pub token: TokenSource,
    /// The lock directory's sequence counter before A creates its node.
    pub first_sequence: i32,
    /// The service's last transaction id before the run (the lock directory exists already).
    pub first_zxid: u64,
    /// What a client that gives up waiting does with its node.
    pub on_timeout: OnTimeout,
    /// The lock directory is a container node the service deletes when it finds it empty,
    /// checking this often (`None`: an ordinary persistent directory).
    pub container_check_ms: Option<Millis>,
    /// Whether holders update a data node the lock protects, and how: each reads it after its
    /// grant and sets it `write_after` later instead of writing the resource.
    pub data_write: DataWrite,
    /// The data node's version when the run starts (0 to 1,000,000).
    pub data_version: i32,
    pub faults: Vec<Fault>,
    /// Seeds the GUIDs the clients put in their node names.
    pub seed: u64,
    /// An exact order of steps to follow (an explorer's counterexample); empty for the usual
    /// timed run. When given, it holds the faults too.
    #[serde(
        serialize_with = "schedule_text",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub schedule: Vec<Scheduled>,
}

fn schedule_text<S: serde::Serializer>(steps: &[Scheduled], s: S) -> Result<S::Ok, S::Error> {
    let names = crate::engine::families::abc::ACTOR_NAMES;
    s.collect_seq(steps.iter().map(|step| step.text(&names)))
}

pub const ABC_SPECS: [NumSpec; 8] = [
    NumSpec {
        key: "session_timeout",
        min: 0.5,
        max: 60.0,
        unit: Unit::Seconds,
        step: 0.5,
        coarse: 5.0,
    },
    NumSpec {
        key: "delay",
        min: 0.0,
        max: 5.0,
        unit: Unit::Seconds,
        step: 0.01,
        coarse: 0.1,
    },
    NumSpec {
        key: "hold",
        min: 0.1,
        max: 60.0,
        unit: Unit::Seconds,
        step: 0.5,
        coarse: 5.0,
    },
    NumSpec {
        key: "write_after",
        min: 0.0,
        max: 60.0,
        unit: Unit::Seconds,
        step: 0.5,
        coarse: 5.0,
    },
    NumSpec {
        key: "start_gap",
        min: 0.0,
        max: 10.0,
        unit: Unit::Seconds,
        step: 0.1,
        coarse: 1.0,
    },
    NumSpec {
        key: "tick",
        min: 0.05,
        max: 10.0,
        unit: Unit::Seconds,
        step: 0.05,
        coarse: 0.5,
    },
    NumSpec {
        key: "tick_phase",
        min: 0.0,
        max: 10.0,
        unit: Unit::Seconds,
        step: 0.05,
        coarse: 0.5,
    },
    NumSpec {
        key: "duration",
        min: 1.0,
        max: 600.0,
        unit: Unit::Seconds,
        step: 1.0,
        coarse: 10.0,
    },
];

impl Default for AbcParams {
    fn default() -> Self {
        Self {
            session_timeout_ms: 4_000,
            delay_ms: 10,
            hold_ms: 3_000,
            write_after_ms: 1_000,
            start_gap_ms: 100,
            duration_ms: 12_000,
            tick_ms: 2_000,
            tick_phase_ms: 0,
            watch: WatchMode::Predecessor,
            recovery: Recovery::Guid,
            registration: Registration::Atomic,
            on_disconnect: OnDisconnect::Suspend,
            on_loss: OnLoss::Stop,
            fencing: true,
            token: TokenSource::Czxid,
            first_sequence: 17,
            first_zxid: 100,
            on_timeout: OnTimeout::DeleteNode,
            container_check_ms: None,
            data_write: DataWrite::Off,
            data_version: 8,
            faults: Vec::new(),
            seed: 1,
            schedule: Vec::new(),
        }
    }
}

/// The largest starting version a scenario may give the data node.
pub const MAX_DATA_VERSION: i32 = 1_000_000;

impl AbcParams {
    pub fn spec(key: &str) -> Option<&'static NumSpec> {
        ABC_SPECS.iter().find(|s| s.key == key)
    }

    pub fn keys() -> Vec<&'static str> {
        ABC_SPECS
            .iter()
            .map(|s| s.key)
            .chain([
                "watch",
                "fanout",
                "recovery",
                "registration",
                "on_disconnect",
                "on_loss",
                "fencing",
                "token",
                "first_sequence",
                "first_zxid",
                "on_timeout",
                "container_check",
                "data_write",
                "data_version",
                "seed",
                "faults",
            ])
            .collect()
    }

    /// Sets a numeric time parameter, given in seconds.
    pub fn set(&mut self, key: &str, secs: f64) -> Result<(), ParamError> {
        let spec = Self::spec(key).ok_or_else(|| unknown(key, Self::keys()))?;
        let ms = from_secs(spec.check(secs)?);
        match key {
            "session_timeout" => self.session_timeout_ms = ms,
            "delay" => self.delay_ms = ms,
            "hold" => self.hold_ms = ms,
            "write_after" => self.write_after_ms = ms,
            "start_gap" => self.start_gap_ms = ms,
            "tick" => self.tick_ms = ms,
            "tick_phase" => self.tick_phase_ms = ms,
            _ => self.duration_ms = ms,
        }
        Ok(())
    }
}
