//! Durable task claims: workers take tasks from a table with conditional statements.
//!
//! The shipped story follows the lesson's worked example. Task 1 is READY and due at 0 s. A and
//! B both run the claim at 0 s; A's arrives first and gets version 1, B's affects no row. A
//! renews at 10 s (lease to 40 s), calls the payment provider at 11 s and freezes at 12 s for
//! 45 s. The lease lapses at 40 s; B's scan at 42 s claims with version 2, attempt 2, calls the
//! provider again and completes at 55 s. A wakes at 57 s and sends its overdue completion and
//! renewal under version 1: zero rows each. The row is safe; the provider charged twice unless
//! the call carried a stable idempotency key.

use crate::engine::actors::Actor;
use crate::engine::actors::rows::{Outside, RowStore};
use crate::engine::actors::worker::{Operator, WStep, Worker, WorkerRules};
use crate::engine::msg::{RowOp, RowState, RowValue};
use crate::engine::params::TasksParams;
use crate::engine::time::Millis;
use crate::engine::trace::Invariant;
use crate::engine::trace::lane::LaneRecorder;
use crate::engine::trace::record::Recorder;
use crate::engine::trace::{
    ActorInfo, CancelOutcome, ClaimRecord, EventKind, Family, InvariantReport, Metrics, Role,
    SpanState, TaskMetrics, Trace, invariant,
};
use crate::engine::world::run::{self, Observer, Plan};
use crate::engine::world::{ActorId, World};

const WORKER_NAMES: [&str; 4] = ["A", "B", "C", "D"];

/// Where each actor sits in the World.
#[derive(Debug, Clone, Copy)]
struct Layout {
    workers: u8,
    table: ActorId,
    provider: ActorId,
    operator: Option<ActorId>,
}

impl Layout {
    fn of(p: &TasksParams) -> Self {
        let w = p.workers;
        Self {
            workers: w,
            table: ActorId(w),
            provider: ActorId(w + 1),
            operator: p.cancel.then_some(ActorId(w + 2)),
        }
    }

    fn names(&self) -> Vec<(String, Role)> {
        let mut out: Vec<(String, Role)> = WORKER_NAMES[..self.workers as usize]
            .iter()
            .map(|n| (n.to_string(), Role::Client))
            .collect();
        out.push(("tasks".into(), Role::Table));
        out.push(("provider".into(), Role::Outside));
        if self.operator.is_some() {
            out.push(("operator".into(), Role::Operator));
        }
        out
    }
}

pub fn build(p: &TasksParams) -> (World, Plan) {
    let layout = Layout::of(p);
    let rules = WorkerRules {
        tasks: p.tasks,
        scan_start_ms: p.scan_start_ms,
        scan_every_ms: p.scan_every_ms,
        lease_ms: p.lease_ms,
        renew_every_ms: p.renew_every_ms,
        effect_after_ms: p.effect.then_some(p.effect_after_ms),
        work_ms: p.work_ms,
        idempotency_key: p.idempotency_key,
        check_cancel: p.check_cancel,
        stop_on_loss: p.stop_on_loss,
        complete: p.complete,
        claim: p.claim,
        completion_clock: p.completion_clock,
        poison: p.poison_task.checked_sub(1),
        catch_in_body: p.catch_in_body,
    };
    let mut actors: Vec<Actor> = (0..p.workers)
        .map(|_| Actor::Worker(Worker::new(layout.table, layout.provider, rules)))
        .collect();
    let rows = (0..p.tasks)
        .map(|i| RowValue {
            state: RowState::Ready,
            owner: None,
            epoch: 0,
            version: 0,
            lease_until_ms: None,
            attempt: 0,
            due_ms: p.store_clock_ms + u64::from(i) * p.task_every_ms,
            result: None,
            cancel_requested: false,
        })
        .collect();
    actors.push(Actor::Rows(RowStore {
        rows,
        clock_offset_ms: p.store_clock_ms,
    }));
    actors.push(Actor::Outside(Outside::default()));
    if layout.operator.is_some() {
        actors.push(Actor::Operator(Operator {
            rows: layout.table,
            task: 0,
            at_ms: p.cancel_at_ms,
        }));
    }
    let world = World::new(actors, p.delay_ms, 1);
    let mut plan = Plan::default();
    if p.pause_len_ms > 0 {
        plan.freeze(ActorId(0), p.pause_at_ms, p.pause_len_ms);
    }
    (world, plan)
}

pub fn run(p: &TasksParams) -> Trace {
    let (mut world, plan) = build(p);
    let mut rec = Recorder::with_capacity(128, 256);
    let mut obs = TaskObserver::new(&world, Layout::of(p));
    run::run(&mut world, &plan, p.duration_ms, &mut rec, &mut obs);
    obs.finish(&world, rec, p.duration_ms)
}

fn worker(world: &World, a: ActorId) -> Option<&Worker> {
    match world.actor(a) {
        Actor::Worker(w) => Some(w),
        _ => None,
    }
}

fn rows(world: &World, table: ActorId) -> &[RowValue] {
    match world.actor(table) {
        Actor::Rows(r) => &r.rows,
        _ => &[],
    }
}

fn lane_state(world: &World, layout: &Layout, i: usize) -> SpanState {
    let id = ActorId(i as u8);
    match world.actor(id) {
        Actor::Worker(w) => {
            if world.status(id).is_frozen() {
                return SpanState::Frozen {
                    believes_holding: w.claim().is_some(),
                };
            }
            match w.step {
                WStep::Idle => SpanState::Idle,
                WStep::Scanning | WStep::Claiming { .. } => SpanState::Reading,
                WStep::Working {
                    version, attempt, ..
                } => SpanState::Claimed { version, attempt },
                WStep::Lost => SpanState::Lost,
                WStep::Stopped => SpanState::ScannerStopped,
            }
        }
        Actor::Rows(_) => {
            let all = rows(world, layout.table);
            match all {
                [r] => SpanState::Task {
                    row_state: r.state,
                    owner: r.owner,
                    version: r.version,
                    attempt: r.attempt,
                },
                _ => {
                    let n = |s: RowState| all.iter().filter(|r| r.state == s).count() as u8;
                    SpanState::Backlog {
                        waiting: n(RowState::Ready),
                        running: n(RowState::Running),
                        done: n(RowState::Done),
                        failed: n(RowState::Failed),
                    }
                }
            }
        }
        Actor::Outside(o) => SpanState::Effects {
            count: o.applied.len() as u32,
        },
        _ => SpanState::Idle,
    }
}

struct TaskObserver {
    layout: Layout,
    lanes: LaneRecorder,
    checks: Vec<InvariantReport>,
    claims: Vec<ClaimRecord>,
    /// The highest claim version granted so far, per task.
    highest: Vec<u64>,
    late_refused: u32,
    late_accepted: u32,
    claims_missed: u32,
    completed_after_lease: u32,
    /// The store's clock reads the run's time plus this.
    store_offset_ms: Millis,
    effects_per_task: Vec<u32>,
    cancel: Option<CancelOutcome>,
    cancel_requested_at: Option<Millis>,
    scanner_stopped_at: Option<Millis>,
    max_believers: u32,
    seen: usize,
}

impl TaskObserver {
    fn new(world: &World, layout: Layout) -> Self {
        let mut lanes = LaneRecorder::default();
        for i in 0..world.actors.len() {
            lanes.add(ActorId(i as u8), 0, lane_state(world, &layout, i));
        }
        let tasks = rows(world, layout.table).len();
        let mut checks = vec![
            InvariantReport::always(invariant::EFFECT_ONCE),
            InvariantReport::always(invariant::NO_STALE_COMPLETION),
            InvariantReport::always(invariant::SCANNER_ALIVE),
            InvariantReport::sometimes(invariant::TAKEOVER_HAPPENED),
            InvariantReport::sometimes(invariant::STALE_SUBMIT_ARRIVED),
        ];
        if layout.operator.is_some() {
            checks.insert(
                2,
                InvariantReport::always(invariant::NO_EFFECT_AFTER_CANCEL),
            );
        }
        Self {
            layout,
            lanes,
            checks,
            claims: Vec::new(),
            highest: vec![0; tasks],
            late_refused: 0,
            late_accepted: 0,
            claims_missed: 0,
            completed_after_lease: 0,
            store_offset_ms: match world.actor(layout.table) {
                Actor::Rows(r) => r.clock_offset_ms,
                _ => 0,
            },
            effects_per_task: vec![0; tasks],
            cancel: None,
            cancel_requested_at: None,
            scanner_stopped_at: None,
            max_believers: 0,
            seen: 0,
        }
    }

    fn check(&mut self, name: Invariant, at: Millis, detail: impl FnOnce() -> String) {
        InvariantReport::record_named(&mut self.checks, name, at, detail);
    }

    fn name(a: ActorId, layout: &Layout) -> String {
        layout.names()[a.0 as usize].0.clone()
    }

    fn on_row(&mut self, world: &World, at: Millis, e: &EventKind) {
        let EventKind::RowUpdated {
            row,
            by,
            op,
            affected,
            value,
            ..
        } = *e
        else {
            return;
        };
        let t = row as usize;
        let who = Self::name(by, &self.layout);
        match op {
            RowOp::Claim if affected == 1 => {
                self.highest[t] = value.version;
                self.claims.push(ClaimRecord {
                    worker: who.clone(),
                    task: row,
                    version: value.version,
                });
                if value.attempt > 1 {
                    self.check(invariant::TAKEOVER_HAPPENED, at, || {
                        format!(
                            "{who} claimed task {} at attempt {}",
                            row + 1,
                            value.attempt
                        )
                    });
                }
            }
            RowOp::Claim => self.claims_missed += 1,
            RowOp::Renew | RowOp::Complete => {
                let now = at + self.store_offset_ms;
                if op == RowOp::Complete
                    && affected == 1
                    && value.lease_until_ms.is_some_and(|until| until < now)
                {
                    self.completed_after_lease += 1;
                }
                let mine = worker(world, by).and_then(|w| w.claim()).map(|c| c.1);
                let highest = self.highest[t];
                if let Some(v) = mine.filter(|v| *v < highest) {
                    self.check(invariant::STALE_SUBMIT_ARRIVED, at, || {
                        format!("{who} sent a statement under version {v} after version {highest}")
                    });
                    if affected == 1 && op == RowOp::Complete {
                        self.late_accepted += 1;
                        self.check(invariant::NO_STALE_COMPLETION, at, || {
                            format!("{who}'s completion under version {v} was accepted")
                        });
                    } else if affected == 0 {
                        self.late_refused += 1;
                    }
                }
            }
            RowOp::Cancel if by == self.layout.operator.unwrap_or(ActorId(u8::MAX)) => {
                self.cancel = Some(match (affected, value.state) {
                    (1, _) => CancelOutcome::CancelledBeforeRun,
                    (_, RowState::Running) => CancelOutcome::RequestedTooLate,
                    _ => CancelOutcome::NothingToCancel,
                });
            }
            RowOp::RequestCancel if affected == 1 => self.cancel_requested_at = Some(at),
            // A worker's own cancel statement: it saw the request in time.
            RowOp::Cancel if affected == 1 => self.cancel = Some(CancelOutcome::BackedOut),
            _ => {}
        }
    }
}

impl Observer for TaskObserver {
    fn observe(&mut self, world: &World, rec: &mut Recorder) {
        let now = world.now;
        for i in self.seen..rec.events.len() {
            let (at, actor, kind) = {
                let e = &rec.events[i];
                (e.at_ms, e.actor, e.kind.clone())
            };
            match kind {
                EventKind::RowUpdated { .. } => self.on_row(world, at, &kind),
                EventKind::EffectApplied {
                    task,
                    deduplicated: false,
                    ..
                } => {
                    let t = task as usize;
                    if t == 0
                        && let Some(asked) = self.cancel_requested_at.filter(|r| *r <= at)
                    {
                        self.check(invariant::NO_EFFECT_AFTER_CANCEL, at, || {
                            format!(
                                "task 1's effect landed after its cancel was requested at {}",
                                crate::engine::time::fmt_secs(asked)
                            )
                        });
                    }
                    if let Some(n) = self.effects_per_task.get_mut(t) {
                        *n += 1;
                        let n = *n;
                        if n > 1 {
                            self.check(invariant::EFFECT_ONCE, at, || {
                                format!("task {}'s effect applied {n} times", task + 1)
                            });
                        }
                    }
                }
                EventKind::ScanFailed { caught: false, .. } => {
                    self.scanner_stopped_at.get_or_insert(at);
                    let who = Self::name(actor, &self.layout);
                    self.check(invariant::SCANNER_ALIVE, at, || {
                        format!("{who}'s scanner stopped after an uncaught exception")
                    });
                }
                _ => {}
            }
        }
        self.seen = rec.events.len();
        let believers = (0..self.layout.workers)
            .filter_map(|i| worker(world, ActorId(i)))
            .filter(|w| w.claim().is_some_and(|c| c.0 == 0))
            .count() as u32;
        self.max_believers = self.max_believers.max(believers);
        for i in 0..world.actors.len() {
            self.lanes.set(i, now, lane_state(world, &self.layout, i));
        }
    }
}

impl TaskObserver {
    fn finish(self, world: &World, mut rec: Recorder, end: Millis) -> Trace {
        let all = rows(world, self.layout.table);
        let first = all[0];
        // Unfinished and due: ready, or running under a lease nobody renewed.
        let claimable = crate::engine::msg::RowCond {
            claimable: true,
            ..Default::default()
        };
        let store_end = match world.actor(self.layout.table) {
            Actor::Rows(r) => r.clock(end),
            _ => end,
        };
        let names = self.layout.names();
        let name = |a: Option<ActorId>| a.map(|a| names[a.0 as usize].0.clone());
        let outside = match world.actor(self.layout.provider) {
            Actor::Outside(o) => o.clone(),
            _ => Outside::default(),
        };
        let deduplicated = rec
            .events
            .iter()
            .filter(|e| {
                matches!(
                    e.kind,
                    EventKind::EffectApplied {
                        deduplicated: true,
                        ..
                    }
                )
            })
            .count() as u32;
        let open: Vec<&RowValue> = all
            .iter()
            .filter(|r| RowStore::matches(r, &claimable, store_end))
            .collect();
        let count = |s: RowState| all.iter().filter(|r| r.state == s).count() as u32;
        // A cancellation requested while the claim ran, that the worker never acted on.
        let cancel = match (self.cancel, self.cancel_requested_at) {
            (Some(CancelOutcome::RequestedTooLate), _) | (None, Some(_)) => {
                Some(CancelOutcome::RequestedTooLate)
            }
            (c, _) => c,
        };
        let violations = self
            .checks
            .iter()
            .filter(|c| c.first_violation_ms().is_some())
            .map(|c| c.name)
            .collect();
        rec.event(end, self.layout.table, EventKind::RunEnded);
        let moments = super::moments::moments(&rec, &[], &self.checks);
        Trace {
            schema_version: crate::engine::trace::SCHEMA_VERSION,
            family: Family::Tasks,
            end_ms: end,
            actors: ActorInfo::in_order(names.iter().map(|(n, role)| (n.as_str(), *role))),
            nodes: Vec::new(),
            events: rec.events,
            messages: rec.messages,
            lanes: self.lanes.finish(end),
            service: Vec::new(),
            writes: Vec::new(),
            windows: Vec::new(),
            moments,
            metrics: Metrics::Tasks(TaskMetrics {
                claims: self.claims,
                tasks: all.len() as u8,
                final_state: first.state,
                final_owner: name(first.owner),
                final_version: first.version,
                final_attempt: first.attempt,
                result: name(first.result),
                effects_applied: outside.applied.len() as u32,
                effects_deduplicated: deduplicated,
                late_refused: self.late_refused,
                late_accepted: self.late_accepted,
                claims_missed: self.claims_missed,
                completed_after_lease: self.completed_after_lease,
                cancel,
                tasks_done: count(RowState::Done),
                tasks_failed: count(RowState::Failed),
                tasks_waiting: open.len() as u32,
                oldest_due_age_ms: open.iter().map(|r| store_end - r.due_ms).max(),
                scanner_stopped_at_ms: self.scanner_stopped_at,
                max_believers: self.max_believers,
                violations,
            }),
            invariants: self.checks,
        }
    }
}

/// The task metrics of a trace, if it is one.
pub fn metrics(trace: &Trace) -> Option<&TaskMetrics> {
    match &trace.metrics {
        Metrics::Tasks(m) => Some(m),
        _ => None,
    }
}
