//! Scenario parameters: their defaults, their allowed ranges and their validation.
//!
//! The command line, preset files, the terminal sliders and the quiz variants all set parameters
//! through [`NumSpec`] so that every entry point enforces the same ranges.

use serde::Serialize;

use super::time::{Millis, fmt_secs, from_secs};

/// The unit a numeric parameter is written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Unit {
    Seconds,
    Milliseconds,
    Count,
}

/// A numeric parameter: its key, allowed range and slider steps.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct NumSpec {
    /// The key in preset files and quiz banks (`pause_start`); the command line uses dashes.
    pub key: &'static str,
    pub min: f64,
    pub max: f64,
    pub unit: Unit,
    /// Slider steps: fine and coarse (with Shift).
    pub step: f64,
    pub coarse: f64,
}

impl NumSpec {
    /// The command-line spelling of the key (`--pause-start`).
    pub fn flag(&self) -> String {
        format!("--{}", self.key.replace('_', "-"))
    }

    /// Checks `value` against the range.
    pub fn check(&self, value: f64) -> Result<f64, ParamError> {
        if !value.is_finite() || value < self.min || value > self.max {
            return Err(ParamError::OutOfRange {
                key: self.key,
                value,
                spec: *self,
            });
        }
        if self.unit == Unit::Count && value.fract() != 0.0 {
            return Err(ParamError::NotWhole {
                key: self.key,
                value,
            });
        }
        Ok(value)
    }

    /// The allowed range in words, such as `1 to 30 s`.
    pub fn range_text(&self) -> String {
        let unit = match self.unit {
            Unit::Seconds => " s",
            Unit::Milliseconds => " ms",
            Unit::Count => "",
        };
        format!("{} to {}{unit}", trim_num(self.min), trim_num(self.max))
    }
}

fn trim_num(v: f64) -> String {
    if v.fract() == 0.0 {
        format!("{}", v as i64)
    } else {
        format!("{v}")
    }
}

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ParamError {
    #[error("{key} must be {range} (got {value})", range = spec.range_text())]
    OutOfRange {
        key: &'static str,
        value: f64,
        spec: NumSpec,
    },
    #[error("{key} must be a whole number (got {value})")]
    NotWhole { key: &'static str, value: f64 },
    #[error("unknown parameter `{key}`; valid parameters: {valid}")]
    Unknown { key: String, valid: String },
    #[error("{key} must be {expected}")]
    WrongType { key: String, expected: &'static str },
}

/// Parameters of any scenario family.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "family", rename_all = "snake_case")]
pub enum Params {
    Frozen(FrozenParams),
    Abc(AbcParams),
    Herd(HerdParams),
}

// ---------------------------------------------------------------------------------------------
// The frozen holder

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

impl FrozenParams {
    pub const BOOL_KEYS: [&'static str; 2] = ["fencing", "stop_on_loss"];

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
        let spec = Self::spec(key).ok_or_else(|| unknown(key, Self::keys()))?;
        let ms = from_secs(spec.check(secs)?);
        match key {
            "ttl" => self.ttl_ms = ms,
            "keepalive" => self.keepalive_ms = ms,
            "pause_start" => self.pause_start_ms = ms,
            "pause_len" => self.pause_len_ms = ms,
            _ => self.delay_ms = ms,
        }
        Ok(())
    }

    pub fn set_bool(&mut self, key: &str, on: bool) -> Result<(), ParamError> {
        match key {
            "fencing" => self.fencing = on,
            "stop_on_loss" => self.stop_on_loss = on,
            _ => return Err(unknown(key, Self::keys())),
        }
        Ok(())
    }

    pub fn keys() -> Vec<&'static str> {
        FROZEN_SPECS
            .iter()
            .map(|s| s.key)
            .chain(Self::BOOL_KEYS)
            .collect()
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

pub fn on_off(b: bool) -> &'static str {
    if b { "on" } else { "off" }
}

fn unknown(key: &str, valid: Vec<&'static str>) -> ParamError {
    ParamError::Unknown {
        key: key.to_string(),
        valid: valid.join(", "),
    }
}

// ---------------------------------------------------------------------------------------------
// Herd versus chain

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct HerdParams {
    pub waiters: u32,
    pub fanout: u32,
    pub grab_cost_ms: f64,
    pub hold_ms: f64,
}

pub const HERD_SPECS: [NumSpec; 4] = [
    NumSpec {
        key: "waiters",
        min: 1.0,
        max: 10_000.0,
        unit: Unit::Count,
        step: 1.0,
        coarse: 10.0,
    },
    NumSpec {
        key: "fanout",
        min: 1.0,
        max: 10_000.0,
        unit: Unit::Count,
        step: 1.0,
        coarse: 10.0,
    },
    NumSpec {
        key: "grab_cost_ms",
        min: 0.0,
        max: 1_000.0,
        unit: Unit::Milliseconds,
        step: 0.5,
        coarse: 5.0,
    },
    NumSpec {
        key: "hold_ms",
        min: 0.0,
        max: 10_000.0,
        unit: Unit::Milliseconds,
        step: 10.0,
        coarse: 100.0,
    },
];

impl Default for HerdParams {
    fn default() -> Self {
        Self {
            waiters: 50,
            fanout: 1,
            grab_cost_ms: 2.0,
            hold_ms: 100.0,
        }
    }
}

impl HerdParams {
    pub fn spec(key: &str) -> Option<&'static NumSpec> {
        HERD_SPECS.iter().find(|s| s.key == key)
    }

    pub fn keys() -> Vec<&'static str> {
        HERD_SPECS.iter().map(|s| s.key).collect()
    }

    pub fn get(&self, key: &str) -> Option<f64> {
        Some(match key {
            "waiters" => self.waiters as f64,
            "fanout" => self.fanout as f64,
            "grab_cost_ms" => self.grab_cost_ms,
            "hold_ms" => self.hold_ms,
            _ => return None,
        })
    }

    /// Sets one parameter after checking its range. Fan-out is checked against the waiters by
    /// [`HerdParams::validate`], since either may be set first.
    pub fn set(&mut self, key: &str, value: f64) -> Result<(), ParamError> {
        let spec = Self::spec(key).ok_or_else(|| unknown(key, Self::keys()))?;
        let v = spec.check(value)?;
        match key {
            "waiters" => self.waiters = v as u32,
            "fanout" => self.fanout = v as u32,
            "grab_cost_ms" => self.grab_cost_ms = v,
            _ => self.hold_ms = v,
        }
        Ok(())
    }

    /// Checks the cross-parameter rule: fan-out is 1 to N.
    pub fn validate(&self) -> Result<(), ParamError> {
        let spec = NumSpec {
            max: self.waiters as f64,
            ..HERD_SPECS[1]
        };
        spec.check(self.fanout as f64).map(|_| ())
    }
}

// ---------------------------------------------------------------------------------------------
// The A/B/C queue

pub use super::actors::lock_client::{
    OnDisconnect, OnLoss, Recovery, Registration, TokenSource, WatchMode,
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
}

impl Fault {
    pub fn client(&self) -> &str {
        match self {
            Fault::Freeze { client, .. }
            | Fault::Disconnect { client, .. }
            | Fault::Crash { client, .. }
            | Fault::DropCreateResponse { client } => client,
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
    pub faults: Vec<Fault>,
    /// Seeds the GUIDs the clients put in their node names.
    pub seed: u64,
}

pub const ABC_SPECS: [NumSpec; 7] = [
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
            watch: WatchMode::Predecessor,
            recovery: Recovery::Guid,
            registration: Registration::Atomic,
            on_disconnect: OnDisconnect::Suspend,
            on_loss: OnLoss::Stop,
            fencing: true,
            token: TokenSource::Czxid,
            first_sequence: 17,
            first_zxid: 100,
            faults: Vec::new(),
            seed: 1,
        }
    }
}

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
            _ => self.duration_ms = ms,
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_are_enforced_with_a_clear_message() {
        let mut p = FrozenParams::default();
        assert!(p.set("ttl", 9.5).is_ok());
        assert_eq!(p.ttl_ms, 9_500);
        let err = p.set("ttl", 45.0).unwrap_err();
        assert_eq!(err.to_string(), "ttl must be 1 to 30 s (got 45)");
        let err = p.set("colour", 1.0).unwrap_err();
        assert!(
            err.to_string().contains("valid parameters: ttl, keepalive"),
            "{err}"
        );
        assert_eq!(
            FrozenParams::spec("pause_start").unwrap().flag(),
            "--pause-start"
        );
    }

    #[test]
    fn herd_fanout_must_not_exceed_waiters() {
        let mut p = HerdParams {
            waiters: 10,
            fanout: 11,
            ..HerdParams::default()
        };
        assert!(p.validate().is_err());
        p.fanout = 10;
        assert!(p.validate().is_ok());
        assert!(p.set("waiters", 2.5).is_err());
    }
}
