//! Snowflake-style ID generators: the bit layout, the load, the faults and the defences. Times
//! are in milliseconds: the ID's own unit.

use serde::Serialize;

use super::knobs::{Knob, Knobs, Value, choice, flag, num, num_knob, unknown_knob};
use super::{NumSpec, ParamError, Unit};
use crate::engine::time::Millis;

/// Generators are named G1, G2, ... in the order the `workers` list gives them.
pub const GENERATORS: [&str; 4] = ["G1", "G2", "G3", "G4"];

/// How many bits each field gets; the sign bit stays 0.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub struct Layout {
    pub time_bits: u32,
    pub worker_bits: u32,
    pub sequence_bits: u32,
}

impl Default for Layout {
    fn default() -> Self {
        Self {
            time_bits: 41,
            worker_bits: 10,
            sequence_bits: 12,
        }
    }
}

impl Layout {
    /// `(time << (worker_bits + sequence_bits)) | (worker << sequence_bits) | sequence`.
    pub fn encode(self, time: u64, worker: u32, sequence: u32) -> u64 {
        (time << (self.worker_bits + self.sequence_bits))
            | (u64::from(worker) << self.sequence_bits)
            | u64::from(sequence)
    }

    /// The fields of an ID: (time, worker, sequence).
    pub fn decode(self, id: u64) -> (u64, u32, u32) {
        let mask = |bits: u32| (1u64 << bits) - 1;
        (
            id >> (self.worker_bits + self.sequence_bits),
            ((id >> self.sequence_bits) & mask(self.worker_bits)) as u32,
            (id & mask(self.sequence_bits)) as u32,
        )
    }

    /// The largest sequence number in one millisecond.
    pub fn max_sequence(self) -> u32 {
        ((1u64 << self.sequence_bits) - 1) as u32
    }

    /// Whether a millisecond count fits the time field.
    pub fn time_fits(self, time: i64) -> bool {
        time >= 0 && (time as u64) < (1u64 << self.time_bits)
    }

    /// How long the time field lasts from its epoch, in years of 365.2425 days.
    pub fn years(self) -> f64 {
        (1u64 << self.time_bits) as f64 / (1000.0 * 60.0 * 60.0 * 24.0 * 365.2425)
    }
}

/// What a generator does when its clock reads earlier than the last millisecond it used.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum OnRollback {
    /// Treat it as a new millisecond: the sequence starts at 0 again (the broken generator).
    Ignore,
    /// Turn the request down until the clock is past the last millisecond used.
    Refuse,
    /// Hold the request until the clock is back at the last millisecond used.
    Wait,
}

/// What a generator does when one millisecond's sequence numbers are used up.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum OnExhaustion {
    /// Wait for the next millisecond.
    Wait,
    /// Start the sequence again at 0 in the same millisecond (the broken generator).
    Wrap,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SnowflakeParams {
    /// The worker id of each generator, in order.
    pub workers: Vec<u32>,
    pub layout: Layout,
    /// The generators' clocks at the start of the run, in ms since the Snowflake epoch.
    pub clock_start: u64,
    /// Requests each generator receives every millisecond.
    pub rate: u32,
    /// Extra requests G1 receives in the millisecond `burst_at_ms`.
    pub burst: u32,
    pub burst_at_ms: Millis,
    /// Requests arrive during `[0, duration)`; the run ends at `duration`.
    pub duration_ms: Millis,
    /// One-way network delay to the worker-id registry.
    pub delay_ms: Millis,
    /// A generator (1-based, 0 for none) that crashes at `crash_at_ms` and restarts
    /// `restart_after_ms` later (0: within the same millisecond).
    pub crash_generator: u32,
    pub crash_at_ms: Millis,
    pub restart_after_ms: Millis,
    /// The clock of generator `rollback_generator` (1-based) steps back by `rollback_ms` at
    /// `rollback_at_ms` (0 for no rollback).
    pub rollback_ms: u64,
    pub rollback_at_ms: Millis,
    pub rollback_generator: u32,
    /// Defence: on every start, issue nothing until the clock has moved past the start's
    /// millisecond, which a previous process may have used.
    pub wait_on_start: bool,
    pub on_rollback: OnRollback,
    pub on_exhaustion: OnExhaustion,
    /// Defence: a generator issues only while a registry has granted it its worker id.
    pub worker_leases: bool,
}

impl Default for SnowflakeParams {
    fn default() -> Self {
        Self {
            workers: vec![7],
            layout: Layout::default(),
            clock_start: 995,
            rate: 2,
            burst: 0,
            burst_at_ms: 5,
            duration_ms: 12,
            delay_ms: 1,
            crash_generator: 0,
            crash_at_ms: 5,
            restart_after_ms: 0,
            rollback_ms: 0,
            rollback_at_ms: 6,
            rollback_generator: 1,
            wait_on_start: false,
            on_rollback: OnRollback::Ignore,
            on_exhaustion: OnExhaustion::Wait,
            worker_leases: false,
        }
    }
}

const fn ms(key: &'static str, max: f64) -> Knob {
    num_knob(key, 0.0, max, Unit::Milliseconds, 1.0, 10.0)
}

const fn count(key: &'static str, min: f64, max: f64) -> Knob {
    num_knob(key, min, max, Unit::Count, 1.0, 10.0)
}

const ROLLBACK: &[&str] = &["ignore", "refuse", "wait"];
const EXHAUSTION: &[&str] = &["wait", "wrap"];

static SNOWFLAKE_KNOBS: [Knob; 20] = [
    Knob::Text {
        key: "workers",
        what: "the worker id of each generator, 1 to 4 of them, such as 7 or 7,7",
    },
    count("time_bits", 1.0, 62.0),
    count("worker_bits", 0.0, 30.0),
    count("sequence_bits", 1.0, 30.0),
    count("clock_start", 0.0, 4_611_686_018_427_387_903.0),
    count("rate", 0.0, 100.0),
    count("burst", 0.0, 10_000.0),
    ms("burst_at", 1_000.0),
    Knob::Num(NumSpec {
        key: "duration",
        min: 1.0,
        max: 1_000.0,
        unit: Unit::Milliseconds,
        step: 1.0,
        coarse: 10.0,
    }),
    ms("delay", 100.0),
    count("crash_generator", 0.0, 4.0),
    ms("crash_at", 1_000.0),
    ms("restart_after", 1_000.0),
    ms("rollback", 1_000_000.0),
    ms("rollback_at", 1_000.0),
    count("rollback_generator", 1.0, 4.0),
    Knob::Flag {
        key: "wait_on_start",
    },
    Knob::Choice {
        key: "on_rollback",
        options: ROLLBACK,
    },
    Knob::Choice {
        key: "on_exhaustion",
        options: EXHAUSTION,
    },
    Knob::Flag {
        key: "worker_leases",
    },
];

impl Knobs for SnowflakeParams {
    fn knobs() -> &'static [Knob] {
        &SNOWFLAKE_KNOBS
    }

    fn set_knob(&mut self, key: &str, v: &Value) -> Result<(), ParamError> {
        let Some(Knob::Num(spec)) = Self::knob(key) else {
            match key {
                "workers" => self.workers = worker_list(key, v)?,
                "wait_on_start" => self.wait_on_start = flag(key, v)?,
                "worker_leases" => self.worker_leases = flag(key, v)?,
                "on_rollback" => {
                    self.on_rollback = match choice(key, v, ROLLBACK)? {
                        "ignore" => OnRollback::Ignore,
                        "refuse" => OnRollback::Refuse,
                        _ => OnRollback::Wait,
                    }
                }
                "on_exhaustion" => {
                    self.on_exhaustion = match choice(key, v, EXHAUSTION)? {
                        "wait" => OnExhaustion::Wait,
                        _ => OnExhaustion::Wrap,
                    }
                }
                _ => return Err(unknown_knob::<Self>(key)),
            }
            return Ok(());
        };
        let n = spec.check(num(key, v)?)?;
        let whole = n.round() as u64;
        match key {
            "time_bits" => self.layout.time_bits = whole as u32,
            "worker_bits" => self.layout.worker_bits = whole as u32,
            "sequence_bits" => self.layout.sequence_bits = whole as u32,
            "clock_start" => self.clock_start = whole,
            "rate" => self.rate = whole as u32,
            "burst" => self.burst = whole as u32,
            "burst_at" => self.burst_at_ms = whole,
            "duration" => self.duration_ms = whole,
            "delay" => self.delay_ms = whole,
            "crash_generator" => self.crash_generator = whole as u32,
            "crash_at" => self.crash_at_ms = whole,
            "restart_after" => self.restart_after_ms = whole,
            "rollback" => self.rollback_ms = whole,
            "rollback_at" => self.rollback_at_ms = whole,
            _ => self.rollback_generator = whole as u32,
        }
        Ok(())
    }

    fn validate(&self) -> Result<(), ParamError> {
        let invalid = |key: &str, problem: String| {
            Err(ParamError::Invalid {
                key: key.into(),
                problem,
            })
        };
        let l = self.layout;
        if l.time_bits + l.worker_bits + l.sequence_bits > 63 {
            return invalid(
                "sequence_bits",
                format!(
                    "leaves no sign bit: time {} + worker {} + sequence {} bits is more than 63",
                    l.time_bits, l.worker_bits, l.sequence_bits
                ),
            );
        }
        if let Some(w) = self
            .workers
            .iter()
            .find(|w| u64::from(**w) >> l.worker_bits > 0)
        {
            return invalid(
                "workers",
                format!(
                    "worker id {w} does not fit in {} bits (0 to {})",
                    l.worker_bits,
                    (1u64 << l.worker_bits) - 1
                ),
            );
        }
        let last = self.clock_start + self.duration_ms;
        if !l.time_fits(last as i64) {
            return invalid(
                "clock_start",
                format!(
                    "the clock reaches {last} ms, past what {} time bits hold ({})",
                    l.time_bits,
                    (1u64 << l.time_bits) - 1
                ),
            );
        }
        // The step comes at `rollback_at`, when the clock has moved on from its start.
        let reads = self.clock_start + self.rollback_at_ms;
        if self.rollback_ms > reads {
            return invalid(
                "rollback",
                format!(
                    "would step the clock before the epoch (at {} ms it reads {reads} ms)",
                    self.rollback_at_ms
                ),
            );
        }
        let n = self.workers.len() as u32;
        for (key, g) in [
            ("crash_generator", self.crash_generator),
            ("rollback_generator", self.rollback_generator),
        ] {
            if g > n {
                return invalid(key, format!("names generator {g}, but there are {n}"));
            }
        }
        Ok(())
    }
}

/// Reads `7` or `7,7,8`: one to four worker ids.
fn worker_list(key: &str, v: &Value) -> Result<Vec<u32>, ParamError> {
    let Value::Text(t) = v else {
        return Err(ParamError::WrongType {
            key: key.into(),
            expected: "a string of worker ids such as \"7,7\"",
        });
    };
    let ids: Option<Vec<u32>> = t
        .split([',', ' '])
        .filter(|p| !p.is_empty())
        .map(|p| p.parse::<u32>().ok())
        .collect();
    match ids {
        Some(ids) if (1..=GENERATORS.len()).contains(&ids.len()) => Ok(ids),
        _ => Err(ParamError::Invalid {
            key: key.into(),
            problem: format!(
                "must be 1 to {} worker ids separated by commas, such as 7,7 (got `{t}`)",
                GENERATORS.len()
            ),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lessons_id_encodes_and_decodes() {
        let l = Layout::default();
        let id = l.encode(123_456_789, 37, 5);
        assert_eq!(id, 517_815_304_081_413);
        assert_eq!(l.decode(id), (123_456_789, 37, 5));
        assert_eq!(l.encode(1000, 7, 0), 4_194_332_672);
        assert_eq!(l.max_sequence(), 4_095);
        assert_eq!((l.years() * 10.0).round() / 10.0, 69.7);
    }

    #[test]
    fn layouts_that_do_not_fit_are_refused() {
        let mut p = SnowflakeParams::default();
        p.set_knob("sequence_bits", &Value::Num(13.0)).unwrap();
        assert!(
            p.validate()
                .unwrap_err()
                .to_string()
                .contains("no sign bit")
        );
        let mut p = SnowflakeParams::default();
        p.set_knob("workers", &Value::Text("7,1024".into()))
            .unwrap();
        assert!(p.validate().unwrap_err().to_string().contains("1024"));
        assert!(p.set_knob("workers", &Value::Text("a".into())).is_err());
    }
}
