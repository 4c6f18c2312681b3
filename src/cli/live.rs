//! `locklab live`: which story, and which ZooKeeper server runs it (the task claims start a private PostgreSQL).

use clap::{Args, Subcommand};

use super::presets::{PresetName, Takes};
use super::{Output, num};
use crate::engine::params::HERD_SPECS;
use crate::engine::trace::Family;

#[derive(Debug, Subcommand)]
pub enum LiveCommand {
    /// An A/B/C preset on three real sessions, its faults made for real.
    Abc(LiveAbcArgs),
    /// Herd versus chain with one real session per waiter.
    Herd(LiveHerdArgs),
    /// A read-write lock preset on real sessions, one per client.
    Rwlock(LiveRwlockArgs),
    /// A semaphore preset on real sessions, one per client, its crashes made for real.
    Semaphore(LiveSemaphoreArgs),
    /// A leader-election preset: real sessions on the private ZooKeeper, the epoch a real
    /// node, and the rollup job's row on a private PostgreSQL changed by the lesson's statements.
    Election(LiveElectionArgs),
    /// A task-claim preset on a private PostgreSQL: the lesson's statements, one connection
    /// per worker, the database's clock as the table's.
    Tasks(LiveTasksArgs),
    /// A Redlock preset on five real Redis servers, one process per client, its faults made
    /// for real.
    Redlock(LiveRedlockArgs),
    /// An etcd preset on a private real etcd, one process per client, its faults made for real.
    Etcd(LiveEtcdArgs),
}

#[derive(Debug, Args)]
pub struct LiveEtcdArgs {
    /// The etcd preset to run live (see `locklab sim list`).
    #[arg(value_parser = PresetName(Takes::Only(Family::Etcd)), hide_possible_values = true)]
    pub preset: String,
    /// Multiply every time of the preset by this factor (0.1 to 10; the lease's TTL stays whole
    /// seconds, at least etcd's 2 s).
    #[arg(long, value_name = "FACTOR", allow_negative_numbers = true)]
    pub time_scale: Option<f64>,
    #[command(flatten)]
    pub output: Output,
}

#[derive(Debug, Args)]
pub struct LiveRedlockArgs {
    /// The Redlock preset to run live (see `locklab sim list`).
    #[arg(value_parser = PresetName(Takes::Only(Family::Redlock)), hide_possible_values = true)]
    pub preset: String,
    #[command(flatten)]
    pub output: Output,
}

/// Which ZooKeeper server a live run uses.
#[derive(Debug, Args)]
pub struct ServerArgs {
    /// Use this running ZooKeeper server instead of starting one.
    #[arg(long, value_name = "HOST:PORT", allow_negative_numbers = true)]
    pub zk: Option<String>,
    /// Start locklab's own server on this loopback port, 1 to 65535 (default: a free one).
    #[arg(
        long,
        value_name = "PORT",
        value_parser = clap::value_parser!(u16).range(1..),
        conflicts_with = "zk",
        allow_negative_numbers = true
    )]
    pub port: Option<u16>,
    /// Multiply every time in the preset by this factor, the server's tick included
    /// (0.25 to 4, default 1; own server only).
    #[arg(
        long,
        value_name = "F",
        value_parser = time_scale,
        conflicts_with = "zk",
        allow_negative_numbers = true
    )]
    pub time_scale: Option<f64>,
}

#[derive(Debug, Args)]
pub struct LiveAbcArgs {
    /// The A/B/C preset to run live (see `locklab sim list`).
    #[arg(value_parser = PresetName(Takes::Only(Family::Abc)), hide_possible_values = true)]
    pub preset: String,
    /// Run on an ensemble of this many servers of locklab's own on loopback: 1 (one
    /// standalone server, the default), 3 or 5. The ensemble presets
    /// (ensemble-leader-killed, ensemble-server-cut) start 3 when this is left out.
    #[arg(
        long,
        value_name = "N",
        value_parser = ensemble_size,
        conflicts_with_all = ["zk", "port"],
        allow_negative_numbers = true
    )]
    pub ensemble: Option<u8>,
    #[command(flatten)]
    pub server: ServerArgs,
    #[command(flatten)]
    pub output: Output,
}

fn ensemble_size(s: &str) -> Result<u8, String> {
    let sizes = crate::live::ensemble::SIZES;
    let known = sizes.map(|n| n.to_string()).join(", ");
    s.trim()
        .parse::<u8>()
        .ok()
        .filter(|n| sizes.contains(n))
        .ok_or_else(|| format!("must be one of {known} (an odd number of servers)"))
}

#[derive(Debug, Args)]
pub struct LiveRwlockArgs {
    /// The read-write lock preset to run live (see `locklab sim list`).
    #[arg(value_parser = PresetName(Takes::Only(Family::Rwlock)), hide_possible_values = true)]
    pub preset: String,
    #[command(flatten)]
    pub server: ServerArgs,
    #[command(flatten)]
    pub output: Output,
}

#[derive(Debug, Args)]
pub struct LiveSemaphoreArgs {
    /// The semaphore preset to run live (see `locklab sim list`).
    #[arg(value_parser = PresetName(Takes::Only(Family::Semaphore)), hide_possible_values = true)]
    pub preset: String,
    #[command(flatten)]
    pub server: ServerArgs,
    #[command(flatten)]
    pub output: Output,
}

#[derive(Debug, Args)]
pub struct LiveHerdArgs {
    /// Waiters queued behind the holder (1 to 500), one real session each.
    #[arg(
        long,
        value_name = "N",
        value_parser = num(&crate::live::herd::WAITERS),
        allow_negative_numbers = true,
    )]
    pub waiters: f64,
    /// Wake-up fan-out: 1 is the chain (predecessor watches), N the herd (1 to N).
    #[arg(
        long,
        value_name = "K",
        value_parser = num(&HERD_SPECS[1]),
        allow_negative_numbers = true,
    )]
    pub fanout: f64,
    /// How long each holder keeps the lock, in milliseconds (0 to 10000, default 20).
    #[arg(
        long,
        value_name = "Y",
        value_parser = num(&HERD_SPECS[3]),
        allow_negative_numbers = true,
    )]
    pub hold_ms: Option<f64>,
    #[command(flatten)]
    pub server: ServerArgs,
    #[command(flatten)]
    pub output: Output,
}

#[derive(Debug, Args)]
pub struct LiveTasksArgs {
    /// The task preset to run live (see `locklab sim list`).
    #[arg(value_parser = PresetName(Takes::Only(Family::Tasks)), hide_possible_values = true)]
    pub preset: String,
    /// Multiply every time in the preset by this factor (0.05 to 4, default 1): 0.1 runs a
    /// story second in 100 ms.
    #[arg(
        long,
        value_name = "F",
        value_parser = task_scale,
        allow_negative_numbers = true
    )]
    pub time_scale: Option<f64>,
    #[command(flatten)]
    pub output: Output,
}

#[derive(Debug, Args)]
pub struct LiveElectionArgs {
    /// The election preset to run live (see `locklab sim list`).
    #[arg(value_parser = PresetName(Takes::Only(Family::Election)), hide_possible_values = true)]
    pub preset: String,
    /// Multiply every time in the preset by this factor, the server's tick included (0.25 to
    /// 4, default 1).
    #[arg(
        long,
        value_name = "F",
        value_parser = time_scale,
        allow_negative_numbers = true
    )]
    pub time_scale: Option<f64>,
    #[command(flatten)]
    pub output: Output,
}

fn task_scale(s: &str) -> Result<f64, String> {
    let range = crate::live::tasks::SCALES;
    let v: f64 = s
        .trim()
        .parse()
        .map_err(|_| format!("must be a number, {} to {}", range.start(), range.end()))?;
    if range.contains(&v) {
        Ok(v)
    } else {
        Err(format!("must be {} to {}", range.start(), range.end()))
    }
}

fn time_scale(s: &str) -> Result<f64, String> {
    let v: f64 = s
        .trim()
        .parse()
        .map_err(|_| "must be a number, 0.25 to 4".to_string())?;
    if (0.25..=4.0).contains(&v) {
        Ok(v)
    } else {
        Err("must be 0.25 to 4".to_string())
    }
}
