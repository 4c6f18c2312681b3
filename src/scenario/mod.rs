//! Scenario files: the shipped presets under `assets/scenarios/` and any file a user writes,
//! with their instructor scripts.
//!
//! A file names its family, its parameters and one sentence in each language saying what it
//! teaches. serde reads its shape ([`raw`]) with the span of every value; the parameter tables
//! go through the one reader the quiz decks use too ([`table`]); faults, the schedule and the
//! script are checked against the family as they are read, and every mistake is reported with
//! the file, line, column and key at fault.

pub mod answers;
pub mod choices;
mod error;
mod faults;
pub mod horizon;
pub mod lab_question;
mod load;
mod params;
mod parse;
mod preset;
mod raw;
pub mod script;
mod steps;
pub mod table;
#[cfg(test)]
mod tests;
mod text;

pub use error::{LoadError, PresetError};
pub use load::{Catalogue, builtin, find, load_all, load_file};
pub use parse::parse;
pub use preset::{Preset, run_end};
pub use text::Text;
