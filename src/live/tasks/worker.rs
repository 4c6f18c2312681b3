//! One worker on its own connection, on the model's rules: a scanner at a fixed rate, the claim,
//! renewals, the outside call and the completion by claim version; and the operator's cancel.
//! Every timer runs on the wall clock, so a worker that was paused does, the moment it wakes,
//! everything that fell due meanwhile, in the order it fell due, and only then reads the
//! answers: the statements were already on their way. Otherwise each timer's statement is
//! answered before the next goes out.

use postgres::Client;
use postgres::types::ToSql;

use super::{Clock, Payment, Row, Statement, failed, sql};
use crate::engine::actors::worker::{ClaimRule, CompleteRule};
use crate::engine::msg::{RowOp, RowState};
use crate::engine::params::TasksParams;
use crate::engine::time::Millis;
use crate::live::UserError;

const NAMES: [&str; 4] = ["A", "B", "C", "D"];

/// What one worker's thread recorded.
#[derive(Default)]
pub(super) struct Recorded {
    pub statements: Vec<Statement>,
    pub payments: Vec<Payment>,
    pub scans: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Step {
    Idle,
    Working {
        task: u8,
        version: u64,
        attempt: u32,
    },
    Lost,
    Stopped,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Due {
    Renew,
    Effect,
    Work,
}

/// The row `task` (from 0) and the store's clock, as a statement just left them.
pub(super) fn read(
    c: &mut impl postgres::GenericClient,
    task: u8,
) -> Result<(Row, Millis), postgres::Error> {
    let r = c.query_one(sql::READ, &[&(i32::from(task) + 1)])?;
    let state: String = r.get(0);
    let version: i64 = r.get(2);
    let attempt: i32 = r.get(3);
    let lease: Option<i64> = r.get(4);
    let now: i64 = r.get(7);
    Ok((
        Row {
            state: sql::state(&state),
            owner: r.get(1),
            version: version as u64,
            attempt: attempt as u32,
            lease_until_ms: lease.map(|l| l as Millis),
            result: r.get(5),
            cancel_requested: r.get(6),
        },
        now as Millis,
    ))
}

/// Runs one statement on `task` and reads the row it left, in one transaction.
fn exec(
    c: &mut Client,
    q: &'static str,
    args: &[&(dyn ToSql + Sync)],
    task: u8,
) -> Result<(u64, Row, Millis), postgres::Error> {
    let mut tx = c.transaction()?;
    let n = tx.execute(q, args)?;
    let (row, now) = read(&mut tx, task)?;
    tx.commit()?;
    Ok((n, row, now))
}

/// What a statement did: the rows it affected, the row it left and the store's clock it read.
type Outcome = (u64, Row, Millis);

/// The queue's one-statement claim and the task it took with what it did, in one transaction:
/// `None` when no task was left to take.
fn claim_next(
    c: &mut Client,
    me: &str,
    lease: i64,
) -> Result<Option<(u8, Outcome)>, postgres::Error> {
    let mut tx = c.transaction()?;
    let taken = tx.query(sql::CLAIM_NEXT, &[&me, &lease])?;
    let Some(id) = taken.first().map(|r| r.get::<_, i32>(0)) else {
        tx.commit()?;
        return Ok(None);
    };
    let task = (id - 1) as u8;
    let (row, now) = read(&mut tx, task)?;
    tx.commit()?;
    Ok(Some((task, (taken.len() as u64, row, now))))
}

/// Runs one statement on `task` inside the work's open transaction, reads the row it left and
/// commits.
fn exec_and_commit(
    c: &mut Client,
    q: &'static str,
    args: &[&(dyn ToSql + Sync)],
    task: u8,
) -> Result<(u64, Row, Millis), postgres::Error> {
    let n = c.execute(q, args)?;
    let (row, now) = read(c, task)?;
    c.batch_execute("COMMIT")?;
    Ok((n, row, now))
}

pub(super) struct Worker<'a> {
    name: &'static str,
    index: u8,
    c: Client,
    /// The order of the one-statement claims of one instant.
    turns: std::sync::Arc<super::turns::Turns>,
    /// The connection the work's own transaction runs on, begun at each claim, where the
    /// completion reads `now()` as that transaction's start.
    work: Option<Client>,
    in_work_txn: bool,
    p: &'a TasksParams,
    /// This worker's schedule, and the run's (for the instants recorded).
    own: Clock,
    run: Clock,
    step: Step,
    scan_at: Option<Millis>,
    /// The claim's timers: when, the order they were set in, and what.
    due: Vec<(Millis, u32, Due)>,
    set: u32,
    /// Just woke from a pause: what fell due meanwhile goes out at once.
    thawed: bool,
    freeze: Option<(Millis, Millis)>,
    effect_done: bool,
    rec: Recorded,
}

impl<'a> Worker<'a> {
    pub fn new(
        i: u8,
        c: Client,
        work: Option<Client>,
        turns: std::sync::Arc<super::turns::Turns>,
        p: &'a TasksParams,
        own: Clock,
        run: Clock,
    ) -> Self {
        Self {
            name: NAMES[usize::from(i)],
            index: i,
            c,
            turns,
            work,
            in_work_txn: false,
            p,
            own,
            run,
            step: Step::Idle,
            scan_at: Some(p.scan_start_ms),
            due: Vec::new(),
            set: 0,
            thawed: false,
            // Worker A pauses.
            freeze: (i == 0 && p.pause_len_ms > 0).then_some((p.pause_at_ms, p.pause_len_ms)),
            effect_done: false,
            rec: Recorded::default(),
        }
    }

    pub fn run(mut self, end: Millis) -> Result<Recorded, UserError> {
        loop {
            let next = self
                .due
                .iter()
                .map(|d| d.0)
                .chain(self.scan_at)
                .chain(self.freeze.map(|f| f.0))
                .min();
            let Some(next) = next.filter(|n| *n < end) else {
                break;
            };
            self.own.sleep_until(next);
            if let Some((at, len)) = self.freeze.filter(|f| f.0 <= next) {
                // A stop-the-world pause: the thread and its timers stop whole, and it claims
                // nothing before its wake.
                self.turns.pass(self.index, (at + len).saturating_sub(1));
                self.freeze = None;
                self.own.sleep(at + len - next);
                self.thawed = true;
                continue;
            }
            let now = self.own.now();
            self.fire(now).map_err(failed)?;
        }
        self.turns.pass(self.index, Millis::MAX);
        Ok(self.rec)
    }

    fn record(
        &mut self,
        op: RowOp,
        task: u8,
        carried: Option<u64>,
        q: &'static str,
        at: Millis,
        out: (u64, Row, Millis),
    ) {
        let (affected, row, store_ms) = out;
        self.rec.statements.push(Statement {
            at_ms: at,
            store_ms,
            by: self.name.to_string(),
            op,
            task,
            carried,
            sql: q,
            affected,
            row,
        });
    }

    /// What is due by `now`: the claim's next timer (and, just after a pause, every one that
    /// fell due meanwhile, in the order it fell due, all sent before any answer is read), then
    /// the scan.
    fn fire(&mut self, now: Millis) -> Result<(), postgres::Error> {
        let mut due: Vec<(Millis, u32, Due)> =
            self.due.iter().copied().filter(|d| d.0 <= now).collect();
        due.sort();
        if !std::mem::take(&mut self.thawed) {
            due.truncate(1);
        }
        self.due.retain(|d| !due.contains(d));
        let mut answers = Vec::new();
        for (_, _, what) in due {
            if let Some(a) = self.send(what)? {
                answers.push(a);
            }
        }
        for (what, affected) in answers {
            self.answered(what, affected);
        }
        if let Some(at) = self.scan_at.filter(|a| *a <= now) {
            // A fixed rate: the grid stays where it was, and the runs a pause missed fold into one.
            let every = self.p.scan_every_ms.max(1);
            let missed = (now - at) / every;
            self.scan_at = Some(at + (missed + 1) * every);
            let due = at + missed * every;
            if matches!(self.step, Step::Idle | Step::Lost) {
                self.scan(due)?;
            }
            self.turns.pass(self.index, due);
        }
        Ok(())
    }

    fn send(&mut self, what: Due) -> Result<Option<(Due, u64)>, postgres::Error> {
        let Step::Working {
            task,
            version,
            attempt,
        } = self.step
        else {
            return Ok(None);
        };
        let id = i32::from(task) + 1;
        let v = version as i64;
        let at = self.run.now();
        match what {
            Due::Renew => {
                let lease = self.p.lease_ms as i64;
                let out = exec(&mut self.c, sql::RENEW, &[&lease, &id, &v], task)?;
                let n = out.0;
                self.record(RowOp::Renew, task, Some(version), sql::RENEW, at, out);
                Ok(Some((Due::Renew, n)))
            }
            Due::Effect => {
                self.effect(task, version, attempt, at)?;
                Ok(None)
            }
            Due::Work => {
                let rule = self.p.complete;
                let me = self.name;
                let out = match self.work.as_mut().filter(|_| self.in_work_txn) {
                    Some(work) => {
                        self.in_work_txn = false;
                        let q = match rule {
                            CompleteRule::VersionAndLease => sql::COMPLETE_IN_WORK_TXN,
                            _ => sql::complete(rule),
                        };
                        let out = match rule {
                            CompleteRule::Unconditional => {
                                exec_and_commit(work, q, &[&me, &id], task)?
                            }
                            _ => exec_and_commit(work, q, &[&me, &id, &v], task)?,
                        };
                        (q, out)
                    }
                    None => {
                        let q = sql::complete(rule);
                        let out = match rule {
                            CompleteRule::Unconditional => exec(&mut self.c, q, &[&me, &id], task)?,
                            _ => exec(&mut self.c, q, &[&me, &id, &v], task)?,
                        };
                        (q, out)
                    }
                };
                let (q, out) = out;
                let n = out.0;
                self.record(RowOp::Complete, task, Some(version), q, at, out);
                Ok(Some((Due::Work, n)))
            }
        }
    }

    fn answered(&mut self, what: Due, affected: u64) {
        if !matches!(self.step, Step::Working { .. }) {
            return;
        }
        match what {
            Due::Renew if affected == 1 => {
                let at = self.own.now() + self.p.renew_every_ms;
                self.timer(at, Due::Renew);
            }
            // The renewal affected no row: the claim is gone.
            Due::Renew if self.p.stop_on_loss => self.drop_claim(Step::Lost),
            Due::Renew | Due::Effect => {}
            // Done, or refused: either way this claim is over.
            Due::Work => self.drop_claim(Step::Idle),
        }
    }

    fn timer(&mut self, at: Millis, what: Due) {
        self.set += 1;
        self.due.push((at, self.set, what));
    }

    fn drop_claim(&mut self, next: Step) {
        if std::mem::take(&mut self.in_work_txn)
            && let Some(work) = self.work.as_mut()
        {
            // The work is given up: so is what its transaction did.
            let _ = work.batch_execute("ROLLBACK");
        }
        self.due.clear();
        self.step = next;
        self.effect_done = false;
    }

    fn effect(
        &mut self,
        task: u8,
        version: u64,
        attempt: u32,
        at: Millis,
    ) -> Result<(), postgres::Error> {
        if self.effect_done {
            return Ok(());
        }
        if self.p.check_cancel {
            let (row, _) = read(&mut self.c, task)?;
            if row.cancel_requested {
                let id = i32::from(task) + 1;
                let v = version as i64;
                let out = exec(&mut self.c, sql::BACK_OUT, &[&id, &v], task)?;
                self.record(RowOp::Cancel, task, Some(version), sql::BACK_OUT, at, out);
                self.drop_claim(Step::Idle);
                return Ok(());
            }
        }
        self.effect_done = true;
        // A stable key names the task, never the attempt.
        let key = self
            .p
            .idempotency_key
            .then(|| format!("task-{}", u32::from(task) + 1));
        let id = i32::from(task) + 1;
        let n = self
            .c
            .execute(sql::PAY, &[&id, &(attempt as i32), &self.name, &key])?;
        self.rec.payments.push(Payment {
            at_ms: at,
            by: self.name.to_string(),
            task,
            attempt,
            key,
            charged: n == 1,
        });
        Ok(())
    }

    /// Reads the claimable tasks and claims them in order, stopping at the first that takes;
    /// or, as a queue, claims the first free one in a single statement.
    fn scan(&mut self, due: Millis) -> Result<(), postgres::Error> {
        self.rec.scans += 1;
        let started = std::time::Instant::now();
        if self.p.claim == ClaimRule::SkipLocked {
            // Claims due at the same instant go out in the model's order, A's first, counted
            // from the instant itself, so that a thread woken late does not push its turn back.
            let claim_at = self.own.instant(due) + super::STAGGER * (u32::from(self.index) + 1);
            std::thread::sleep(claim_at.saturating_duration_since(std::time::Instant::now()));
            self.turns.wait(self.index, due);
            let at = self.run.now();
            let lease = self.p.lease_ms as i64;
            match claim_next(&mut self.c, self.name, lease)? {
                Some((task, out)) => {
                    let (version, attempt) = (out.1.version, out.1.attempt);
                    self.record(RowOp::Claim, task, None, sql::CLAIM_NEXT, at, out);
                    self.claimed(task, version, attempt)?;
                }
                None => {
                    if self.step != Step::Lost {
                        self.step = Step::Idle;
                    }
                }
            }
            return Ok(());
        }
        let ids: Vec<i32> = self
            .c
            .query(sql::SCAN, &[])?
            .iter()
            .map(|r| r.get(0))
            .collect();
        if !ids.is_empty() {
            // Scans due at the same instant all read the table before any of them claims, and
            // A's claim goes first: the model's order, made on the wall clock, and kept by
            // the turns when a thread woke late.
            let claim_at = started + super::STAGGER * (u32::from(self.index) + 1);
            std::thread::sleep(claim_at.saturating_duration_since(std::time::Instant::now()));
            self.turns.wait(self.index, due);
        }
        let lease = self.p.lease_ms as i64;
        for id in ids {
            let task = (id - 1) as u8;
            let at = self.run.now();
            let me = self.name;
            let out = exec(&mut self.c, sql::CLAIM, &[&me, &lease, &id], task)?;
            let (n, row) = (out.0, out.1.clone());
            self.record(RowOp::Claim, task, None, sql::CLAIM, at, out);
            if n == 1 {
                self.claimed(task, row.version, row.attempt)?;
                return Ok(());
            }
        }
        self.step = match self.step {
            Step::Lost => Step::Lost,
            _ => Step::Idle,
        };
        Ok(())
    }

    fn claimed(&mut self, task: u8, version: u64, attempt: u32) -> Result<(), postgres::Error> {
        self.step = Step::Working {
            task,
            version,
            attempt,
        };
        self.effect_done = false;
        if let Some(work) = self.work.as_mut() {
            // The work's transaction begins now: `now()` in it reads this instant from here on.
            work.batch_execute("BEGIN")?;
            self.in_work_txn = true;
        }
        if self.p.poison_task.checked_sub(1) == Some(task) {
            // Processing this task throws.
            if self.p.catch_in_body {
                let id = i32::from(task) + 1;
                let v = version as i64;
                let at = self.run.now();
                let out = exec(&mut self.c, sql::FAIL, &[&id, &v], task)?;
                self.record(RowOp::Fail, task, Some(version), sql::FAIL, at, out);
                self.drop_claim(Step::Idle);
            } else {
                // The periodic schedule ends with the uncaught exception.
                self.drop_claim(Step::Stopped);
                self.scan_at = None;
                self.turns.pass(self.index, Millis::MAX);
            }
            return Ok(());
        }
        let now = self.own.now();
        self.timer(now + self.p.renew_every_ms, Due::Renew);
        if self.p.effect {
            self.timer(now + self.p.effect_after_ms, Due::Effect);
        }
        self.timer(now + self.p.work_ms, Due::Work);
        Ok(())
    }
}

/// The operator: cancels task 1 at `cancel_at`, or, when it is already running, asks its worker
/// to back out.
pub(super) fn operator(
    mut c: Client,
    p: &TasksParams,
    own: Clock,
    run: Clock,
) -> Result<Recorded, UserError> {
    let mut rec = Recorded::default();
    own.sleep_until(p.cancel_at_ms);
    let at = run.now();
    let push = |rec: &mut Recorded, op, q, at, (affected, row, store_ms): (u64, Row, Millis)| {
        rec.statements.push(Statement {
            at_ms: at,
            store_ms,
            by: "operator".into(),
            op,
            task: 0,
            carried: None,
            sql: q,
            affected,
            row,
        });
    };
    let out = exec(&mut c, sql::CANCEL, &[&1i32], 0).map_err(failed)?;
    let running = out.0 == 0 && out.1.state == RowState::Running;
    push(&mut rec, RowOp::Cancel, sql::CANCEL, at, out);
    if running {
        let at = run.now();
        let out = exec(&mut c, sql::REQUEST_CANCEL, &[&1i32], 0).map_err(failed)?;
        push(&mut rec, RowOp::RequestCancel, sql::REQUEST_CANCEL, at, out);
    }
    Ok(rec)
}
