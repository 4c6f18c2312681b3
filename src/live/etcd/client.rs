//! One client of the etcd lock, in a process of its own (locklab's hidden `etcd-client`
//! command), so that a pause is a real one: SIGSTOP stops its keep-alives with the rest of
//! it, and its lease really runs out on etcd. It does what `concurrency.NewSession` and
//! `concurrency.Mutex` do: grant a lease and keep it alive every third of its TTL (the session
//! is done once no keep-alive was answered for a whole TTL, or etcd no longer knows the lease);
//! put its key `PREFIX<lease in hex>` attached to the lease in one Txn; wait for the deletion
//! of the key just ahead (the next lower create revision) through a watch; hold with its key's
//! create revision as the token; work, writing every so often of its own running time; unlock
//! and revoke. Every step is one JSON line on its standard output, timed on the machine's
//! monotonic clock from the run's start.

use std::io::Write;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use super::gateway::Gateway;
use super::resource::{Resource, ResourceAt};
use crate::engine::time::Millis;
use crate::engine::trace::etcd::protocol::{
    DEADLINE_LOOP_MS, FIRST_KEEPALIVE_TIMEOUT_MS, KEEPALIVE_LOOP_MS, next_keepalive_ms,
};
use crate::live::redis::client::{monotonic_ns, sleep_until};

/// The prefix the mutex puts its keys under.
pub const LOCK_PREFIX: &str = "/locklab/lock/";
/// How long one request to etcd may take.
const REQUEST_TIMEOUT: Duration = Duration::from_millis(1_500);

/// What a client is told, as one JSON argument.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ClientConfig {
    /// Its name, A to D.
    pub name: String,
    /// Where it reaches etcd: the member itself, or a relay that can cut the link.
    pub etcd: SocketAddr,
    pub resource: ResourceAt,
    pub ttl_s: u64,
    pub start_ms: Millis,
    pub work_ms: Millis,
    pub write_every_ms: Millis,
    /// Looks at its session before each write and stops once it is done.
    pub stop_when_lost: bool,
    /// The run's start on CLOCK_MONOTONIC, in nanoseconds.
    pub epoch_ns: u64,
    /// The locklab that started it: the client dies with it.
    pub parent: u32,
}

/// One step, as the client reports it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "step", rename_all = "snake_case")]
pub enum Report {
    GrantSent {
        at: Millis,
        ttl_s: u64,
    },
    SessionOpened {
        at: Millis,
        lease: i64,
        ttl_s: i64,
    },
    KeepAliveSent {
        at: Millis,
    },
    KeepAliveAnswered {
        at: Millis,
        ttl_s: i64,
    },
    /// etcd answered that it no longer has the lease.
    KeepAliveNotFound {
        at: Millis,
    },
    /// No keep-alive answered for a whole TTL: the session is done.
    SessionDone {
        at: Millis,
    },
    LockTxnSent {
        at: Millis,
        key: String,
    },
    LockTxnAnswered {
        at: Millis,
        my_rev: i64,
        owner_rev: i64,
    },
    /// The key just ahead, none when the client holds; the store's revision at the read.
    PredecessorRead {
        at: Millis,
        ahead: Option<(String, i64)>,
        revision: i64,
    },
    WatchStarted {
        at: Millis,
        key: String,
        from_rev: i64,
    },
    WatchFired {
        at: Millis,
        key: String,
        delete_rev: i64,
    },
    Locked {
        at: Millis,
        token: i64,
    },
    WriteSent {
        at: Millis,
        token: i64,
        value: String,
    },
    Wrote {
        at: Millis,
        token: i64,
        accepted: bool,
    },
    WriteSkipped {
        at: Millis,
        token: i64,
    },
    UnlockSent {
        at: Millis,
        key: String,
    },
    /// A request that failed (timed out, or the link is cut).
    Failed {
        at: Millis,
        what: String,
    },
    Done {
        at: Millis,
    },
}

impl Report {
    pub fn at(&self) -> Millis {
        match self {
            Report::GrantSent { at, .. }
            | Report::SessionOpened { at, .. }
            | Report::KeepAliveSent { at }
            | Report::KeepAliveAnswered { at, .. }
            | Report::KeepAliveNotFound { at }
            | Report::SessionDone { at }
            | Report::LockTxnSent { at, .. }
            | Report::LockTxnAnswered { at, .. }
            | Report::PredecessorRead { at, .. }
            | Report::WatchStarted { at, .. }
            | Report::WatchFired { at, .. }
            | Report::Locked { at, .. }
            | Report::WriteSent { at, .. }
            | Report::Wrote { at, .. }
            | Report::WriteSkipped { at, .. }
            | Report::UnlockSent { at, .. }
            | Report::Failed { at, .. }
            | Report::Done { at } => *at,
        }
    }
}

/// The key the mutex puts for `lease`, as `concurrency.Mutex` names it.
pub fn lock_key(lease: i64) -> String {
    format!("{LOCK_PREFIX}{lease:x}")
}

/// Reports go out from the main thread and the keep-alive thread: one line each, whole.
#[derive(Clone)]
struct Out {
    epoch_ns: u64,
    lock: Arc<Mutex<()>>,
}

impl Out {
    fn now(&self) -> Millis {
        monotonic_ns().saturating_sub(self.epoch_ns) / 1_000_000
    }

    fn report(&self, r: Report) {
        let mut line = serde_json::to_string(&r).unwrap_or_default();
        line.push('\n');
        let _one = self.lock.lock().unwrap_or_else(|e| e.into_inner());
        let mut out = std::io::stdout().lock();
        // A parent that is gone reads nothing; the client dies with it anyway.
        let _ = out.write_all(line.as_bytes()).and_then(|()| out.flush());
    }
}

/// Runs `tick` every `every_ms` of run time from `from_ms` (a tick the process missed is
/// skipped, as a timer's would be) until it returns false or `stop` is set.
fn every_tick(
    out: &Out,
    from_ms: Millis,
    every_ms: Millis,
    stop: &AtomicBool,
    mut tick: impl FnMut() -> bool,
) {
    let mut due = from_ms;
    while !stop.load(Ordering::Relaxed) {
        if !tick() {
            return;
        }
        let now = out.now();
        due += every_ms * ((now.saturating_sub(due)) / every_ms + 1);
        sleep_until(out.epoch_ns, due);
    }
}

/// The session's keep-alive, as the client library keeps it until `stop`: a loop every
/// 500 ms sends a keep-alive once one is due (a third of the TTL after the last answer), and
/// a loop of its own, every second, closes the session once the last answer is a whole TTL
/// old; an answer that etcd no longer has the lease closes it at once. On the JSON gateway a
/// keep-alive is a request that may wait out its timeout on a cut link, so the deadline is
/// looked at on its own thread, never behind a keep-alive that hangs.
fn keep_alive(
    g: Gateway,
    out: Out,
    lease: i64,
    ttl_s: i64,
    done: Arc<AtomicBool>,
    stop: Arc<AtomicBool>,
) {
    let ttl_s = ttl_s.max(1) as u64;
    let started = out.now();
    // Until the first answer the library allows its default wait.
    let deadline = Arc::new(AtomicU64::new(started + FIRST_KEEPALIVE_TIMEOUT_MS));
    let ended = Arc::new(AtomicBool::new(false));
    let watcher = {
        let (out, deadline, done, stop, ended) = (
            out.clone(),
            deadline.clone(),
            done.clone(),
            stop.clone(),
            ended.clone(),
        );
        std::thread::spawn(move || {
            every_tick(
                &out,
                started + DEADLINE_LOOP_MS,
                DEADLINE_LOOP_MS,
                &stop,
                || {
                    if ended.load(Ordering::Relaxed) {
                        return false;
                    }
                    if out.now() > deadline.load(Ordering::Relaxed) {
                        out.report(Report::SessionDone { at: out.now() });
                        done.store(true, Ordering::Relaxed);
                        ended.store(true, Ordering::Relaxed);
                        return false;
                    }
                    true
                },
            );
        })
    };
    // The first keep-alive leaves as soon as the session opens.
    let mut next = started;
    every_tick(&out, started, KEEPALIVE_LOOP_MS, &stop, || {
        if ended.load(Ordering::Relaxed) {
            return false;
        }
        if out.now() < next {
            return true;
        }
        out.report(Report::KeepAliveSent { at: out.now() });
        match g.lease_keepalive(lease) {
            Ok(Some(t)) => {
                let at = out.now();
                next = next_keepalive_ms(at, ttl_s);
                deadline.store(at + ttl_s * 1_000, Ordering::Relaxed);
                out.report(Report::KeepAliveAnswered { at, ttl_s: t });
            }
            Ok(None) => {
                if !ended.swap(true, Ordering::Relaxed) {
                    out.report(Report::KeepAliveNotFound { at: out.now() });
                    done.store(true, Ordering::Relaxed);
                }
                return false;
            }
            Err(e) => out.report(Report::Failed {
                at: out.now(),
                what: e.0,
            }),
        }
        true
    });
    ended.store(true, Ordering::Relaxed);
    let _ = watcher.join();
}

/// How much of `took` the process ran: a step far longer than a scheduling delay was a stop.
fn running(took: Duration) -> Duration {
    if took > STOPPED { Duration::ZERO } else { took }
}

/// A step this much longer than asked was the process being stopped.
const STOPPED: Duration = Duration::from_millis(50);

/// Work that advances only while the process runs (a step that took far longer than asked
/// was a stop, and counts for its own length only).
fn work_for(total: Duration) {
    let step = Duration::from_millis(5);
    let mut done = Duration::ZERO;
    while done < total {
        let slice = step.min(total - done);
        let t = Instant::now();
        std::thread::sleep(slice);
        let took = t.elapsed();
        done += if took > slice + STOPPED { slice } else { took };
    }
}

/// Waits until the client holds: the mutex's Txn, then the key just ahead's deletion, again
/// until none is ahead. The token, or `None` when the run ends first or etcd fails.
fn lock(g: &Gateway, out: &Out, lease: i64, until: Instant) -> Option<(String, i64)> {
    let key = lock_key(lease);
    out.report(Report::LockTxnSent {
        at: out.now(),
        key: key.clone(),
    });
    let failed = |e: super::gateway::GatewayError| {
        out.report(Report::Failed {
            at: out.now(),
            what: e.0,
        })
    };
    let (mine, owner) = g.enqueue(LOCK_PREFIX, &key, lease).map_err(failed).ok()?;
    out.report(Report::LockTxnAnswered {
        at: out.now(),
        my_rev: mine,
        owner_rev: owner.map_or(0, |o| o.create_revision),
    });
    loop {
        let (ahead, revision) = g.predecessor(LOCK_PREFIX, mine).map_err(failed).ok()?;
        out.report(Report::PredecessorRead {
            at: out.now(),
            ahead: ahead.as_ref().map(|k| (k.key.clone(), k.create_revision)),
            revision,
        });
        let Some(ahead) = ahead else {
            out.report(Report::Locked {
                at: out.now(),
                token: mine,
            });
            return Some((key, mine));
        };
        out.report(Report::WatchStarted {
            at: out.now(),
            key: ahead.key.clone(),
            from_rev: revision,
        });
        match g.wait_deleted(&ahead.key, revision, until) {
            Ok(Some(delete_rev)) => out.report(Report::WatchFired {
                at: out.now(),
                key: ahead.key,
                delete_rev,
            }),
            Ok(None) => return None,
            Err(e) => {
                failed(e);
                return None;
            }
        }
    }
}

/// The client process's whole life: returns its exit status.
pub fn main(config: &str) -> i32 {
    let cfg: ClientConfig = match serde_json::from_str(config) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("locklab etcd-client: a bad configuration: {e}");
            return 2;
        }
    };
    if let Err(e) = crate::live::children::die_with_parent(cfg.parent) {
        eprintln!("locklab etcd-client: {e}");
        return 1;
    }
    let out = Out {
        epoch_ns: cfg.epoch_ns,
        lock: Arc::default(),
    };
    let g = Gateway::new(cfg.etcd, REQUEST_TIMEOUT);
    let mut resource = Resource::open(&cfg.resource, &cfg.name);
    sleep_until(cfg.epoch_ns, cfg.start_ms);
    out.report(Report::GrantSent {
        at: out.now(),
        ttl_s: cfg.ttl_s,
    });
    let lease = match g.lease_grant(cfg.ttl_s as i64) {
        Ok(l) => l,
        Err(e) => {
            out.report(Report::Failed {
                at: out.now(),
                what: e.0,
            });
            return 1;
        }
    };
    out.report(Report::SessionOpened {
        at: out.now(),
        lease: lease.id,
        ttl_s: lease.ttl_s,
    });
    let (done, stop) = (
        Arc::new(AtomicBool::new(false)),
        Arc::new(AtomicBool::new(false)),
    );
    let keeper = {
        let (g, out, done, stop) = (g.clone(), out.clone(), done.clone(), stop.clone());
        std::thread::spawn(move || keep_alive(g, out, lease.id, lease.ttl_s, done, stop))
    };
    // The parent ends the run by killing the process; a wait never outlasts a long run.
    let until = Instant::now() + Duration::from_secs(600);
    if let Some((key, token)) = lock(&g, &out, lease.id, until) {
        let every = Duration::from_millis(cfg.write_every_ms.max(1));
        let work = Duration::from_millis(cfg.work_ms);
        // Running time since the lock; a write's round trip is part of it, so the writes keep
        // the model's cadence (one every `write_every` of running time) instead of drifting
        // by a round trip each.
        let mut worked = Duration::ZERO;
        let mut n: u32 = 0;
        while worked < work {
            let due = (every * (n + 1)).min(work);
            work_for(due.saturating_sub(worked));
            worked = due;
            if work < every * (n + 1) {
                break;
            }
            if cfg.stop_when_lost && done.load(Ordering::Relaxed) {
                out.report(Report::WriteSkipped {
                    at: out.now(),
                    token,
                });
                break;
            }
            n += 1;
            let value = format!("{}{n}", cfg.name);
            out.report(Report::WriteSent {
                at: out.now(),
                token,
                value: value.clone(),
            });
            let sent = Instant::now();
            let accepted = resource.write(&key, token, &value);
            worked += running(sent.elapsed());
            match accepted {
                Ok(accepted) => out.report(Report::Wrote {
                    at: out.now(),
                    token,
                    accepted,
                }),
                Err(what) => out.report(Report::Failed {
                    at: out.now(),
                    what,
                }),
            }
        }
        out.report(Report::UnlockSent {
            at: out.now(),
            key: key.clone(),
        });
        let _ = g.delete(&key);
    }
    stop.store(true, Ordering::Relaxed);
    let _ = keeper.join();
    let _ = g.lease_revoke(lease.id);
    out.report(Report::Done { at: out.now() });
    0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lock_key_is_the_prefix_and_the_lease_in_hex() {
        assert_eq!(
            lock_key(0x694d_7a1b_0000_0001),
            "/locklab/lock/694d7a1b00000001"
        );
    }

    #[test]
    fn reports_round_trip_as_json_lines() {
        let r = Report::PredecessorRead {
            at: 10,
            ahead: Some(("/locklab/lock/1".into(), 2)),
            revision: 3,
        };
        let line = serde_json::to_string(&r).unwrap();
        assert!(!line.contains('\n'));
        assert_eq!(serde_json::from_str::<Report>(&line).unwrap(), r);
    }
}
