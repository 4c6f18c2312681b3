//! Why a progress file, or the folder it lives in, cannot be used: each problem by name, with
//! the message the user reads.

use std::path::PathBuf;

use super::store::ENV_DATA_DIR;
use crate::source::ReadError;

/// Why a progress file's text is not a history locklab can use.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FileError {
    /// Text that is not TOML, or a value of the wrong kind, at a place in the file.
    #[error("{0}")]
    Syntax(Placed),
    #[error("line {line}, column {column}: not valid UTF-8 text")]
    NotUtf8 { line: usize, column: usize },
    #[error("schema_version {0} is out of range")]
    VersionOutOfRange(i64),
    #[error("schema_version must be a whole number")]
    VersionNotWhole,
    /// `answers` or `sessions` both inline and as tables of their own.
    #[error("`{0}` is given twice")]
    GivenTwice(&'static str),
    #[error("no migration from schema_version {0}")]
    NoMigration(u32),
    #[error(transparent)]
    Invalid(#[from] InvalidRecord),
}

/// A parse error's place: line and column (1-based), the key path, and the line quoted (clipped,
/// control characters made visible).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Placed {
    pub line: usize,
    pub column: usize,
    pub key: Option<String>,
    pub message: String,
    pub quoted: String,
}

impl std::fmt::Display for Placed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}, column {}", self.line, self.column)?;
        if let Some(k) = &self.key {
            write!(f, ", `{k}`")?;
        }
        write!(f, ": {}", self.message)?;
        if !self.quoted.is_empty() {
            write!(f, " (the line reads: {})", self.quoted)?;
        }
        Ok(())
    }
}

/// A record no locklab writes (a hand-edited file); numbers count from 1.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InvalidRecord {
    #[error("answer {number} (question `{question}`) scores {score} of at most {max}")]
    AnswerOverMax {
        number: usize,
        question: String,
        score: u32,
        max: u32,
    },
    #[error(
        "session {number} scores {score} of at most {max} ({answered} of {questions} questions answered)"
    )]
    SessionOverMax {
        number: usize,
        score: u32,
        max: u32,
        answered: u32,
        questions: u32,
    },
}

/// No `--data-dir`, no `LOCKLAB_DATA_DIR`, and no home folder to put a data folder in.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("cannot find a home folder for the progress file; set {ENV_DATA_DIR} or pass --data-dir")]
pub struct NoDataDir;

/// Why another progress file (one to merge) cannot be read; each message names the file.
#[derive(Debug, thiserror::Error)]
pub enum ReadProgressError {
    #[error("{}: {source}", path.display())]
    Read { path: PathBuf, source: ReadError },
    #[error("{}: {source}", path.display())]
    Parse { path: PathBuf, source: FileError },
    #[error("{}: written by a newer locklab (schema_version {found})", path.display())]
    Newer { path: PathBuf, found: u32 },
}

impl From<ReadProgressError> for crate::error::UserError {
    /// The file is the user's input: missing, not a file or malformed is for them to fix.
    fn from(e: ReadProgressError) -> Self {
        Self::usage(e.to_string())
    }
}

impl From<NoDataDir> for crate::error::UserError {
    fn from(e: NoDataDir) -> Self {
        Self::failed(e.to_string())
    }
}
