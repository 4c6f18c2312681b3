//! Model questions on the families whose parameters are a table of knobs (read-write locks,
//! semaphores, leader election, durable tasks): which they are, what each can ask, and how a
//! question's settings become engine parameters through the same knobs a preset uses.

use std::collections::BTreeMap;

use toml::Spanned;

use crate::engine::params::knobs::{Knob, Knobs, Value};
use crate::engine::params::{
    ElectionParams, NumSpec, Params, RwLockParams, SemaphoreParams, TasksParams,
};

pub const RWLOCK_ASKS: [&str; 4] = [
    "max_holders",
    "max_concurrent_readers",
    "writer_wait_ms",
    "grants_before_writer",
];
pub const SEMAPHORE_ASKS: [&str; 1] = ["max_holders"];
pub const ELECTION_ASKS: [&str; 4] = [
    "stale_submits_accepted",
    "stale_submits_rejected",
    "final_epoch",
    "final_version",
];
pub const TASKS_ASKS: [&str; 7] = [
    "effects_applied",
    "late_refused",
    "late_accepted",
    "final_version",
    "final_attempt",
    "tasks_waiting",
    "max_believers",
];

/// The knob families by name, with what a question on each may ask.
pub fn asks(family: &str) -> Option<&'static [&'static str]> {
    Some(match family {
        "rwlock" => &RWLOCK_ASKS,
        "semaphore" => &SEMAPHORE_ASKS,
        "election" => &ELECTION_ASKS,
        "tasks" => &TASKS_ASKS,
        _ => return None,
    })
}

fn knobs(family: &str) -> &'static [Knob] {
    match family {
        "rwlock" => RwLockParams::knobs(),
        "semaphore" => SemaphoreParams::knobs(),
        "election" => ElectionParams::knobs(),
        "tasks" => TasksParams::knobs(),
        _ => &[],
    }
}

/// A numeric knob's spec, for draws and placeholders.
pub fn num_spec(family: &str, key: &str) -> Option<&'static NumSpec> {
    knobs(family).iter().find_map(|k| match k {
        Knob::Num(spec) if spec.key == key => Some(spec),
        _ => None,
    })
}

pub fn keys(family: &str) -> Vec<&'static str> {
    knobs(family).iter().map(Knob::key).collect()
}

pub fn numeric_keys(family: &str) -> Vec<&'static str> {
    knobs(family)
        .iter()
        .filter_map(|k| match k {
            Knob::Num(spec) => Some(spec.key),
            _ => None,
        })
        .collect()
}

/// A setting that cannot be applied: the key, where it was written, and why.
pub struct Refused {
    pub key: String,
    pub at: Option<usize>,
    pub message: String,
}

/// Applies the fixed settings, then the drawn numbers, to the family's defaults.
pub fn params<'a>(
    family: &str,
    tables: impl Iterator<Item = (&'a String, &'a Spanned<toml::Value>)>,
    drawn: &BTreeMap<String, f64>,
) -> Result<Params, Refused> {
    match family {
        "rwlock" => build::<RwLockParams>(tables, drawn).map(Params::Rwlock),
        "semaphore" => build::<SemaphoreParams>(tables, drawn).map(Params::Semaphore),
        "election" => build::<ElectionParams>(tables, drawn).map(Params::Election),
        _ => build::<TasksParams>(tables, drawn).map(Params::Tasks),
    }
}

fn build<'a, K: Knobs + Default>(
    tables: impl Iterator<Item = (&'a String, &'a Spanned<toml::Value>)>,
    drawn: &BTreeMap<String, f64>,
) -> Result<K, Refused> {
    let mut p = K::default();
    for (key, v) in tables {
        let at = Some(v.span().start);
        let refuse = |message: String| Refused {
            key: key.clone(),
            at,
            message,
        };
        if K::knob(key).is_none() {
            return Err(refuse(format!(
                "unknown parameter; valid parameters: {}",
                K::knob_keys().join(", ")
            )));
        }
        let value = match v.get_ref() {
            toml::Value::Integer(i) => Value::Num(*i as f64),
            toml::Value::Float(f) => Value::Num(*f),
            toml::Value::Boolean(b) => Value::Bool(*b),
            toml::Value::String(s) => Value::Text(s.clone()),
            _ => return Err(refuse("must be a number, true or false, or a word".into())),
        };
        p.set_knob(key, &value).map_err(|e| refuse(e.to_string()))?;
    }
    for (key, n) in drawn {
        p.set_knob(key, &Value::Num(*n)).map_err(|e| Refused {
            key: key.clone(),
            at: None,
            message: e.to_string(),
        })?;
    }
    Ok(p)
}
