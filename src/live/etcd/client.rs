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
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use super::gateway::Gateway;
use super::resource::{Resource, ResourceAt};
use crate::engine::time::Millis;
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

/// The session's keep-alive loop, until `stop`: one keep-alive every third of the TTL; done
/// when etcd no longer has the lease or none was answered for a whole TTL.
fn keep_alive(
    g: Gateway,
    out: Out,
    lease: i64,
    ttl_s: i64,
    done: Arc<AtomicBool>,
    stop: Arc<AtomicBool>,
) {
    let ttl = Duration::from_secs(ttl_s.max(1) as u64);
    let every = ttl / 3;
    let mut answered = Instant::now();
    // The library sends the first keep-alive as soon as the session opens.
    let mut next = Instant::now();
    while !stop.load(Ordering::Relaxed) && !done.load(Ordering::Relaxed) {
        if Instant::now() >= next {
            next = Instant::now() + every;
            out.report(Report::KeepAliveSent { at: out.now() });
            match g.lease_keepalive(lease) {
                Ok(Some(t)) => {
                    answered = Instant::now();
                    out.report(Report::KeepAliveAnswered {
                        at: out.now(),
                        ttl_s: t,
                    });
                }
                Ok(None) => {
                    out.report(Report::KeepAliveNotFound { at: out.now() });
                    done.store(true, Ordering::Relaxed);
                    break;
                }
                Err(e) => out.report(Report::Failed {
                    at: out.now(),
                    what: e.0,
                }),
            }
        }
        if answered.elapsed() >= ttl {
            out.report(Report::SessionDone { at: out.now() });
            done.store(true, Ordering::Relaxed);
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Work that advances only while the process runs (a step that took far longer than asked
/// was a stop, and counts for its own length only); returns early when `until` says so.
fn work_for(ms: Millis) {
    let step = Duration::from_millis(5);
    let stopped = Duration::from_millis(50);
    let total = Duration::from_millis(ms);
    let mut done = Duration::ZERO;
    while done < total {
        let slice = step.min(total - done);
        let t = Instant::now();
        std::thread::sleep(slice);
        let took = t.elapsed();
        done += if took > slice + stopped { slice } else { took };
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
        let every = cfg.write_every_ms.max(1);
        let mut worked = 0;
        let mut n = 0;
        while worked < cfg.work_ms {
            let slice = every.min(cfg.work_ms - worked);
            work_for(slice);
            worked += slice;
            if slice < every {
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
            let accepted = resource.write(&key, token, &value);
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
