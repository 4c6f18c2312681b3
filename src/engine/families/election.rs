//! Leader election with epochs and a conditional row.
//!
//! Runner A leads with epoch 26 and runs the nightly job rollup, whose row reads RUNNING / A / 26 /
//! version 3. A pauses; its session expires; B, which watches A's candidate node, is elected,
//! raises the epoch to 27 and takes the job over with one conditional statement (version 3, epoch
//! 26, the old lease run out), giving RUNNING / B / 27 / version 4. A wakes and submits with 26 and
//! version 3: zero rows. Only B's result stands. With unconditional statements A's old result
//! overwrites B's.

use crate::engine::actors::Actor;
use crate::engine::actors::rows::RowStore;
use crate::engine::actors::runner::{Runner, RunnerStep};
use crate::engine::invariants;
use crate::engine::msg::{RowOp, RowState, RowValue};
use crate::engine::params::ElectionParams;
use crate::engine::time::Millis;
use crate::engine::trace::Invariant;
use crate::engine::trace::lane::LaneRecorder;
use crate::engine::trace::record::Recorder;
use crate::engine::trace::{
    ActorInfo, ElectionMetrics, EventKind, Family, InvariantReport, Judgement, Metrics, Role,
    SpanState, Trace, WriteRecord, invariant,
};
use crate::engine::world::run::{self, Observer, Plan};
use crate::engine::world::{ActorId, World};
use crate::engine::zk::client::ZkConn;
use crate::engine::zk::service::ZkService;
use crate::engine::zk::tree::{DirId, Tag, Tree};

pub const A: ActorId = ActorId(0);
pub const B: ActorId = ActorId(1);
pub const SERVICE: ActorId = ActorId(2);
pub const ROWS: ActorId = ActorId(3);
pub const NAMES: [&str; 4] = ["A", "B", "service", "jobs"];
const DIR: DirId = DirId(0);
const JOB: u8 = 0;

pub fn build(p: &ElectionParams) -> (World, Plan) {
    let mut tree = Tree::new(140);
    tree.add_dir("/election", 7);
    let epoch_node = tree.add_value(p.first_epoch, 3);
    let mut zk = ZkService::new(tree, p.tick_ms, p.tick_phase_ms);
    let (sa, ga) = zk.open_session(A, p.session_timeout_ms);
    let (sb, gb) = zk.open_session(B, p.session_timeout_ms);
    let mut fired = Vec::new();
    // A won the election before the run: its candidate node is first.
    let a_node = zk
        .tree
        .create(sa, DIR, Tag::Candidate, 0xa1, &mut fired)
        .expect("a live session");
    let a = Runner::new(
        ZkConn::new(SERVICE, sa, ga),
        DIR,
        epoch_node,
        ROWS,
        JOB,
        0,
        p.work_ms,
        p.lease_ms,
        p.session_timeout_ms,
        p.conditional,
        0xa1,
    )
    .leading(a_node, p.first_epoch, p.row_version, p.a_work_left_ms);
    let b = Runner::new(
        ZkConn::new(SERVICE, sb, gb),
        DIR,
        epoch_node,
        ROWS,
        JOB,
        0,
        p.work_ms,
        p.lease_ms,
        p.session_timeout_ms,
        p.conditional,
        0xb2,
    );
    let rows = RowStore {
        rows: vec![RowValue {
            state: RowState::Running,
            owner: Some(A),
            epoch: p.first_epoch,
            version: p.row_version,
            lease_until_ms: Some(p.lease_until_ms),
            attempt: 1,
            due_ms: 0,
            result: None,
            cancel_requested: false,
        }],
        clock_offset_ms: 0,
    };
    let actors = vec![
        Actor::Runner(a),
        Actor::Runner(b),
        Actor::Zk(zk),
        Actor::Rows(rows),
    ];
    let mut world = World::new(actors, p.delay_ms, 1);
    world.link(A, SERVICE);
    world.link(B, SERVICE);
    let mut plan = Plan::default();
    plan.freeze(A, p.pause_at_ms, p.pause_len_ms);
    (world, plan)
}

pub fn run(p: &ElectionParams) -> Trace {
    let (mut world, plan) = build(p);
    let mut rec = Recorder::with_capacity(128, 256);
    let mut obs = ElectionObserver::new(&world);
    run::run(&mut world, &plan, p.duration_ms, &mut rec, &mut obs);
    obs.finish(&world, rec, p.duration_ms)
}

fn runner(world: &World, a: ActorId) -> &Runner {
    match world.actor(a) {
        Actor::Runner(r) => r,
        _ => unreachable!("a runner"),
    }
}

fn row(world: &World) -> RowValue {
    match world.actor(ROWS) {
        Actor::Rows(r) => r.rows[JOB as usize],
        _ => unreachable!("the jobs table"),
    }
}

fn lane_state(world: &World, i: usize) -> SpanState {
    let id = ActorId(i as u8);
    match world.actor(id) {
        Actor::Runner(r) => {
            if world.status(id).is_frozen() {
                return SpanState::Frozen {
                    believes_holding: r.is_leading(),
                };
            }
            match r.step {
                RunnerStep::Idle => SpanState::Idle,
                RunnerStep::Joining => SpanState::Creating,
                RunnerStep::Reading | RunnerStep::Electing => SpanState::Reading,
                RunnerStep::Checking(node) => SpanState::Checking { node },
                RunnerStep::Waiting(w) => SpanState::Waiting { watching: w },
                RunnerStep::TakingOver | RunnerStep::Working | RunnerStep::Submitting => {
                    SpanState::Leading {
                        epoch: r.epoch.unwrap_or(0),
                    }
                }
                RunnerStep::Done => SpanState::Released,
                RunnerStep::Lost => SpanState::Lost,
            }
        }
        Actor::Zk(zk) => SpanState::exclusive_queue(
            zk.tree
                .first_child(DIR)
                .and_then(|n| zk.tree.node(n).owner.map(|s| zk.owner(s))),
            zk.tree.dir(DIR).children.len().saturating_sub(1) as u8,
        ),
        Actor::Rows(_) => {
            let r = row(world);
            SpanState::Row {
                row_state: r.state,
                owner: r.owner,
                epoch: r.epoch,
                version: r.version,
            }
        }
        _ => SpanState::Idle,
    }
}

struct ElectionObserver {
    lanes: LaneRecorder,
    nodes: Vec<crate::engine::trace::NodeInfo>,
    tally: Tally,
    seen: usize,
}

/// What an election run's events say, checked as they come: each leader and its epoch, the
/// takeover, stale submissions and whether the row's epoch ever went back. The model's observer
/// and the live run both feed their events here, so the two are judged by one rule.
#[derive(Debug, Clone)]
pub struct Tally {
    pub checks: Vec<InvariantReport>,
    pub leaders: Vec<String>,
    highest_epoch: u64,
    last_row_epoch: u64,
    pub stale_rejected: u32,
    pub stale_accepted: u32,
    pub max_leaders: u32,
    /// Every submission that reached the jobs table, judged: stale when its epoch is older
    /// than the newest elected one.
    pub writes: Vec<WriteRecord>,
}

impl Tally {
    /// `first` leads with `epoch` when the run starts.
    pub fn new(first: &str, epoch: u64) -> Self {
        Self {
            checks: vec![
                InvariantReport::always(invariant::ONE_LEADER),
                InvariantReport::always(invariant::EPOCHS_NON_DECREASING),
                InvariantReport::sometimes(invariant::TAKEOVER_HAPPENED),
                InvariantReport::sometimes(invariant::STALE_SUBMIT_ARRIVED),
            ],
            leaders: vec![format!("{first}@{epoch}")],
            highest_epoch: epoch,
            last_row_epoch: epoch,
            stale_rejected: 0,
            stale_accepted: 0,
            max_leaders: 1,
            writes: Vec::new(),
        }
    }

    fn check(&mut self, name: Invariant, at: Millis, detail: impl FnOnce() -> String) {
        InvariantReport::record_named(&mut self.checks, name, at, detail);
    }

    /// One event: `name` spells an actor, `epoch_of` is the epoch a runner acts with.
    pub fn note(
        &mut self,
        e: &crate::engine::trace::Event,
        name: impl Fn(ActorId) -> String,
        epoch_of: impl Fn(ActorId) -> u64,
    ) {
        match e.kind {
            EventKind::Elected { epoch } => {
                self.highest_epoch = self.highest_epoch.max(epoch);
                self.leaders.push(format!("{}@{epoch}", name(e.actor)));
            }
            EventKind::RowUpdated {
                op,
                affected,
                by,
                value,
                cond,
                ..
            } => {
                let at = e.at_ms;
                if op == RowOp::Submit {
                    let (token, accepted) = (epoch_of(by), affected == 1);
                    let stale = token < self.highest_epoch;
                    let (judgement, replaced) = Judgement::of(stale, accepted, token, &self.writes);
                    let before = self.last_row_epoch;
                    self.writes.push(WriteRecord {
                        at_ms: at,
                        writer: by,
                        token,
                        accepted,
                        last_seen_before: before,
                        last_seen_after: if accepted {
                            before.max(value.epoch)
                        } else {
                            before
                        },
                        fencing: cond.epoch.is_some(),
                        judgement,
                        replaced,
                    });
                }
                if op == RowOp::TakeOver && affected == 1 {
                    self.check(invariant::TAKEOVER_HAPPENED, at, || {
                        format!("{} took the job over", name(by))
                    });
                }
                if op == RowOp::Submit {
                    let epoch = epoch_of(by);
                    let highest = self.highest_epoch;
                    if epoch < highest {
                        if affected == 1 {
                            self.stale_accepted += 1;
                        } else {
                            self.stale_rejected += 1;
                        }
                        self.check(invariant::STALE_SUBMIT_ARRIVED, at, || {
                            format!(
                                "{} submitted with epoch {epoch} after epoch {highest}",
                                name(by)
                            )
                        });
                    }
                }
                if affected == 1 {
                    if value.epoch < self.last_row_epoch {
                        let (from, to) = (self.last_row_epoch, value.epoch);
                        self.check(invariant::EPOCHS_NON_DECREASING, at, || {
                            format!("the row went from epoch {from} back to {to}")
                        });
                    }
                    self.last_row_epoch = value.epoch;
                }
            }
            _ => {}
        }
    }

    /// How many runners lead at `now`.
    pub fn leading(&mut self, now: Millis, leaders: u32) {
        self.max_leaders = self.max_leaders.max(leaders);
        if leaders > 1 {
            self.check(invariant::ONE_LEADER, now, || {
                format!("{leaders} runners lead at once")
            });
        }
    }

    /// The run's metrics, with the row as it ended.
    pub fn metrics(&self, row: &RowValue, name: impl Fn(ActorId) -> String) -> ElectionMetrics {
        ElectionMetrics {
            leaders: self.leaders.clone(),
            final_state: row.state,
            final_owner: row.owner.map(&name),
            final_epoch: row.epoch,
            final_version: row.version,
            result: row.result.map(&name),
            stale_submits_rejected: self.stale_rejected,
            stale_submits_accepted: self.stale_accepted,
            max_leaders: self.max_leaders,
            violations: self
                .checks
                .iter()
                .filter(|c| c.first_violation_ms().is_some())
                .map(|c| c.name)
                .collect(),
        }
    }
}

impl ElectionObserver {
    fn new(world: &World) -> Self {
        let mut lanes = LaneRecorder::default();
        for i in 0..world.actors.len() {
            lanes.add(ActorId(i as u8), 0, lane_state(world, i));
        }
        let first = row(world).epoch;
        let zk = world.actor(SERVICE).as_zk().expect("the service");
        Self {
            lanes,
            nodes: super::zk_facts::nodes_at_start(zk),
            tally: Tally::new(NAMES[A.0 as usize], first),
            seen: 0,
        }
    }

    fn finish(self, world: &World, mut rec: Recorder, end: Millis) -> Trace {
        let name = |a: ActorId| NAMES[a.0 as usize].to_string();
        let metrics = self.tally.metrics(&row(world), name);
        rec.event(end, SERVICE, EventKind::RunEnded);
        let moments = super::moments::moments(&rec, &self.tally.writes, &self.tally.checks);
        let windows = super::zk_facts::link_windows(&rec, 2, end);
        Trace {
            schema_version: crate::engine::trace::SCHEMA_VERSION,
            family: Family::Election,
            end_ms: end,
            actors: actors(),
            nodes: self.nodes,
            events: rec.events,
            messages: rec.messages,
            lanes: self.lanes.finish(end),
            service: Vec::new(),
            writes: self.tally.writes,
            windows,
            moments,
            metrics: Metrics::Election(metrics),
            invariants: self.tally.checks,
        }
    }
}

/// The run's actors: the two runners, the service and the jobs table.
pub fn actors() -> Vec<ActorInfo> {
    let roles = [Role::Client, Role::Client, Role::Coordinator, Role::Table];
    ActorInfo::in_order(NAMES.into_iter().zip(roles))
}

impl Observer for ElectionObserver {
    fn observe(&mut self, world: &World, rec: &mut Recorder) {
        let now = world.now;
        let zk = world.actor(SERVICE).as_zk().expect("the service");
        for i in self.seen..rec.events.len() {
            let e = &rec.events[i];
            super::zk_facts::note_node(zk, e, &mut self.nodes);
            self.tally.note(
                e,
                |a| NAMES[a.0 as usize].to_string(),
                |a| runner(world, a).epoch.unwrap_or(0),
            );
        }
        self.seen = rec.events.len();
        self.tally
            .leading(now, invariants::holder_count(world) as u32);
        for i in 0..world.actors.len() {
            self.lanes.set(i, now, lane_state(world, i));
        }
    }
}

/// The election metrics of a trace, if it is one.
pub fn metrics(trace: &Trace) -> Option<&ElectionMetrics> {
    match &trace.metrics {
        Metrics::Election(m) => Some(m),
        _ => None,
    }
}
