//! A Redlock preset on real Redis servers: five nodes and a resource, one process per client,
//! the preset's faults made for real on a schedule, and what everyone saw gathered for
//! [`super::trace`].
//!
//! * A node that is down from the start is a port that takes connections and never answers
//!   until its server starts there at `down_until`.
//! * A crash is SIGKILL of the node's server; the restart is a new server on the same port.
//!   Without fsync it has an empty directory, and nothing of the old one's keys survives; with
//!   fsync every node writes an append-only file synced before each reply (`appendfsync
//!   always`), and the new server reads the crashed one's directory, as a machine that
//!   rebooted reads its disk.
//! * A clock jump rewrites the offset file the node's libfaketime reads on every clock call.
//! * A pause is SIGSTOP of the client's process, and SIGCONT at its end.
//!
//! A watcher asks every node for the lock's key every few milliseconds, so the trace shows
//! keys that expire (early, on the jumped node) or vanish in a crash.

use std::io::{BufRead, BufReader};
use std::net::{SocketAddr, TcpListener};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use super::client::{ClientConfig, KEY, Report, ResourceAt, monotonic_ns, sleep_until};
use super::node::{Disk, FakeClock, Node, black_hole, fake_clock};
use super::resp::{Conn, Reply};
use crate::engine::params::{REDLOCK_CLIENTS, RedlockParams, ReleaseHow};
use crate::engine::time::Millis;
use crate::live::UserError;
use crate::live::children;

/// A fault as the run made it, when it made it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fault {
    /// A node down from the start is up.
    NodeUp(usize),
    Crashed(usize),
    Restarted(usize),
    ClockJumped {
        node: usize,
        by_ms: Millis,
    },
    Froze(usize),
    Woke(usize),
}

/// Which store holds the resource the holders write to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Store {
    /// A fenced row on a private PostgreSQL.
    Postgres,
    /// A key on a sixth Redis server.
    Redis,
}

/// The store a run uses when none is asked for: PostgreSQL when it is installed, else Redis.
pub fn default_store() -> Store {
    if crate::live::pg::server::installed().is_ok() {
        Store::Postgres
    } else {
        Store::Redis
    }
}

/// The resource's server, for as long as the run lasts.
enum ResourceServer {
    Redis(Node),
    Postgres(crate::live::pg::Database),
}

impl ResourceServer {
    /// Starts the store and makes the resource on it.
    fn start(store: Store) -> Result<(Self, ResourceAt), UserError> {
        match store {
            Store::Redis => {
                let node = Node::start(None, None)?;
                let at = ResourceAt::Redis { addr: node.addr };
                Ok((ResourceServer::Redis(node), at))
            }
            Store::Postgres => {
                let db = crate::live::pg::start()?;
                let dbname = db.create("redlock")?;
                let row = "resource";
                let mut client = db.connect_to(&dbname)?;
                crate::live::pg::fenced::FencedRow::make(&mut client, row)?;
                let at = ResourceAt::Postgres {
                    addr: db.addr,
                    dbname,
                    row: row.to_string(),
                };
                Ok((ResourceServer::Postgres(db), at))
            }
        }
    }

    fn addr_and_dir(&self) -> (SocketAddr, PathBuf) {
        match self {
            ResourceServer::Redis(n) => (n.addr, n.dir.clone()),
            ResourceServer::Postgres(db) => (db.addr, db.dir.clone()),
        }
    }

    fn stop_soon(&mut self) {
        match self {
            ResourceServer::Redis(n) => n.stop_soon(),
            ResourceServer::Postgres(db) => db.stop_soon(),
        }
    }
}

/// What a watcher saw on one node: the lock key's value, or none.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Seen {
    pub at: Millis,
    pub node: usize,
    pub value: Option<String>,
}

/// Everything a run gathered, in run time (ms from its start).
#[derive(Debug, Default)]
pub struct Gathered {
    pub reports: Vec<(usize, Report)>,
    pub faults: Vec<(Millis, Fault)>,
    pub seen: Vec<Seen>,
    pub end_ms: Millis,
    /// Every server's address and directory in the run (a restart is a new directory), all
    /// gone when the run returns.
    pub servers: Vec<(SocketAddr, PathBuf)>,
    /// Where the resource was.
    pub store: Option<Store>,
}

/// How often the watcher asks each node, and how long it waits for one.
const WATCH_EVERY: Duration = Duration::from_millis(5);
const WATCH_WAIT: Duration = Duration::from_millis(20);
/// Time for the clients to start before the run's clock starts.
const LEAD: Duration = Duration::from_millis(150);

/// One node's place in the run: its port, and what listens there now.
enum Slot {
    Up(Node),
    /// Down: a port that never answers.
    Hole {
        _listener: TcpListener,
    },
    Gone,
}

struct Nodes {
    slots: Vec<Slot>,
    /// Whether the nodes sync each key to disk before they answer.
    fsync: bool,
    /// Crashed servers with fsync, kept (dead) so that their directories stay until the run
    /// ends: the restarted server reads its keys from there. Dropped after `slots`.
    crashed: Vec<Node>,
    /// Every server started, with its directory.
    started: Vec<(SocketAddr, PathBuf)>,
    addrs: Vec<SocketAddr>,
    /// Whether the watcher may ask each node (not while it is down or restarting).
    up: Arc<Vec<AtomicBool>>,
}

impl Nodes {
    fn start(p: &RedlockParams, clock: Option<&FakeClock>) -> Result<Nodes, UserError> {
        let mut slots = Vec::new();
        let mut addrs = Vec::new();
        let mut started = Vec::new();
        // The servers start side by side: each takes a few tens of milliseconds to answer.
        let servers: Vec<Option<Result<Node, UserError>>> = std::thread::scope(|scope| {
            let handles: Vec<_> = (1..=p.nodes)
                .map(|i| {
                    let c = clock.filter(|_| p.jump_node == i);
                    let disk = disk_for(p.fsync, None);
                    (!p.down.contains(&i))
                        .then(|| scope.spawn(move || Node::start_keeping(None, c, disk)))
                })
                .collect();
            handles
                .into_iter()
                .map(|h| {
                    h.map(|h| {
                        h.join().unwrap_or_else(|_| {
                            Err(UserError::failed("a Redis server's start failed"))
                        })
                    })
                })
                .collect()
        });
        let mut servers = servers.into_iter();
        for i in 1..=p.nodes {
            let server = servers.next().flatten();
            if p.down.contains(&i) {
                let hole = black_hole()?;
                addrs.push(
                    hole.local_addr()
                        .map_err(|e| UserError::failed(e.to_string()))?,
                );
                slots.push(Slot::Hole { _listener: hole });
            } else {
                let n = server.unwrap_or_else(|| Err(UserError::failed("a node did not start")))?;
                started.push((n.addr, n.dir.clone()));
                addrs.push(n.addr);
                slots.push(Slot::Up(n));
            }
        }
        let up: Vec<AtomicBool> = slots
            .iter()
            .map(|s| AtomicBool::new(matches!(s, Slot::Up(_))))
            .collect();
        Ok(Nodes {
            slots,
            fsync: p.fsync,
            crashed: Vec::new(),
            started,
            addrs,
            up: Arc::new(up),
        })
    }

    /// Starts node `i`'s server on its port: with an empty directory, or with fsync on the
    /// directory its crashed server synced its keys to.
    fn bring_up(&mut self, i: usize, clock: Option<&FakeClock>) -> Result<(), UserError> {
        // The port must be free before the server binds it.
        self.slots[i] = Slot::Gone;
        let port = self.addrs[i].port();
        let disk_of_crashed = self
            .crashed
            .iter()
            .rev()
            .find(|n| n.addr.port() == port)
            .map(|n| n.data.clone());
        let n = Node::start_keeping(
            Some(port),
            clock,
            disk_for(self.fsync, disk_of_crashed.as_deref()),
        )?;
        self.started.push((n.addr, n.dir.clone()));
        self.slots[i] = Slot::Up(n);
        self.up[i].store(true, Ordering::Relaxed);
        Ok(())
    }

    fn crash(&mut self, i: usize) {
        self.up[i].store(false, Ordering::Relaxed);
        if let Slot::Up(n) = std::mem::replace(&mut self.slots[i], Slot::Gone) {
            if self.fsync {
                n.crash_keeping_disk();
                self.crashed.push(n);
            } else {
                n.kill();
            }
        }
    }

    fn jump(&self, i: usize, by_ms: Millis) -> Result<(), UserError> {
        match &self.slots[i] {
            Slot::Up(n) => n
                .set_clock(by_ms)
                .map_err(|e| UserError::failed(format!("cannot move the node's clock: {e}"))),
            _ => Ok(()),
        }
    }
}

/// How a node keeps its keys: synced to disk (in `data`, if given) with fsync, else in memory.
fn disk_for(fsync: bool, data: Option<&Path>) -> Disk<'_> {
    if fsync {
        Disk::Synced { data }
    } else {
        Disk::Nothing
    }
}

impl Drop for Nodes {
    fn drop(&mut self) {
        for s in &mut self.slots {
            if let Slot::Up(n) = s {
                n.stop_soon();
            }
        }
        for n in &mut self.crashed {
            n.stop_soon();
        }
    }
}

/// One timed action of the schedule.
#[derive(Debug, Clone, Copy)]
enum Action {
    Up(usize),
    Crash(usize),
    Restart(usize),
    Jump(usize, Millis),
    Stop(usize),
    Cont(usize),
}

fn schedule(p: &RedlockParams) -> Vec<(Millis, Action)> {
    let mut s: Vec<(Millis, Action)> = p
        .down
        .iter()
        .filter(|&&d| d >= 1 && d <= p.nodes)
        .map(|&d| (p.down_until_ms, Action::Up(d as usize - 1)))
        .collect();
    if p.crash_node > 0 {
        let n = p.crash_node as usize - 1;
        s.push((p.crash_at_ms, Action::Crash(n)));
        s.push((p.crash_at_ms + p.restart_after_ms, Action::Restart(n)));
    }
    if p.jump_node > 0 {
        s.push((
            p.jump_at_ms,
            Action::Jump(p.jump_node as usize - 1, p.jump_by_ms),
        ));
    }
    if let Some(c) = p.pause_client {
        s.push((p.pause_at_ms, Action::Stop(c)));
        s.push((p.pause_at_ms + p.pause_len_ms, Action::Cont(c)));
    }
    s.sort_by_key(|(at, _)| *at);
    s
}

/// Why a preset cannot run on real servers, if it cannot: every Redlock preset can.
pub fn unsupported(_p: &RedlockParams) -> Option<&'static str> {
    None
}

struct Clients {
    children: Vec<Child>,
}

impl Drop for Clients {
    fn drop(&mut self) {
        for c in &mut self.children {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

fn signal(c: &Child, sig: rustix::process::Signal) {
    children::signal(c.id(), sig, false);
}

fn now_ms(epoch_ns: u64) -> Millis {
    monotonic_ns().saturating_sub(epoch_ns) / 1_000_000
}

/// Asks every node that is up for the lock key, and records each change.
fn watch(
    addrs: Vec<SocketAddr>,
    up: Arc<Vec<AtomicBool>>,
    epoch_ns: u64,
    stop: Arc<AtomicBool>,
    seen: Arc<Mutex<Vec<Seen>>>,
) {
    let mut conns: Vec<Option<Conn>> = addrs.iter().map(|_| None).collect();
    let mut last: Vec<Option<Option<String>>> = addrs.iter().map(|_| None).collect();
    while !stop.load(Ordering::Relaxed) {
        for (i, addr) in addrs.iter().enumerate() {
            if !up[i].load(Ordering::Relaxed) {
                conns[i] = None;
                continue;
            }
            if conns[i].is_none() {
                conns[i] = Conn::open(*addr, WATCH_WAIT).ok();
            }
            let Some(c) = conns[i].as_mut() else { continue };
            // The time the question left: the answer shows the key as it was then or later.
            let at = now_ms(epoch_ns);
            let value = match c.call(&[b"GET", KEY.as_bytes()], WATCH_WAIT) {
                Ok(Reply::Bulk(v)) => v.map(|b| String::from_utf8_lossy(&b).into_owned()),
                _ => {
                    conns[i] = None;
                    continue;
                }
            };
            if last[i].as_ref() != Some(&value) {
                if let Ok(mut s) = seen.lock() {
                    s.push(Seen {
                        at,
                        node: i,
                        value: value.clone(),
                    });
                }
                last[i] = Some(value);
            }
        }
        std::thread::sleep(WATCH_EVERY);
    }
}

/// Runs preset `p` on real servers, the resource on `store`; `exe` is the locklab binary that
/// runs each client.
pub fn run(p: &RedlockParams, exe: &Path, store: Store) -> Result<Gathered, UserError> {
    if let Some(why) = unsupported(p) {
        return Err(UserError::usage(why));
    }
    super::node::installed()?;
    let clock = if p.jump_node > 0 {
        Some(fake_clock()?)
    } else {
        None
    };
    let mut nodes = Nodes::start(p, clock.as_ref())?;
    let (resource, resource_at) = ResourceServer::start(store)?;
    let epoch_ns = monotonic_ns() + LEAD.as_nanos() as u64;
    let mut clients = Clients {
        children: Vec::new(),
    };
    let (tx, rx) = mpsc::channel::<(usize, Report)>();
    let mut readers = Vec::new();
    for (i, name) in REDLOCK_CLIENTS.iter().enumerate().take(p.clients as usize) {
        let cfg = ClientConfig {
            name: name.to_string(),
            nodes: nodes.addrs.clone(),
            resource: resource_at.clone(),
            ttl_ms: p.ttl_ms,
            drift_ms: p.drift_ms(),
            timeout_ms: p.timeout_ms,
            retry_ms: p.retry_ms,
            work_ms: p.work_ms,
            start_ms: p.start_gap_ms * i as u64,
            naive_del: p.release == ReleaseHow::NaiveDel,
            epoch_ns,
            parent: std::process::id(),
            seed: p.seed.wrapping_mul(31).wrapping_add(i as u64),
        };
        let json = serde_json::to_string(&cfg).map_err(|e| UserError::failed(e.to_string()))?;
        let mut cmd = Command::new(exe);
        cmd.arg("redlock-client")
            .arg(json)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit());
        children::mark(&mut cmd);
        let mut child = cmd
            .spawn()
            .map_err(|e| UserError::failed(format!("cannot start a Redlock client: {e}")))?;
        let out = child.stdout.take();
        clients.children.push(child);
        let tx = tx.clone();
        readers.push(std::thread::spawn(move || {
            let Some(out) = out else { return };
            for line in BufReader::new(out).lines().map_while(Result::ok) {
                if let Ok(r) = serde_json::from_str::<Report>(&line) {
                    let _ = tx.send((i, r));
                }
            }
        }));
    }
    drop(tx);
    let stop = Arc::new(AtomicBool::new(false));
    let seen = Arc::new(Mutex::new(Vec::new()));
    let watcher = {
        let (addrs, up, stop, seen) = (
            nodes.addrs.clone(),
            nodes.up.clone(),
            stop.clone(),
            seen.clone(),
        );
        std::thread::spawn(move || watch(addrs, up, epoch_ns, stop, seen))
    };
    let mut faults = Vec::new();
    let result = (|| {
        for (at, action) in schedule(p) {
            sleep_until(epoch_ns, at);
            let t = now_ms(epoch_ns);
            match action {
                Action::Up(i) => {
                    nodes.bring_up(i, None)?;
                    faults.push((now_ms(epoch_ns), Fault::NodeUp(i)));
                }
                Action::Crash(i) => {
                    nodes.crash(i);
                    faults.push((t, Fault::Crashed(i)));
                }
                Action::Restart(i) => {
                    let c = clock.as_ref().filter(|_| p.jump_node as usize == i + 1);
                    nodes.bring_up(i, c)?;
                    faults.push((now_ms(epoch_ns), Fault::Restarted(i)));
                }
                Action::Jump(i, by_ms) => {
                    nodes.jump(i, by_ms)?;
                    faults.push((t, Fault::ClockJumped { node: i, by_ms }));
                }
                Action::Stop(c) => {
                    if let Some(child) = clients.children.get(c) {
                        signal(child, rustix::process::Signal::STOP);
                        faults.push((t, Fault::Froze(c)));
                    }
                }
                Action::Cont(c) => {
                    if let Some(child) = clients.children.get(c) {
                        signal(child, rustix::process::Signal::CONT);
                        faults.push((t, Fault::Woke(c)));
                    }
                }
            }
        }
        sleep_until(epoch_ns, p.duration_ms);
        Ok::<(), UserError>(())
    })();
    let end_ms = p.duration_ms;
    stop.store(true, Ordering::Relaxed);
    let _ = watcher.join();
    drop(clients);
    for r in readers {
        let _ = r.join();
    }
    let mut servers = std::mem::take(&mut nodes.started);
    servers.push(resource.addr_and_dir());
    let mut resource = resource;
    resource.stop_soon();
    drop(nodes);
    drop(resource);
    result?;
    let reports: Vec<(usize, Report)> = rx.iter().filter(|(_, r)| r.at() <= end_ms).collect();
    let seen = std::mem::take(&mut *seen.lock().unwrap_or_else(|e| e.into_inner()));
    Ok(Gathered {
        reports,
        faults,
        seen: seen.into_iter().filter(|s| s.at <= end_ms).collect(),
        end_ms,
        servers,
        store: Some(store),
    })
}
