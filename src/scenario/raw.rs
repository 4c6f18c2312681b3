//! The shape of a scenario file as serde reads it, every value with its span. Each table has a
//! fixed set of keys (`deny_unknown_fields`) except `params`, whose keys are the family's.

use serde::Deserialize;
use toml::Spanned;

use super::table::Table;
use super::text::Text;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawPreset {
    pub(super) family: Spanned<String>,
    pub(super) about: Spanned<Text>,
    #[serde(default)]
    pub(super) params: Table,
    #[serde(default)]
    pub(super) faults: Vec<Spanned<RawFault>>,
    #[serde(default)]
    pub(super) locked: Vec<Spanned<String>>,
    #[serde(default)]
    pub(super) script: Vec<Spanned<RawStep>>,
    /// The presenter opens in prediction mode (a class script).
    #[serde(default)]
    pub(super) predict: bool,
    /// An exact order of steps (an explorer's counterexample), for the abc family.
    #[serde(default)]
    pub(super) schedule: Vec<Spanned<String>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawStep {
    pub(super) at: Option<Spanned<f64>>,
    #[serde(default)]
    pub(super) set: Table,
    pub(super) zh: String,
    pub(super) en: String,
    pub(super) ask: Option<Spanned<String>>,
    pub(super) question: Option<Spanned<Text>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawFault {
    pub(super) kind: Spanned<String>,
    pub(super) client: Option<Spanned<String>>,
    pub(super) at: Option<Spanned<f64>>,
    pub(super) len: Option<Spanned<f64>>,
    pub(super) owner: Option<Spanned<String>>,
    pub(super) reader: Option<Spanned<String>>,
}
