//! Views of a trace outside the terminal UI: plain text (for `locklab sim` and handouts) and JSON.

pub mod data_node;
pub mod json;
pub mod summaries;
pub mod svg;
pub mod text;
