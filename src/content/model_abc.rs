//! What an `abc` model question may set beyond a preset's numeric parameters: the recipe's
//! choices (fencing, recovery, registration, reaction to a disconnect or a loss) and the timing
//! or target of the preset's faults. With these a question can draw a run that differs from
//! its preset in the one way the question is about.

use crate::engine::params::{
    AbcParams, Fault, NumSpec, OnDisconnect, OnLoss, ParamError, Recovery, Registration, Unit,
    WatchMode,
};

/// Why a question's abc setting cannot be applied to its preset.
#[derive(Debug, thiserror::Error)]
pub enum AbcSettingError {
    #[error("`{0}` is not a fault timing")]
    NotAFaultTiming(String),
    #[error("{0}")]
    OutOfRange(#[from] ParamError),
    #[error("must lie within the run of {run} s (got {secs})")]
    PastTheRun { run: f64, secs: f64 },
    /// The preset has no fault of this kind (`freeze`, `delete_between`) for the setting to move.
    #[error("the preset has no {0} fault to change")]
    NoSuchFault(&'static str),
    #[error("`{key}` takes one of: {} (got `{value}`)", options.join(", "))]
    NotAnOption {
        key: String,
        value: String,
        options: Vec<&'static str>,
    },
    #[error("`{0}` must be true or false")]
    NotTrueOrFalse(String),
    #[error("`{0}` must be a word")]
    NotAWord(String),
    #[error("`{0}` is not a choice of the abc family")]
    NotAChoice(String),
}

/// Fault timings a question may fix or draw, in seconds. Each applies to the preset's first
/// fault of that kind.
pub const FAULT_SPECS: [NumSpec; 4] = [
    fault_spec("freeze_at", 0.0),
    fault_spec("freeze_len", 0.01),
    fault_spec("disconnect_at", 0.0),
    fault_spec("disconnect_len", 0.01),
];

const fn fault_spec(key: &'static str, min: f64) -> NumSpec {
    NumSpec {
        key,
        min,
        max: 600.0,
        unit: Unit::Seconds,
        step: 0.01,
        coarse: 1.0,
    }
}

/// Keys that take a word rather than a number.
pub const CHOICE_KEYS: [&str; 8] = [
    "fencing",
    "watch",
    "recovery",
    "registration",
    "on_disconnect",
    "on_loss",
    "lost_reply",
    "race_reader",
];

pub fn fault_spec_of(key: &str) -> Option<&'static NumSpec> {
    FAULT_SPECS.iter().find(|s| s.key == key)
}

/// Sets a fault timing on `p`; the preset must have a fault of that kind, and the time must lie
/// within the run.
pub fn set_fault_time(p: &mut AbcParams, key: &str, secs: f64) -> Result<(), AbcSettingError> {
    let spec =
        fault_spec_of(key).ok_or_else(|| AbcSettingError::NotAFaultTiming(key.to_string()))?;
    spec.check(secs)?;
    let run = p.duration_ms as f64 / 1000.0;
    if secs > run {
        return Err(AbcSettingError::PastTheRun { run, secs });
    }
    let ms = (secs * 1000.0).round() as u64;
    let (freeze, at) = match key {
        "freeze_at" => (true, true),
        "freeze_len" => (true, false),
        "disconnect_at" => (false, true),
        _ => (false, false),
    };
    let slot = p.faults.iter_mut().find_map(|f| match f {
        Fault::Freeze { at_ms, len_ms, .. } if freeze => Some((at_ms, len_ms)),
        Fault::Disconnect { at_ms, len_ms, .. } if !freeze => Some((at_ms, len_ms)),
        _ => None,
    });
    let Some((at_ms, len_ms)) = slot else {
        let kind = if freeze { "freeze" } else { "disconnect" };
        return Err(AbcSettingError::NoSuchFault(kind));
    };
    *(if at { at_ms } else { len_ms }) = ms;
    Ok(())
}

fn pick<T: Copy>(
    key: &str,
    value: &str,
    options: &[(&'static str, T)],
) -> Result<T, AbcSettingError> {
    options
        .iter()
        .find(|(name, _)| *name == value)
        .map(|(_, t)| *t)
        .ok_or_else(|| AbcSettingError::NotAnOption {
            key: key.to_string(),
            value: value.to_string(),
            options: options.iter().map(|(n, _)| *n).collect(),
        })
}

/// Sets one of [`CHOICE_KEYS`] from its TOML value.
pub fn set_choice(p: &mut AbcParams, key: &str, v: &toml::Value) -> Result<(), AbcSettingError> {
    if key == "fencing" {
        p.fencing = v
            .as_bool()
            .ok_or_else(|| AbcSettingError::NotTrueOrFalse(key.to_string()))?;
        return Ok(());
    }
    let s = v
        .as_str()
        .ok_or_else(|| AbcSettingError::NotAWord(key.to_string()))?;
    match key {
        "watch" => {
            p.watch = pick(
                key,
                s,
                &[
                    ("predecessor", WatchMode::Predecessor),
                    ("children", WatchMode::Children),
                ],
            )?
        }
        "recovery" => {
            p.recovery = pick(
                key,
                s,
                &[("guid", Recovery::Guid), ("blind", Recovery::Blind)],
            )?
        }
        "registration" => {
            p.registration = pick(
                key,
                s,
                &[
                    ("atomic", Registration::Atomic),
                    ("two_step", Registration::TwoStep),
                ],
            )?
        }
        "on_disconnect" => {
            p.on_disconnect = pick(
                key,
                s,
                &[
                    ("suspend", OnDisconnect::Suspend),
                    ("carry_on", OnDisconnect::CarryOn),
                ],
            )?
        }
        "on_loss" => {
            p.on_loss = pick(
                key,
                s,
                &[("stop", OnLoss::Stop), ("carry_on", OnLoss::CarryOn)],
            )?
        }
        "lost_reply" => {
            let who = pick(key, s, &[("A", "A"), ("B", "B"), ("C", "C")])?;
            let slot = p.faults.iter_mut().find_map(|f| match f {
                Fault::DropCreateResponse { client } => Some(client),
                _ => None,
            });
            *slot.ok_or(AbcSettingError::NoSuchFault("drop_create_response"))? = who.to_string();
        }
        "race_reader" => {
            // The race matters only against the reader's own predecessor.
            let (who, ahead) = pick(key, s, &[("B", ("B", "A")), ("C", ("C", "B"))])?;
            let slot = p.faults.iter_mut().find_map(|f| match f {
                Fault::DeleteBetween { owner, reader } => Some((owner, reader)),
                _ => None,
            });
            let (owner, reader) = slot.ok_or(AbcSettingError::NoSuchFault("delete_between"))?;
            *owner = ahead.to_string();
            *reader = who.to_string();
        }
        _ => return Err(AbcSettingError::NotAChoice(key.to_string())),
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with_faults(faults: Vec<Fault>) -> AbcParams {
        AbcParams {
            faults,
            ..AbcParams::default()
        }
    }

    #[test]
    fn fault_times_change_the_first_fault_of_their_kind() {
        let mut p = with_faults(vec![Fault::Freeze {
            client: "A".into(),
            at_ms: 500,
            len_ms: 8000,
        }]);
        set_fault_time(&mut p, "freeze_len", 5.5).unwrap();
        assert_eq!(
            p.faults[0],
            Fault::Freeze {
                client: "A".into(),
                at_ms: 500,
                len_ms: 5500
            }
        );
        let err = set_fault_time(&mut p, "disconnect_len", 2.0).unwrap_err();
        assert!(matches!(err, AbcSettingError::NoSuchFault("disconnect")));
        assert_eq!(
            err.to_string(),
            "the preset has no disconnect fault to change"
        );
        let err = set_fault_time(&mut p, "freeze_at", 9999.0).unwrap_err();
        assert!(matches!(err, AbcSettingError::OutOfRange(_)));
        assert!(err.to_string().contains("600"), "{err}");
    }

    #[test]
    fn choices_set_the_recipe_and_the_fault_targets() {
        let mut p = with_faults(vec![
            Fault::DropCreateResponse { client: "B".into() },
            Fault::DeleteBetween {
                owner: "A".into(),
                reader: "B".into(),
            },
        ]);
        set_choice(&mut p, "recovery", &toml::Value::from("blind")).unwrap();
        set_choice(&mut p, "lost_reply", &toml::Value::from("A")).unwrap();
        set_choice(&mut p, "race_reader", &toml::Value::from("C")).unwrap();
        set_choice(&mut p, "fencing", &toml::Value::from(false)).unwrap();
        assert_eq!(p.recovery, Recovery::Blind);
        assert!(!p.fencing);
        assert_eq!(
            p.faults[0],
            Fault::DropCreateResponse { client: "A".into() }
        );
        assert_eq!(
            p.faults[1],
            Fault::DeleteBetween {
                owner: "B".into(),
                reader: "C".into()
            }
        );
        let err = set_choice(&mut p, "recovery", &toml::Value::from("hope")).unwrap_err();
        assert_eq!(
            err.to_string(),
            "`recovery` takes one of: guid, blind (got `hope`)"
        );
        let err = set_choice(&mut p, "fencing", &toml::Value::from("yes")).unwrap_err();
        assert_eq!(err.to_string(), "`fencing` must be true or false");
    }
}
