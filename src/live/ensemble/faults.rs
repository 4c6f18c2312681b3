//! The faults only an ensemble has, made for real during a live run: the leader killed, or
//! every client's link to one server cut through the proxies. Each is written into the run's
//! trace as an [`EnsembleEvent`] on the service's lane, with the leader change that follows.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::Servers;
use crate::engine::time::Millis;
use crate::engine::trace::EventKind;
use crate::engine::trace::ensemble::EnsembleEvent;
use crate::live::log::Log;
use crate::live::proxy::Link;

/// A fault of the ensemble, at a time of the run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum EnsembleFault {
    /// SIGKILL the server that leads at `at_ms`.
    KillLeader { at_ms: Millis },
    /// Silence every client's link to the server client A is connected to at `at_ms`, for
    /// `len_ms`; the server stays in the quorum.
    CutServer { at_ms: Millis, len_ms: Millis },
}

impl EnsembleFault {
    /// The same fault with every time multiplied by `f`, as a run's scaling does.
    pub fn scaled(self, f: f64) -> Self {
        let by = |ms: Millis| (ms as f64 * f).round() as Millis;
        match self {
            EnsembleFault::KillLeader { at_ms } => EnsembleFault::KillLeader { at_ms: by(at_ms) },
            EnsembleFault::CutServer { at_ms, len_ms } => EnsembleFault::CutServer {
                at_ms: by(at_ms),
                len_ms: by(len_ms),
            },
        }
    }
}

/// What the fault thread needs of the run: the servers, each server's switch, and client A's
/// link to each server (to find the one it uses).
pub struct Plan {
    pub servers: Servers,
    pub fault: Option<EnsembleFault>,
    pub server_cut: Vec<Arc<AtomicBool>>,
    pub links_of_a: Vec<Arc<Link>>,
    pub run_ms: Millis,
}

fn ev(log: &Log, e: EnsembleEvent) {
    log.event(log.service, EventKind::Ensemble(e));
}

fn sleep_until(at: Instant, stop: &AtomicBool) -> bool {
    while Instant::now() < at {
        if stop.load(Ordering::Relaxed) {
            return false;
        }
        std::thread::sleep(Duration::from_millis(5).min(at - Instant::now()));
    }
    true
}

/// Runs the plan: the leader at the start, then the fault at its time and what follows.
pub fn run(plan: Plan, log: Arc<Log>, stop: Arc<AtomicBool>) {
    let servers = plan.servers.size();
    let Some(leader) = plan.servers.leader() else {
        return;
    };
    ev(&log, EnsembleEvent::Leading { leader, servers });
    match plan.fault {
        None => {}
        Some(EnsembleFault::KillLeader { at_ms }) => {
            if !sleep_until(log.instant(at_ms), &stop) {
                return;
            }
            let Some(old) = plan.servers.leader() else {
                return;
            };
            ev(
                &log,
                EnsembleEvent::ServerKilled {
                    server: old,
                    was_leader: true,
                },
            );
            plan.servers.kill(old);
            let left = log
                .instant(plan.run_ms)
                .saturating_duration_since(Instant::now());
            if let Some(new) = plan.servers.wait_for_leader(Some(old), left) {
                ev(&log, EnsembleEvent::LeaderChanged { from: old, to: new });
            }
        }
        Some(EnsembleFault::CutServer { at_ms, len_ms }) => {
            if !sleep_until(log.instant(at_ms), &stop) {
                return;
            }
            let Some(i) = plan.links_of_a.iter().position(|l| l.in_use()) else {
                return;
            };
            let server = plan.servers.0[i].id;
            plan.server_cut[i].store(true, Ordering::Relaxed);
            ev(&log, EnsembleEvent::ServerCut { server });
            let back = sleep_until(log.instant(at_ms + len_ms), &stop);
            plan.server_cut[i].store(false, Ordering::Relaxed);
            if back {
                ev(&log, EnsembleEvent::ServerRestored { server });
            }
        }
    }
}
