//! Model questions on the families read through a table of knobs (Redlock, Snowflake): a
//! question may start from one of the family's presets (`preset = "..."`), fix any knob in
//! `params` and draw numeric knobs in `vary`, each checked exactly as a scenario file's value.

use std::collections::BTreeMap;

use toml::Spanned;

use crate::content::deck::ModelSpec;
use crate::engine::params::knobs::{Knob, Knobs, Value};
use crate::engine::params::{NumSpec, Params, RedlockParams, SnowflakeParams};
use crate::engine::trace::{Family, Metrics};
use crate::preset::Preset;

/// A problem with a question's model spec: the key and byte offset at fault, and what is wrong.
pub type Problem = (Option<String>, Option<usize>, String);

pub const REDLOCK_ASKS: [&str; 6] = [
    "validity_ms",
    "max_holders",
    "max_holders_nodes_view",
    "two_holders_ms",
    "stale_writes_accepted",
    "foreign_deletes",
];
pub const SNOWFLAKE_ASKS: [&str; 6] = [
    "ids_issued",
    "duplicate_ids",
    "max_wait_ms",
    "waited",
    "refused",
    "years",
];

/// A numeric knob's spec, for draws.
pub fn num_spec<K: Knobs>(key: &str) -> Option<&'static NumSpec> {
    match K::knob(key) {
        Some(Knob::Num(spec)) => Some(spec),
        _ => None,
    }
}

pub fn numeric_keys<K: Knobs>() -> Vec<&'static str> {
    K::knobs()
        .iter()
        .filter(|k| matches!(k, Knob::Num(_)))
        .map(Knob::key)
        .collect()
}

/// Every key a question may fix, `preset` included.
pub fn keys<K: Knobs>() -> Vec<&'static str> {
    let mut keys = vec!["preset"];
    keys.extend(K::knob_keys());
    keys
}

fn value_of(knob: &Knob, key: &str, v: &Spanned<toml::Value>) -> Result<Value, Problem> {
    let at = Some(v.span().start);
    let wrong = |what: &str| (Some(key.to_string()), at, format!("must be {what}"));
    Ok(match (knob, v.get_ref()) {
        (Knob::Num(_), toml::Value::Integer(i)) => Value::Num(*i as f64),
        (Knob::Num(_), toml::Value::Float(f)) => Value::Num(*f),
        (Knob::Num(_), _) => return Err(wrong("a number")),
        (Knob::Flag { .. }, toml::Value::Boolean(b)) => Value::Bool(*b),
        (Knob::Flag { .. }, _) => return Err(wrong("true or false")),
        (_, toml::Value::String(s)) => Value::Text(s.clone()),
        _ => return Err(wrong("a string")),
    })
}

/// The parameters of one variant: the preset (or the defaults), then `params`, then the draws.
pub fn build<K: Knobs + Default + Clone>(
    spec: &ModelSpec,
    drawn: &BTreeMap<String, f64>,
    presets: &[Preset],
    family: Family,
    unwrap: fn(&Params) -> Option<K>,
) -> Result<K, Problem> {
    let mut p = K::default();
    if let Some(name) = spec.params.get("preset") {
        let at = Some(name.span().start);
        let names = || {
            let v: Vec<&str> = presets
                .iter()
                .filter(|p| p.family == family)
                .map(|p| p.name.as_str())
                .collect();
            v.join(", ")
        };
        let wanted = name.get_ref().as_str().unwrap_or_default();
        p = presets
            .iter()
            .find(|q| q.name == wanted && q.family == family)
            .and_then(|q| unwrap(&q.params))
            .ok_or_else(|| {
                let message = format!(
                    "`{wanted}` is not a {} preset; one of: {}",
                    family.name(),
                    names()
                );
                (Some("preset".to_string()), at, message)
            })?;
    }
    for (key, v) in spec.params.iter().filter(|(k, _)| *k != "preset") {
        let at = Some(v.span().start);
        if spec.vary.contains_key(key) {
            let message = "is both fixed in params and drawn in vary".to_string();
            return Err((Some(key.clone()), at, message));
        }
        let Some(knob) = K::knob(key) else {
            let message = format!(
                "unknown parameter; valid parameters: {}",
                keys::<K>().join(", ")
            );
            return Err((Some(key.clone()), at, message));
        };
        p.set_knob(key, &value_of(knob, key, v)?)
            .map_err(|e| (Some(key.clone()), at, e.to_string()))?;
    }
    for (key, x) in drawn {
        let at = spec.vary.get(key).map(|v| v.span().start);
        p.set_knob(key, &Value::Num(*x))
            .map_err(|e| (Some(key.clone()), at, e.to_string()))?;
    }
    p.validate().map_err(|e| (None, None, e.to_string()))?;
    Ok(p)
}

/// Builds a variant's parameters for a knob family, if `family` is one.
pub fn params(
    family: &str,
    spec: &ModelSpec,
    drawn: &BTreeMap<String, f64>,
    presets: &[Preset],
) -> Option<Result<Params, Problem>> {
    Some(match family {
        "redlock" => build::<RedlockParams>(spec, drawn, presets, Family::Redlock, |p| match p {
            Params::Redlock(x) => Some(x.clone()),
            _ => None,
        })
        .map(Params::Redlock),
        "snowflake" => {
            build::<SnowflakeParams>(spec, drawn, presets, Family::Snowflake, |p| match p {
                Params::Snowflake(x) => Some(x.clone()),
                _ => None,
            })
            .map(Params::Snowflake)
        }
        _ => return None,
    })
}

/// The number a Redlock or Snowflake question asks for, read off the metrics.
pub fn answer(metrics: &Metrics, ask: &str) -> Option<f64> {
    match metrics {
        Metrics::Redlock(m) => match ask {
            "validity_ms" => m.validity_ms.map(|v| v as f64),
            "max_holders" => Some(f64::from(m.max_holders)),
            "max_holders_nodes_view" => Some(f64::from(m.max_holders_nodes_view)),
            "two_holders_ms" => Some(m.two_holders_ms as f64),
            "stale_writes_accepted" => Some(f64::from(m.stale_writes_accepted)),
            "foreign_deletes" => Some(f64::from(m.foreign_deletes)),
            _ => None,
        },
        Metrics::Snowflake(m) => match ask {
            "ids_issued" => Some(f64::from(m.ids_issued)),
            "duplicate_ids" => Some(f64::from(m.duplicate_ids)),
            "max_wait_ms" => Some(m.max_wait_ms as f64),
            "waited" => Some(f64::from(m.waited)),
            "refused" => Some(f64::from(m.refused)),
            "years" => Some((m.layout.years * 10.0).round() / 10.0),
            _ => None,
        },
        _ => None,
    }
}
