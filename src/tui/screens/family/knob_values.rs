//! The knob families as one kind of thing for the lab screen: each family's knob table, a
//! knob set on a run's parameters through the family's own `set_knob` and `validate`, and a
//! knob's current value read back from those parameters.
//!
//! The value is read from the parameters as the engine serialises them (the same record
//! `locklab sim --json` prints), so what the panel shows is what the engine will run; a test
//! sets every knob and reads it back to keep the two in step.

use crate::engine::Params;
use crate::engine::params::knobs::{Knob, Knobs, Value};
use crate::engine::params::{
    ElectionParams, EtcdParams, ParamError, REDLOCK_CLIENTS, RedlockParams, RwLockParams,
    SemaphoreParams, SnowflakeParams, TasksParams, Unit,
};
use crate::engine::trace::Family;
use crate::i18n::family::{Fam, fam};
use crate::i18n::knobs::choice_word;
use crate::i18n::{Lang, Ui, ui};

/// The families this screen runs, in Home's order.
pub const FAMILIES: [Family; 7] = [
    Family::Rwlock,
    Family::Semaphore,
    Family::Election,
    Family::Tasks,
    Family::Redlock,
    Family::Snowflake,
    Family::Etcd,
];

/// Whether `f` is run by this screen.
pub fn is_knob_family(f: Family) -> bool {
    FAMILIES.contains(&f)
}

/// The family a run's parameters belong to.
pub fn family_of(p: &Params) -> Family {
    p.family()
}

/// The knob table of `f` (empty for the families with screens of their own).
pub fn knobs(f: Family) -> &'static [Knob] {
    match f {
        Family::Rwlock => RwLockParams::knobs(),
        Family::Semaphore => SemaphoreParams::knobs(),
        Family::Election => ElectionParams::knobs(),
        Family::Tasks => TasksParams::knobs(),
        Family::Redlock => RedlockParams::knobs(),
        Family::Snowflake => SnowflakeParams::knobs(),
        Family::Etcd => EtcdParams::knobs(),
        Family::Frozen | Family::Abc | Family::Herd => &[],
    }
}

/// `params` with one knob set, checked by the family as a preset file's value would be (the
/// single value, then how all values fit together). On an error nothing changes.
pub fn set(params: &Params, key: &str, v: &Value) -> Result<Params, ParamError> {
    fn one<K: Knobs + Clone>(p: &K, key: &str, v: &Value) -> Result<K, ParamError> {
        let mut p = p.clone();
        p.set_knob(key, v)?;
        p.validate()?;
        Ok(p)
    }
    Ok(match params {
        Params::Rwlock(p) => Params::Rwlock(one(p, key, v)?),
        Params::Semaphore(p) => Params::Semaphore(one(p, key, v)?),
        Params::Election(p) => Params::Election(one(p, key, v)?),
        Params::Tasks(p) => Params::Tasks(one(p, key, v)?),
        Params::Redlock(p) => Params::Redlock(one(p, key, v)?),
        Params::Snowflake(p) => Params::Snowflake(one(p, key, v)?),
        Params::Etcd(p) => Params::Etcd(one(p, key, v)?),
        Params::Frozen(_) | Params::Abc(_) | Params::Herd(_) => {
            return Err(ParamError::Unknown {
                key: key.to_string(),
                valid: String::new(),
            });
        }
    })
}

/// The parameters' fields by name, nested records (Snowflake's bit layout) lifted up.
fn fields(params: &Params) -> serde_json::Map<String, serde_json::Value> {
    let mut out = serde_json::Map::new();
    if let Ok(serde_json::Value::Object(m)) = serde_json::to_value(params) {
        for (k, v) in m {
            match v {
                serde_json::Value::Object(inner) => out.extend(inner),
                v => {
                    out.insert(k, v);
                }
            }
        }
    }
    out
}

fn joined(
    v: Option<&serde_json::Value>,
    sep: &str,
    each: impl Fn(&serde_json::Value) -> String,
) -> String {
    v.and_then(|v| v.as_array())
        .map(|a| a.iter().map(each).collect::<Vec<_>>().join(sep))
        .unwrap_or_default()
}

/// The current value of `knob` in `params`; `None` for a knob that is not set (a semaphore
/// with no lowering planned).
pub fn get(params: &Params, knob: &Knob) -> Option<Value> {
    let f = fields(params);
    let key = knob.key();
    match (knob, key) {
        (Knob::Text { .. }, "roles") => Some(Value::Text(joined(f.get("wants"), "", |w| {
            if w.as_str() == Some("write") {
                "w"
            } else {
                "r"
            }
            .to_string()
        }))),
        (Knob::Text { .. }, _) => Some(Value::Text(joined(f.get(key), ",", |n| n.to_string()))),
        // Redlock's and etcd's clients are both A to D, stored by index.
        (Knob::Choice { .. }, "pause_client" | "cut_client") => Some(Value::Text(
            f.get(key)
                .and_then(serde_json::Value::as_u64)
                .and_then(|i| REDLOCK_CLIENTS.get(i as usize))
                .map_or("none", |n| n)
                .to_string(),
        )),
        (Knob::Choice { .. }, _) => f.get(key)?.as_str().map(|s| Value::Text(s.to_string())),
        (Knob::Flag { .. }, _) => f.get(key)?.as_bool().map(Value::Bool),
        (Knob::Num(spec), _) => {
            // etcd's TTL is whole seconds, kept as such.
            if let Some(s) = f.get(&format!("{key}_s")) {
                return s.as_f64().map(Value::Num);
            }
            if let Some(ms) = f.get(&format!("{key}_ms")) {
                let ms = ms.as_f64()?;
                return Some(Value::Num(match spec.unit {
                    Unit::Seconds => ms / 1000.0,
                    Unit::Milliseconds | Unit::Count => ms,
                }));
            }
            // A number outside its range is a placeholder for "not in use" (a semaphore's
            // `lower_to` while no lowering is planned), so it reads as unset.
            f.get(key)?
                .as_f64()
                .filter(|n| (spec.min..=spec.max).contains(n))
                .map(Value::Num)
        }
    }
}

/// A knob's unit in this language, with the space before it (none for a count).
pub fn unit_words(unit: Unit, lang: Lang) -> &'static str {
    match unit {
        Unit::Seconds => lang.pick(" 秒", " s"),
        Unit::Milliseconds => lang.pick(" 毫秒", " ms"),
        Unit::Count => "",
    }
}

/// A knob's allowed range in words: `0 to 600 s`, `0 到 600 秒`.
pub fn range_words(spec: &crate::engine::params::NumSpec, lang: Lang) -> String {
    format!(
        "{}{}{}{}",
        super::super::secs(spec.min),
        lang.pick(" 到 ", " to "),
        super::super::secs(spec.max),
        unit_words(spec.unit, lang)
    )
}

/// A knob's value in words: seconds and milliseconds with their unit, switches on or off.
pub fn shown(knob: &Knob, v: Option<&Value>, lang: Lang) -> String {
    let (on, off) = (ui(Ui::On, lang), ui(Ui::Off, lang));
    match (knob, v) {
        (_, None) => fam(Fam::Unset, lang).to_string(),
        (Knob::Num(spec), Some(Value::Num(n))) => {
            format!("{}{}", super::super::secs(*n), unit_words(spec.unit, lang))
        }
        (Knob::Choice { .. }, Some(Value::Text(t))) => choice_word(t, lang).to_string(),
        (_, Some(Value::Bool(b))) => (if *b { on } else { off }).to_string(),
        (_, Some(Value::Text(t))) if t.is_empty() => "-".to_string(),
        (_, Some(Value::Text(t))) => t.clone(),
        (_, Some(Value::Num(n))) => super::super::secs(*n),
    }
}

/// The next value of a knob moved by `dir` (Shift: `coarse`): a number by its step within its
/// range, a switch flipped, a choice the next (or previous) option. Text gives `None`.
pub fn next(knob: &Knob, v: Option<&Value>, dir: i8, coarse: bool) -> Option<Value> {
    match knob {
        Knob::Num(spec) => {
            let now = match v {
                Some(Value::Num(n)) => *n,
                // An unset knob starts at the bottom of its range.
                _ => return Some(Value::Num(spec.min)),
            };
            let step = if coarse { spec.coarse } else { spec.step };
            let raw = (now + f64::from(dir) * step).clamp(spec.min, spec.max);
            // Snap to the fine step from the bottom of the range, so 0.1-steps stay printable.
            let snapped = spec.min + ((raw - spec.min) / spec.step).round() * spec.step;
            // Float dust (1.9500000000000002) would read back as a different number.
            let clean = (snapped * 1e6).round() / 1e6;
            Some(Value::Num(clean.clamp(spec.min, spec.max)))
        }
        Knob::Flag { .. } => Some(Value::Bool(!matches!(v, Some(Value::Bool(true))))),
        Knob::Choice { options, .. } => {
            let now = match v {
                Some(Value::Text(t)) => options.iter().position(|o| o == t).unwrap_or(0),
                _ => 0,
            };
            let n = options.len() as i64;
            let i = (now as i64 + i64::from(dir)).rem_euclid(n.max(1)) as usize;
            options.get(i).map(|o| Value::Text((*o).to_string()))
        }
        Knob::Text { .. } => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn defaults(f: Family) -> Params {
        match f {
            Family::Rwlock => Params::Rwlock(RwLockParams::default()),
            Family::Semaphore => Params::Semaphore(SemaphoreParams::default()),
            Family::Election => Params::Election(ElectionParams::default()),
            Family::Tasks => Params::Tasks(TasksParams::default()),
            Family::Redlock => Params::Redlock(RedlockParams::default()),
            Family::Etcd => Params::Etcd(EtcdParams::default()),
            _ => Params::Snowflake(SnowflakeParams::default()),
        }
    }

    /// Every knob of every family reads back exactly what was set: the panel shows what the
    /// engine runs.
    #[test]
    fn every_knob_reads_back_what_was_set() {
        for f in FAMILIES {
            let base = defaults(f);
            for knob in knobs(f) {
                let now = get(&base, knob);
                if let Knob::Text { .. } = knob {
                    // Text knobs read back in the spelling the family takes.
                    let again = set(&base, knob.key(), now.as_ref().unwrap())
                        .unwrap_or_else(|e| panic!("{f:?} {}: {e}", knob.key()));
                    assert_eq!(get(&again, knob), now, "{f:?} {}", knob.key());
                    continue;
                }
                for dir in [1, -1] {
                    let Some(v) = next(knob, now.as_ref(), dir, false) else {
                        panic!("{f:?} {} has no next value", knob.key());
                    };
                    // Some values do not fit with the others (a node beyond the count): skip.
                    let Ok(p) = set(&base, knob.key(), &v) else {
                        continue;
                    };
                    assert_eq!(get(&p, knob), Some(v.clone()), "{f:?} {}", knob.key());
                }
                if let Knob::Num(spec) = knob {
                    for edge in [spec.min, spec.max] {
                        if let Ok(p) = set(&base, knob.key(), &Value::Num(edge)) {
                            assert_eq!(
                                get(&p, knob),
                                Some(Value::Num(edge)),
                                "{f:?} {} at {edge}",
                                knob.key()
                            );
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn a_refused_value_says_why_and_changes_nothing() {
        let base = defaults(Family::Redlock);
        let err = set(&base, "crash_node", &Value::Num(7.0)).unwrap_err();
        assert!(err.to_string().contains("5 nodes"), "{err}");
        let knob = RedlockParams::knob("crash_node").unwrap();
        assert_eq!(get(&base, knob), Some(Value::Num(0.0)));
    }

    #[test]
    fn choices_cycle_and_switches_flip() {
        let knob = RwLockParams::knob("read_rule").unwrap();
        let fair = Value::Text("fair".into());
        assert_eq!(
            next(knob, Some(&fair), 1, false),
            Some(Value::Text("skip_waiting_writers".into()))
        );
        assert_eq!(
            next(knob, Some(&fair), -1, false),
            next(knob, Some(&fair), 1, false)
        );
        let flag = ElectionParams::knob("conditional").unwrap();
        assert_eq!(
            next(flag, Some(&Value::Bool(true)), 1, false),
            Some(Value::Bool(false))
        );
    }
}
