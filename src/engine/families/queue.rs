//! Read-write locks and semaphores on the ZooKeeper queue: the same service and client library
//! as the A/B/C lock, more clients, and an eligibility rule per role.
//!
//! The worked examples: readers 41 and 42 read together, writer 43 waits for both, and reader
//! 44 waits for the writer although it is a reader (no writer starves). A semaphore with 3
//! permits: 51, 52 and 53 hold, 54 waits; when 52's session expires its permit is freed and 54
//! enters.

use crate::engine::actors::Actor;
use crate::engine::actors::config::Config;
use crate::engine::actors::queue_client::{QStep, QueueClient, Role};
use crate::engine::invariants;
use crate::engine::params::{Fault, QUEUE_NAMES, QueueCommon, RwLockParams, SemaphoreParams};
use crate::engine::time::Millis;
use crate::engine::trace::lane::LaneRecorder;
use crate::engine::trace::record::Recorder;
use crate::engine::trace::{
    ActorInfo, ActorSet, EventKind, Family, InvariantReport, Metrics, QueueMetrics,
    Role as ActorRole, ServiceSnapshot, Share, SpanState, Trace, invariant,
};
use crate::engine::world::run::{self, Observer, Plan};
use crate::engine::world::{ActorId, World};
use crate::engine::zk::client::ZkConn;
use crate::engine::zk::service::ZkService;
use crate::engine::zk::tree::{DirId, Tree};

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
    checks: Vec<InvariantReport>,
    grant_order: Vec<String>,
    grants_before_writer: Option<u32>,
    granted_at: Vec<Option<Millis>>,
    max_readers: u32,
    max_holders: u32,
    stuck: u32,
    seen_events: usize,
    snapshot_at: Option<u64>,
}

fn client(world: &World, i: usize) -> &QueueClient {
    world.actors[i].as_queue().expect("a queue client")
}

/// The lock directory as the service holds it: every client that reached the lock (a writer,
/// the readers together, or the permit holders) and whose node is still there holds through
/// it; the other nodes queue. A client reaches the lock only when its node is entitled, and a
/// node ahead of it can only go, so "reached it and still queued" is exactly "entitled".
fn service_state(world: &World, n: usize) -> SpanState {
    let zk = world.actors[n].as_zk().expect("the service");
    let children = &zk.tree.dir(DIR).children;
    let holders: ActorSet = (0..n)
        .filter(|&i| {
            let c = client(world, i);
            c.step == QStep::Holding && c.node.is_some_and(|m| children.contains(&m))
        })
        .map(|i| ActorId(i as u8))
        .collect();
    let share = match holders
        .first()
        .map(|h| client(world, usize::from(h.0)).role)
    {
        Some(Role::Reader(_)) => Share::Read,
        Some(Role::Permit(_)) => Share::Permits,
        Some(Role::Writer) | None => Share::Exclusive,
    };
    SpanState::Queue {
        holders,
        share,
        waiting: children.len().saturating_sub(holders.len()) as u8,
    }
}

fn lane_state(world: &World, i: usize, n: usize, stuck: u32) -> SpanState {
    let id = ActorId(i as u8);
    if i == n {
        return service_state(world, n);
    }
    let c = client(world, i);
    let status = world.status(id);
    if status.crashed {
        return SpanState::Crashed;
    }
    if status.is_frozen() {
        return SpanState::Frozen {
            believes_holding: c.step == QStep::Holding,
        };
    }
    if stuck & (1 << i) != 0
        && let Some(w) = c.watching()
    {
        return SpanState::Stuck { watching: w };
    }
    match c.step {
        QStep::Idle => SpanState::Idle,
        QStep::Creating => SpanState::Creating,
        QStep::Reading | QStep::Claiming => SpanState::Reading,
        QStep::Checking(node) => SpanState::Checking { node },
        QStep::Waiting(w) => SpanState::Waiting { watching: w },
        QStep::Holding if matches!(c.role, Role::Reader(_)) => {
            SpanState::HoldingRead { token: c.token }
        }
        QStep::Holding => SpanState::Holding { token: c.token },
        QStep::Released => SpanState::Released,
        QStep::Lost => SpanState::Lost,
    }
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
        let mut checks = vec![
            InvariantReport::always(invariant::NO_ORPHAN_NODE),
            InvariantReport::always(invariant::NOBODY_STUCK),
        ];
        if family == Family::Rwlock {
            checks.insert(0, InvariantReport::always(invariant::WRITER_ALONE));
            checks.push(InvariantReport::sometimes(invariant::READERS_SHARED));
            checks.push(InvariantReport::sometimes(invariant::WRITER_HELD));
        } else {
            checks.insert(0, InvariantReport::always(invariant::WITHIN_PERMITS));
            checks.push(InvariantReport::sometimes(invariant::WAITER_WOKEN));
        }
        checks.push(InvariantReport::sometimes(invariant::EVERYONE_HELD));
        Self {
            n,
            family,
            lanes,
            nodes: Vec::new(),
            service: Vec::new(),
            checks,
            grant_order: Vec::new(),
            grants_before_writer: None,
            granted_at: vec![None; n],
            max_readers: 0,
            max_holders: 0,
            stuck: 0,
            seen_events: 0,
            snapshot_at: None,
        }
    }

    fn check(&mut self, name: &str, at: Millis, detail: impl FnOnce() -> String) {
        if let Some(c) = self.checks.iter_mut().find(|c| c.name == name) {
            c.record(at, detail);
        }
    }

    fn finish(self, world: &World, mut rec: Recorder, end: Millis) -> Trace {
        let n = self.n;
        let mut writer_wait = None;
        let mut starved = Vec::new();
        for (i, name) in QUEUE_NAMES[..n].iter().enumerate() {
            let c = client(world, i);
            if c.role != Role::Writer {
                continue;
            }
            // A writer that never asked (it would start after the run, or crashed first) has
            // not waited at all.
            let Some(asked) = c.asked_at else {
                continue;
            };
            let waited = match self.granted_at[i] {
                Some(at) => at.saturating_sub(asked),
                None => {
                    starved.push(name.to_string());
                    // Waiting ends with the run, or when the writer crashes.
                    let crashed = rec
                        .events
                        .iter()
                        .find(|e| e.actor == ActorId(i as u8) && e.kind == EventKind::Crashed);
                    crashed
                        .map_or(end, |e| e.at_ms.min(end))
                        .saturating_sub(asked)
                }
            };
            writer_wait = Some(writer_wait.map_or(waited, |w: u64| w.max(waited)));
        }
        let stuck_clients = (0..n)
            .filter(|i| self.stuck & (1 << i) != 0)
            .map(|i| QUEUE_NAMES[i].to_string())
            .collect();
        let violations = self
            .checks
            .iter()
            .filter(|c| c.first_violation_ms().is_some())
            .map(|c| c.name.to_string())
            .collect();
        rec.event(end, ActorId(n as u8), EventKind::RunEnded);
        let windows = super::zk_facts::link_windows(&rec, n, end);
        let moments = super::moments::moments(&rec, &[], &self.checks);
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
                grant_order: self.grant_order,
                max_concurrent_readers: self.max_readers,
                max_holders: self.max_holders,
                writer_wait_ms: writer_wait,
                grants_before_writer: self.grants_before_writer,
                starved_writers: starved,
                stuck_clients,
                violations,
            }),
            invariants: self.checks,
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
                    let writer = client(world, i).role == Role::Writer;
                    if writer && self.grants_before_writer.is_none() {
                        self.grants_before_writer = Some(self.grant_order.len() as u32);
                    }
                    self.grant_order.push(QUEUE_NAMES[i].to_string());
                    if self.granted_at[i].is_none() {
                        self.granted_at[i] = Some(e.at_ms);
                    }
                    if writer {
                        let who = QUEUE_NAMES[i];
                        let at = e.at_ms;
                        if let Some(c) = self
                            .checks
                            .iter_mut()
                            .find(|c| c.name == invariant::WRITER_HELD)
                        {
                            c.record(at, || format!("writer {who} held"));
                        }
                    }
                }
                EventKind::WokeUp { .. } => {
                    let who = QUEUE_NAMES[e.actor.0 as usize];
                    let at = e.at_ms;
                    if let Some(c) = self
                        .checks
                        .iter_mut()
                        .find(|c| c.name == invariant::WAITER_WOKEN)
                    {
                        c.record(at, || format!("{who} was woken"));
                    }
                }
                _ => {}
            }
        }
        self.seen_events = rec.events.len();
        // Who holds in the service's view: believes it, session live, node present.
        let holders = invariants::service_holders(world);
        let readers = holders
            .iter()
            .filter(|h| matches!(client(world, h.0 as usize).role, Role::Reader(_)))
            .count() as u32;
        let writers = holders.len() as u32 - readers;
        self.max_holders = self.max_holders.max(holders.len() as u32);
        self.max_readers = self.max_readers.max(readers);
        if self.family == Family::Rwlock {
            if writers > 0 && holders.len() > 1 {
                let names: Vec<&str> = holders.iter().map(|h| QUEUE_NAMES[h.0 as usize]).collect();
                self.check(invariant::WRITER_ALONE, now, || {
                    format!("a writer holds together with others: {}", names.join(", "))
                });
            }
            if readers > 1 {
                self.check(invariant::READERS_SHARED, now, || {
                    format!("{readers} readers hold at once")
                });
            }
        } else if let Some(p) = permits
            && holders.len() as u32 > p
        {
            let count = holders.len();
            self.check(invariant::WITHIN_PERMITS, now, || {
                format!("{count} hold with {p} permits")
            });
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
        if self.granted_at.iter().all(Option::is_some) {
            self.check(invariant::EVERYONE_HELD, now, || "every client held".into());
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
