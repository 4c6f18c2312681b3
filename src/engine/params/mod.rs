//! Scenario parameters: their defaults, their allowed ranges and their validation.
//!
//! The command line, preset files, the terminal sliders and the quiz variants all set parameters
//! through [`NumSpec`] so that every entry point enforces the same ranges.

use serde::Serialize;

mod abc;
mod election;
mod etcd;
mod frozen;
mod herd;
pub mod knobs;
mod queue;
mod redlock;
mod snowflake;
mod tasks;

pub use abc::*;
pub use election::*;
pub use etcd::*;
pub use frozen::*;
pub use herd::*;
pub use queue::*;
pub use redlock::*;
pub use snowflake::*;
pub use tasks::*;

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
    #[error("{key} must be one of: {options}")]
    NotOneOf { key: String, options: String },
    #[error("{key} {problem}")]
    Invalid { key: String, problem: String },
}

/// Parameters of any scenario family.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "family", rename_all = "snake_case")]
pub enum Params {
    Frozen(FrozenParams),
    Abc(AbcParams),
    Herd(HerdParams),
    Rwlock(RwLockParams),
    Semaphore(SemaphoreParams),
    Election(ElectionParams),
    Tasks(TasksParams),
    Redlock(RedlockParams),
    Snowflake(SnowflakeParams),
    Etcd(EtcdParams),
}

/// Calls `$body` with the family's own parameters, whichever family they are.
macro_rules! each_family {
    ($params:expr, $p:ident => $body:expr) => {
        match $params {
            Params::Frozen($p) => $body,
            Params::Abc($p) => $body,
            Params::Herd($p) => $body,
            Params::Rwlock($p) => $body,
            Params::Semaphore($p) => $body,
            Params::Election($p) => $body,
            Params::Tasks($p) => $body,
            Params::Redlock($p) => $body,
            Params::Snowflake($p) => $body,
            Params::Etcd($p) => $body,
        }
    };
}

impl Params {
    /// The family these parameters run.
    pub fn family(&self) -> crate::engine::trace::Family {
        use crate::engine::trace::Family;
        match self {
            Params::Frozen(_) => Family::Frozen,
            Params::Abc(_) => Family::Abc,
            Params::Herd(_) => Family::Herd,
            Params::Rwlock(_) => Family::Rwlock,
            Params::Semaphore(_) => Family::Semaphore,
            Params::Election(_) => Family::Election,
            Params::Tasks(_) => Family::Tasks,
            Params::Redlock(_) => Family::Redlock,
            Params::Snowflake(_) => Family::Snowflake,
            Params::Etcd(_) => Family::Etcd,
        }
    }

    /// Sets one knob of whichever family these are, after checking it.
    pub fn set_knob(&mut self, key: &str, value: &knobs::Value) -> Result<(), ParamError> {
        use knobs::Knobs as _;
        each_family!(self, p => p.set_knob(key, value))
    }

    /// Checks how the family's values fit together, once every knob is set.
    pub fn validate(&self) -> Result<(), ParamError> {
        use knobs::Knobs as _;
        each_family!(self, p => p.validate())
    }
}

pub fn on_off(b: bool) -> &'static str {
    if b { "on" } else { "off" }
}

#[cfg(test)]
mod tests {
    use super::knobs::Knobs as _;
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
