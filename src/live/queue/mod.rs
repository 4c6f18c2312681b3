//! The read-write lock and the semaphore on a real ZooKeeper: one real session per client, each
//! following the engine's rule for its role on a directory of the run's own, the preset's
//! crashes made for real, and the run becomes a trace beside the model's.
//!
//! Threads: one per client (its own single-threaded runtime, so a crash stops it whole, pings
//! included), and one for the service observer's persistent watch.

pub mod client;
mod record;
mod trace;

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use zookeeper_client::{AddWatchMode, EventType};

use self::client::Plan;
use self::record::Log;
use super::UserError;
use super::abc::{make_dir, remove_tree, run_root, runtime, zk_error};
use crate::engine::actors::queue_client::Role;
use crate::engine::params::{Fault, QUEUE_NAMES, QueueCommon, RwLockParams, SemaphoreParams};
use crate::engine::time::Millis;
use crate::engine::trace::{Family, SpanState, Trace};
use crate::engine::world::ActorId;

/// A read-write lock or semaphore preset, as a live run takes it.
#[derive(Debug, Clone, PartialEq)]
pub enum QueueParams {
    Rwlock(RwLockParams),
    Semaphore(SemaphoreParams),
}

impl QueueParams {
    pub fn common(&self) -> &QueueCommon {
        match self {
            QueueParams::Rwlock(p) => &p.common,
            QueueParams::Semaphore(p) => &p.common,
        }
    }

    fn common_mut(&mut self) -> &mut QueueCommon {
        match self {
            QueueParams::Rwlock(p) => &mut p.common,
            QueueParams::Semaphore(p) => &mut p.common,
        }
    }

    pub fn family(&self) -> Family {
        match self {
            QueueParams::Rwlock(_) => Family::Rwlock,
            QueueParams::Semaphore(_) => Family::Semaphore,
        }
    }

    /// The same parameters as the engine's.
    pub fn params(&self) -> crate::engine::params::Params {
        match self {
            QueueParams::Rwlock(p) => crate::engine::params::Params::Rwlock(p.clone()),
            QueueParams::Semaphore(p) => crate::engine::params::Params::Semaphore(p.clone()),
        }
    }

    /// Each client's role, as the model gives it.
    fn roles(&self) -> Vec<Role> {
        match self {
            QueueParams::Rwlock(p) => p
                .wants
                .iter()
                .map(|w| Role::from_want(*w, p.read_rule))
                .collect(),
            QueueParams::Semaphore(p) => (0..p.clients)
                .map(|i| Role::Permit(p.permits_at(p.common.start_gap_ms * u64::from(i))))
                .collect(),
        }
    }

    /// Every time multiplied by `f`, the server's tick included.
    pub fn scaled(&self, f: f64) -> Self {
        let by = |ms: Millis| (ms as f64 * f).round() as Millis;
        let mut s = self.clone();
        let c = s.common_mut();
        c.hold_ms = by(c.hold_ms);
        c.start_gap_ms = by(c.start_gap_ms);
        c.session_timeout_ms = by(c.session_timeout_ms);
        c.tick_ms = by(c.tick_ms).max(1);
        c.delay_ms = by(c.delay_ms);
        c.duration_ms = by(c.duration_ms);
        for fault in &mut c.faults {
            if let Fault::Crash { at_ms, .. } = fault {
                *at_ms = by(*at_ms);
            }
        }
        if let QueueParams::Semaphore(p) = &mut s {
            p.lower_at_ms = p.lower_at_ms.map(by);
        }
        s
    }
}

/// Why a preset has no live counterpart, if it has none: the live clients make crashes for
/// real, not cuts or pauses.
pub fn unsupported(p: &QueueParams) -> Option<&'static str> {
    let other = p
        .common()
        .faults
        .iter()
        .any(|f| !matches!(f, Fault::Crash { .. }));
    other.then_some("only crashes are made live for a read-write lock or a semaphore")
}

/// A live run and the model's run of the same parameters, on the same tick grid.
pub struct Story {
    pub params: QueueParams,
    pub live: Trace,
    pub model: Trace,
    pub tick_phase_ms: Option<Millis>,
}

impl Story {
    /// The two runs side by side: every fact, then every instant with its tolerance.
    pub fn rows(&self) -> Vec<super::diff::Row> {
        let c = self.params.common();
        let allow = super::instants::Allowance {
            tick_ms: c.tick_ms.max(1),
            tick_phase_ms: c.tick_phase_ms % c.tick_ms.max(1),
            phase_known: self.tick_phase_ms.is_some(),
            delay_ms: c.delay_ms,
            timeout_ms: crate::engine::zk::service::negotiate(c.session_timeout_ms, c.tick_ms),
        };
        super::diff::compare(&self.model, &self.live, Some(&allow))
    }
}

/// Runs `p` live on the server at `addr`, then the model on the server's tick grid;
/// `phase_known`: the server runs on this machine with the run's tick.
pub fn story_at(p: &QueueParams, addr: SocketAddr, phase_known: bool) -> Result<Story, UserError> {
    let (live, phase) = run(p, addr)?;
    let tick_phase_ms = phase_known.then_some(phase);
    let mut params = p.clone();
    if let Some(phase) = tick_phase_ms {
        params.common_mut().tick_phase_ms = phase;
    }
    let model = crate::engine::run(&params.params());
    Ok(Story {
        params,
        live,
        model,
        tick_phase_ms,
    })
}

/// Watches the directory for the whole run: the service's side of the story.
async fn observe(
    zk: zookeeper_client::Client,
    dir: String,
    log: Arc<Log>,
    stop: Arc<AtomicBool>,
    ready: std::sync::mpsc::Sender<Result<(), String>>,
) {
    let Ok(mut w) = zk.watch(&dir, AddWatchMode::PersistentRecursive).await else {
        let _ = ready.send(Err(
            "the service observer could not watch the directory".into()
        ));
        return;
    };
    let _ = ready.send(Ok(()));
    drop(ready);
    while !stop.load(Ordering::Relaxed) {
        let ev = tokio::select! {
            ev = w.changed() => ev,
            _ = tokio::time::sleep(Duration::from_millis(20)) => continue,
        };
        let Some(name) = ev.path.rsplit('/').next() else {
            continue;
        };
        match ev.event_type {
            EventType::NodeCreated => log.created(name),
            EventType::NodeDeleted => log.deleted(name),
            _ => {}
        }
    }
}

/// The GUID client `i` writes in its node's name, from the preset's seed.
fn guid(seed: u64, i: usize) -> u32 {
    let mut x = seed ^ (0x9E37_79B9_7F4A_7C15u64.wrapping_mul(i as u64 + 1));
    x ^= x >> 33;
    x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
    x ^= x >> 33;
    x as u32
}

/// Runs the preset against `server`; returns the trace and where a server on this machine
/// with the run's tick has its boundaries.
pub fn run(p: &QueueParams, server: SocketAddr) -> Result<(Trace, Millis), UserError> {
    let c = p.common().clone();
    let roles = p.roles();
    let n = roles.len();
    let rt = runtime()?;
    let addr = server.to_string();
    let root = run_root(match p.family() {
        Family::Rwlock => "rwlock",
        _ => "semaphore",
    });
    let (admin, dir) = rt.block_on(async {
        let via = super::net::guard(server)
            .await
            .map_err(|e| UserError::failed(format!("cannot open a loopback relay: {e}")))?
            .to_string();
        let admin = super::net::session(&via)
            .await
            .map_err(|e| zk_error(&format!("connecting to {addr}"), e))?;
        let dir = make_dir(&admin, &root, c.first_sequence).await?;
        Ok::<_, UserError>((admin, dir))
    })?;
    let log = Arc::new(Log::new(
        n,
        SpanState::Queue {
            holders: Default::default(),
            share: crate::engine::trace::Share::Exclusive,
            waiting: 0,
        },
    ));
    let stop = Arc::new(AtomicBool::new(false));
    // Every client and the observer say when their session is open; the run's clock starts
    // when all of them have, and `go` lets the clients begin.
    let (ready_tx, ready_rx) = std::sync::mpsc::channel::<Result<(), String>>();
    let (go_tx, go_rx) = tokio::sync::watch::channel(false);
    let observer = {
        let (log, stop, dir) = (Arc::clone(&log), Arc::clone(&stop), dir.clone());
        let tx = ready_tx.clone();
        std::thread::Builder::new()
            .name("live-service".into())
            .spawn(move || {
                let Ok(rt) = runtime() else {
                    let _ = tx.send(Err("no runtime".into()));
                    return;
                };
                rt.block_on(async move {
                    // Every session goes through a frame guard of its own thread's runtime.
                    if let Ok(via) = super::net::guard(server).await
                        && let Ok(zk) = super::net::session(&via.to_string()).await
                    {
                        observe(zk, dir, log, stop, tx).await;
                    } else {
                        let _ = tx.send(Err("the service observer could not connect".into()));
                    }
                });
            })
            .map_err(|e| UserError::failed(format!("cannot start the live run: {e}")))?
    };
    let mut threads = Vec::new();
    let finished = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    for (i, role) in roles.iter().enumerate() {
        let crash = c.faults.iter().find_map(|f| match f {
            Fault::Crash { client, at_ms } if client.eq_ignore_ascii_case(QUEUE_NAMES[i]) => {
                Some(*at_ms)
            }
            _ => None,
        });
        let plan = Plan {
            id: ActorId(i as u8),
            role: *role,
            writers_yield: matches!(p, QueueParams::Rwlock(r) if r.read_rule == crate::engine::params::ReadRule::SkipWaitingWriters),
            guid: guid(c.seed, i),
            start_ms: c.start_gap_ms * i as u64,
            hold_ms: c.hold_ms,
            requested_timeout_ms: c.session_timeout_ms,
            dir: dir.clone(),
            crash,
            stop: Arc::clone(&stop),
        };
        let (log, tx, finished) = (Arc::clone(&log), ready_tx.clone(), Arc::clone(&finished));
        let mut go = go_rx.clone();
        let t = std::thread::Builder::new()
            .name(format!("live-{}", QUEUE_NAMES[i]))
            .spawn(move || {
                let Ok(rt) = runtime() else {
                    let _ = tx.send(Err("no runtime".into()));
                    return;
                };
                rt.block_on(async move {
                    let (id, heard) = (plan.id, Arc::clone(&log));
                    let via = match super::net::guard_pinged(server, move || heard.pinged(id)).await
                    {
                        Ok(a) => a.to_string(),
                        Err(e) => {
                            let _ = tx.send(Err(format!("cannot open a loopback relay: {e}")));
                            return;
                        }
                    };
                    match client::connect(&plan, &via).await {
                        Ok(zk) => {
                            let _ = tx.send(Ok(()));
                            if go.wait_for(|&g| g).await.is_err() {
                                return;
                            }
                            client::opened(&plan, &zk, &log);
                            client::run(plan, zk, log, finished).await;
                        }
                        Err(e) => {
                            let _ = tx.send(Err(e.to_string()));
                        }
                    }
                });
            })
            .map_err(|e| UserError::failed(format!("cannot start the live run: {e}")))?;
        threads.push(t);
    }
    drop(ready_tx);
    let mut failure = None;
    for _ in 0..=n {
        match ready_rx.recv_timeout(Duration::from_secs(20)) {
            Ok(Ok(())) => {}
            Ok(Err(e)) => failure = Some(e),
            Err(_) => failure = Some("a client could not connect in time".into()),
        }
    }
    log.start_now();
    let phase = log.tick_phase(c.tick_ms);
    if failure.is_none() {
        let _ = go_tx.send(true);
        // Until the preset's end, or until every client is done and nothing more can happen.
        let end = log.instant(c.duration_ms);
        let done = || {
            finished.load(Ordering::Relaxed) >= n
                && log.lock().nodes.iter().all(|x| x.deleted_ms.is_some())
        };
        while std::time::Instant::now() < end && !done() {
            std::thread::sleep(Duration::from_millis(10));
        }
    } else {
        // The clients waiting to begin end instead.
        drop(go_tx);
    }
    let end_ms = log.now().min(c.duration_ms);
    let inner = log.lock().clone();
    stop.store(true, Ordering::Relaxed);
    for t in threads {
        let _ = t.join();
    }
    let _ = observer.join();
    rt.block_on(remove_tree(&admin, &root));
    drop(admin);
    if let Some(e) = failure {
        return Err(UserError::failed(format!("a live client failed: {e}")));
    }
    let permits = |t: Millis| match p {
        QueueParams::Semaphore(s) => s.permits_at(t),
        QueueParams::Rwlock(_) => u32::MAX,
    };
    let shape = trace::Shape {
        family: p.family(),
        roles: &roles,
        permits_at: &permits,
        changes: match p {
            QueueParams::Semaphore(s) => s.lower_at_ms.into_iter().collect(),
            QueueParams::Rwlock(_) => Vec::new(),
        },
    };
    Ok((trace::finish(inner, end_ms, &shape), phase))
}
