//! One table of parameters per family, read the same way from a scenario file, the command line
//! and a quiz variant: numbers checked against their range, choices against their options.

use super::{NumSpec, ParamError, Unit};

/// One parameter a family takes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Knob {
    Num(NumSpec),
    /// One of a fixed set of words.
    Choice {
        key: &'static str,
        options: &'static [&'static str],
    },
    Flag {
        key: &'static str,
    },
    /// Free text checked by the family (such as a string of roles).
    Text {
        key: &'static str,
        what: &'static str,
    },
}

impl Knob {
    pub fn key(&self) -> &'static str {
        match self {
            Knob::Num(s) => s.key,
            Knob::Choice { key, .. } | Knob::Flag { key } | Knob::Text { key, .. } => key,
        }
    }
}

/// A value for a knob, before the family checks it.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Num(f64),
    Text(String),
    Bool(bool),
}

/// A family's parameters, set one knob at a time.
pub trait Knobs: Sized {
    fn knobs() -> &'static [Knob];

    /// Sets one knob after checking it; numbers are in the knob's unit (seconds for times).
    fn set_knob(&mut self, key: &str, value: &Value) -> Result<(), ParamError>;

    /// Checks what no single knob can: how the values fit together. Called once every knob of
    /// a file, command line or quiz variant is set.
    fn validate(&self) -> Result<(), ParamError> {
        Ok(())
    }

    fn knob(key: &str) -> Option<&'static Knob> {
        Self::knobs().iter().find(|k| k.key() == key)
    }

    fn knob_keys() -> Vec<&'static str> {
        Self::knobs().iter().map(Knob::key).collect()
    }
}

/// The error for a key the family does not take.
pub fn unknown_knob<K: Knobs>(key: &str) -> ParamError {
    ParamError::Unknown {
        key: key.to_string(),
        valid: K::knob_keys().join(", "),
    }
}

/// Reads a number for `key`, or says what it should have been.
pub fn num(key: &str, v: &Value) -> Result<f64, ParamError> {
    match v {
        Value::Num(n) => Ok(*n),
        _ => Err(ParamError::WrongType {
            key: key.to_string(),
            expected: "a number",
        }),
    }
}

/// Reads one of `options` for `key`.
pub fn choice<'a>(key: &str, v: &'a Value, options: &[&str]) -> Result<&'a str, ParamError> {
    match v {
        Value::Text(t) if options.contains(&t.as_str()) => Ok(t),
        _ => Err(ParamError::NotOneOf {
            key: key.to_string(),
            options: options.join(", "),
        }),
    }
}

/// Reads on/off for `key`.
pub fn flag(key: &str, v: &Value) -> Result<bool, ParamError> {
    match v {
        Value::Bool(b) => Ok(*b),
        Value::Text(t) if t == "on" || t == "true" => Ok(true),
        Value::Text(t) if t == "off" || t == "false" => Ok(false),
        _ => Err(ParamError::WrongType {
            key: key.to_string(),
            expected: "true or false (on or off)",
        }),
    }
}

/// A numeric knob: its key, range, unit, and the fine and coarse steps a slider takes.
pub const fn num_knob(
    key: &'static str,
    min: f64,
    max: f64,
    unit: Unit,
    step: f64,
    coarse: f64,
) -> Knob {
    Knob::Num(NumSpec {
        key,
        min,
        max,
        unit,
        step,
        coarse,
    })
}
