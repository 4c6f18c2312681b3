//! What can go wrong reading scenarios: a mistake in a file, placed at its line, column and key,
//! or a file that cannot be read.

use std::fmt;

use super::table::Refused;

/// A problem in a scenario file, pointing at the place to fix.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PresetError {
    pub file: String,
    pub line: usize,
    pub column: usize,
    /// The key at fault, when there is one.
    pub key: Option<String>,
    pub message: String,
}

impl fmt::Display for PresetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}: ", self.file, self.line, self.column)?;
        if let Some(key) = &self.key {
            write!(f, "`{key}`: ")?;
        }
        write!(f, "{}", self.message)
    }
}

impl std::error::Error for PresetError {}

impl PresetError {
    /// Places a refused value of `text` (the file `file`) at its line and column.
    pub(super) fn placed(file: &str, text: &str, r: Refused) -> Self {
        let (line, column) = crate::toml_place::line_col(text, r.span.start);
        Self {
            file: file.to_string(),
            line,
            column,
            key: r.key,
            message: r.message,
        }
    }
}

/// Why presets could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    #[error("{0}")]
    Preset(#[from] PresetError),
    #[error("cannot read {path}: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
}
