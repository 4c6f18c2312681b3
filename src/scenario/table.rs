//! The one reader for parameter tables: a scenario file's `[params]` (and a script step's
//! `set`) and a quiz model question's `params` and `cases`.
//!
//! serde reads each table with the span of every value (`toml::Spanned`); the keys are the
//! family's, so the table has no fixed shape of its own. Here every value is checked for its
//! kind, and for its range or options through the family's own parameters; what is refused
//! names its key and the span of its value, which each caller places at the file, line and
//! column in the same way.

use std::collections::BTreeMap;
use std::ops::Range;

use toml::Spanned;

use crate::engine::params::ParamError;
use crate::engine::params::knobs::{Knob, Knobs, Value};

/// A parameter table as written, each value with its place in the file.
pub type Table = BTreeMap<String, Spanned<toml::Value>>;

/// A value that cannot be used: the key at fault, the byte span of the value, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refused {
    pub key: Option<String>,
    pub span: Range<usize>,
    pub message: String,
}

/// A refusal at `span`, naming `key`.
pub fn refuse(span: Range<usize>, key: Option<&str>, message: impl Into<String>) -> Refused {
    Refused {
        key: key.map(str::to_string),
        span,
        message: message.into(),
    }
}

pub fn number(key: &str, v: &Spanned<toml::Value>) -> Result<f64, Refused> {
    match v.get_ref() {
        toml::Value::Integer(i) => Ok(*i as f64),
        toml::Value::Float(f) => Ok(*f),
        _ => Err(refuse(v.span(), Some(key), "must be a number")),
    }
}

pub fn boolean(key: &str, v: &Spanned<toml::Value>) -> Result<bool, Refused> {
    v.get_ref()
        .as_bool()
        .ok_or_else(|| refuse(v.span(), Some(key), "must be true or false"))
}

pub fn string<'v>(key: &str, v: &'v Spanned<toml::Value>) -> Result<&'v str, Refused> {
    v.get_ref()
        .as_str()
        .ok_or_else(|| refuse(v.span(), Some(key), "must be a string"))
}

/// One of a fixed set of words.
pub fn choice<T: Copy>(
    key: &str,
    v: &Spanned<toml::Value>,
    options: &[(&str, T)],
) -> Result<T, Refused> {
    let s = string(key, v)?;
    options
        .iter()
        .find(|(name, _)| *name == s)
        .map(|(_, t)| *t)
        .ok_or_else(|| {
            let names: Vec<&str> = options.iter().map(|(n, _)| *n).collect();
            refuse(
                v.span(),
                Some(key),
                format!("`{s}` is not one of: {}", names.join(", ")),
            )
        })
}

/// A value the family refused (out of range, not one of its options).
pub fn param_err(key: &str, v: &Spanned<toml::Value>, e: ParamError) -> Refused {
    refuse(v.span(), Some(key), e.to_string())
}

pub fn unknown_param(key: &str, v: &Spanned<toml::Value>, valid: &[&str]) -> Refused {
    refuse(
        v.span(),
        Some(key),
        format!("unknown parameter; valid parameters: {}", valid.join(", ")),
    )
}

/// Applies settings, in order, to `p`, each through its knob; how the values fit together is
/// the caller's to check, once everything is set.
pub fn knobs<'a, K: Knobs>(
    p: &mut K,
    entries: impl IntoIterator<Item = (&'a String, &'a Spanned<toml::Value>)>,
) -> Result<(), Refused> {
    for (key, v) in entries {
        knob(p, key, v).unwrap_or_else(|| Err(unknown_param(key, v, &K::knob_keys())))?;
    }
    Ok(())
}

/// Sets one knob of a knob family, its value read as the kind the knob takes; `None` when the
/// family has no such knob, so the caller can list what it accepts.
pub fn knob<K: Knobs>(
    p: &mut K,
    key: &str,
    v: &Spanned<toml::Value>,
) -> Option<Result<(), Refused>> {
    let knob = K::knob(key)?;
    let value = match knob {
        Knob::Num(_) => number(key, v).map(Value::Num),
        Knob::Flag { .. } => boolean(key, v).map(Value::Bool),
        Knob::Choice { .. } | Knob::Text { .. } => string(key, v).map(|s| Value::Text(s.into())),
    };
    Some(value.and_then(|value| p.set_knob(key, &value).map_err(|e| param_err(key, v, e))))
}
