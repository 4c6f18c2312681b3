//! The frozen holder's parameters.

use serde::Serialize;

use super::knobs::{Knob, Knobs, Value, flag, num, unknown_knob};
use super::{NumSpec, ParamError, Unit, on_off};
use crate::engine::time::{Millis, fmt_secs, from_secs};

/// The frozen-holder scenario. Times are whole milliseconds.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FrozenParams {
    pub ttl_ms: Millis,
    pub keepalive_ms: Millis,
    pub pause_start_ms: Millis,
    pub pause_len_ms: Millis,
    pub delay_ms: Millis,
    pub fencing: bool,
    pub stop_on_loss: bool,
}

/// Fixed parts of the frozen-holder scenario.
pub mod frozen_fixed {
    use crate::engine::time::Millis;
    /// A's critical section needs this much of A's own running time.
    pub const WORK_MS: Millis = 24_000;
    /// B asks for the lock at every multiple of this.
    pub const RETRY_MS: Millis = 1_000;
    /// B writes this long after it learns it holds the lock.
    pub const WRITE_AFTER_MS: Millis = 2_000;
    /// The run lasts this long.
    pub const RUN_MS: Millis = 40_000;
}

pub const FROZEN_SPECS: [NumSpec; 5] = [
    NumSpec {
        key: "ttl",
        min: 1.0,
        max: 30.0,
        unit: Unit::Seconds,
        step: 0.5,
        coarse: 5.0,
    },
    NumSpec {
        key: "keepalive",
        min: 0.5,
        max: 30.0,
        unit: Unit::Seconds,
        step: 0.5,
        coarse: 5.0,
    },
    NumSpec {
        key: "pause_start",
        min: 0.0,
        max: 40.0,
        unit: Unit::Seconds,
        step: 0.5,
        coarse: 5.0,
    },
    NumSpec {
        key: "pause_len",
        min: 0.0,
        max: 30.0,
        unit: Unit::Seconds,
        step: 0.5,
        coarse: 5.0,
    },
    NumSpec {
        key: "delay",
        min: 0.0,
        max: 5.0,
        unit: Unit::Seconds,
        step: 0.1,
        coarse: 1.0,
    },
];

impl Default for FrozenParams {
    fn default() -> Self {
        Self {
            ttl_ms: 10_000,
            keepalive_ms: 3_000,
            pause_start_ms: 12_000,
            pause_len_ms: 14_000,
            delay_ms: 0,
            fencing: true,
            stop_on_loss: false,
        }
    }
}

/// Every knob of the frozen holder: its five times, then its two switches.
static FROZEN_KNOBS: [Knob; 7] = [
    Knob::Num(FROZEN_SPECS[0]),
    Knob::Num(FROZEN_SPECS[1]),
    Knob::Num(FROZEN_SPECS[2]),
    Knob::Num(FROZEN_SPECS[3]),
    Knob::Num(FROZEN_SPECS[4]),
    Knob::Flag { key: "fencing" },
    Knob::Flag {
        key: "stop_on_loss",
    },
];

impl Knobs for FrozenParams {
    fn knobs() -> &'static [Knob] {
        &FROZEN_KNOBS
    }

    fn set_knob(&mut self, key: &str, v: &Value) -> Result<(), ParamError> {
        match key {
            "fencing" => self.fencing = flag(key, v)?,
            "stop_on_loss" => self.stop_on_loss = flag(key, v)?,
            _ => {
                let spec = Self::spec(key).ok_or_else(|| unknown_knob::<Self>(key))?;
                let ms = from_secs(spec.check(num(key, v)?)?);
                match key {
                    "ttl" => self.ttl_ms = ms,
                    "keepalive" => self.keepalive_ms = ms,
                    "pause_start" => self.pause_start_ms = ms,
                    "pause_len" => self.pause_len_ms = ms,
                    "delay" => self.delay_ms = ms,
                    _ => return Err(unknown_knob::<Self>(key)),
                }
            }
        }
        Ok(())
    }
}

impl FrozenParams {
    pub fn spec(key: &str) -> Option<&'static NumSpec> {
        FROZEN_SPECS.iter().find(|s| s.key == key)
    }

    /// Reads a numeric parameter in its unit (seconds here).
    pub fn get(&self, key: &str) -> Option<f64> {
        let ms = match key {
            "ttl" => self.ttl_ms,
            "keepalive" => self.keepalive_ms,
            "pause_start" => self.pause_start_ms,
            "pause_len" => self.pause_len_ms,
            "delay" => self.delay_ms,
            _ => return None,
        };
        Some(ms as f64 / 1000.0)
    }

    /// Sets a numeric parameter, given in seconds, after checking its range.
    pub fn set(&mut self, key: &str, secs: f64) -> Result<(), ParamError> {
        self.set_knob(key, &Value::Num(secs))
    }

    /// A one-line summary such as `ttl 10 s, keepalive 3 s, ...`.
    pub fn summary(&self) -> String {
        format!(
            "ttl {} s, keepalive {} s, pause {} s at {} s, delay {} s, fencing {}, stop-on-loss {}",
            fmt_secs(self.ttl_ms),
            fmt_secs(self.keepalive_ms),
            fmt_secs(self.pause_len_ms),
            fmt_secs(self.pause_start_ms),
            fmt_secs(self.delay_ms),
            on_off(self.fencing),
            on_off(self.stop_on_loss),
        )
    }
}
