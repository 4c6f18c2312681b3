//! The A/B/C queue: three clients run the ZooKeeper lock recipe on one lock directory.
//!
//! A, B and C create ephemeral sequential nodes under `/lock` in that order and receive 17, 18
//! and 19. A holder writes once to the protected resource with its fencing token (by default the
//! lock node's czxid), then releases by deleting its node and closing its session. Faults are
//! planned at instants or triggered by a particular request.

use crate::engine::actors::lock_client::{LockClient, Recipe, Step};
use crate::engine::actors::{Actor, Resource};
use crate::engine::invariants;
use crate::engine::params::{AbcParams, Fault};
use crate::engine::time::Millis;
use crate::engine::trace::lane::LaneRecorder;
use crate::engine::trace::record::Recorder;
use crate::engine::trace::{
    AbcMetrics, ActorInfo, Child, EventKind, Family, InvariantReport, Judgement, Metrics, Moment,
    MomentKind, NodeInfo, Role, ServiceSnapshot, SpanState, Trace, WatchInfo, Window, WindowKind,
    WriteRecord, invariant,
};
use crate::engine::world::run::{self, Observer, Plan, Trigger};
use crate::engine::world::{ActorId, World};
use crate::engine::zk::client::{ConnState, ZkConn};
use crate::engine::zk::service::ZkService;
use crate::engine::zk::tree::{DirId, Tree};

pub const NAMES: [&str; 3] = ["A", "B", "C"];
pub const SERVICE: ActorId = ActorId(3);
pub const RESOURCE: ActorId = ActorId(4);
const DIR: DirId = DirId(0);

/// The client called `name` (A, B or C, any case).
pub fn client_id(name: &str) -> Option<ActorId> {
    NAMES
        .iter()
        .position(|n| n.eq_ignore_ascii_case(name))
        .map(|i| ActorId(i as u8))
}

/// Builds the World and the fault plan for a set of parameters.
pub fn build(p: &AbcParams) -> (World, Plan) {
    let mut tree = Tree::new(p.first_zxid.saturating_sub(1));
    tree.add_dir("/lock", p.first_sequence);
    let mut service = ZkService::new(tree, p.tick_ms);
    let mut world = World::new(Vec::new(), p.delay_ms, p.seed);
    let mut clients = Vec::new();
    for (i, _) in NAMES.iter().enumerate() {
        let id = ActorId(i as u8);
        let (session, granted) = service.open_session(id, p.session_timeout_ms);
        let recipe = Recipe {
            watch: p.watch,
            recovery: p.recovery,
            registration: p.registration,
            on_disconnect: p.on_disconnect,
            on_loss: p.on_loss,
            token: p.token,
            start_ms: p.start_gap_ms * i as u64,
            write_after_ms: p.write_after_ms,
            hold_ms: p.hold_ms,
            dir: DIR,
            resource: RESOURCE,
            requested_timeout_ms: p.session_timeout_ms,
        };
        let guid = world.rng.next_u32();
        clients.push(Actor::Lock(Box::new(LockClient::new(
            recipe,
            ZkConn::new(SERVICE, session, granted),
            guid,
        ))));
    }
    world.actors = clients;
    world.actors.push(Actor::Zk(Box::new(service)));
    world.actors.push(Actor::Resource(Resource::new(p.fencing)));
    let n = world.actors.len();
    world.status = vec![Default::default(); n];
    world.links = vec![None; n];
    world.conn_epoch = vec![0; n];
    world.service_epoch = vec![0; n];
    for i in 0..NAMES.len() {
        world.link(ActorId(i as u8), SERVICE);
    }
    let mut plan = Plan::default();
    for fault in &p.faults {
        let Some(c) = client_id(fault.client()) else {
            continue;
        };
        match fault {
            Fault::Freeze { at_ms, len_ms, .. } => plan.freeze(c, *at_ms, *len_ms),
            Fault::Disconnect { at_ms, len_ms, .. } => plan.cut(c, *at_ms, *len_ms),
            Fault::Crash { at_ms, .. } => plan.crash(c, *at_ms),
            Fault::DropCreateResponse { .. } => {
                plan.triggers.push(Trigger::ResetAfterCreate { client: c })
            }
            Fault::DeleteBetween { owner, .. } => {
                if let Some(o) = client_id(owner) {
                    plan.triggers.push(Trigger::ReleaseAfterRead {
                        owner: o,
                        reader: c,
                    });
                }
            }
        }
    }
    (world, plan)
}

/// Runs the A/B/C queue.
pub fn run(p: &AbcParams) -> Trace {
    let (mut world, plan) = build(p);
    let mut rec = Recorder::default();
    let mut obs = AbcObserver::new(&world);
    run::run(&mut world, &plan, p.duration_ms, &mut rec, &mut obs);
    obs.finish(&world, rec, p.duration_ms)
}

pub fn zk(world: &World) -> &ZkService {
    world.actor(SERVICE).as_zk().expect("the service")
}

pub fn client(world: &World, c: usize) -> &LockClient {
    world.actors[c].as_lock().expect("a lock client")
}

/// Watches everything that matters after each step: lanes, the lock directory, the nodes,
/// writes, wake-ups and the invariants.
struct AbcObserver {
    lanes: LaneRecorder,
    nodes: Vec<NodeInfo>,
    service: Vec<ServiceSnapshot>,
    writes: Vec<WriteRecord>,
    wakeups_per_release: Vec<u32>,
    max_holders: u32,
    checks: Vec<InvariantReport>,
    seen_events: usize,
    seen_messages: usize,
    stuck: Vec<bool>,
}

impl AbcObserver {
    fn new(world: &World) -> Self {
        let mut lanes = LaneRecorder::default();
        for i in 0..world.actors.len() {
            lanes.add(ActorId(i as u8), 0, lane_state(world, i, &[]));
        }
        Self {
            lanes,
            nodes: Vec::new(),
            service: Vec::new(),
            writes: Vec::new(),
            wakeups_per_release: Vec::new(),
            max_holders: 0,
            checks: vec![
                InvariantReport::always(invariant::ONE_HOLDER),
                InvariantReport::always(invariant::TOKENS_NON_DECREASING),
                InvariantReport::always(invariant::NO_ORPHAN_NODE),
                InvariantReport::always(invariant::NOBODY_STUCK),
                InvariantReport::sometimes(invariant::HOLDER_RELEASED),
                InvariantReport::sometimes(invariant::WAITER_WOKEN),
                InvariantReport::sometimes(invariant::STALE_WRITE_ARRIVED),
                InvariantReport::sometimes(invariant::EVERYONE_HELD),
            ],
            seen_events: 0,
            seen_messages: 0,
            stuck: vec![false; NAMES.len()],
        }
    }

    fn check(&mut self, name: &str, at: Millis, detail: impl FnOnce() -> String) {
        if let Some(c) = self.checks.iter_mut().find(|c| c.name == name) {
            c.record(at, detail);
        }
    }

    fn finish(self, world: &World, mut rec: Recorder, end: Millis) -> Trace {
        let clients: Vec<&LockClient> = (0..NAMES.len()).map(|c| client(world, c)).collect();
        let stuck_clients = (0..NAMES.len())
            .filter(|&c| self.stuck[c])
            .map(|c| NAMES[c].to_string())
            .collect();
        let duplicate_nodes = duplicates(&rec, &clients);
        let (stale_accepted, stale_rejected) = self.writes.iter().fold((0, 0), |(a, r), w| match w
            .judgement
        {
            Judgement::StaleAccepted | Judgement::Overwrote => (a + 1, r),
            Judgement::StaleRejected => (a, r + 1),
            _ => (a, r),
        });
        let violations = self
            .checks
            .iter()
            .filter(|c| c.first_violation_ms().is_some())
            .map(|c| c.name.to_string())
            .collect();
        rec.event(end, SERVICE, EventKind::RunEnded);
        let windows = link_windows(&rec, end);
        let moments = moments(&rec, &self.writes, &self.checks);
        Trace {
            schema_version: crate::engine::trace::SCHEMA_VERSION,
            family: Family::Abc,
            end_ms: end,
            actors: actors(),
            nodes: self.nodes,
            events: rec.events,
            messages: rec.messages,
            lanes: self.lanes.finish(end),
            service: self.service,
            writes: self.writes,
            windows,
            moments,
            metrics: Metrics::Abc(AbcMetrics {
                wakeups_per_release: self.wakeups_per_release,
                max_holders: self.max_holders,
                stuck_clients,
                duplicate_nodes,
                stale_writes_accepted: stale_accepted,
                stale_writes_rejected: stale_rejected,
                violations,
            }),
            invariants: self.checks,
        }
    }
}

pub fn actors() -> Vec<ActorInfo> {
    let mut v: Vec<ActorInfo> = NAMES
        .iter()
        .enumerate()
        .map(|(i, n)| ActorInfo {
            id: ActorId(i as u8),
            name: n.to_string(),
            role: Role::Client,
        })
        .collect();
    v.push(ActorInfo {
        id: SERVICE,
        name: "service".into(),
        role: Role::Coordinator,
    });
    v.push(ActorInfo {
        id: RESOURCE,
        name: "resource".into(),
        role: Role::Resource,
    });
    v
}

impl Observer for AbcObserver {
    fn observe(&mut self, world: &World, rec: &mut Recorder) {
        let now = world.now;
        let zk = zk(world);
        // Facts carried by the events of this step.
        let mut deletions = false;
        for e in &rec.events[self.seen_events..] {
            match &e.kind {
                EventKind::NodeCreated { node, owner } => {
                    let n = zk.tree.node(*node);
                    self.nodes.push(NodeInfo {
                        id: *node,
                        name: n.name(),
                        tag: n.tag,
                        seq: n.seq,
                        czxid: n.czxid,
                        owner: *owner,
                        created_ms: e.at_ms,
                        deleted_ms: None,
                    });
                }
                EventKind::NodeDeleted { node, .. } => {
                    deletions = true;
                    if let Some(info) = self.nodes.iter_mut().find(|i| i.id == *node) {
                        info.deleted_ms = Some(e.at_ms);
                    }
                }
                EventKind::ReleaseSent { .. } => {
                    let who = e.actor;
                    self.check(invariant::HOLDER_RELEASED, e.at_ms, || {
                        format!("{} released", NAMES[who.0 as usize])
                    });
                }
                EventKind::WokeUp { .. } => {
                    let who = e.actor;
                    self.check(invariant::WAITER_WOKEN, e.at_ms, || {
                        format!("{} was woken", NAMES[who.0 as usize])
                    });
                }
                EventKind::WriteArrived {
                    writer,
                    token,
                    accepted,
                    last_seen_before,
                    fencing,
                } => {
                    let record = judge(
                        world,
                        &self.writes,
                        e.at_ms,
                        *writer,
                        *token,
                        *accepted,
                        *last_seen_before,
                        *fencing,
                    );
                    if matches!(
                        record.judgement,
                        Judgement::StaleAccepted | Judgement::StaleRejected | Judgement::Overwrote
                    ) {
                        let w = *writer;
                        self.check(invariant::STALE_WRITE_ARRIVED, e.at_ms, || {
                            format!("{}'s stale write arrived", NAMES[w.0 as usize])
                        });
                    }
                    self.writes.push(record);
                }
                _ => {}
            }
        }
        self.seen_events = rec.events.len();
        // Wake-ups: watch events this step sent to clients that were waiting.
        let mut woke = 0;
        for m in &rec.messages[self.seen_messages..] {
            if m.from == SERVICE
                && matches!(m.msg, crate::engine::msg::Msg::ZkWatch { .. })
                && (m.to.0 as usize) < NAMES.len()
                && matches!(client(world, m.to.0 as usize).step, Step::Waiting(_))
            {
                woke += 1;
            }
        }
        self.seen_messages = rec.messages.len();
        if deletions && woke > 0 {
            self.wakeups_per_release.push(woke);
        }
        // The always-checks, as pure functions of the state.
        let holders = invariants::service_holders(world);
        self.max_holders = self.max_holders.max(holders.len() as u32);
        if holders.len() > 1 {
            let names: Vec<&str> = holders.iter().map(|c| NAMES[c.0 as usize]).collect();
            self.check(invariant::ONE_HOLDER, now, || {
                format!("{} hold the lock at once", names.join(" and "))
            });
        }
        if invariants::tokens_went_backwards(world, RESOURCE) {
            let last = self.writes.last().cloned();
            self.check(invariant::TOKENS_NON_DECREASING, now, || match last {
                Some(w) => format!(
                    "{}'s token {} was accepted after a larger one",
                    NAMES[w.writer.0 as usize], w.token
                ),
                None => "an accepted token went down".into(),
            });
        }
        if let Some(orphan) = zk.tree.orphans().next() {
            let name = zk.tree.node(orphan).name();
            self.check(invariant::NO_ORPHAN_NODE, now, || {
                format!("{name} outlived its session")
            });
        }
        let stuck = invariants::stuck_clients(world, SERVICE, NAMES.len());
        for (c, &is_stuck) in stuck.iter().enumerate() {
            if is_stuck != self.stuck[c] {
                let lock = client(world, c);
                if is_stuck {
                    let on = lock.watching().expect("a stuck client waits");
                    rec.event(now, ActorId(c as u8), EventKind::Stuck { on });
                    let label = crate::engine::invariants::watched_label(zk, on);
                    self.check(invariant::NOBODY_STUCK, now, || {
                        format!("{} waits forever on {label}", NAMES[c])
                    });
                } else {
                    rec.event(now, ActorId(c as u8), EventKind::Unstuck);
                }
            }
        }
        self.stuck = stuck;
        self.seen_events = rec.events.len();
        if (0..NAMES.len()).all(|c| {
            rec.events
                .iter()
                .any(|e| e.actor.0 as usize == c && matches!(e.kind, EventKind::Acquired { .. }))
        }) {
            self.check(invariant::EVERYONE_HELD, now, || {
                "every client held the lock".into()
            });
        }
        // Lanes and the lock directory.
        for i in 0..world.actors.len() {
            self.lanes.set(i, now, lane_state(world, i, &self.stuck));
        }
        let snap = snapshot(world, now);
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

/// The lock directory now: children in sequence order, and the watches that can still fire.
fn snapshot(world: &World, now: Millis) -> ServiceSnapshot {
    let zk = zk(world);
    let children = zk
        .tree
        .sorted_children(DIR)
        .into_iter()
        .map(|n| {
            let node = zk.tree.node(n);
            Child {
                node: n,
                owner: node.owner.map_or(SERVICE, |s| zk.owner(s)),
                seq: node.seq,
            }
        })
        .collect();
    let mut watches = Vec::new();
    for (i, s) in zk.tree.sessions.iter().enumerate() {
        let session = crate::engine::zk::tree::SessionId(i as u32);
        for &target in &s.watches {
            if zk.tree.can_fire(session, target) {
                watches.push(WatchInfo {
                    watcher: zk.owner(session),
                    target,
                });
            }
        }
    }
    ServiceSnapshot {
        at_ms: now,
        children,
        watches,
    }
}

/// What actor `i`'s lane shows now.
fn lane_state(world: &World, i: usize, stuck: &[bool]) -> SpanState {
    let id = ActorId(i as u8);
    match world.actor(id) {
        crate::engine::actors::Actor::Lock(c) => {
            let status = world.status(id);
            if status.crashed {
                return SpanState::Crashed;
            }
            if status.is_frozen() {
                return SpanState::Frozen {
                    believes_holding: c.step == Step::Holding,
                };
            }
            if stuck.get(i).copied().unwrap_or(false)
                && let Some(w) = c.watching()
            {
                return SpanState::Stuck { watching: w };
            }
            match c.step {
                Step::Idle => SpanState::Idle,
                Step::Creating => SpanState::Creating,
                Step::Unknown => SpanState::OutcomeUnknown,
                Step::Recovering | Step::Confirming | Step::Reading => {
                    if c.conn.state == ConnState::Reconnecting {
                        SpanState::Reconnecting
                    } else {
                        SpanState::Reading
                    }
                }
                Step::Checking(node) => SpanState::Checking { node },
                Step::Waiting(w) => SpanState::Waiting { watching: w },
                Step::Holding if c.suspended => SpanState::Suspended { token: c.token },
                Step::Holding => SpanState::Holding { token: c.token },
                Step::Released => SpanState::Released,
                Step::Lost => SpanState::Lost,
            }
        }
        crate::engine::actors::Actor::Zk(zk) => {
            let children = zk.tree.sorted_children(DIR);
            SpanState::Queue {
                holder: children
                    .first()
                    .and_then(|n| zk.tree.node(*n).owner.map(|s| zk.owner(s))),
                waiting: children.len().saturating_sub(1) as u8,
            }
        }
        crate::engine::actors::Actor::Resource(r) => match r.value {
            Some((writer, token)) => SpanState::Value { writer, token },
            None => SpanState::Empty,
        },
        _ => SpanState::Idle,
    }
}

/// Judges a write as it arrives: stale when the service had already expired the writer's
/// session, whatever the writer believes.
#[allow(clippy::too_many_arguments)]
fn judge(
    world: &World,
    earlier: &[WriteRecord],
    at_ms: Millis,
    writer: ActorId,
    token: u64,
    accepted: bool,
    last_seen_before: u64,
    fencing: bool,
) -> WriteRecord {
    let zk = zk(world);
    let session = client(world, writer.0 as usize).conn.session;
    let s = zk.tree.session(session);
    let stale = !s.live && !s.closed;
    let replaced = earlier
        .iter()
        .rev()
        .find(|w| w.accepted)
        .map(|w| (w.writer, w.token))
        .filter(|_| accepted);
    let judgement = match (stale, accepted) {
        (false, true) => Judgement::Fresh,
        (false, false) => Judgement::Refused,
        (true, false) => Judgement::StaleRejected,
        (true, true) if replaced.is_some_and(|(_, t)| t > token) => Judgement::Overwrote,
        (true, true) => Judgement::StaleAccepted,
    };
    let last_seen_after = world
        .actor(RESOURCE)
        .as_resource()
        .map_or(0, |r| r.last_seen_token);
    WriteRecord {
        at_ms,
        writer,
        token,
        accepted,
        last_seen_before,
        last_seen_after,
        fencing,
        judgement,
        replaced,
    }
}

/// Nodes a single request left behind: created for a client, neither its node at the end nor
/// deleted by it as an extra.
fn duplicates(rec: &Recorder, clients: &[&LockClient]) -> u32 {
    let mut n = 0;
    for e in &rec.events {
        if let EventKind::NodeCreated { node, owner } = &e.kind {
            let c = owner.0 as usize;
            let Some(client) = clients.get(c) else {
                continue;
            };
            let cleaned = rec.events.iter().any(|d| {
                d.actor == *owner && d.kind == EventKind::DuplicateDeleted { node: *node }
            });
            if client.node != Some(*node) && !cleaned {
                n += 1;
            }
        }
    }
    n
}

/// Blind and disconnected windows from the link events.
fn link_windows(rec: &Recorder, end: Millis) -> Vec<Window> {
    let mut out = Vec::new();
    for c in 0..NAMES.len() {
        let id = ActorId(c as u8);
        let mut blind_from = None;
        let mut away_from = None;
        for e in rec.events.iter().filter(|e| e.actor == id) {
            match e.kind {
                EventKind::LinkCut => blind_from = Some(e.at_ms),
                EventKind::NoticedDisconnect { .. } | EventKind::ConnectionReset => {
                    if let Some(from) = blind_from.take() {
                        out.push(Window {
                            kind: WindowKind::Blind { client: id },
                            from_ms: from,
                            to_ms: e.at_ms,
                        });
                    }
                    away_from.get_or_insert(e.at_ms);
                }
                EventKind::LinkRestored => {
                    if let Some(from) = blind_from.take() {
                        out.push(Window {
                            kind: WindowKind::Blind { client: id },
                            from_ms: from,
                            to_ms: e.at_ms,
                        });
                    }
                }
                EventKind::Reconnected | EventKind::LearnedSessionExpired => {
                    if let Some(from) = away_from.take() {
                        out.push(Window {
                            kind: WindowKind::Disconnected { client: id },
                            from_ms: from,
                            to_ms: e.at_ms,
                        });
                    }
                }
                _ => {}
            }
        }
        for (from, kind) in [
            (blind_from, WindowKind::Blind { client: id }),
            (away_from, WindowKind::Disconnected { client: id }),
        ] {
            if let Some(from) = from {
                out.push(Window {
                    kind,
                    from_ms: from,
                    to_ms: end,
                });
            }
        }
    }
    out.sort_by_key(|w| w.from_ms);
    out
}

/// The moments to jump between: grants, releases, expiries, stale writes, first failures.
pub fn moments(rec: &Recorder, writes: &[WriteRecord], checks: &[InvariantReport]) -> Vec<Moment> {
    let mut out: Vec<Moment> = rec
        .events
        .iter()
        .filter_map(|e| {
            let kind = match e.kind {
                EventKind::Acquired { .. } | EventKind::LearnedGrant { .. } => {
                    MomentKind::Grant { actor: e.actor }
                }
                EventKind::LeaseGranted { holder, .. } if e.at_ms > 0 => {
                    MomentKind::Grant { actor: holder }
                }
                EventKind::ReleaseSent { .. } | EventKind::LeaseReleaseSent => {
                    MomentKind::Release { actor: e.actor }
                }
                EventKind::SessionExpired { owner, .. } => MomentKind::Expiry { actor: owner },
                EventKind::LeaseExpired { holder } => MomentKind::Expiry { actor: holder },
                _ => return None,
            };
            Some(Moment {
                at_ms: e.at_ms,
                kind,
            })
        })
        .collect();
    for w in writes {
        if matches!(
            w.judgement,
            Judgement::StaleAccepted | Judgement::StaleRejected | Judgement::Overwrote
        ) {
            out.push(Moment {
                at_ms: w.at_ms,
                kind: MomentKind::StaleWrite {
                    actor: w.writer,
                    accepted: w.accepted,
                },
            });
        }
    }
    for c in checks {
        if let Some(at) = c.first_violation_ms() {
            out.push(Moment {
                at_ms: at,
                kind: MomentKind::FirstViolation { invariant: c.name },
            });
        }
    }
    out.sort_by_key(|m| m.at_ms);
    out
}

/// The A/B/C metrics of a trace, if it is one.
pub fn metrics(trace: &Trace) -> Option<&AbcMetrics> {
    match &trace.metrics {
        Metrics::Abc(m) => Some(m),
        _ => None,
    }
}
