//! `locklab sim`: one subcommand a family, each with its parameters.

use std::path::PathBuf;

use clap::{Args, Subcommand};

use super::Output;
use super::presets::{PresetName, Takes};
use crate::engine::trace::Family;

#[derive(Debug, Subcommand)]
pub enum SimCommand {
    /// The frozen holder: a lease that expires during a GC pause.
    Frozen(KnobArgs),
    /// The A/B/C queue on a ZooKeeper-like lock, from a preset.
    Abc(KnobArgs),
    /// Herd versus chain: how many wake-ups a queue of waiters costs.
    Herd(KnobArgs),
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
    /// etcd's lease lock: a session's lease, keys queued by create revision, the revision as token.
    Etcd(KnobArgs),
    /// Run a scenario file (a preset or your own).
    Run(RunArgs),
    /// List the shipped presets.
    List,
}

impl SimCommand {
    /// The family this runs and its arguments, if it runs one family.
    pub fn family_args(self) -> Result<(Family, KnobArgs), Self> {
        Ok(match self {
            SimCommand::Frozen(a) => (Family::Frozen, a),
            SimCommand::Abc(a) => (Family::Abc, a),
            SimCommand::Herd(a) => (Family::Herd, a),
            SimCommand::Rwlock(a) => (Family::Rwlock, a),
            SimCommand::Semaphore(a) => (Family::Semaphore, a),
            SimCommand::Election(a) => (Family::Election, a),
            SimCommand::Tasks(a) => (Family::Tasks, a),
            SimCommand::Redlock(a) => (Family::Redlock, a),
            SimCommand::Snowflake(a) => (Family::Snowflake, a),
            SimCommand::Etcd(a) => (Family::Etcd, a),
            other @ (SimCommand::Run(_) | SimCommand::List) => return Err(other),
        })
    }

    /// The arguments of a family's run, if this is one.
    pub fn knob_args_mut(&mut self) -> Option<&mut KnobArgs> {
        match self {
            SimCommand::Frozen(a)
            | SimCommand::Abc(a)
            | SimCommand::Herd(a)
            | SimCommand::Rwlock(a)
            | SimCommand::Semaphore(a)
            | SimCommand::Election(a)
            | SimCommand::Tasks(a)
            | SimCommand::Redlock(a)
            | SimCommand::Snowflake(a)
            | SimCommand::Etcd(a) => Some(a),
            SimCommand::Run(_) | SimCommand::List => None,
        }
    }
}

/// One family's run: a preset to start from (if named), then one option per knob, built from
/// the family's knob table in [`super::command`] and read through the same table as its
/// scenario files.
#[derive(Debug, Args)]
pub struct KnobArgs {
    /// Start from this preset of the family (see `locklab sim list`), then apply the rest.
    // Each family's subcommand offers its own presets (see `super::command`).
    #[arg(
        long,
        value_name = "NAME",
        allow_hyphen_values = true,
        value_parser = PresetName(Takes::Any),
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
pub struct RunArgs {
    /// A scenario file in the `assets/scenarios/` format.
    pub file: PathBuf,
    #[command(flatten)]
    pub output: Output,
}
