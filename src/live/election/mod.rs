//! Leader election on the private ZooKeeper with the rollup job's row on the private PostgreSQL:
//! two runners with real sessions ([`runner`]), the epoch a real node raised with a conditional
//! `setData`, the job's row changed only by the lesson's statements ([`sql`]), and the run made
//! into a [`Trace`] beside the model's ([`compare`]).
//!
//! Times are the story's: every wait runs at `scale` of wall time, the server's tick and the
//! session timeout included, and the table's clock counts story milliseconds.

pub mod compare;
mod record;
mod runner;
pub mod sql;
mod trace;
pub mod words;

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use serde::Serialize;
use zookeeper_client::{Acls, CreateMode};

use self::record::{A, B, Log};
pub use self::record::{Row, Statement};
use self::runner::Place;
use crate::engine::params::ElectionParams;
use crate::engine::time::Millis;
use crate::engine::trace::Trace;
use crate::live::UserError;
use crate::live::abc::{make_dir, remove_tree, run_root, runtime, zk_error};
use crate::live::pg::Database;
use crate::live::tasks::Clock;

/// How long before the story's first instant the run starts its threads: A's session and
/// candidate are made in it, so that A leads when the story starts.
const LEAD: Duration = Duration::from_millis(2_000);

/// The time scales an election run takes (wall time per story time).
pub const SCALES: std::ops::RangeInclusive<f64> = 0.25..=4.0;

/// A live election run: the statements on the rollup job's row, the row at the end, and the trace.
#[derive(Debug, Clone, Serialize)]
pub struct Run {
    pub server: String,
    pub scale: f64,
    pub statements: Vec<Statement>,
    pub row: Row,
    pub trace: Trace,
}

/// The live run and the model's run of the same preset.
pub struct Story {
    pub params: ElectionParams,
    pub live: Run,
    pub model: Trace,
}

impl Story {
    pub fn statements(&self) -> Vec<compare::Pair> {
        compare::pairs(&self.model, &self.live)
    }

    pub fn facts(&self) -> Vec<compare::FactRow> {
        compare::facts(&self.model, &self.live.trace, &self.params)
    }
}

/// The server tick a run at `scale` needs.
pub fn tick_ms(p: &ElectionParams, scale: f64) -> Millis {
    ((p.tick_ms as f64 * scale).round() as Millis).max(1)
}

/// Runs `p` on the ZooKeeper at `zk` (with the tick [`tick_ms`] gives) and the database `db`,
/// then the model.
pub fn story(
    p: &ElectionParams,
    zk: SocketAddr,
    db: &Database,
    scale: f64,
) -> Result<Story, UserError> {
    let live = run(p, zk, db, scale)?;
    let model = crate::engine::run(&crate::engine::params::Params::Election(p.clone()));
    Ok(Story {
        params: p.clone(),
        live,
        model,
    })
}

fn pg_failed(e: postgres::Error) -> UserError {
    UserError::failed(format!("the election's table on PostgreSQL failed: {e}"))
}

/// A connection with every statement planned once, so the first of each costs what the
/// others do.
fn connection(db: &Database, name: &str) -> Result<postgres::Client, UserError> {
    let mut c = db.connect_to(name)?;
    for q in [
        sql::READ.to_string(),
        sql::take_over(),
        sql::submit(true),
        sql::submit(false),
    ] {
        c.prepare(&q).map_err(pg_failed)?;
    }
    Ok(c)
}

pub fn run(
    p: &ElectionParams,
    server: SocketAddr,
    db: &Database,
    scale: f64,
) -> Result<Run, UserError> {
    let name = db.create("election")?;
    let out = run_in(p, server, db, &name, scale);
    db.drop_database(&name);
    out
}

fn run_in(
    p: &ElectionParams,
    server: SocketAddr,
    db: &Database,
    name: &str,
    scale: f64,
) -> Result<Run, UserError> {
    let mut admin_db = db.connect_to(name)?;
    admin_db.batch_execute(sql::SCHEMA).map_err(pg_failed)?;
    admin_db
        .execute(
            sql::ADD_JOB,
            &[
                &(p.first_epoch as i64),
                &(p.row_version as i64),
                &(p.lease_until_ms as i64),
            ],
        )
        .map_err(pg_failed)?;
    let (a_db, mut b_db) = (connection(db, name)?, connection(db, name)?);
    let rt = runtime()?;
    let root = run_root("election");
    let (admin, place) = rt.block_on(async {
        let via = crate::live::net::guard(server)
            .await
            .map_err(|e| UserError::failed(format!("cannot open a loopback relay: {e}")))?
            .to_string();
        let admin = crate::live::net::session(&via)
            .await
            .map_err(|e| zk_error(&format!("connecting to {server}"), e))?;
        // The model's first candidate is node 7.
        let dir = make_dir(&admin, &root, 7).await?;
        let epoch = format!("{root}/epoch");
        let opts = CreateMode::Persistent.with_acls(Acls::anyone_all());
        admin
            .create(&epoch, p.first_epoch.to_string().as_bytes(), &opts)
            .await
            .map_err(|e| zk_error("making the epoch node", e))?;
        let timeout = Duration::from_secs_f64(p.session_timeout_ms as f64 / 1000.0 * scale);
        Ok::<_, UserError>((
            admin,
            Place {
                server,
                dir,
                epoch,
                timeout,
            },
        ))
    })?;
    // The table's clock and the runners' start at the same instant of this machine's clock.
    let (wall, mono) = (std::time::SystemTime::now(), Instant::now());
    let t0 = (wall + LEAD)
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0.0, |d| d.as_secs_f64());
    admin_db
        .execute(sql::START_CLOCK, &[&scale, &t0])
        .map_err(pg_failed)?;
    let clock = Clock {
        start: mono + LEAD,
        scale,
    };
    let (first, _) = runner::read(&mut admin_db)?;
    let log = Arc::new(Log::new(clock, &first));
    let stop = Arc::new(AtomicBool::new(false));
    let (a_ready_tx, a_ready) = std::sync::mpsc::channel::<Result<_, UserError>>();
    let leader = {
        let (p, place, log, stop) = (
            p.clone(),
            place.clone(),
            Arc::clone(&log),
            Arc::clone(&stop),
        );
        std::thread::Builder::new()
            .name("live-election-A".into())
            .spawn(move || {
                let made = runtime().and_then(|rt| {
                    let zk = rt.block_on(runner::open(&place, A, &log))?;
                    let (node, _) = rt.block_on(runner::candidate(&zk, &place, A, &log))?;
                    Ok((rt, zk, node))
                });
                let (rt, zk, node) = match made {
                    Ok(m) => m,
                    Err(e) => {
                        let _ = a_ready_tx.send(Err(e));
                        return Ok(());
                    }
                };
                let _ = a_ready_tx.send(Ok(node));
                runner::leader(&p, zk, rt, a_db, &log, &stop)
            })
            .map_err(|e| UserError::failed(format!("cannot start the live run: {e}")))?
    };
    let a_node = match a_ready.recv_timeout(LEAD) {
        Ok(Ok(node)) => node,
        Ok(Err(e)) => {
            stop.store(true, Ordering::Relaxed);
            let _ = leader.join();
            return Err(e);
        }
        Err(_) => {
            stop.store(true, Ordering::Relaxed);
            let _ = leader.join();
            return Err(UserError::failed(
                "the leader's session was not ready before the story's start",
            ));
        }
    };
    let b_done = Arc::new(AtomicBool::new(false));
    let follower = {
        let (p, place, log, done) = (
            p.clone(),
            place.clone(),
            Arc::clone(&log),
            Arc::clone(&b_done),
        );
        let stop = Arc::clone(&stop);
        std::thread::Builder::new()
            .name("live-election-B".into())
            .spawn(move || {
                // A thread of its own drives B's runtime, so the session answers the server
                // while B talks to the table.
                let rt = runtime()?;
                let handle = rt.handle().clone();
                let driving = Arc::new(AtomicBool::new(true));
                let driver = {
                    let driving = Arc::clone(&driving);
                    std::thread::Builder::new()
                        .name("live-election-B-session".into())
                        .spawn(move || {
                            rt.block_on(async {
                                while driving.load(Ordering::Relaxed) {
                                    tokio::time::sleep(Duration::from_millis(10)).await;
                                }
                            })
                        })
                        .map_err(|e| UserError::failed(format!("cannot start the live run: {e}")))?
                };
                let out = handle
                    .block_on(runner::open(&place, B, &log))
                    .and_then(|zk| {
                        log.clock.sleep_until(0);
                        let out =
                            runner::follower(&p, &place, &handle, &zk, &mut b_db, &log, a_node);
                        done.store(true, Ordering::Relaxed);
                        while out.is_ok() && !stop.load(Ordering::Relaxed) {
                            std::thread::sleep(Duration::from_millis(10));
                        }
                        drop(zk);
                        out
                    });
                done.store(true, Ordering::Relaxed);
                driving.store(false, Ordering::Relaxed);
                let _ = driver.join();
                out
            })
            .map_err(|e| UserError::failed(format!("cannot start the live run: {e}")))?
    };
    // Until the story's end, or until both runners have submitted.
    let end = clock.instant(p.duration_ms);
    let a_submitted = || log.lock().statements.iter().any(|s| s.by == "A");
    while Instant::now() < end && !(b_done.load(Ordering::Relaxed) && a_submitted()) {
        std::thread::sleep(Duration::from_millis(10));
    }
    let end_ms = log.now().min(p.duration_ms);
    stop.store(true, Ordering::Relaxed);
    let joined = |t: std::thread::JoinHandle<Result<(), UserError>>| {
        t.join()
            .unwrap_or_else(|_| Err(UserError::failed("a live runner stopped unexpectedly")))
    };
    let (a, b) = (joined(leader), joined(follower));
    rt.block_on(async {
        let _ = admin.delete(&place.epoch, None).await;
        remove_tree(&admin, &root).await;
    });
    a?;
    b?;
    let (row, _) = runner::read(&mut admin_db)?;
    let trace = trace::finish(&log, p, &row, end_ms);
    let statements = log.lock().statements.clone();
    Ok(Run {
        server: db.version.clone(),
        scale,
        statements,
        row,
        trace,
    })
}
