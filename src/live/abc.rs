//! The A/B/C queue on a real ZooKeeper: three sessions run the preset's recipe on a lock
//! directory of their own, with the preset's faults made for real, and the run becomes a trace.
//!
//! Threads: one per client (its own single-threaded runtime, so a freeze stops it whole), and
//! one for the network side: the service observer, each client's proxy and the timed cuts.

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use zookeeper_client::{Acls, AddWatchMode, Client, CreateMode, EventType};

use super::client::{self, Control, Plan};
use super::ensemble::Servers;
use super::ensemble::faults::EnsembleFault;
use super::log::Log;
use super::proxy::{self, Ends, Faults, Link};
use super::server::Server;
use super::{UserError, finish};
use crate::engine::families::abc::{self, NAMES, client_id};
use crate::engine::params::{AbcParams, Fault};
use crate::engine::time::Millis;
use crate::engine::trace::{EventKind, Trace};
use crate::engine::world::ActorId;
use crate::engine::zk::tree::DirId;

/// A runtime for one thread of a live run: single-threaded, as the features allow.
pub fn runtime() -> Result<tokio::runtime::Runtime, UserError> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| UserError::failed(format!("cannot start the live run: {e}")))
}

/// A path no other run uses, for this run's nodes.
pub fn run_root(what: &str) -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    format!("/locklab-{what}-{}-{nanos:09}", std::process::id())
}

/// The frame guard's address for `server`, on the current runtime (see [`super::net::guard`]).
async fn relay(server: SocketAddr) -> Result<String, UserError> {
    super::net::guard(server)
        .await
        .map(|a| a.to_string())
        .map_err(|e| UserError::failed(format!("cannot open a loopback relay: {e}")))
}

pub(crate) fn zk_error(what: &str, e: zookeeper_client::Error) -> UserError {
    UserError::failed(format!("the live run failed {what}: {e}"))
}

/// Makes the run's lock directory, with its sequence counter where the preset wants it.
pub async fn make_dir(zk: &Client, root: &str, first_sequence: i32) -> Result<String, UserError> {
    make_root(zk, root).await?;
    lock_dir(zk, root, first_sequence, CreateMode::Persistent).await
}

/// The run's own directory, which holds its lock directory.
async fn make_root(zk: &Client, root: &str) -> Result<(), UserError> {
    let persistent = CreateMode::Persistent.with_acls(Acls::anyone_all());
    zk.create(root, &[], &persistent)
        .await
        .map(|_| ())
        .map_err(|e| zk_error("making its directory", e))
}

/// Makes `root`'s lock directory as a node of `mode` whose next sequential child is numbered
/// `first_sequence`.
async fn lock_dir(
    zk: &Client,
    root: &str,
    first_sequence: i32,
    mode: CreateMode,
) -> Result<String, UserError> {
    let dir = format!("{root}/lock");
    zk.create(&dir, &[], &mode.with_acls(Acls::anyone_all()))
        .await
        .map_err(|e| zk_error("making its lock directory", e))?;
    // The next sequential child's number is the directory's counter: move it on with nodes
    // created and deleted at once, until the next one gets the preset's first number.
    let pad = CreateMode::PersistentSequential.with_acls(Acls::anyone_all());
    let mut next = 0i64;
    while next < i64::from(first_sequence) {
        let (_, seq) = zk
            .create(&format!("{dir}/pad-"), &[], &pad)
            .await
            .map_err(|e| zk_error("preparing its lock directory", e))?;
        zk.delete(&format!("{dir}/pad-{seq}"), None)
            .await
            .map_err(|e| zk_error("preparing its lock directory", e))?;
        next = seq.into_i64() + 1;
    }
    Ok(dir)
}

/// How long after one of the server's container checks a run with a container lock directory
/// starts: a fifth of the interval, so each of the server's checks comes that much before the
/// model's. The model checks at the very instant a client starts (and its create arrives 10 ms
/// later); a real check a few milliseconds late would find that client's node and keep the
/// directory, telling another story.
pub fn container_lead_ms(every_ms: Millis) -> Millis {
    every_ms / 5
}

/// Makes the lock directory as a container right after one of the server's container checks,
/// and returns when the run is to start ([`container_lead_ms`] after that check). The check's
/// instant is seen, not guessed: a probe container is given a child and emptied, and a watch
/// tells when the server deletes it.
async fn container_dir(
    zk: &Client,
    root: &str,
    first_sequence: i32,
    every_ms: Millis,
) -> Result<(String, std::time::Instant), UserError> {
    let container = CreateMode::Container.with_acls(Acls::anyone_all());
    let persistent = CreateMode::Persistent.with_acls(Acls::anyone_all());
    let probe = format!("{root}/probe");
    let failed = |e| zk_error("finding when the server checks its containers", e);
    zk.create(&probe, &[], &container).await.map_err(failed)?;
    zk.create(&format!("{probe}/x"), &[], &persistent)
        .await
        .map_err(failed)?;
    zk.delete(&format!("{probe}/x"), None)
        .await
        .map_err(failed)?;
    let (_, watch) = zk.check_and_watch_stat(&probe).await.map_err(failed)?;
    let wait = Duration::from_millis(2 * every_ms + 2_000);
    let event = tokio::time::timeout(wait, watch.changed())
        .await
        .map_err(|_| {
            UserError::failed(format!(
                "the server deleted no empty container within {} s: is it locklab's own, \
                 started with its container check?",
                wait.as_secs()
            ))
        })?;
    let checked = std::time::Instant::now();
    if event.event_type != EventType::NodeDeleted {
        return Err(UserError::failed(
            "the probe container changed but was not deleted",
        ));
    }
    // The pads below take a few milliseconds, far less than the interval: no check falls
    // between them and the run's first create.
    let dir = lock_dir(zk, root, first_sequence, CreateMode::Container).await?;
    Ok((
        dir,
        checked + Duration::from_millis(container_lead_ms(every_ms)),
    ))
}

/// Removes what a run left on the server, best effort (sessions still open keep theirs).
pub async fn remove_tree(zk: &Client, root: &str) {
    let dir = format!("{root}/lock");
    if let Ok(children) = zk.list_children(&dir).await {
        for c in children {
            let _ = zk.delete(&format!("{dir}/{c}"), None).await;
        }
    }
    let _ = zk.delete(&dir, None).await;
    let _ = zk.delete(root, None).await;
}

/// Watches the lock directory for the whole run: the service's side of the story.
async fn observe(zk: Client, dir: String, log: Arc<Log>, stop: Arc<AtomicBool>) {
    let Ok(mut w) = zk.watch(&dir, AddWatchMode::PersistentRecursive).await else {
        return;
    };
    while !stop.load(Ordering::Relaxed) {
        let ev = tokio::select! {
            ev = w.changed() => ev,
            _ = tokio::time::sleep(Duration::from_millis(20)) => continue,
        };
        if ev.path == dir {
            // The lock directory itself: a container the server deleted once it was empty,
            // or made again by a client's create.
            let dir = DirId(0);
            match ev.event_type {
                EventType::NodeDeleted => log.event(log.service, EventKind::DirDeleted { dir }),
                EventType::NodeCreated => log.event(log.service, EventKind::DirCreated { dir }),
                _ => {}
            }
            continue;
        }
        let Some(name) = ev.path.rsplit('/').next().filter(|n| n.contains("-lock-")) else {
            continue;
        };
        match ev.event_type {
            EventType::NodeCreated => log.service_created(name),
            EventType::NodeDeleted => log.service_deleted(name),
            _ => {}
        }
    }
}

/// A cut planned for one client's proxy.
async fn cut(log: Arc<Log>, faults: Arc<Faults>, client: ActorId, at: u64, len: u64) {
    tokio::time::sleep_until(tokio::time::Instant::from_std(log.instant(at))).await;
    faults.set_cut(true);
    log.event(client, EventKind::LinkCut);
    tokio::time::sleep_until(tokio::time::Instant::from_std(log.instant(at + len))).await;
    faults.set_cut(false);
    log.event(client, EventKind::LinkRestored);
}

/// What a server grants a session that asks for `requested_ms`.
pub fn granted(server: SocketAddr, requested_ms: u64) -> Result<u64, UserError> {
    let rt = runtime()?;
    let addr = server.to_string();
    rt.block_on(async {
        let via = relay(server).await?;
        let connector =
            super::net::connector().with_session_timeout(Duration::from_millis(requested_ms));
        let zk = super::net::open(connector, &via)
            .await
            .map_err(|e| zk_error(&format!("connecting to {addr}"), e))?;
        Ok(zk.session_timeout().as_millis() as u64)
    })
}

/// A live run and the model's run of the same parameters, on the same tick grid.
pub struct Story {
    /// The parameters the model ran: the live run's, with the server's tick phase.
    pub params: AbcParams,
    pub live: Trace,
    pub model: Trace,
    /// Where the server's tick boundaries fell in the run's time, when known: read off this
    /// machine's monotonic clock for a server locklab started (its tick is locklab's choice
    /// and it runs here); `None` for a server of the user's.
    pub tick_phase_ms: Option<Millis>,
}

impl Story {
    /// The two runs side by side: every fact, then every instant with its tolerance.
    pub fn rows(&self) -> Vec<super::diff::Row> {
        let allow = super::instants::Allowance::for_abc(&self.params, self.tick_phase_ms.is_some());
        super::diff::compare(&self.model, &self.live, Some(&allow))
    }
}

/// Runs `p` (already fitted to the server) live, then the model with the server's tick phase,
/// so that model and server expire sessions on the same boundaries. On an ensemble, `fault`
/// is made for real during the run; the model has no servers to fail and runs without it.
pub fn story(
    p: &AbcParams,
    server: &Server,
    fault: Option<EnsembleFault>,
) -> Result<Story, UserError> {
    if p.container_check_ms.is_some() && server.container_check_ms() != p.container_check_ms {
        return Err(UserError::usage(
            "a container lock directory (container_check) runs only on locklab's own single \
             server, whose container check locklab sets to the preset's: leave --zk and \
             --ensemble out",
        ));
    }
    let known = server.tick_ms().is_some() && super::tick::same_clock(server.addr());
    let on = match server {
        Server::Ensemble(e) => On::Ensemble {
            servers: &e.servers,
            fault,
        },
        _ => On::One(server.addr()),
    };
    story_on(p, on, known)
}

/// [`story`] on the server at `addr`; `phase_known`: it runs on this machine with the run's
/// tick, so its boundaries can be read off the clock.
pub fn story_at(p: &AbcParams, addr: SocketAddr, phase_known: bool) -> Result<Story, UserError> {
    story_on(p, On::One(addr), phase_known)
}

fn story_on(p: &AbcParams, on: On<'_>, phase_known: bool) -> Result<Story, UserError> {
    let (live, phase) = run_on(p, on)?;
    let tick_phase_ms = phase_known.then_some(phase);
    let mut params = p.clone();
    if let Some(phase) = tick_phase_ms {
        params.tick_phase_ms = phase;
    }
    let model = crate::engine::run(&crate::engine::params::Params::Abc(params.clone()));
    Ok(Story {
        params,
        live,
        model,
        tick_phase_ms,
    })
}

/// What a run connects to: one server, or an ensemble with the fault to make on it.
#[derive(Clone, Copy)]
pub enum On<'a> {
    One(SocketAddr),
    Ensemble {
        servers: &'a Servers,
        fault: Option<EnsembleFault>,
    },
}

impl On<'_> {
    fn addrs(&self) -> Vec<SocketAddr> {
        match self {
            On::One(a) => vec![*a],
            On::Ensemble { servers, .. } => servers.addrs(),
        }
    }
}

/// A frame guard for each server, as one connect string: a session may use any of them.
async fn relays(servers: &[SocketAddr]) -> Result<String, UserError> {
    let mut via = Vec::new();
    for s in servers {
        via.push(relay(*s).await?);
    }
    Ok(via.join(","))
}

/// Runs the preset's parameters (already scaled to the server) against `server`; returns the
/// trace and where a server on this machine with the run's tick has its boundaries.
pub fn run(p: &AbcParams, server: SocketAddr) -> Result<(Trace, Millis), UserError> {
    run_on(p, On::One(server))
}

fn run_on(p: &AbcParams, on: On<'_>) -> Result<(Trace, Millis), UserError> {
    let rt = runtime()?;
    let servers = on.addrs();
    let addr = servers[0].to_string();
    let root = run_root("abc");
    let (admin, dir) = rt.block_on(async {
        let via = relays(&servers).await?;
        let admin = super::net::session(&via)
            .await
            .map_err(|e| zk_error(&format!("connecting to {addr}"), e))?;
        let dir = match p.container_check_ms {
            None => make_dir(&admin, &root, p.first_sequence).await?,
            Some(every) => {
                make_root(&admin, &root).await?;
                let (dir, start) = container_dir(&admin, &root, p.first_sequence, every).await?;
                tokio::time::sleep_until(tokio::time::Instant::from_std(start)).await;
                dir
            }
        };
        Ok::<_, UserError>((admin, dir))
    })?;
    let log = Log::new(NAMES.len(), p.fencing);
    let phase = log.tick_phase(p.tick_ms);
    let stop = Arc::new(AtomicBool::new(false));
    let controls: Vec<Arc<Control>> = (0..NAMES.len()).map(|_| Arc::default()).collect();
    let faults: Vec<Arc<Faults>> = (0..NAMES.len()).map(|_| Arc::default()).collect();

    // The network side: observer, proxies (one per client and server), cuts.
    let ensemble = matches!(on, On::Ensemble { .. });
    let server_cut: Vec<Arc<AtomicBool>> = servers.iter().map(|_| Arc::default()).collect();
    let mut proxies = Vec::new();
    let mut connect = vec![Vec::new(); NAMES.len()];
    let mut links_of_a = Vec::new();
    for (i, f) in faults.iter().enumerate() {
        for (s, upstream) in servers.iter().enumerate() {
            let (listener, paddr) = proxy::bind()
                .map_err(|e| UserError::failed(format!("cannot open a proxy: {e}")))?;
            let link = ensemble.then(|| Arc::new(Link::new(Arc::clone(&server_cut[s]))));
            if i == 0
                && let Some(l) = &link
            {
                links_of_a.push(Arc::clone(l));
            }
            let ends = Ends {
                upstream: *upstream,
                client: ActorId(i as u8),
                log: Arc::clone(&log),
                faults: Arc::clone(f),
                link,
            };
            proxies.push((listener, ends));
            connect[i].push(paddr.to_string());
        }
    }
    let mut cuts = Vec::new();
    let mut plans_faults = vec![(None, None, None); NAMES.len()];
    for fault in &p.faults {
        let Some(c) = client_id(fault.client()) else {
            continue;
        };
        let ci = c.0 as usize;
        match fault {
            Fault::Freeze { at_ms, len_ms, .. } => plans_faults[ci].0 = Some((*at_ms, *len_ms)),
            Fault::Crash { at_ms, .. } => plans_faults[ci].1 = Some(*at_ms),
            Fault::Disconnect { at_ms, len_ms, .. } => cuts.push((ci, *at_ms, *len_ms)),
            Fault::DropCreateResponse { .. } => faults[ci].drop_next_create(),
            // Armed on the client itself (its recipe's acquire deadline).
            Fault::GiveUp { .. } => {}
            Fault::DeleteBetween { owner, .. } => {
                if let Some(o) = client_id(owner) {
                    plans_faults[ci].2 = Some(Arc::clone(&controls[o.0 as usize]));
                }
            }
        }
    }
    let ensemble_thread = match on {
        On::Ensemble { servers, fault } => {
            let plan = super::ensemble::faults::Plan {
                servers: servers.clone(),
                fault,
                server_cut: server_cut.clone(),
                links_of_a,
                run_ms: p.duration_ms,
            };
            let (log, stop) = (Arc::clone(&log), Arc::clone(&stop));
            Some(
                std::thread::Builder::new()
                    .name("live-ensemble".into())
                    .spawn(move || super::ensemble::faults::run(plan, log, stop))
                    .map_err(|e| UserError::failed(format!("cannot start the live run: {e}")))?,
            )
        }
        On::One(_) => None,
    };
    let net = {
        let (log, stop, dir) = (Arc::clone(&log), Arc::clone(&stop), dir.clone());
        let faults = faults.clone();
        let servers = servers.clone();
        std::thread::Builder::new()
            .name("live-net".into())
            .spawn(move || {
                let Ok(rt) = runtime() else { return };
                rt.block_on(async move {
                    for (listener, ends) in proxies {
                        tokio::spawn(proxy::serve(listener, ends));
                    }
                    for (ci, at, len) in cuts {
                        let f = Arc::clone(&faults[ci]);
                        tokio::spawn(cut(Arc::clone(&log), f, ActorId(ci as u8), at, len));
                    }
                    if let Ok(via) = relays(&servers).await
                        && let Ok(zk) = super::net::session(&via).await
                    {
                        observe(zk, dir, log, Arc::clone(&stop)).await;
                    }
                    while !stop.load(Ordering::Relaxed) {
                        tokio::time::sleep(Duration::from_millis(20)).await;
                    }
                });
            })
            .map_err(|e| UserError::failed(format!("cannot start the live run: {e}")))?
    };

    let mut threads = Vec::new();
    let (ready_tx, ready_rx) = std::sync::mpsc::channel::<Result<(), String>>();
    for (i, (freeze, crash, delete_between)) in plans_faults.into_iter().enumerate() {
        let id = ActorId(i as u8);
        let plan = Plan {
            id,
            recipe: abc::recipe(p, i, DirId(0), log.resource),
            guid: guid(p.seed, i),
            dir: dir.clone(),
            container_dir: p.container_check_ms.is_some(),
            connect: connect[i].join(","),
            freeze,
            crash,
            delete_between,
            control: Arc::clone(&controls[i]),
            on_crash: Some(Arc::clone(&faults[i])),
        };
        let (log, tx) = (Arc::clone(&log), ready_tx.clone());
        let t = std::thread::Builder::new()
            .name(format!("live-{}", NAMES[i]))
            .spawn(move || {
                let Ok(rt) = runtime() else {
                    let _ = tx.send(Err("no runtime".into()));
                    return;
                };
                rt.block_on(async move {
                    match client::connect(&plan, &log).await {
                        Ok(zk) => {
                            let _ = tx.send(Ok(()));
                            client::run(plan, zk, log).await;
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
    for _ in 0..NAMES.len() {
        match ready_rx.recv_timeout(Duration::from_secs(20)) {
            Ok(Ok(())) => {}
            Ok(Err(e)) => failure = Some(e),
            Err(_) => failure = Some("a client could not connect in time".into()),
        }
    }
    if failure.is_none() {
        let end = log.instant(p.duration_ms);
        std::thread::sleep(end.saturating_duration_since(std::time::Instant::now()));
    }
    let inner = log.take();
    stop.store(true, Ordering::Relaxed);
    for c in &controls {
        c.stop.store(true, Ordering::Relaxed);
    }
    for t in threads {
        let _ = t.join();
    }
    let _ = net.join();
    if let Some(t) = ensemble_thread {
        let _ = t.join();
    }
    rt.block_on(remove_tree(&admin, &root));
    drop(admin);
    if let Some(e) = failure {
        return Err(UserError::failed(format!("a live client failed: {e}")));
    }
    Ok((finish::abc(inner, p.duration_ms, &log), phase))
}

/// The GUID client `i` writes in its node's name, from the preset's seed.
fn guid(seed: u64, i: usize) -> u32 {
    let mut x = seed ^ (0x9E37_79B9_7F4A_7C15u64.wrapping_mul(i as u64 + 1));
    x ^= x >> 33;
    x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
    x ^= x >> 33;
    x as u32
}
