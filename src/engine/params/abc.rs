//! The A/B/C queue's parameters and faults.

use serde::Serialize;

use super::knobs::{Knob, Knobs, Value, choice, flag, num, num_knob, unknown_knob};
use super::{NumSpec, ParamError, Unit};
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

const fn count(key: &'static str, min: f64, max: f64) -> Knob {
    num_knob(key, min, max, Unit::Count, 1.0, 10.0)
}

/// The largest seed a scenario may give: every whole number up to it is exact in a float.
const MAX_SEED: f64 = 9_007_199_254_740_992.0;

/// Every knob of the A/B/C queue: its times, the recipe's choices and the service's starting
/// counters. Faults and an exact schedule are lists, read by the scenario file alone.
static ABC_KNOBS: [Knob; 23] = [
    Knob::Num(ABC_SPECS[0]),
    Knob::Num(ABC_SPECS[1]),
    Knob::Num(ABC_SPECS[2]),
    Knob::Num(ABC_SPECS[3]),
    Knob::Num(ABC_SPECS[4]),
    Knob::Num(ABC_SPECS[5]),
    Knob::Num(ABC_SPECS[6]),
    Knob::Num(ABC_SPECS[7]),
    Knob::Choice {
        key: "watch",
        options: &["predecessor", "children", "ahead"],
    },
    // How many nodes ahead a client watches when `watch` is `ahead`.
    count("fanout", 1.0, 3.0),
    Knob::Choice {
        key: "recovery",
        options: &["guid", "blind"],
    },
    Knob::Choice {
        key: "registration",
        options: &["atomic", "two_step"],
    },
    Knob::Choice {
        key: "on_disconnect",
        options: &["suspend", "carry_on"],
    },
    Knob::Choice {
        key: "on_loss",
        options: &["stop", "carry_on"],
    },
    Knob::Flag { key: "fencing" },
    Knob::Choice {
        key: "token",
        options: &["czxid", "sequence"],
    },
    count("first_sequence", i32::MIN as f64, i32::MAX as f64),
    count("first_zxid", 1.0, 1e15),
    Knob::Choice {
        key: "on_timeout",
        options: &["delete_node", "forget"],
    },
    // 0 keeps an ordinary persistent directory.
    num_knob("container_check", 0.0, 600.0, Unit::Seconds, 1.0, 10.0),
    Knob::Choice {
        key: "data_write",
        options: &["off", "unconditional", "conditional"],
    },
    count("data_version", 0.0, MAX_DATA_VERSION as f64),
    count("seed", 0.0, MAX_SEED),
];

impl Knobs for AbcParams {
    fn knobs() -> &'static [Knob] {
        &ABC_KNOBS
    }

    fn set_knob(&mut self, key: &str, v: &Value) -> Result<(), ParamError> {
        let Some(knob) = Self::knob(key) else {
            return Err(unknown_knob::<Self>(key));
        };
        match knob {
            Knob::Num(spec) => self.set_number(key, spec.check(num(key, v)?)?),
            Knob::Choice { options, .. } => self.set_choice(key, choice(key, v, options)?),
            Knob::Flag { .. } => {
                self.fencing = flag(key, v)?;
                Ok(())
            }
            Knob::Text { .. } => Err(unknown_knob::<Self>(key)),
        }
    }
}

impl AbcParams {
    pub fn spec(key: &str) -> Option<&'static NumSpec> {
        ABC_SPECS.iter().find(|s| s.key == key)
    }

    /// Every key a scenario file's parameters may name: the knobs, then `faults`.
    pub fn keys() -> Vec<&'static str> {
        Self::knob_keys().into_iter().chain(["faults"]).collect()
    }

    /// Sets a numeric time parameter, given in seconds.
    pub fn set(&mut self, key: &str, secs: f64) -> Result<(), ParamError> {
        match Self::spec(key) {
            Some(_) => self.set_knob(key, &Value::Num(secs)),
            None => Err(unknown_knob::<Self>(key)),
        }
    }

    /// A number already checked against its knob's range.
    fn set_number(&mut self, key: &str, n: f64) -> Result<(), ParamError> {
        let ms = from_secs(n);
        match key {
            "session_timeout" => self.session_timeout_ms = ms,
            "delay" => self.delay_ms = ms,
            "hold" => self.hold_ms = ms,
            "write_after" => self.write_after_ms = ms,
            "start_gap" => self.start_gap_ms = ms,
            "tick" => self.tick_ms = ms,
            "tick_phase" => self.tick_phase_ms = ms,
            "duration" => self.duration_ms = ms,
            // A fan-out is how far ahead a client watches, so it means watching ahead; a
            // later `watch` other than `ahead` takes it back.
            "fanout" => self.watch = WatchMode::Ahead(n as u32),
            "container_check" => self.container_check_ms = (n > 0.0).then_some(ms),
            "first_sequence" => self.first_sequence = n as i32,
            "first_zxid" => self.first_zxid = n as u64,
            "data_version" => self.data_version = n as i32,
            "seed" => self.seed = n as u64,
            _ => return Err(unknown_knob::<Self>(key)),
        }
        Ok(())
    }

    /// A word already checked against its knob's options.
    fn set_choice(&mut self, key: &str, word: &str) -> Result<(), ParamError> {
        match (key, word) {
            // `ahead` keeps a fan-out set before it.
            ("watch", "ahead") => {
                if !matches!(self.watch, WatchMode::Ahead(_)) {
                    self.watch = WatchMode::Ahead(1);
                }
            }
            ("watch", "predecessor") => self.watch = WatchMode::Predecessor,
            ("watch", "children") => self.watch = WatchMode::Children,
            ("recovery", "guid") => self.recovery = Recovery::Guid,
            ("recovery", "blind") => self.recovery = Recovery::Blind,
            ("registration", "atomic") => self.registration = Registration::Atomic,
            ("registration", "two_step") => self.registration = Registration::TwoStep,
            ("on_disconnect", "suspend") => self.on_disconnect = OnDisconnect::Suspend,
            ("on_disconnect", "carry_on") => self.on_disconnect = OnDisconnect::CarryOn,
            ("on_loss", "stop") => self.on_loss = OnLoss::Stop,
            ("on_loss", "carry_on") => self.on_loss = OnLoss::CarryOn,
            ("token", "czxid") => self.token = TokenSource::Czxid,
            ("token", "sequence") => self.token = TokenSource::Sequence,
            ("on_timeout", "delete_node") => self.on_timeout = OnTimeout::DeleteNode,
            ("on_timeout", "forget") => self.on_timeout = OnTimeout::Forget,
            ("data_write", "off") => self.data_write = DataWrite::Off,
            ("data_write", "unconditional") => self.data_write = DataWrite::Unconditional,
            ("data_write", "conditional") => self.data_write = DataWrite::Conditional,
            _ => return Err(unknown_knob::<Self>(key)),
        }
        Ok(())
    }
}
