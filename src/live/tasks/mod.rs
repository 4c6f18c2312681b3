//! The task claims on a real PostgreSQL: each worker is a thread with a connection of its own
//! that runs the lesson's statements on the preset's schedule, a pause is a real stopped
//! thread, the table's clock is the database's, and every statement is recorded with the rows it
//! affected and the row it left, so it can be held beside the model's.
//!
//! Two things are arranged so that the live run tells the preset's story rather than a race's:
//! the table counts its clock in whole seconds of the story ([`sql`]), and a scan's claims go
//! out [`STAGGER`] of wall time after the scan's instant for A, twice that for B, so that scans
//! due at the same instant all read the table before any claims, and A's claim reaches the table
//! first, as in the model. In production either could win.

use std::time::Duration;

use serde::Serialize;

use crate::engine::actors::worker::CompletionClock;
use crate::engine::msg::{RowOp, RowState};
use crate::engine::params::TasksParams;
use crate::engine::time::Millis;
use crate::live::UserError;
use crate::live::pg::{Database, clock};

pub mod compare;
pub mod sql;
mod turns;
pub mod words;
mod worker;

/// How long after its scan's instant worker A sends its claim; B waits twice as long.
pub const STAGGER: Duration = Duration::from_millis(20);

/// How long before the story's first instant the run starts its threads.
const LEAD: Duration = Duration::from_millis(200);

/// The time scales a task run takes: a story second is at least 100 ms of wall time, so the
/// claims of one scan instant, [`STAGGER`] apart, fall in the same second of the table's clock.
pub const SCALES: std::ops::RangeInclusive<f64> = 0.1..=4.0;

/// A row as the table returned it after a statement.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Row {
    pub state: RowState,
    pub owner: Option<String>,
    pub version: u64,
    pub attempt: u32,
    /// On the store's clock (ms).
    pub lease_until_ms: Option<Millis>,
    pub result: Option<String>,
    pub cancel_requested: bool,
}

/// One statement that changed or tried to change a row.
#[derive(Debug, Clone, Serialize)]
pub struct Statement {
    /// When it was sent, in the story's time since the run began.
    pub at_ms: Millis,
    /// The store's clock as the statement read it.
    pub store_ms: Millis,
    pub by: String,
    pub op: RowOp,
    /// The task, from 0.
    pub task: u8,
    /// The claim version its worker held when it sent it (the WHERE clause may not use it).
    pub carried: Option<u64>,
    pub sql: &'static str,
    pub affected: u64,
    /// The row just after it.
    pub row: Row,
}

/// One call to the payment provider.
#[derive(Debug, Clone, Serialize)]
pub struct Payment {
    pub at_ms: Millis,
    pub by: String,
    pub task: u8,
    pub attempt: u32,
    pub key: Option<String>,
    /// The provider took the money (a new row), or recognised the key (none).
    pub charged: bool,
}

/// A live run of a task preset.
#[derive(Debug, Clone, Serialize)]
pub struct Run {
    pub server: String,
    pub scale: f64,
    pub statements: Vec<Statement>,
    pub payments: Vec<Payment>,
    /// Scans that ran (each a `SELECT` of the claimable tasks).
    pub scans: u32,
    /// Every task's row when the run ended.
    pub rows: Vec<Row>,
}

/// The run's time on one worker's schedule: the story's milliseconds on the wall clock.
pub(crate) use crate::live::pg::clock::StoryClock as Clock;

pub(crate) fn failed(e: postgres::Error) -> UserError {
    UserError::failed(format!("the task run on PostgreSQL failed: {e}"))
}

/// What a live task run refuses, if anything.
pub fn unsupported(p: &TasksParams) -> Option<&'static str> {
    (p.delay_ms > 0).then_some(
        "a one-way delay to the table (delay) is not run live: the statements go over the loopback",
    )
}

/// Plans every statement once on a new connection, so that the first claim of each worker
/// costs the same, a statement's usual fraction of a millisecond, not a fresh backend's
/// catalogue lookups (which would decide the race of the first claim instead of the stagger).
fn warm(c: &mut postgres::Client, p: &TasksParams) -> Result<(), postgres::Error> {
    for q in [
        sql::SCAN,
        sql::CLAIM,
        sql::CLAIM_NEXT,
        sql::COMPLETE_IN_WORK_TXN,
        sql::RENEW,
        sql::complete(p.complete),
        sql::READ,
        sql::PAY,
        sql::BACK_OUT,
        sql::FAIL,
        sql::CANCEL,
        sql::REQUEST_CANCEL,
    ] {
        c.prepare(q)?;
    }
    // Before the clock starts, store_now() is NULL and the scan finds nothing.
    c.query(sql::SCAN, &[])?;
    Ok(())
}

/// Runs `p` on `db` at `scale` (wall time per story time).
pub fn run(p: &TasksParams, db: &Database, scale: f64) -> Result<Run, UserError> {
    let name = db.create("tasks")?;
    let out = run_in(p, db, &name, scale);
    db.drop_database(&name);
    out
}

fn run_in(p: &TasksParams, db: &Database, name: &str, scale: f64) -> Result<Run, UserError> {
    let mut admin = db.connect_to(name)?;
    admin.batch_execute(sql::SCHEMA).map_err(failed)?;
    clock::install(&mut admin).map_err(failed)?;
    for i in 0..p.tasks {
        let due = (p.store_clock_ms + u64::from(i) * p.task_every_ms) as i64;
        admin
            .execute(sql::ADD_TASK, &[&(i32::from(i) + 1), &due])
            .map_err(failed)?;
    }
    let mut clients = Vec::new();
    let mut work = Vec::new();
    for i in 0..p.workers + u8::from(p.cancel) {
        let mut c = db.connect_to(name)?;
        warm(&mut c, p).map_err(failed)?;
        clients.push(c);
        // A worker whose work runs in a transaction of its own has a second connection for it.
        let own_txn = i < p.workers && p.completion_clock == CompletionClock::TransactionStart;
        work.push(if own_txn {
            let mut w = db.connect_to(name)?;
            warm(&mut w, p).map_err(failed)?;
            Some(w)
        } else {
            None
        });
    }
    // Every thread is up and waiting when the story's first instant comes. The table's clock
    // and the workers' start at the same instant of this machine's clock, so a statement never
    // reads a second before the one it was sent in.
    let clock = clock::start(&mut admin, scale, p.store_clock_ms, LEAD).map_err(failed)?;
    let mut threads = Vec::new();
    let turns = std::sync::Arc::new(turns::Turns::new(p.workers));
    for (i, (client, work)) in clients.into_iter().zip(work).enumerate() {
        let p = p.clone();
        let turns = turns.clone();
        let own = clock;
        let t = std::thread::Builder::new()
            .name(format!("live-task-{i}"))
            .spawn(move || {
                if i < usize::from(p.workers) {
                    worker::Worker::new(i as u8, client, work, turns, &p, own, clock)
                        .run(p.duration_ms)
                } else {
                    worker::operator(client, &p, own, clock)
                }
            })
            .map_err(|e| UserError::failed(format!("cannot start the live run: {e}")))?;
        threads.push(t);
    }
    let mut out = Run {
        server: db.version.clone(),
        scale,
        statements: Vec::new(),
        payments: Vec::new(),
        scans: 0,
        rows: Vec::new(),
    };
    let mut failure = None;
    for t in threads {
        match t.join() {
            Ok(Ok(r)) => {
                out.statements.extend(r.statements);
                out.payments.extend(r.payments);
                out.scans += r.scans;
            }
            Ok(Err(e)) => failure = Some(e),
            Err(_) => failure = Some(UserError::failed("a live worker stopped unexpectedly")),
        }
    }
    if let Some(e) = failure {
        return Err(e);
    }
    // In the order the table took them; a tie (A's and B's claim) keeps the stagger's order.
    out.statements.sort_by_key(|s| (s.at_ms, s.by.clone()));
    out.payments.sort_by_key(|s| s.at_ms);
    for i in 0..p.tasks {
        out.rows
            .push(worker::read(&mut admin, i).map_err(failed)?.0);
    }
    Ok(out)
}
