//! locklab: a terminal lab where people learn distributed locks by watching them fail.
#![forbid(unsafe_code)]

pub mod engine;
