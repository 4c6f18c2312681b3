//! What the command line asked to open, checked before the terminal is touched: a preset or
//! family that does not exist is named, with the ones that do.

use super::Start;
use super::screens;
use crate::engine::trace::Family;
use crate::scenario::Catalogue;
use crate::text::shown;

/// Why the screens cannot open what the command line named: input the user can fix.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StartError {
    /// `what` names the screen or family (`A/B/C`, `frozen-holder`, `rwlock`).
    #[error("no {what} preset named `{}`; choose one of: {}", shown(name), known.join(", "))]
    NoSuchPreset {
        what: String,
        name: String,
        known: Vec<String>,
    },
    #[error("no knob family named `{}`; choose one of: {}", shown(name), known.join(", "))]
    NoSuchFamily { name: String, known: Vec<String> },
    #[error("the {0} family has no preset to start from")]
    NoPresets(String),
}

impl From<StartError> for crate::error::UserError {
    fn from(e: StartError) -> Self {
        Self::usage(e.to_string())
    }
}

/// The names of a family's presets in the catalogue.
fn preset_names(catalogue: &Catalogue, family: Family) -> Vec<String> {
    catalogue
        .of_family(family)
        .into_iter()
        .map(|p| p.name.clone())
        .collect()
}

/// Checks what the command line asked to open before touching the terminal.
pub fn check_start(start: &Start, catalogue: &Catalogue) -> Result<(), StartError> {
    if let Start::Lab { family, preset } = start {
        return check_lab(family, preset.as_deref(), catalogue);
    }
    let (name, family, what) = match start {
        Start::Abc(Some(name)) => (name, Family::Abc, "A/B/C"),
        Start::Frozen(Some(name)) => (name, Family::Frozen, "frozen-holder"),
        _ => return Ok(()),
    };
    let known = preset_names(catalogue, family);
    if known.contains(name) {
        Ok(())
    } else {
        Err(StartError::NoSuchPreset {
            what: what.to_string(),
            name: name.clone(),
            known,
        })
    }
}

/// Checks a family lab's family and preset names, listing the valid ones.
fn check_lab(family: &str, preset: Option<&str>, catalogue: &Catalogue) -> Result<(), StartError> {
    let families: Vec<&str> = screens::family::FAMILIES.iter().map(|f| f.name()).collect();
    let Some(f) = Family::parse(family).filter(|f| families.contains(&f.name())) else {
        return Err(StartError::NoSuchFamily {
            name: family.to_string(),
            known: families.iter().map(|f| f.to_string()).collect(),
        });
    };
    let known = preset_names(catalogue, f);
    match preset {
        Some(name) if !known.iter().any(|k| k == name) => Err(StartError::NoSuchPreset {
            what: family.to_string(),
            name: name.to_string(),
            known,
        }),
        _ if known.is_empty() => Err(StartError::NoPresets(family.to_string())),
        _ => Ok(()),
    }
}
