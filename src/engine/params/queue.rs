//! Read-write locks and semaphores on the ZooKeeper queue: their parameters.

use serde::Serialize;

use super::knobs::{Knob, Knobs, Value, choice, num, num_knob, unknown_knob};
use super::{Fault, ParamError, Unit};
use crate::engine::time::{Millis, from_secs};

/// How a reader decides it may read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ReadRule {
    /// Wait for every earlier writer, holding or waiting: no writer starves.
    Fair,
    /// Wait only for a writer that holds right now, skipping writers still waiting, while a
    /// writer waits until no reader is left at all: readers that keep coming starve the writer.
    SkipWaitingWriters,
}

/// What each client of a read-write lock wants.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Want {
    Read,
    Write,
}

/// Timings and service settings both queue families share.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct QueueCommon {
    pub hold_ms: Millis,
    pub start_gap_ms: Millis,
    pub session_timeout_ms: Millis,
    pub tick_ms: Millis,
    /// Where the service's tick grid falls: boundaries at `tick_phase + k * tick`.
    pub tick_phase_ms: Millis,
    pub delay_ms: Millis,
    pub duration_ms: Millis,
    pub first_sequence: i32,
    pub seed: u64,
    pub faults: Vec<Fault>,
}

impl Default for QueueCommon {
    fn default() -> Self {
        Self {
            hold_ms: 3_000,
            start_gap_ms: 100,
            session_timeout_ms: 4_000,
            tick_ms: 2_000,
            tick_phase_ms: 0,
            delay_ms: 10,
            duration_ms: 12_000,
            first_sequence: 16,
            seed: 1,
            faults: Vec::new(),
        }
    }
}

const fn secs(key: &'static str, min: f64, max: f64, step: f64, coarse: f64) -> Knob {
    num_knob(key, min, max, Unit::Seconds, step, coarse)
}

const fn count(key: &'static str, min: f64, max: f64) -> Knob {
    num_knob(key, min, max, Unit::Count, 1.0, 10.0)
}

const COMMON: [Knob; 9] = [
    secs("hold", 0.1, 60.0, 0.5, 5.0),
    secs("start_gap", 0.0, 10.0, 0.1, 1.0),
    secs("session_timeout", 0.5, 60.0, 0.5, 5.0),
    secs("tick", 0.05, 10.0, 0.05, 0.5),
    secs("tick_phase", 0.0, 10.0, 0.05, 0.5),
    secs("delay", 0.0, 5.0, 0.01, 0.1),
    secs("duration", 1.0, 600.0, 1.0, 10.0),
    count("first_sequence", 0.0, 2_147_483_647.0),
    count("seed", 0.0, 9_007_199_254_740_991.0),
];

impl QueueCommon {
    fn set(&mut self, key: &str, v: &Value) -> Option<Result<(), ParamError>> {
        let spec = COMMON.iter().find(|k| k.key() == key)?;
        let Knob::Num(spec) = spec else {
            return None;
        };
        Some((|| {
            let n = spec.check(num(key, v)?)?;
            let ms = from_secs(n);
            match key {
                "hold" => self.hold_ms = ms,
                "start_gap" => self.start_gap_ms = ms,
                "session_timeout" => self.session_timeout_ms = ms,
                "tick" => self.tick_ms = ms,
                "tick_phase" => self.tick_phase_ms = ms,
                "delay" => self.delay_ms = ms,
                "duration" => self.duration_ms = ms,
                "first_sequence" => self.first_sequence = n as i32,
                _ => self.seed = n as u64,
            }
            Ok(())
        })())
    }
}

/// A read-write lock: each client reads or writes, in the order the roles are given.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RwLockParams {
    pub wants: Vec<Want>,
    pub read_rule: ReadRule,
    #[serde(flatten)]
    pub common: QueueCommon,
}

impl Default for RwLockParams {
    fn default() -> Self {
        Self {
            wants: vec![Want::Read, Want::Read, Want::Write, Want::Read],
            read_rule: ReadRule::Fair,
            common: QueueCommon::default(),
        }
    }
}

/// Clients of a queue family are named A, B, C, ... in the order they start.
pub const QUEUE_NAMES: [&str; 12] = ["A", "B", "C", "D", "E", "F", "G", "H", "I", "J", "K", "L"];

static RWLOCK_KNOBS: [Knob; 11] = [
    Knob::Text {
        key: "roles",
        what: "2 to 12 letters, r (read) or w (write), one per client in start order",
    },
    Knob::Choice {
        key: "read_rule",
        options: &["fair", "skip_waiting_writers"],
    },
    COMMON[0],
    COMMON[1],
    COMMON[2],
    COMMON[3],
    COMMON[4],
    COMMON[5],
    COMMON[6],
    COMMON[7],
    COMMON[8],
];

impl Knobs for RwLockParams {
    fn knobs() -> &'static [Knob] {
        &RWLOCK_KNOBS
    }

    fn set_knob(&mut self, key: &str, v: &Value) -> Result<(), ParamError> {
        match key {
            "roles" => {
                let Value::Text(t) = v else {
                    return Err(ParamError::WrongType {
                        key: key.into(),
                        expected: "a string of r and w",
                    });
                };
                let wants: Option<Vec<Want>> = t
                    .chars()
                    .map(|c| match c.to_ascii_lowercase() {
                        'r' => Some(Want::Read),
                        'w' => Some(Want::Write),
                        _ => None,
                    })
                    .collect();
                match wants {
                    Some(w) if (2..=QUEUE_NAMES.len()).contains(&w.len()) => self.wants = w,
                    _ => {
                        return Err(ParamError::Invalid {
                            key: key.into(),
                            problem: format!(
                                "must be 2 to {} letters, each r or w (got `{t}`)",
                                QUEUE_NAMES.len()
                            ),
                        });
                    }
                }
            }
            "read_rule" => {
                self.read_rule = match choice(key, v, &["fair", "skip_waiting_writers"])? {
                    "fair" => ReadRule::Fair,
                    _ => ReadRule::SkipWaitingWriters,
                }
            }
            _ => {
                return self
                    .common
                    .set(key, v)
                    .unwrap_or_else(|| Err(unknown_knob::<Self>(key)));
            }
        }
        Ok(())
    }
}

/// A counting semaphore: the first `permits` lease nodes hold.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SemaphoreParams {
    pub clients: u32,
    pub permits: u32,
    /// At this instant the configured permit count drops to `lower_to`; clients that start
    /// afterwards count with the new number, holders already inside stay.
    pub lower_at_ms: Option<Millis>,
    pub lower_to: u32,
    #[serde(flatten)]
    pub common: QueueCommon,
}

impl Default for SemaphoreParams {
    fn default() -> Self {
        Self {
            clients: 4,
            permits: 3,
            lower_at_ms: None,
            lower_to: 0,
            common: QueueCommon {
                first_sequence: 30,
                ..QueueCommon::default()
            },
        }
    }
}

static SEMAPHORE_KNOBS: [Knob; 13] = [
    count("clients", 2.0, 12.0),
    count("permits", 1.0, 12.0),
    secs("lower_at", 0.0, 600.0, 0.5, 5.0),
    count("lower_to", 1.0, 12.0),
    COMMON[0],
    COMMON[1],
    COMMON[2],
    COMMON[3],
    COMMON[4],
    COMMON[5],
    COMMON[6],
    COMMON[7],
    COMMON[8],
];

impl Knobs for SemaphoreParams {
    fn knobs() -> &'static [Knob] {
        &SEMAPHORE_KNOBS
    }

    fn set_knob(&mut self, key: &str, v: &Value) -> Result<(), ParamError> {
        let spec = |k: &str| match Self::knob(k) {
            Some(Knob::Num(s)) => *s,
            _ => unreachable!("a numeric knob"),
        };
        match key {
            "clients" => self.clients = spec(key).check(num(key, v)?)? as u32,
            "permits" => self.permits = spec(key).check(num(key, v)?)? as u32,
            "lower_at" => self.lower_at_ms = Some(from_secs(spec(key).check(num(key, v)?)?)),
            "lower_to" => self.lower_to = spec(key).check(num(key, v)?)? as u32,
            _ => {
                return self
                    .common
                    .set(key, v)
                    .unwrap_or_else(|| Err(unknown_knob::<Self>(key)));
            }
        }
        Ok(())
    }
}

impl SemaphoreParams {
    /// The permit count a client starting at `at` counts with.
    pub fn permits_at(&self, at: Millis) -> u32 {
        match self.lower_at_ms {
            Some(t) if at >= t && self.lower_to > 0 => self.lower_to,
            _ => self.permits,
        }
    }
}
