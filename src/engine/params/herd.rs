//! Herd versus chain: parameters.

use serde::Serialize;

use super::knobs::{Knob, Knobs, Value, num, unknown_knob};
use super::{NumSpec, ParamError, Unit};

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

/// Every knob of herd versus chain.
static HERD_KNOBS: [Knob; 4] = [
    Knob::Num(HERD_SPECS[0]),
    Knob::Num(HERD_SPECS[1]),
    Knob::Num(HERD_SPECS[2]),
    Knob::Num(HERD_SPECS[3]),
];

impl Knobs for HerdParams {
    fn knobs() -> &'static [Knob] {
        &HERD_KNOBS
    }

    /// Sets one parameter after checking its range. Fan-out is checked against the waiters by
    /// [`Knobs::validate`], since either may be set first.
    fn set_knob(&mut self, key: &str, v: &Value) -> Result<(), ParamError> {
        let spec = Self::spec(key).ok_or_else(|| unknown_knob::<Self>(key))?;
        let n = spec.check(num(key, v)?)?;
        match key {
            "waiters" => self.waiters = n as u32,
            "fanout" => self.fanout = n as u32,
            "grab_cost_ms" => self.grab_cost_ms = n,
            "hold_ms" => self.hold_ms = n,
            _ => return Err(unknown_knob::<Self>(key)),
        }
        Ok(())
    }

    /// Checks the cross-parameter rule: fan-out is 1 to N.
    fn validate(&self) -> Result<(), ParamError> {
        let spec = NumSpec {
            max: self.waiters as f64,
            ..HERD_SPECS[1]
        };
        spec.check(self.fanout as f64).map(|_| ())
    }
}

impl HerdParams {
    pub fn spec(key: &str) -> Option<&'static NumSpec> {
        HERD_SPECS.iter().find(|s| s.key == key)
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

    /// Sets one parameter after checking its range (see [`Knobs::set_knob`]).
    pub fn set(&mut self, key: &str, value: f64) -> Result<(), ParamError> {
        self.set_knob(key, &Value::Num(value))
    }
}
