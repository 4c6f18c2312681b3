//! Model questions on the families whose parameters are a table of knobs (read-write locks,
//! semaphores, leader election, durable tasks, Redlock, Snowflake IDs, etcd's lease lock):
//! which they are, what each can ask, and how a question's settings become engine parameters
//! through the same knobs a preset uses. A question may start from one of the family's
//! presets (`preset = "..."`).

use std::collections::BTreeMap;

use toml::Spanned;

use crate::engine::params::knobs::{Knob, Knobs, Value};
use crate::engine::params::{
    ElectionParams, EtcdParams, NumSpec, Params, RedlockParams, RwLockParams, SemaphoreParams,
    SnowflakeParams, TasksParams,
};
use crate::engine::registry;
use crate::engine::trace::Family;
use crate::scenario::Preset;
use crate::scenario::table;

/// Whether `family` is one of the knob families a question's settings are read for.
pub fn is_knob_family(family: &str) -> bool {
    registry::named(family).is_some_and(|e| !e.own_lab())
}

fn knobs(family: &str) -> &'static [Knob] {
    registry::named(family)
        .filter(|e| !e.own_lab())
        .map_or(&[], |e| e.knobs())
}

/// A numeric knob's spec, for draws and placeholders.
pub fn num_spec(family: &str, key: &str) -> Option<&'static NumSpec> {
    knobs(family).iter().find_map(|k| match k {
        Knob::Num(spec) if spec.key == key => Some(spec),
        _ => None,
    })
}

/// Every key a question may fix, `preset` included.
pub fn keys(family: &str) -> Vec<&'static str> {
    std::iter::once("preset")
        .chain(knobs(family).iter().map(Knob::key))
        .collect()
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

/// Applies the preset named by `preset` (or the family's defaults), then the fixed settings,
/// then the drawn numbers.
pub fn params<'a>(
    family: &str,
    tables: impl Iterator<Item = (&'a String, &'a Spanned<toml::Value>)>,
    drawn: &BTreeMap<String, f64>,
    presets: &[Preset],
) -> Result<Params, Refused> {
    macro_rules! build {
        ($ty:ty, $variant:ident) => {
            build::<$ty>(tables, drawn, presets, Family::$variant, |p| match p {
                Params::$variant(x) => Some(x.clone()),
                _ => None,
            })
            .map(Params::$variant)
        };
    }
    match family {
        "rwlock" => build!(RwLockParams, Rwlock),
        "semaphore" => build!(SemaphoreParams, Semaphore),
        "election" => build!(ElectionParams, Election),
        "redlock" => build!(RedlockParams, Redlock),
        "snowflake" => build!(SnowflakeParams, Snowflake),
        "etcd" => build!(EtcdParams, Etcd),
        _ => build!(TasksParams, Tasks),
    }
}

fn build<'a, K: Knobs + Default>(
    tables: impl Iterator<Item = (&'a String, &'a Spanned<toml::Value>)>,
    drawn: &BTreeMap<String, f64>,
    presets: &[Preset],
    family: Family,
    unwrap: fn(&Params) -> Option<K>,
) -> Result<K, Refused> {
    let tables: Vec<_> = tables.collect();
    let mut p = K::default();
    // The preset comes first wherever it is written, so the settings beside it change it.
    if let Some((key, v)) = tables.iter().find(|(k, _)| k.as_str() == "preset") {
        let wanted = v.get_ref().as_str().unwrap_or_default();
        p = presets
            .iter()
            .find(|q| q.name == wanted && q.family == family)
            .and_then(|q| unwrap(&q.params))
            .ok_or_else(|| {
                let names: Vec<&str> = presets
                    .iter()
                    .filter(|p| p.family == family)
                    .map(|p| p.name.as_str())
                    .collect();
                Refused {
                    key: (*key).clone(),
                    at: Some(v.span().start),
                    message: format!(
                        "`{wanted}` is not a {} preset; one of: {}",
                        family.name(),
                        names.join(", ")
                    ),
                }
            })?;
    }
    for (key, v) in tables.into_iter().filter(|(k, _)| k.as_str() != "preset") {
        // Each value is read as the kind its knob takes, by the reader scenario files use.
        let valid = || [&["preset"], &K::knob_keys()[..]].concat();
        table::knob(&mut p, key, v)
            .unwrap_or_else(|| Err(table::unknown_param(key, v, &valid())))
            .map_err(|r| Refused {
                key: key.clone(),
                at: Some(r.span.start),
                message: r.message,
            })?;
    }
    for (key, n) in drawn {
        p.set_knob(key, &Value::Num(*n)).map_err(|e| Refused {
            key: key.clone(),
            at: None,
            message: e.to_string(),
        })?;
    }
    p.validate().map_err(|e| Refused {
        key: "params".into(),
        at: None,
        message: e.to_string(),
    })?;
    Ok(p)
}
