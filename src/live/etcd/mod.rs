//! The etcd lease lock on a real etcd: a private member (Debian's `etcd-server`) reached
//! through its v3 JSON gateway ([`gateway`]), no gRPC code and no protoc; one process per
//! client running etcd's session and mutex, the preset's faults made for real (a stopped
//! process, a cut link), and the run as the same [`Trace`](crate::engine::Trace) the model
//! produces, held beside it.

pub mod client;
pub mod compare;
pub mod gateway;
pub mod relay;
pub mod resource;
pub mod run;
pub mod server;
pub mod trace;
pub mod words;

use std::path::Path;

pub use gateway::Gateway;
pub use server::Etcd;

use crate::engine::params::EtcdParams;
use crate::engine::trace::Trace;
use crate::engine::trace::etcd::protocol::REVOKE_CHECK_MS;
use crate::live::UserError;
use crate::live::diff::Row;

/// An etcd preset told on a real etcd and by the model.
pub struct Story {
    pub params: EtcdParams,
    pub live: Trace,
    pub model: Trace,
    /// Where the writes went.
    pub resource: resource::ResourceAt,
    pub version: String,
    /// The member's client address and directory: gone by now.
    pub server: (std::net::SocketAddr, std::path::PathBuf),
}

impl Story {
    pub fn rows(&self) -> Vec<Row> {
        compare::compare(&self.params, &self.model, &self.live)
    }
}

/// Runs `p` on a real etcd, each client a process of `exe` (the locklab binary), and by the
/// model.
pub fn story(p: &EtcdParams, exe: &Path) -> Result<Story, UserError> {
    let p = &until_settled(p);
    let gathered = run::run(p, exe)?;
    let live = trace::trace(p, &gathered);
    let model = crate::engine::families::etcd::run(p);
    Ok(Story {
        params: p.clone(),
        live,
        model,
        resource: gathered.resource,
        version: gathered.version,
        server: gathered.server,
    })
}

/// `p` ending when its story has settled ([`crate::engine::families::until_settled`]).
pub fn until_settled(p: &EtcdParams) -> EtcdParams {
    crate::engine::families::until_settled(p, crate::engine::families::etcd::run, |p| {
        &mut p.duration_ms
    })
}

/// `p` with every time multiplied by `factor`, the lease's TTL rounded to whole seconds and
/// kept at etcd's floor or above: the same story, shorter or longer. The lessor still looks
/// every 500 ms (etcd's loop does not scale); its phase in that loop scales with the rest.
pub fn scaled(p: &EtcdParams, factor: f64) -> EtcdParams {
    let ms = |v: u64| (v as f64 * factor).round() as u64;
    let floor = crate::engine::trace::etcd::protocol::MIN_TTL_S;
    EtcdParams {
        ttl_s: ((p.ttl_s as f64 * factor).round() as u64).max(floor),
        delay_ms: ms(p.delay_ms),
        start_gap_ms: ms(p.start_gap_ms),
        work_ms: ms(p.work_ms),
        write_every_ms: ms(p.write_every_ms).max(1),
        duration_ms: ms(p.duration_ms),
        pause_at_ms: ms(p.pause_at_ms),
        pause_len_ms: ms(p.pause_len_ms),
        cut_at_ms: ms(p.cut_at_ms),
        cut_len_ms: ms(p.cut_len_ms),
        lessor_phase_ms: ms(p.lessor_phase_ms) % REVOKE_CHECK_MS,
        ..p.clone()
    }
}
