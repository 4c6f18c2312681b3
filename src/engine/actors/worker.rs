//! A worker that claims durable tasks from a table, renews its claim, acts on an outside system
//! and records completion, all with conditional statements; and an operator that cancels a task.
//!
//! The worker's scanner runs on a fixed rate, its grid kept across a pause. A scan tries to claim the tasks in order, one
//! statement each (`WHERE due <= now AND (READY OR lease run out)`), and stops at the first that
//! affects a row. Under a claim the worker renews every `renew_every`, calls the outside system
//! once after `effect_after` and completes after `work`; every later statement is conditioned on
//! the claim version it was granted. All its timers run on the wall clock: a worker frozen past
//! them does all of it the moment it wakes, as a process whose threads were stopped would.

use crate::engine::msg::{ActorMsg, RowCond, RowOp, RowSet, RowState, Timer};
use crate::engine::time::Millis;
use crate::engine::trace::EventKind;
use crate::engine::world::{ActorId, Cx};

pub use super::worker_statements::{ClaimRule, CompleteRule, CompletionClock};

/// How a worker behaves; the same for every worker of a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct WorkerRules {
    pub tasks: u8,
    pub scan_start_ms: Millis,
    pub scan_every_ms: Millis,
    pub lease_ms: Millis,
    pub renew_every_ms: Millis,
    /// When, after claiming, the worker calls the outside system (`None`: it never does).
    pub effect_after_ms: Option<Millis>,
    pub work_ms: Millis,
    /// Send the task's stable key with the outside call.
    pub idempotency_key: bool,
    /// Read the row just before the outside call and back out if cancellation was requested.
    pub check_cancel: bool,
    /// Stop working on a task once a renewal affects no row.
    pub stop_on_loss: bool,
    pub complete: CompleteRule,
    pub claim: ClaimRule,
    pub completion_clock: CompletionClock,
    /// The task whose processing throws (a bad row).
    pub poison: Option<u8>,
    /// Whether the scanner's body catches what processing throws; if not, the periodic
    /// schedule ends there, as Java's `scheduleAtFixedRate` does.
    pub catch_in_body: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum WStep {
    /// Between scans.
    Idle,
    /// Waiting for the scan's list of claimable tasks.
    Scanning,
    /// Trying to claim task `next`, one of `candidates` (a bit per task).
    Claiming { next: u8, candidates: u16 },
    /// Holding a claim (in its own belief).
    Working {
        task: u8,
        version: u64,
        attempt: u32,
    },
    /// Knows the claim is gone and does nothing more for it.
    Lost,
    /// The scanner's schedule ended with an uncaught exception.
    Stopped,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Worker {
    pub rows: ActorId,
    pub outside: ActorId,
    pub rules: WorkerRules,
    pub step: WStep,
    /// The outside call is done (or given up) for the claim held.
    effect_done: bool,
    completing: bool,
    /// When the claim held was granted, where the work's transaction begins then.
    work_began_ms: Option<Millis>,
}

impl Worker {
    pub fn new(rows: ActorId, outside: ActorId, rules: WorkerRules) -> Self {
        Self {
            rows,
            outside,
            rules,
            step: WStep::Idle,
            effect_done: false,
            completing: false,
            work_began_ms: None,
        }
    }

    /// The task and claim version this worker believes it holds.
    pub fn claim(&self) -> Option<(u8, u64, u32)> {
        match self.step {
            WStep::Working {
                task,
                version,
                attempt,
            } => Some((task, version, attempt)),
            _ => None,
        }
    }

    pub fn on_start(&mut self, cx: &mut Cx) {
        cx.set_timer_at(Timer::Scan, self.rules.scan_start_ms);
    }

    /// A scan that falls due while the worker holds a claim does nothing.
    fn scan(&mut self, cx: &mut Cx) {
        if matches!(self.step, WStep::Idle | WStep::Lost) {
            self.step = WStep::Scanning;
            let msg = match self.rules.claim {
                ClaimRule::Conditional => ActorMsg::RowScan,
                ClaimRule::SkipLocked => ActorMsg::RowClaimNext {
                    set: self.claim_set(cx),
                },
            };
            cx.send(self.rows, msg);
        }
    }

    pub fn on_timer(&mut self, timer: Timer, cx: &mut Cx) {
        match timer {
            Timer::Scan if self.step != WStep::Stopped => {
                // A fixed rate, as `scheduleAtFixedRate`: the grid stays where it was. A scan
                // overdue after a pause runs at the wake, once the work that fell due before it
                // has been done and answered, as the missed runs catch up after the tasks queued
                // ahead of them; the runs missed with it fold into that one, and the next comes
                // on the original grid.
                let every = self.rules.scan_every_ms.max(1);
                let missed = cx.now.saturating_sub(cx.due) / every;
                cx.set_timer_at(Timer::Scan, cx.due + (missed + 1) * every);
                if cx.now > cx.due {
                    cx.set_timer_at(Timer::ScanOverdue, cx.now);
                } else {
                    self.scan(cx);
                }
            }
            Timer::ScanOverdue if self.step != WStep::Stopped => self.scan(cx),
            Timer::RenewDue => self.renew(cx),
            Timer::EffectDue => self.before_effect(cx),
            Timer::WorkDue => self.complete(cx),
            _ => {}
        }
    }

    /// Claims the first candidate from `from` on, or goes idle when none is left.
    fn try_claim(&mut self, from: u8, candidates: u16, cx: &mut Cx) {
        let Some(task) = (from..self.rules.tasks.min(16)).find(|i| candidates & (1 << i) != 0)
        else {
            self.step = WStep::Idle;
            return;
        };
        self.step = WStep::Claiming {
            next: task,
            candidates,
        };
        let set = self.claim_set(cx);
        let cond = RowCond {
            claimable: true,
            ..RowCond::default()
        };
        cx.send(
            self.rows,
            ActorMsg::RowUpdate {
                row: task,
                op: RowOp::Claim,
                cond,
                set,
            },
        );
    }

    fn claim_set(&self, cx: &Cx) -> RowSet {
        RowSet {
            state: Some(RowState::Running),
            owner: Some(cx.me),
            lease_for_ms: Some(self.rules.lease_ms),
            bump_version: true,
            bump_attempt: true,
            ..RowSet::default()
        }
    }

    fn version_cond(&self, lease_live: bool) -> Option<RowCond> {
        let (_, version, _) = self.claim()?;
        Some(RowCond {
            version: Some(version),
            state: Some(RowState::Running),
            lease_live,
            ..RowCond::default()
        })
    }

    fn update(&self, op: RowOp, cond: RowCond, set: RowSet, cx: &mut Cx) {
        if let Some((task, _, _)) = self.claim() {
            cx.send(
                self.rows,
                ActorMsg::RowUpdate {
                    row: task,
                    op,
                    cond,
                    set,
                },
            );
        }
    }

    fn renew(&mut self, cx: &mut Cx) {
        let Some(cond) = self.version_cond(true) else {
            return;
        };
        let set = RowSet {
            lease_for_ms: Some(self.rules.lease_ms),
            ..RowSet::default()
        };
        self.update(RowOp::Renew, cond, set, cx);
    }

    fn before_effect(&mut self, cx: &mut Cx) {
        let Some((task, _, _)) = self.claim() else {
            return;
        };
        if self.rules.check_cancel {
            cx.send(self.rows, ActorMsg::RowRead { row: task });
        } else {
            self.effect(cx);
        }
    }

    fn effect(&mut self, cx: &mut Cx) {
        let Some((task, _, attempt)) = self.claim() else {
            return;
        };
        self.effect_done = true;
        // A stable key names the task, never the attempt.
        let key = self.rules.idempotency_key.then_some(u64::from(task) + 1);
        cx.event(EventKind::EffectSent { attempt, key });
        cx.send(self.outside, ActorMsg::Effect { task, attempt, key });
    }

    fn complete(&mut self, cx: &mut Cx) {
        let Some((_, _, _)) = self.claim() else {
            return;
        };
        let cond = match self.rules.complete {
            CompleteRule::Version => self.version_cond(false),
            CompleteRule::VersionAndLease => self.version_cond(true),
            CompleteRule::Unconditional => Some(RowCond::default()),
        };
        let Some(mut cond) = cond else { return };
        cond.now_as_of_ms = self.work_began_ms;
        // `SET state = 'DONE'`: the owner stays on the row for whoever looks later.
        let set = RowSet {
            state: Some(RowState::Done),
            owner: Some(cx.me),
            result: Some(cx.me),
            ..RowSet::default()
        };
        self.completing = true;
        self.update(RowOp::Complete, cond, set, cx);
    }

    /// Lets go of the claim held: no more renewals, calls or completion for it.
    fn drop_claim(&mut self, cx: &mut Cx, next: WStep) {
        for t in [Timer::RenewDue, Timer::EffectDue, Timer::WorkDue] {
            cx.cancel(t);
        }
        self.step = next;
        self.effect_done = false;
        self.completing = false;
        self.work_began_ms = None;
    }

    pub fn on_msg(&mut self, from: ActorId, msg: ActorMsg, cx: &mut Cx) {
        if from != self.rows {
            return;
        }
        match msg {
            ActorMsg::RowCandidates { mask } if self.step == WStep::Scanning => {
                self.try_claim(0, mask, cx);
            }
            ActorMsg::RowDone {
                row,
                op: RowOp::Claim,
                affected,
                value,
            } => {
                match self.step {
                    // The one-statement claim took this row.
                    WStep::Scanning if affected == 1 => self.claimed(row, value, cx),
                    WStep::Claiming { next, .. } if next == row && affected == 1 => {
                        self.claimed(row, value, cx)
                    }
                    WStep::Claiming { next, candidates } if next == row => {
                        self.try_claim(row + 1, candidates, cx)
                    }
                    _ => {}
                }
            }
            ActorMsg::RowDone {
                op: RowOp::Renew,
                affected,
                ..
            } if self.claim().is_some() => {
                if affected == 1 {
                    cx.set_timer(Timer::RenewDue, self.rules.renew_every_ms);
                } else {
                    cx.event(EventKind::LearnedClaimLost);
                    if self.rules.stop_on_loss {
                        self.drop_claim(cx, WStep::Lost);
                    }
                }
            }
            ActorMsg::RowValue { value, .. } if self.claim().is_some() && !self.effect_done => {
                if value.cancel_requested {
                    cx.event(EventKind::CancelSeen);
                    let cond = self.version_cond(false).unwrap_or_default();
                    let set = RowSet {
                        state: Some(RowState::Cancelled),
                        release: true,
                        ..RowSet::default()
                    };
                    self.update(RowOp::Cancel, cond, set, cx);
                    self.drop_claim(cx, WStep::Idle);
                } else {
                    self.effect(cx);
                }
            }
            ActorMsg::RowDone {
                op: RowOp::Complete,
                ..
            } if self.completing => {
                // Done, or refused: either way this claim is over.
                self.drop_claim(cx, WStep::Idle);
            }
            _ => {}
        }
    }

    /// The claim of `row` took: work on it under the version and attempt granted.
    fn claimed(&mut self, row: u8, value: crate::engine::msg::RowValue, cx: &mut Cx) {
        self.step = WStep::Working {
            task: row,
            version: value.version,
            attempt: value.attempt,
        };
        self.effect_done = false;
        self.completing = false;
        self.work_began_ms =
            (self.rules.completion_clock == CompletionClock::TransactionStart).then_some(cx.now);
        if self.rules.poison == Some(row) {
            self.poisoned(row, cx);
            return;
        }
        cx.set_timer(Timer::RenewDue, self.rules.renew_every_ms);
        if let Some(after) = self.rules.effect_after_ms {
            cx.set_timer(Timer::EffectDue, after);
        }
        cx.set_timer(Timer::WorkDue, self.rules.work_ms);
    }

    fn poisoned(&mut self, row: u8, cx: &mut Cx) {
        let caught = self.rules.catch_in_body;
        cx.event(EventKind::ScanFailed { row, caught });
        if caught {
            let cond = self.version_cond(false).unwrap_or_default();
            let set = RowSet {
                state: Some(RowState::Failed),
                release: true,
                ..RowSet::default()
            };
            self.update(RowOp::Fail, cond, set, cx);
            self.drop_claim(cx, WStep::Idle);
        } else {
            self.drop_claim(cx, WStep::Stopped);
            cx.cancel(Timer::Scan);
            cx.cancel(Timer::ScanOverdue);
        }
    }
}

/// An operator who cancels a task at one instant: `READY → CANCELLED` if it still can, and
/// otherwise asks the running worker to back out (`cancel_requested`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Operator {
    pub rows: ActorId,
    pub task: u8,
    pub at_ms: Millis,
}

impl Operator {
    pub fn on_start(&mut self, cx: &mut Cx) {
        cx.set_timer_at(Timer::Start, self.at_ms);
    }

    pub fn on_timer(&mut self, timer: Timer, cx: &mut Cx) {
        if timer == Timer::Start {
            cx.send(
                self.rows,
                ActorMsg::RowUpdate {
                    row: self.task,
                    op: RowOp::Cancel,
                    cond: RowCond {
                        state: Some(RowState::Ready),
                        ..RowCond::default()
                    },
                    set: RowSet {
                        state: Some(RowState::Cancelled),
                        ..RowSet::default()
                    },
                },
            );
        }
    }

    pub fn on_msg(&mut self, msg: ActorMsg, cx: &mut Cx) {
        if let ActorMsg::RowDone {
            op: RowOp::Cancel,
            affected: 0,
            value,
            ..
        } = msg
            && value.state == RowState::Running
        {
            cx.send(
                self.rows,
                ActorMsg::RowUpdate {
                    row: self.task,
                    op: RowOp::RequestCancel,
                    cond: RowCond {
                        state: Some(RowState::Running),
                        ..RowCond::default()
                    },
                    set: RowSet {
                        cancel_requested: true,
                        ..RowSet::default()
                    },
                },
            );
        }
    }
}
