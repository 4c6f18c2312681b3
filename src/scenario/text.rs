//! The words a scenario file gives in both languages: what it teaches, a step's caption, a
//! question to the class.

use serde::Deserialize;

/// A sentence in both languages.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct Text {
    pub zh: String,
    pub en: String,
}
