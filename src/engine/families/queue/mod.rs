//! Read-write locks and semaphores on the ZooKeeper queue: the same service and client library
//! as the A/B/C lock, more clients, and an eligibility rule per role.
//!
//! The worked examples: readers 16 and 17 read together, writer 18 waits for both, and reader
//! 19 waits for the writer although it is a reader (no writer starves). A semaphore with 3
//! permits: 30, 31 and 32 hold, 33 waits; when 31's session expires its permit is freed and 33
//! enters.

use crate::engine::actors::Actor;
use crate::engine::actors::config::Config;
use crate::engine::actors::queue_client::{QueueClient, Role};
use crate::engine::invariants;
use crate::engine::params::{Fault, QUEUE_NAMES, QueueCommon, RwLockParams, SemaphoreParams};
use crate::engine::time::Millis;
use crate::engine::trace::Invariant;
use crate::engine::trace::lane::LaneRecorder;
use crate::engine::trace::record::Recorder;
use crate::engine::trace::{
    ActorInfo, EventKind, Family, Metrics, QueueMetrics, Role as ActorRole, ServiceSnapshot, Trace,
    invariant,
};
use crate::engine::world::run::{self, Observer, Plan};
use crate::engine::world::{ActorId, World};

use super::queue_checks::QueueChecks;
use crate::engine::zk::client::ZkConn;
use crate::engine::zk::service::ZkService;
use crate::engine::zk::tree::{DirId, Tree};

mod world_view;

use world_view::{client, lane_state, queued};

const DIR: DirId = DirId(0);

/// The clients' roles and when each starts, and the family it is.
struct Setup {
    family: Family,
    roles: Vec<Role>,
    path: &'static str,
    /// A semaphore's configured permit count, and when it changes.
    config: Option<Config>,
    /// Writers yield to readers (the lock whose readers skip waiting writers).
    writers_yield: bool,
}

fn build(setup: &Setup, c: &QueueCommon) -> (World, Plan) {
    let n = setup.roles.len();
    let service = ActorId(n as u8);
    let mut tree = Tree::new(99);
    tree.add_dir(setup.path, c.first_sequence);
    let mut zk = ZkService::new(tree, c.tick_ms, c.tick_phase_ms);
    let mut world = World::new(Vec::new(), c.delay_ms, c.seed);
    for (i, role) in setup.roles.iter().enumerate() {
        let (session, granted) = zk.open_session(ActorId(i as u8), c.session_timeout_ms);
        let guid = world.rng.next_u32();
        let mut client = QueueClient::new(
            *role,
            DIR,
            c.start_gap_ms * i as u64,
            c.hold_ms,
            c.session_timeout_ms,
            ZkConn::new(service, session, granted),
            guid,
        );
        client.writers_yield = setup.writers_yield;
        world.actors.push(Actor::Queue(client));
    }
    world.actors.push(Actor::Zk(zk));
    if let Some(config) = &setup.config {
        world.actors.push(Actor::Config(config.clone()));
    }
    let total = world.actors.len();
    world.status = vec![Default::default(); total];
    world.links = vec![None; total];
    world.conn_epoch = vec![0; total];
    world.service_epoch = vec![0; total];
    for i in 0..n {
        world.link(ActorId(i as u8), service);
    }
    let mut plan = Plan::default();
    for fault in &c.faults {
        let Some(i) = QUEUE_NAMES[..n]
            .iter()
            .position(|x| x.eq_ignore_ascii_case(fault.client()))
        else {
            continue;
        };
        let a = ActorId(i as u8);
        match fault {
            Fault::Freeze { at_ms, len_ms, .. } => plan.freeze(a, *at_ms, *len_ms),
            Fault::Disconnect { at_ms, len_ms, .. } => plan.cut(a, *at_ms, *len_ms),
            Fault::Crash { at_ms, .. } => plan.crash(a, *at_ms),
            // Lost creates, races between read and watch and timeouts are the A/B/C family's
            // stories.
            Fault::DropCreateResponse { .. }
            | Fault::DeleteBetween { .. }
            | Fault::GiveUp { .. } => {}
        }
    }
    (world, plan)
}

/// Runs a read-write lock.
pub fn run_rwlock(p: &RwLockParams) -> Trace {
    let roles = p
        .wants
        .iter()
        .map(|w| Role::from_want(*w, p.read_rule))
        .collect();
    let setup = Setup {
        family: Family::Rwlock,
        roles,
        path: "/rwlock",
        config: None,
        writers_yield: p.read_rule == crate::engine::params::ReadRule::SkipWaitingWriters,
    };
    run(&setup, &p.common)
}

/// Runs a semaphore.
pub fn run_semaphore(p: &SemaphoreParams) -> Trace {
    let roles = (0..p.clients)
        .map(|i| Role::Permit(p.permits_at(p.common.start_gap_ms * u64::from(i))))
        .collect();
    let setup = Setup {
        family: Family::Semaphore,
        roles,
        path: "/semaphore",
        config: Some(Config {
            permits: p.permits,
            change: p
                .lower_at_ms
                .filter(|_| p.lower_to > 0)
                .map(|at| (at, p.lower_to)),
        }),
        writers_yield: false,
    };
    run(&setup, &p.common)
}

fn run(setup: &Setup, c: &QueueCommon) -> Trace {
    let (mut world, plan) = build(setup, c);
    let n = setup.roles.len();
    let mut rec = Recorder::with_capacity(256, 512);
    let mut obs = QueueObserver::new(&world, n, setup.family);
    run::run(&mut world, &plan, c.duration_ms, &mut rec, &mut obs);
    obs.finish(&world, rec, c.duration_ms)
}

struct QueueObserver {
    n: usize,
    family: Family,
    lanes: LaneRecorder,
    nodes: Vec<crate::engine::trace::NodeInfo>,
    service: Vec<ServiceSnapshot>,
    tally: QueueChecks,
    stuck: u32,
    seen_events: usize,
    snapshot_at: Option<u64>,
}

/// The permit count configured now, for a semaphore.
fn configured_permits(world: &World) -> Option<u32> {
    world.actors.iter().find_map(|a| match a {
        Actor::Config(c) => Some(c.permits),
        _ => None,
    })
}

impl QueueObserver {
    fn new(world: &World, n: usize, family: Family) -> Self {
        let mut lanes = LaneRecorder::default();
        for i in 0..=n {
            lanes.add(ActorId(i as u8), 0, lane_state(world, i, n, 0));
        }
        Self {
            n,
            family,
            lanes,
            nodes: Vec::new(),
            service: Vec::new(),
            tally: QueueChecks::new(family, n, true),
            stuck: 0,
            seen_events: 0,
            snapshot_at: None,
        }
    }

    fn check(&mut self, name: Invariant, at: Millis, detail: impl FnOnce() -> String) {
        self.tally.check(name, at, detail);
    }

    fn finish(self, world: &World, mut rec: Recorder, end: Millis) -> Trace {
        let n = self.n;
        let roles: Vec<Role> = (0..n).map(|i| client(world, i).role).collect();
        let crashed = |i: usize| {
            rec.events
                .iter()
                .find(|e| e.actor == ActorId(i as u8) && e.kind == EventKind::Crashed)
                .map(|e| e.at_ms)
        };
        let (writer_wait, starved) =
            self.tally
                .writer_wait(&roles, |i| client(world, i).asked_at, crashed, end);
        let stuck_clients = (0..n)
            .filter(|i| self.stuck & (1 << i) != 0)
            .map(|i| QUEUE_NAMES[i].to_string())
            .collect();
        let violations = self.tally.violations();
        rec.event(end, ActorId(n as u8), EventKind::RunEnded);
        let windows = super::zk_facts::link_windows(&rec, n, end);
        let moments = super::moments::moments(&rec, &[], &self.tally.checks);
        let mut actors: Vec<ActorInfo> = (0..n)
            .map(|i| ActorInfo {
                id: ActorId(i as u8),
                name: QUEUE_NAMES[i].to_string(),
                role: ActorRole::Client,
            })
            .collect();
        actors.push(ActorInfo {
            id: ActorId(n as u8),
            name: "service".into(),
            role: ActorRole::Coordinator,
        });
        Trace {
            schema_version: crate::engine::trace::SCHEMA_VERSION,
            family: self.family,
            end_ms: end,
            actors,
            nodes: self.nodes,
            events: rec.events,
            messages: rec.messages,
            lanes: self.lanes.finish(end),
            service: self.service,
            writes: Vec::new(),
            windows,
            moments,
            metrics: Metrics::Queue(QueueMetrics {
                grant_order: self.tally.grant_order,
                max_concurrent_readers: self.tally.max_readers,
                max_holders: self.tally.max_holders,
                writer_wait_ms: writer_wait,
                grants_before_writer: self.tally.grants_before_writer,
                starved_writers: starved,
                stuck_clients,
                violations,
            }),
            invariants: self.tally.checks,
        }
    }
}

impl Observer for QueueObserver {
    fn observe(&mut self, world: &World, rec: &mut Recorder) {
        let now = world.now;
        let n = self.n;
        let zk = world.actors[n].as_zk().expect("the service");
        let permits = configured_permits(world);
        for e in &rec.events[self.seen_events..] {
            match &e.kind {
                EventKind::NodeCreated { .. } | EventKind::NodeDeleted { .. } => {
                    super::zk_facts::note_node(zk, e, &mut self.nodes)
                }
                EventKind::Acquired { .. } | EventKind::Admitted { .. } => {
                    let i = e.actor.0 as usize;
                    self.tally.granted(e.at_ms, i, client(world, i).role);
                }
                EventKind::WokeUp { .. } => self.tally.woken(e.at_ms, e.actor.0 as usize),
                _ => {}
            }
        }
        self.seen_events = rec.events.len();
        // Who holds in the service's view: believes it, session live, node present.
        let holders = invariants::service_holders(world);
        let roles: Vec<(usize, Role)> = holders
            .iter()
            .map(|h| (h.0 as usize, client(world, h.0 as usize).role))
            .collect();
        self.tally.holding(now, &roles, permits);
        if self.family == Family::Rwlock {
            let [holding, waiting] = queued(world, n, &holders);
            self.tally.passing(now, &holding, &waiting);
        }
        if let Some(orphan) = zk.tree.orphans().next() {
            let name = zk.tree.node(orphan).name();
            self.check(invariant::NO_ORPHAN_NODE, now, || {
                format!("{name} outlived its session")
            });
        }
        let stuck = invariants::stuck_clients(world, ActorId(n as u8), n);
        if stuck != self.stuck {
            for (i, name) in QUEUE_NAMES[..n].iter().enumerate() {
                let was = self.stuck & (1 << i) != 0;
                let is = stuck & (1 << i) != 0;
                if is && !was {
                    let on = client(world, i).watching().expect("a stuck client waits");
                    rec.event(now, ActorId(i as u8), EventKind::Stuck { on });
                    let label = invariants::watched_label(zk, on);
                    self.check(invariant::NOBODY_STUCK, now, || {
                        format!("{name} waits forever on {label}")
                    });
                } else if was && !is {
                    rec.event(now, ActorId(i as u8), EventKind::Unstuck);
                }
            }
            self.stuck = stuck;
            self.seen_events = rec.events.len();
            for i in 0..n {
                self.lanes.set(i, now, lane_state(world, i, n, stuck));
            }
        }
        if let Some(a) = world.touched.0.filter(|a| (a.0 as usize) < n) {
            self.lanes.set(
                a.0 as usize,
                now,
                lane_state(world, a.0 as usize, n, self.stuck),
            );
        }
        self.lanes.set(n, now, lane_state(world, n, n, self.stuck));
        if self.snapshot_at != Some(zk.tree.changes.0) {
            self.snapshot_at = Some(zk.tree.changes.0);
            let snap = super::zk_facts::snapshot(zk, DIR, ActorId(n as u8), now);
            if self
                .service
                .last()
                .is_none_or(|s| s.children != snap.children || s.watches != snap.watches)
            {
                if self.service.last().is_some_and(|s| s.at_ms == now) {
                    self.service.pop();
                }
                self.service.push(snap);
            }
        }
    }
}

/// The queue metrics of a trace, if it is one.
pub fn metrics(trace: &Trace) -> Option<&QueueMetrics> {
    match &trace.metrics {
        Metrics::Queue(m) => Some(m),
        _ => None,
    }
}
