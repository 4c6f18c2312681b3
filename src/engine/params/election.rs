//! Leader election with epochs and a conditional row: its parameters.

use serde::Serialize;

use super::knobs::{Knob, Knobs, Value, flag, num, num_knob, unknown_knob};
use super::{ParamError, Unit};
use crate::engine::time::{Millis, from_secs};

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ElectionParams {
    /// A leads from the start with this epoch; the job's row is at `row_version`.
    pub first_epoch: u64,
    pub row_version: u64,
    /// A's lease on the job runs out at this instant (the store's clock).
    pub lease_until_ms: Millis,
    /// What A still has to do, and how long the job takes a new leader.
    pub a_work_left_ms: Millis,
    pub work_ms: Millis,
    pub lease_ms: Millis,
    pub pause_at_ms: Millis,
    pub pause_len_ms: Millis,
    /// Submit and take over with conditions on version and epoch (false: unconditional).
    pub conditional: bool,
    pub session_timeout_ms: Millis,
    pub tick_ms: Millis,
    /// Where the service's tick grid falls: boundaries at `tick_phase + k * tick`.
    pub tick_phase_ms: Millis,
    pub delay_ms: Millis,
    pub duration_ms: Millis,
}

impl Default for ElectionParams {
    fn default() -> Self {
        Self {
            first_epoch: 26,
            row_version: 3,
            lease_until_ms: 10_000,
            a_work_left_ms: 4_000,
            work_ms: 3_000,
            lease_ms: 30_000,
            pause_at_ms: 1_000,
            pause_len_ms: 20_000,
            conditional: true,
            session_timeout_ms: 4_000,
            tick_ms: 2_000,
            tick_phase_ms: 0,
            delay_ms: 10,
            duration_ms: 25_000,
        }
    }
}

const fn secs(key: &'static str, min: f64, max: f64) -> Knob {
    num_knob(key, min, max, Unit::Seconds, 0.5, 5.0)
}

const fn count(key: &'static str, min: f64, max: f64) -> Knob {
    num_knob(key, min, max, Unit::Count, 1.0, 10.0)
}

static ELECTION_KNOBS: [Knob; 14] = [
    count("first_epoch", 1.0, 1_000_000.0),
    count("row_version", 0.0, 1_000_000.0),
    secs("lease_until", 0.0, 600.0),
    secs("a_work_left", 0.0, 600.0),
    secs("work", 0.1, 600.0),
    secs("lease", 0.1, 600.0),
    secs("pause_at", 0.0, 600.0),
    secs("pause_len", 0.0, 600.0),
    Knob::Flag { key: "conditional" },
    secs("session_timeout", 0.5, 60.0),
    secs("tick", 0.05, 10.0),
    secs("tick_phase", 0.0, 10.0),
    secs("delay", 0.0, 5.0),
    secs("duration", 1.0, 600.0),
];

impl Knobs for ElectionParams {
    fn knobs() -> &'static [Knob] {
        &ELECTION_KNOBS
    }

    fn set_knob(&mut self, key: &str, v: &Value) -> Result<(), ParamError> {
        if key == "conditional" {
            self.conditional = flag(key, v)?;
            return Ok(());
        }
        let Some(Knob::Num(spec)) = Self::knob(key) else {
            return Err(unknown_knob::<Self>(key));
        };
        let n = spec.check(num(key, v)?)?;
        let ms = from_secs(n);
        match key {
            "first_epoch" => self.first_epoch = n as u64,
            "row_version" => self.row_version = n as u64,
            "lease_until" => self.lease_until_ms = ms,
            "a_work_left" => self.a_work_left_ms = ms,
            "work" => self.work_ms = ms,
            "lease" => self.lease_ms = ms,
            "pause_at" => self.pause_at_ms = ms,
            "pause_len" => self.pause_len_ms = ms,
            "session_timeout" => self.session_timeout_ms = ms,
            "tick" => self.tick_ms = ms,
            "tick_phase" => self.tick_phase_ms = ms,
            "delay" => self.delay_ms = ms,
            _ => self.duration_ms = ms,
        }
        Ok(())
    }
}
