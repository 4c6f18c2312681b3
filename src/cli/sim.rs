//! `locklab sim`: one subcommand a family, each with its parameters.

use std::path::PathBuf;

use clap::{Args, Subcommand};

use super::presets::{PresetName, Takes};
use super::{OnOff, Output, num};
use crate::engine::params::{ABC_SPECS, FROZEN_SPECS, HERD_SPECS};
use crate::engine::trace::Family;

#[derive(Debug, Subcommand)]
pub enum SimCommand {
    /// The frozen holder: a lease that expires during a GC pause.
    Frozen(FrozenArgs),
    /// The A/B/C queue on a ZooKeeper-like lock, from a preset.
    Abc(AbcArgs),
    /// Herd versus chain: how many wake-ups a queue of waiters costs.
    Herd(HerdArgs),
    /// A read-write lock on the ZooKeeper queue: readers share, a writer holds alone.
    Rwlock(KnobArgs),
    /// A counting semaphore on the ZooKeeper queue: the first N lease nodes hold.
    Semaphore(KnobArgs),
    /// Leader election with epochs, and a job's row changed by conditional statements.
    Election(KnobArgs),
    /// Durable task claims: workers, a task table, an outside system and an operator.
    Tasks(KnobArgs),
    /// Redlock across independent Redis nodes: a majority of keys, no fencing token.
    Redlock(KnobArgs),
    /// Snowflake-style IDs: time | worker | sequence, and the ways one ID comes out twice.
    Snowflake(KnobArgs),
    /// Run a scenario file (a preset or your own).
    Run(RunArgs),
    /// List the shipped presets.
    List,
}

impl SimCommand {
    /// The arguments of a family read through its knob table, if this is one.
    pub fn knob_args_mut(&mut self) -> Option<&mut KnobArgs> {
        match self {
            SimCommand::Rwlock(a)
            | SimCommand::Semaphore(a)
            | SimCommand::Election(a)
            | SimCommand::Tasks(a)
            | SimCommand::Redlock(a)
            | SimCommand::Snowflake(a) => Some(a),
            SimCommand::Frozen(_)
            | SimCommand::Abc(_)
            | SimCommand::Herd(_)
            | SimCommand::Run(_)
            | SimCommand::List => None,
        }
    }
}

#[derive(Debug, Args)]
pub struct FrozenArgs {
    /// Lease TTL in seconds (1 to 30, default 10).
    #[arg(
        long,
        value_name = "S",
        value_parser = num(&FROZEN_SPECS[0]),
        allow_negative_numbers = true,
    )]
    pub ttl: Option<f64>,
    /// Keepalive interval in seconds (0.5 to 30, default 3).
    #[arg(
        long,
        value_name = "S",
        value_parser = num(&FROZEN_SPECS[1]),
        allow_negative_numbers = true,
    )]
    pub keepalive: Option<f64>,
    /// When A's pause starts, in seconds (0 to 40, default 12).
    #[arg(
        long,
        value_name = "S",
        value_parser = num(&FROZEN_SPECS[2]),
        allow_negative_numbers = true,
    )]
    pub pause_start: Option<f64>,
    /// How long A's pause lasts, in seconds (0 to 30, default 14).
    #[arg(
        long,
        value_name = "S",
        value_parser = num(&FROZEN_SPECS[3]),
        allow_negative_numbers = true,
    )]
    pub pause_len: Option<f64>,
    /// One-way network delay in seconds (0 to 5, default 0).
    #[arg(
        long,
        value_name = "S",
        value_parser = num(&FROZEN_SPECS[4]),
        allow_negative_numbers = true,
    )]
    pub delay: Option<f64>,
    /// Whether the resource checks fencing tokens (default on).
    #[arg(long, value_enum, allow_negative_numbers = true)]
    pub fencing: Option<OnOff>,
    /// Whether A drops its write once it knows its lease is lost (default off).
    #[arg(long, value_enum, allow_negative_numbers = true)]
    pub stop_on_loss: Option<OnOff>,
    #[command(flatten)]
    pub output: Output,
}

/// A family whose parameters are its knobs, one option each (built from the family's knob
/// table in [`super::command`]), read through the same table as its scenario files.
#[derive(Debug, Args)]
pub struct KnobArgs {
    /// Start from this preset of the family (see `locklab sim list`), then apply the rest.
    #[arg(
        long,
        value_name = "NAME",
        allow_hyphen_values = true,
        value_parser = PresetName(Takes::Knobs),
        hide_possible_values = true
    )]
    pub preset: Option<String>,
    #[command(flatten)]
    pub output: Output,
    /// The knobs the command line set, as (key, value) in its order.
    #[arg(skip)]
    pub params: Vec<(String, String)>,
}

#[derive(Debug, Args)]
pub struct AbcArgs {
    /// The preset to run (see `locklab sim list`).
    #[arg(
        long,
        value_name = "NAME",
        allow_negative_numbers = true,
        value_parser = PresetName(Takes::Only(Family::Abc)),
        hide_possible_values = true
    )]
    pub preset: String,
    /// Where the service's tick grid falls, in seconds: boundaries at this + k·tick (0 to 10,
    /// default the preset's, 0 unless it says).
    #[arg(
        long,
        value_name = "S",
        value_parser = num(&ABC_SPECS[6]),
        allow_negative_numbers = true,
    )]
    pub tick_phase: Option<f64>,
    #[command(flatten)]
    pub output: Output,
}

#[derive(Debug, Args)]
pub struct HerdArgs {
    /// Waiters queued behind the holder (1 to 10000).
    #[arg(
        long,
        value_name = "N",
        value_parser = num(&HERD_SPECS[0]),
        allow_negative_numbers = true,
    )]
    pub waiters: f64,
    /// Wake-up fan-out: waiters notified per release (1 to N; 1 is the chain, N the herd).
    #[arg(
        long,
        value_name = "K",
        value_parser = num(&HERD_SPECS[1]),
        allow_negative_numbers = true,
    )]
    pub fanout: f64,
    /// Cost of one re-read at the service, in milliseconds (0 to 1000, default 2).
    #[arg(
        long,
        value_name = "X",
        value_parser = num(&HERD_SPECS[2]),
        allow_negative_numbers = true,
    )]
    pub grab_cost_ms: Option<f64>,
    /// How long each holder keeps the lock, in milliseconds (0 to 10000, default 100).
    #[arg(
        long,
        value_name = "Y",
        value_parser = num(&HERD_SPECS[3]),
        allow_negative_numbers = true,
    )]
    pub hold_ms: Option<f64>,
    #[command(flatten)]
    pub output: Output,
}

#[derive(Debug, Args)]
pub struct RunArgs {
    /// A scenario file in the `assets/scenarios/` format.
    pub file: PathBuf,
    #[command(flatten)]
    pub output: Output,
}
