//! locklab: a terminal lab where people learn distributed locks by watching them fail.
#![forbid(unsafe_code)]

pub mod cli;
pub mod engine;
pub mod export;
pub mod i18n;
pub mod preset;
pub mod sim_cmd;
pub mod source;
pub mod text;
pub mod tui;
