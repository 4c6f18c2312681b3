//! An etcd preset on a real etcd: a private member, one process per client, the preset's
//! faults made for real on a schedule, and what everyone saw gathered for [`super::trace`].
//!
//! * A pause is SIGSTOP of the client's process (its keep-alives stop with it, so its lease
//!   really runs out on etcd), and SIGCONT at its end.
//! * A cut is the client's relay to etcd passing nothing on ([`super::relay`]); its link to
//!   the resource stays up, as in the model.
//!
//! The run's clock starts where etcd's lessor, timed just before, looks for expired leases at
//! the preset's `lessor_phase`, so that it looks at the model's instants
//! ([`server::lessor_tick_ns`]).
//!
//! A watcher follows every key under `/locklab/` on etcd itself from the first revision, so
//! the trace has each lock key's put and deletion with etcd's own revisions.

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::client::{ClientConfig, Report};
use super::gateway::WatchEvent;
use super::relay::Relay;
use super::resource::{ROW, ResourceAt, TOKEN_KEY};
use super::server::{self, Etcd};
use crate::engine::params::{ETCD_CLIENTS, EtcdParams, Guard, OnLost};
use crate::engine::time::Millis;
use crate::engine::trace::etcd::protocol::REVOKE_CHECK_MS;
use crate::live::UserError;
use crate::live::children;
use crate::live::redis::client::{monotonic_ns, sleep_until};

/// Time for the clients to start before the run's clock starts.
const LEAD: Duration = Duration::from_millis(200);
/// Everything the run keeps under this prefix in etcd.
const WATCHED: &str = "/locklab/";

/// A fault as the run made it, when it made it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fault {
    Froze(usize),
    Woke(usize),
    Cut(usize),
    Mended(usize),
}

/// A change etcd's watch showed, when locklab saw it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Seen {
    pub at: Millis,
    pub event: WatchEvent,
}

/// Everything a run gathered, in run time (ms from its start).
#[derive(Debug)]
pub struct Gathered {
    pub reports: Vec<(usize, Report)>,
    pub faults: Vec<(Millis, Fault)>,
    pub seen: Vec<Seen>,
    pub end_ms: Millis,
    /// Where the writes went.
    pub resource: ResourceAt,
    pub version: String,
    /// The member's client address and directory, gone when the run returns.
    pub server: (SocketAddr, PathBuf),
}

/// Why a preset cannot run on a real etcd, if it cannot.
pub fn unsupported(p: &EtcdParams) -> Option<&'static str> {
    if p.clients as usize > ETCD_CLIENTS.len() {
        return Some("more clients than the live lab names");
    }
    None
}

struct Clients(Vec<Child>);

impl Drop for Clients {
    fn drop(&mut self) {
        for c in &mut self.0 {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

/// The resource for the preset's guard: the fenced row on PostgreSQL when it is installed and
/// the guard is a token, else a key in etcd.
fn resource(
    p: &EtcdParams,
    etcd: &Etcd,
) -> Result<(ResourceAt, Option<crate::live::pg::Database>), UserError> {
    let at = etcd.addr;
    match p.guard {
        Guard::None => Ok((ResourceAt::Plain { etcd: at }, None)),
        Guard::Txn => Ok((ResourceAt::Txn { etcd: at }, None)),
        Guard::Token => {
            if crate::live::pg::server::installed().is_ok() {
                // A server of the run's own: its default database holds the row.
                let db = crate::live::pg::start()?;
                drop(crate::live::pg::fenced::FencedRow::create(&db, ROW)?);
                let addr = db.addr;
                let name = "postgres".to_string();
                return Ok((ResourceAt::Postgres { addr, db: name }, Some(db)));
            }
            let g = etcd.gateway(Duration::from_secs(2));
            g.put(TOKEN_KEY, &super::gateway::padded(0), None)
                .map_err(|e| UserError::failed(format!("etcd: {e}")))?;
            Ok((ResourceAt::TokenInEtcd { etcd: at }, None))
        }
    }
}

fn now_ms(epoch_ns: u64) -> Millis {
    monotonic_ns().saturating_sub(epoch_ns) / 1_000_000
}

/// The run's clock start: the first instant at or after `earliest` from which etcd's lessor,
/// seen to look at `tick_ns`, looks at `phase_ms + k × 500 ms`, as the model's leader does.
fn aligned_epoch(tick_ns: u64, phase_ms: Millis, earliest: u64) -> u64 {
    let period = i128::from(REVOKE_CHECK_MS * 1_000_000);
    // The clock may start at any `tick - phase + k × period`: the first of them not before
    // `earliest`.
    let base = i128::from(tick_ns) - i128::from((phase_ms % REVOKE_CHECK_MS) * 1_000_000);
    let k = (i128::from(earliest) - base).div_euclid(period);
    let start = base + k * period;
    let start = if start < i128::from(earliest) {
        start + period
    } else {
        start
    };
    start as u64
}

/// Runs preset `p` on a real etcd; `exe` is the locklab binary that runs each client.
pub fn run(p: &EtcdParams, exe: &Path) -> Result<Gathered, UserError> {
    if let Some(why) = unsupported(p) {
        return Err(UserError::usage(why));
    }
    let mut etcd = Etcd::start()?;
    // The lessor is timed while the resource starts.
    let probe = {
        let g = etcd.gateway(Duration::from_secs(2));
        std::thread::spawn(move || server::lessor_tick_ns(&g))
    };
    let (resource, db) = resource(p, &etcd)?;
    let relay = match p.cut_client {
        Some(_) => Some(Relay::start(etcd.addr)?),
        None => None,
    };
    let tick_ns = probe
        .join()
        .map_err(|_| UserError::failed("timing etcd's lessor failed"))??;
    let epoch_ns = aligned_epoch(
        tick_ns,
        p.lessor_phase_ms,
        monotonic_ns() + LEAD.as_nanos() as u64,
    );
    let run_end = Instant::now()
        + Duration::from_nanos(epoch_ns.saturating_sub(monotonic_ns()))
        + Duration::from_millis(p.duration_ms);
    let seen = Arc::new(Mutex::new(Vec::new()));
    let watcher = {
        let (g, seen) = (etcd.gateway(Duration::from_secs(2)), seen.clone());
        std::thread::spawn(move || {
            let _ = g.watch_prefix(WATCHED, 1, run_end, |event| {
                if let Ok(mut s) = seen.lock() {
                    s.push(Seen {
                        at: now_ms(epoch_ns),
                        event,
                    });
                }
                true
            });
        })
    };
    let mut clients = Clients(Vec::new());
    let (tx, rx) = mpsc::channel::<(usize, Report)>();
    let mut readers = Vec::new();
    for (i, name) in ETCD_CLIENTS.iter().enumerate().take(p.clients as usize) {
        let via = match (&relay, p.cut_client) {
            (Some(r), Some(c)) if c == i => r.addr,
            _ => etcd.addr,
        };
        let cfg = ClientConfig {
            name: name.to_string(),
            etcd: via,
            resource: resource.clone(),
            ttl_s: p.ttl_s,
            start_ms: p.start_gap_ms * i as u64,
            work_ms: p.work_ms,
            write_every_ms: p.write_every_ms,
            stop_when_lost: p.on_lost == OnLost::Stop,
            epoch_ns,
            parent: std::process::id(),
        };
        let json = serde_json::to_string(&cfg).map_err(|e| UserError::failed(e.to_string()))?;
        let mut cmd = Command::new(exe);
        cmd.arg("etcd-client")
            .arg(json)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit());
        children::mark(&mut cmd);
        let mut child = cmd
            .spawn()
            .map_err(|e| UserError::failed(format!("cannot start an etcd client: {e}")))?;
        let out = child.stdout.take();
        clients.0.push(child);
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
    let mut schedule: Vec<(Millis, Fault)> = Vec::new();
    if let Some(c) = p.pause_client {
        schedule.push((p.pause_at_ms, Fault::Froze(c)));
        schedule.push((p.pause_at_ms + p.pause_len_ms, Fault::Woke(c)));
    }
    if let Some(c) = p.cut_client {
        schedule.push((p.cut_at_ms, Fault::Cut(c)));
        schedule.push((p.cut_at_ms + p.cut_len_ms, Fault::Mended(c)));
    }
    schedule.sort_by_key(|(at, _)| *at);
    let mut faults = Vec::new();
    for (at, fault) in schedule.into_iter().filter(|(at, _)| *at < p.duration_ms) {
        sleep_until(epoch_ns, at);
        let t = now_ms(epoch_ns);
        let sig = |c: usize, s| {
            if let Some(child) = clients.0.get(c) {
                children::signal(child.id(), s, false);
            }
        };
        match fault {
            Fault::Froze(c) => sig(c, rustix::process::Signal::STOP),
            Fault::Woke(c) => sig(c, rustix::process::Signal::CONT),
            Fault::Cut(_) => relay.iter().for_each(|r| r.set_cut(true)),
            Fault::Mended(_) => relay.iter().for_each(|r| r.set_cut(false)),
        }
        faults.push((t, fault));
    }
    sleep_until(epoch_ns, p.duration_ms);
    let end_ms = p.duration_ms;
    drop(clients);
    for r in readers {
        let _ = r.join();
    }
    drop(relay);
    let _ = watcher.join();
    let server = (etcd.addr, etcd.dir.clone());
    let version = etcd.version.clone();
    etcd.stop_soon();
    drop(db);
    drop(etcd);
    let reports: Vec<(usize, Report)> = rx.iter().filter(|(_, r)| r.at() <= end_ms).collect();
    let seen = std::mem::take(&mut *seen.lock().unwrap_or_else(|e| e.into_inner()));
    Ok(Gathered {
        reports,
        faults,
        seen: seen.into_iter().filter(|s| s.at <= end_ms).collect(),
        end_ms,
        resource,
        version,
        server,
    })
}

#[cfg(test)]
mod tests {
    use super::aligned_epoch;

    #[test]
    fn the_run_starts_on_the_lessors_next_look() {
        let ms = 1_000_000;
        // The lessor looked at 1,234 ms; the run may start at 2,000 at the earliest: 2,234.
        assert_eq!(aligned_epoch(1_234 * ms, 0, 2_000 * ms), 2_234 * ms);
        // On a look exactly, and before the probe's own look.
        assert_eq!(aligned_epoch(1_234 * ms, 0, 1_734 * ms), 1_734 * ms);
        assert_eq!(aligned_epoch(1_234 * ms, 0, 1_000 * ms), 1_234 * ms);
    }

    #[test]
    fn with_a_phase_the_lessor_looks_that_long_after_each_half_second_of_the_run() {
        let ms = 1_000_000;
        // Looks at 1,234 + k × 500; a phase of 185 starts the clock 185 ms before one, so the
        // lessor looks at 185, 685, ... of the run.
        let start = aligned_epoch(1_234 * ms, 185, 2_000 * ms);
        assert_eq!((1_234 * ms + 1_500 * ms - start) / ms, 185 + 500);
        assert!(start >= 2_000 * ms);
        // Starts fall at 1,049 + k × 500: 2,049 is the first at or after 2,000.
        assert_eq!(start, 2_049 * ms);
        // A phase of a whole period is no phase.
        assert_eq!(
            aligned_epoch(1_234 * ms, 500, 2_000 * ms),
            aligned_epoch(1_234 * ms, 0, 2_000 * ms)
        );
    }
}
