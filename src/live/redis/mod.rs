//! Redlock on real Redis servers: five private `redis-server` nodes and a sixth for the
//! resource, one process per client, the preset's faults made for real (a paused process, a
//! node killed and restarted empty, a node's clock stepped by libfaketime, a plain DEL), and
//! the run as the same [`Trace`](crate::engine::Trace) the model produces, held beside it.

pub mod client;
pub mod compare;
pub mod node;
pub mod resp;
pub mod run;
pub mod trace;

use std::path::Path;

use crate::engine::params::RedlockParams;
use crate::engine::trace::Trace;
use crate::live::UserError;
use crate::live::diff::Row;

/// A Redlock preset told on real servers and by the model.
pub struct Story {
    pub params: RedlockParams,
    pub live: Trace,
    pub model: Trace,
    /// The servers the run started, each with its directory: all gone by now.
    pub servers: Vec<(std::net::SocketAddr, std::path::PathBuf)>,
    /// Where the resource was: a PostgreSQL row or a Redis key.
    pub store: run::Store,
}

impl Story {
    pub fn rows(&self) -> Vec<Row> {
        compare::compare(&self.params, &self.model, &self.live)
    }
}

/// Runs `p` on real servers, each client a process of `exe` (the locklab binary), the resource
/// on `store`, and by the model, each until the story has settled ([`until_settled`]).
pub fn story(p: &RedlockParams, exe: &Path, store: run::Store) -> Result<Story, UserError> {
    let p = &until_settled(p);
    let gathered = run::run(p, exe, store)?;
    let live = trace::trace(p, &gathered);
    let model = crate::engine::families::redlock::run(p);
    Ok(Story {
        params: p.clone(),
        live,
        model,
        servers: gathered.servers,
        store,
    })
}

/// `p` ending when its story has settled ([`crate::engine::families::until_settled`]).
pub fn until_settled(p: &RedlockParams) -> RedlockParams {
    crate::engine::families::until_settled(p, crate::engine::families::redlock::run, |p| {
        &mut p.duration_ms
    })
}
