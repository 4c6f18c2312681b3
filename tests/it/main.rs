//! The integration tests, as one test binary: each file is a module named after what it tests,
//! so `cargo test --test it cli_sim::` runs one file's tests and a failure reads
//! `cli_sim::frozen_json_carries_schema_trace_spans_and_metrics`. One binary links once, where a
//! binary per file linked the library and its dependencies once per file.
//!
//! The tests share one process and run on parallel threads: none may change the environment, the
//! working directory or any other process-wide state. A child process gets its environment
//! through `Command::env`, and every test writes only inside its own temporary folder.
//!
//! `tests/live.rs` stays a binary of its own: its harness counts a test that finds no ZooKeeper
//! server as ignored.
//!
//! A new file here is one more `mod` line below.

mod common;

mod abc_presets;
mod bounded_input;
mod clear_errors;
mod cli_explore;
mod cli_globals;
mod cli_manual;
mod cli_quiz;
mod cli_quiz_modes;
mod cli_sim;
mod content_check;
mod content_cues;
mod crash_safety;
mod docs_links;
mod election;
mod engine_purity;
mod etcd_family;
mod explore;
mod explore_families;
mod explore_limits;
mod explore_stateright;
mod export;
mod export_cast;
mod frozen_rules;
mod fuzz;
mod fuzz_input;
mod hardening;
mod herd;
mod interview_order;
mod layers;
mod layout;
#[cfg(feature = "live")]
mod live_limits;
mod predict_terminal;
mod progress_store;
mod properties;
mod queue_families;
mod quiz_modes;
mod quiz_session;
mod redlock_family;
mod setdata;
mod settled;
mod snowflake_clock;
mod snowflake_family;
mod tasks;
mod tick_phase;
mod tui_pty;
mod tui_real_terminal;
mod vocabulary_sources;
mod zk_transactions;
