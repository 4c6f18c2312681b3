//! Preset names as the shell completions offer them: the shipped presets a command can open.
//! Any other name, or a scenario file, still reaches the command, which checks it and lists
//! the known names when it is neither; so the list only ever suggests.

use std::ffi::OsStr;

use clap::builder::{PossibleValue, StringValueParser, TypedValueParser};

use crate::engine::trace::Family;

/// Which presets a command takes.
#[derive(Debug, Clone, Copy)]
pub enum Takes {
    Any,
    Only(Family),
    /// The families the family lab opens.
    Knobs,
}

#[derive(Debug, Clone, Copy)]
pub struct PresetName(pub Takes);

impl PresetName {
    fn takes(self, family: Family) -> bool {
        match self.0 {
            Takes::Any => true,
            Takes::Only(f) => f == family,
            Takes::Knobs => !matches!(family, Family::Frozen | Family::Abc | Family::Herd),
        }
    }
}

impl TypedValueParser for PresetName {
    type Value = String;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &OsStr,
    ) -> Result<String, clap::Error> {
        StringValueParser::new().parse_ref(cmd, arg, value)
    }

    /// Asked for only by completions, help and error messages, so parsing never loads them.
    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(
            crate::scenario::builtin()
                .iter()
                .filter(|p| self.takes(p.family))
                .map(|p| PossibleValue::new(p.name.as_str())),
        ))
    }
}
