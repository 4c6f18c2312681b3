//! Reading one scenario file: its family, parameters, faults, schedule, locked keys and script,
//! each checked as it is read, every mistake placed at its file, line, column and key.

use toml::Spanned;

use super::error::PresetError;
use super::params::{family_params, valid_keys};
use super::preset::Preset;
use super::raw::RawPreset;
use super::steps::script_steps;
use super::table::{Refused, refuse};
use crate::engine::params::Params;
use crate::engine::trace::Family;

/// Parses one scenario file. `file` names it in messages; `name` is its preset name.
pub fn parse(name: &str, file: &str, text: &str) -> Result<Preset, PresetError> {
    let place = |r: Refused| PresetError::placed(file, text, r);
    let raw: RawPreset = toml::from_str(text).map_err(|e| {
        let (span, key) = crate::toml_place::toml_error_place(text, &e);
        place(refuse(span, key.as_deref(), e.message().trim().to_string()))
    })?;
    read(name, file, &raw).map_err(place)
}

/// Everything after the TOML itself: each part checked against the family.
fn read(name: &str, file: &str, raw: &RawPreset) -> Result<Preset, Refused> {
    let Some(family) = Family::parse(raw.family.get_ref()) else {
        let known: Vec<&str> = Family::ALL.iter().map(|f| f.name()).collect();
        return Err(refuse(
            raw.family.span(),
            Some("family"),
            format!(
                "unknown family `{}`; known families: {}",
                raw.family.get_ref(),
                known.join(", ")
            ),
        ));
    };
    if !super::params::takes_faults(family)
        && let Some(first) = raw.faults.first()
    {
        return Err(refuse(
            first.span(),
            Some("faults"),
            "this family takes no faults (the abc, rwlock and semaphore families do)",
        ));
    }
    let about = raw.about.get_ref().clone();
    if about.zh.trim().is_empty() || about.en.trim().is_empty() {
        return Err(refuse(
            0..0,
            Some("about"),
            "`about` needs a sentence in both zh and en",
        ));
    }
    let mut params = family_params(family, &raw.params, &raw.faults)?;
    let schedule = schedule(family, &raw.schedule)?;
    set_schedule(&mut params, &schedule);
    check_schedule(&params, &raw.schedule)?;
    let valid = valid_keys(family);
    let mut locked = Vec::new();
    for key in &raw.locked {
        if !valid.contains(&key.get_ref().as_str()) {
            let message = format!(
                "unknown parameter `{}`; valid parameters: {}",
                key.get_ref(),
                valid.join(", ")
            );
            return Err(refuse(key.span(), Some("locked"), message));
        }
        locked.push(key.get_ref().clone());
    }
    let mut script = script_steps(family, raw)?;
    for step in &mut script {
        set_schedule(&mut step.params, &schedule);
    }
    Ok(Preset {
        name: name.to_string(),
        family,
        about,
        params,
        locked,
        script,
        predict: raw.predict,
        origin: file.to_string(),
    })
}

/// Reads the `schedule` strings; only the abc family takes one.
fn schedule(
    family: Family,
    raw: &[Spanned<String>],
) -> Result<Vec<crate::engine::world::schedule::Scheduled>, Refused> {
    use crate::engine::world::schedule::Scheduled;
    if family != Family::Abc
        && let Some(first) = raw.first()
    {
        return Err(refuse(
            first.span(),
            Some("schedule"),
            "only the abc family takes a schedule",
        ));
    }
    let names = crate::engine::families::abc::ACTOR_NAMES;
    raw.iter()
        .map(|s| {
            Scheduled::parse(s.get_ref(), &names).map_err(|e| refuse(s.span(), Some("schedule"), e))
        })
        .collect()
}

fn set_schedule(params: &mut Params, schedule: &[crate::engine::world::schedule::Scheduled]) {
    if let Params::Abc(p) = params {
        p.schedule = schedule.to_vec();
    }
}

/// Every step of a schedule must be able to happen when its turn comes.
fn check_schedule(params: &Params, raw: &[Spanned<String>]) -> Result<(), Refused> {
    let Params::Abc(p) = params else {
        return Ok(());
    };
    match crate::engine::families::abc::check_schedule(p) {
        Ok(()) => Ok(()),
        Err(i) => Err(refuse(
            raw[i].span(),
            Some("schedule"),
            format!(
                "step {} (`{}`) cannot happen at that point of the run",
                i + 1,
                raw[i].get_ref()
            ),
        )),
    }
}
