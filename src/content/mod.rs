//! Teaching material: lessons, glossaries and quiz decks, read from a [`Source`], and the
//! `locklab check` validator that keeps them consistent with each other and with the engine.
//!
//! Nothing here draws on a terminal; callers decide how to show what is loaded or found.
//!
//! [`Source`]: crate::source::Source

pub mod check;
pub mod check_cues;
pub mod check_order;
pub mod check_quiz;
pub mod check_spread;
pub mod deck;
pub mod lesson;
pub mod model;
pub mod model_abc;
pub mod model_knobs;
pub mod model_text;
pub mod selftest;
pub mod vocab;

use std::fmt;

use serde::Serialize;

/// A problem in a content file, pointing at the place to fix.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Located {
    pub file: String,
    /// 1-based; 0 when the problem concerns the file as a whole.
    pub line: usize,
    pub column: usize,
    /// The key at fault, when there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
    pub message: String,
}

impl Located {
    /// A problem at byte `offset` of `text`.
    pub fn at(file: &str, text: &str, offset: usize, key: Option<&str>, message: String) -> Self {
        let (line, column) = crate::toml_place::line_col(text, offset);
        Self {
            file: file.to_string(),
            line,
            column,
            key: key.map(str::to_string),
            message,
        }
    }
}

/// The file's problem when it is not readable text, as a located problem of that file.
pub fn readable(f: &crate::source::SourceFile) -> Result<(), Located> {
    match &f.unreadable {
        None => Ok(()),
        Some(u) => Err(Located {
            file: f.display.clone(),
            line: u.line,
            column: u.column,
            key: None,
            message: u.message.clone(),
        }),
    }
}

impl fmt::Display for Located {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}: ", self.file, self.line, self.column)?;
        if let Some(key) = &self.key {
            write!(f, "`{key}`: ")?;
        }
        write!(f, "{}", self.message)
    }
}

impl std::error::Error for Located {}

/// Parses TOML into `T`, turning a syntax or shape error into a [`Located`] problem.
pub(crate) fn parse_toml<T: serde::de::DeserializeOwned>(
    file: &str,
    text: &str,
) -> Result<T, Located> {
    toml::from_str(text).map_err(|e| {
        let (span, key) = crate::toml_place::toml_error_place(text, &e);
        Located::at(
            file,
            text,
            span.start,
            key.as_deref(),
            e.message().trim().to_string(),
        )
    })
}

/// The file stem of a relative path: `quizzes/05-fencing.toml` -> `05-fencing`.
pub(crate) fn stem(rel: &str) -> &str {
    let name = rel.rsplit('/').next().unwrap_or(rel);
    name.rsplit_once('.').map_or(name, |(s, _)| s)
}
