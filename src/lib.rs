//! locklab: a terminal lab where people learn distributed locks by watching them fail.
#![forbid(unsafe_code)]

// Files, signals and the live lab's processes are used the Unix way throughout.
#[cfg(not(unix))]
compile_error!("locklab runs on Unix (Linux and macOS terminals); this target is not supported");

pub mod cli;
pub mod cmd;
pub mod content;
pub mod engine;
pub mod error;
pub mod explore;
pub mod export;
pub mod i18n;
#[cfg(feature = "live")]
pub mod live;
pub mod plain;
pub mod progress;
pub mod quiz;
pub mod scenario;
pub mod source;
pub mod text;
pub mod toml_place;
pub mod tui;
pub mod view;

/// The version `--version` prints: the crate's, with the git commit it was built from when the
/// build had one (see `build.rs`).
pub const VERSION: &str = concat!(env!("CARGO_PKG_VERSION"), env!("LOCKLAB_COMMIT"));
