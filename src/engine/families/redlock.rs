//! Redlock across independent Redis nodes: clients that lock on a majority, nodes that crash,
//! restart without their key or have their clock stepped, and a resource that has no token to
//! check.
//!
//! The worked example: with a 10,000 ms TTL, OK from N1, N2 and N4, timeouts from N3 and N5
//! (down) and 120 ms elapsed, the validity is 10,000 − 120 − 102 = 9,778 ms. When N4 then
//! restarts without A's key, B gets OK from N3, N4 and N5 while A still holds: two holders.

use crate::engine::actors::redis_node::RedisNode;
use crate::engine::actors::redlock_client::{RedlockClient, RedlockConfig, RedlockStep};
use crate::engine::actors::{Actor, Resource};
use crate::engine::params::{REDLOCK_CLIENTS, REDLOCK_NODES, RedlockParams};
use crate::engine::time::Millis;
use crate::engine::trace::Invariant;
use crate::engine::trace::lane::LaneRecorder;
use crate::engine::trace::record::Recorder;
use crate::engine::trace::redlock::{
    Acquisition, Outcome, RedlockEvent, RedlockMetrics, RedlockSpan, outcome,
};
use crate::engine::trace::{
    ActorInfo, EventKind, Family, InvariantReport, Judgement, Metrics, Role, SpanState, Trace,
    WriteRecord, invariant,
};
use crate::engine::world::run::{self, Observer, Plan};
use crate::engine::world::{ActorId, World};

/// Where everyone sits: clients first, then the nodes, then the resource.
#[derive(Debug, Clone, Copy)]
struct Layout {
    clients: usize,
    nodes: usize,
}

impl Layout {
    fn of(p: &RedlockParams) -> Self {
        Self {
            clients: p.clients as usize,
            nodes: p.nodes as usize,
        }
    }
    fn node(self, i: usize) -> ActorId {
        ActorId((self.clients + i) as u8)
    }
    fn resource(self) -> ActorId {
        ActorId((self.clients + self.nodes) as u8)
    }
}

/// The properties every Redlock run is checked against, the model's and a live one's.
pub fn checks() -> Vec<InvariantReport> {
    vec![
        InvariantReport::always(invariant::ONE_HOLDER),
        InvariantReport::always(invariant::HOLDER_HAS_MAJORITY),
        InvariantReport::always(invariant::NO_STALE_WRITE_ACCEPTED),
        InvariantReport::always(invariant::RELEASES_OWN_KEY_ONLY),
        InvariantReport::sometimes(invariant::MAJORITY_ACQUIRED),
        InvariantReport::sometimes(invariant::SUCCESSOR_GRANTED),
        InvariantReport::sometimes(invariant::HOLDER_RELEASED),
    ]
}

/// Who is in a run: the clients (A, B, ...), then the nodes (N1, N2, ...), then the resource.
pub fn actors(clients: usize, nodes: usize) -> Vec<ActorInfo> {
    let l = Layout { clients, nodes };
    let mut actors: Vec<ActorInfo> = (0..clients)
        .map(|i| ActorInfo {
            id: ActorId(i as u8),
            name: REDLOCK_CLIENTS[i].into(),
            role: Role::Client,
        })
        .collect();
    actors.extend((0..nodes).map(|i| ActorInfo {
        id: l.node(i),
        name: REDLOCK_NODES[i].into(),
        role: Role::Node,
    }));
    actors.push(ActorInfo {
        id: l.resource(),
        name: "resource".into(),
        role: Role::Resource,
    });
    actors
}

/// The judgement of a write to a resource with no token to check: `fresh` when its writer
/// still held with validity left and a majority of its keys; `replaced`, the writer whose
/// accepted value it would replace.
pub fn judge(fresh: bool, accepted: bool, writer: ActorId, replaced: Option<ActorId>) -> Judgement {
    match (fresh, accepted) {
        (true, true) => Judgement::Fresh,
        (true, false) => Judgement::Refused,
        (false, false) => Judgement::StaleRejected,
        (false, true) if replaced.is_some_and(|r| r != writer) => Judgement::Overwrote,
        (false, true) => Judgement::StaleAccepted,
    }
}

pub fn build(p: &RedlockParams) -> (World, Plan) {
    let l = Layout::of(p);
    let nodes: Vec<ActorId> = (0..l.nodes).map(|i| l.node(i)).collect();
    let mut actors = Vec::with_capacity(l.clients + l.nodes + 1);
    for i in 0..l.clients {
        actors.push(Actor::Redlock(RedlockClient::new(RedlockConfig {
            nodes: nodes.clone(),
            resource: l.resource(),
            ttl_ms: p.ttl_ms,
            drift_ms: p.drift_ms(),
            timeout_ms: p.timeout_ms,
            retry_ms: p.retry_ms,
            work_ms: p.work_ms,
            // The write's answer takes a round trip; at least a millisecond, so that with no
            // delay the write still lands before the release.
            write_ms: (2 * p.delay_ms).max(1),
            start_ms: p.start_gap_ms * i as u64,
            release: p.release,
        })));
    }
    for i in 0..l.nodes {
        let jump = (p.jump_node as usize == i + 1).then_some((p.jump_at_ms, p.jump_by_ms));
        actors.push(Actor::Redis(RedisNode::new(p.fsync, jump)));
    }
    actors.push(Actor::Resource(Resource::new(false)));
    let world = World::new(actors, p.delay_ms, p.seed);
    let mut plan = Plan::default();
    for &d in &p.down {
        plan.down_from_start(l.node(d as usize - 1), p.down_until_ms);
    }
    if p.crash_node > 0 {
        let node = l.node(p.crash_node as usize - 1);
        plan.crash_restart(node, p.crash_at_ms, p.restart_after_ms);
    }
    if let Some(c) = p.pause_client {
        plan.freeze(ActorId(c as u8), p.pause_at_ms, p.pause_len_ms);
    }
    (world, plan)
}

/// Runs a Redlock scenario.
pub fn run(p: &RedlockParams) -> Trace {
    let (mut world, plan) = build(p);
    let mut rec = Recorder::with_capacity(512, 512);
    let mut obs = RedlockObserver::new(&world, Layout::of(p), p.quorum());
    run::run(&mut world, &plan, p.duration_ms, &mut rec, &mut obs);
    obs.finish(rec, p.duration_ms)
}

fn client(world: &World, i: usize) -> &RedlockClient {
    world.actors[i].as_redlock().expect("a Redlock client")
}

/// The nodes whose live key carries client `i`'s current value, one bit per node. A crashed
/// node counts only if it synced the key to disk: it will come back with it and refuse everyone
/// else.
fn nodes_holding(world: &World, l: Layout, i: usize) -> u8 {
    let c = client(world, i);
    let mut set = 0u8;
    for n in 0..l.nodes {
        let id = l.node(n);
        let Some(node) = world.actor(id).as_redis() else {
            continue;
        };
        if (!world.status(id).crashed || node.fsync)
            && node
                .live_key(world.now)
                .is_some_and(|k| k.owner == ActorId(i as u8) && k.value == c.value)
        {
            set |= 1 << n;
        }
    }
    set
}

fn lane_state(world: &World, l: Layout, lane: usize) -> SpanState {
    let now = world.now;
    let id = ActorId(lane as u8);
    let status = world.status(id);
    if status.crashed {
        return SpanState::Crashed;
    }
    if lane < l.clients {
        let c = client(world, lane);
        if status.is_frozen() {
            return SpanState::Frozen {
                believes_holding: c.step == RedlockStep::Holding,
            };
        }
        return match c.step {
            RedlockStep::Idle => SpanState::Idle,
            RedlockStep::Acquiring => SpanState::Redlock(RedlockSpan::Acquiring {
                ok: c.ok.count_ones() as u8,
                asked: c.next as u8,
            }),
            RedlockStep::Holding if c.holds_with_validity(now) => {
                SpanState::Redlock(RedlockSpan::Holding {
                    until_ms: c.valid_until.unwrap_or(now),
                })
            }
            RedlockStep::Holding => SpanState::Redlock(RedlockSpan::Overdue),
            RedlockStep::Backoff => SpanState::Redlock(RedlockSpan::Backoff),
            RedlockStep::Released => SpanState::Released,
        };
    }
    if lane < l.clients + l.nodes {
        let node = world.actor(id).as_redis().expect("a node");
        return match node.live_key(now) {
            Some(k) => SpanState::Redlock(RedlockSpan::Key { owner: k.owner }),
            None => SpanState::Free,
        };
    }
    match world.actor(id).as_resource().and_then(|r| r.value) {
        Some((writer, token)) => SpanState::Value { writer, token },
        None => SpanState::Empty,
    }
}

struct RedlockObserver {
    l: Layout,
    quorum: u32,
    lanes: LaneRecorder,
    checks: Vec<InvariantReport>,
    writes: Vec<WriteRecord>,
    acquisitions: Vec<Acquisition>,
    failed_attempts: u32,
    max_holders: u32,
    max_nodes_view: u32,
    two_since: Option<Millis>,
    two_holders_ms: Millis,
    /// Who believed they held at the last step, one bit per client.
    believers: u8,
    foreign_deletes: u32,
    seen_events: usize,
}

impl RedlockObserver {
    fn new(world: &World, l: Layout, quorum: u32) -> Self {
        let mut lanes = LaneRecorder::default();
        for i in 0..=l.clients + l.nodes {
            lanes.add(ActorId(i as u8), 0, lane_state(world, l, i));
        }
        let checks = checks();
        Self {
            l,
            quorum,
            lanes,
            checks,
            writes: Vec::new(),
            acquisitions: Vec::new(),
            failed_attempts: 0,
            max_holders: 0,
            max_nodes_view: 0,
            two_since: None,
            two_holders_ms: 0,
            believers: 0,
            foreign_deletes: 0,
            seen_events: 0,
        }
    }

    fn check(&mut self, name: Invariant, at: Millis, detail: impl FnOnce() -> String) {
        InvariantReport::record_named(&mut self.checks, name, at, detail);
    }

    /// Reads the events of the last step: acquisitions, deletions, writes.
    fn events(&mut self, world: &World, rec: &Recorder) {
        let now = world.now;
        let l = self.l;
        for e in &rec.events[self.seen_events..] {
            let who = e.actor.0 as usize;
            match &e.kind {
                EventKind::Redlock(RedlockEvent::Acquired {
                    ok,
                    ttl_ms,
                    elapsed_ms,
                    drift_ms,
                    validity_ms,
                    valid_until_ms,
                }) => {
                    let name = REDLOCK_CLIENTS[who];
                    let first = self.acquisitions.first().map(|a| a.client.clone());
                    self.acquisitions.push(Acquisition {
                        client: name.into(),
                        started_ms: client(world, who).started_ms,
                        acquired_ms: e.at_ms,
                        ok_nodes: ok
                            .iter()
                            .map(|n| REDLOCK_NODES[n.0 as usize - l.clients].to_string())
                            .collect(),
                        ttl_ms: *ttl_ms,
                        elapsed_ms: *elapsed_ms,
                        drift_ms: *drift_ms,
                        validity_ms: *validity_ms,
                        valid_until_ms: *valid_until_ms,
                    });
                    self.check(invariant::MAJORITY_ACQUIRED, e.at_ms, || {
                        format!("{name} acquired a majority")
                    });
                    if first.is_some_and(|f| f != name) {
                        self.check(invariant::SUCCESSOR_GRANTED, e.at_ms, || {
                            format!("{name} acquired after another client")
                        });
                    }
                }
                EventKind::Redlock(RedlockEvent::AttemptFailed { .. }) => self.failed_attempts += 1,
                EventKind::Redlock(RedlockEvent::ReleaseSent { .. })
                    if who < l.clients && client(world, who).step == RedlockStep::Released =>
                {
                    let name = REDLOCK_CLIENTS[who];
                    self.check(invariant::HOLDER_RELEASED, e.at_ms, || {
                        format!("{name} released")
                    });
                }
                EventKind::Redlock(RedlockEvent::KeyDeleted { owner, by, .. }) if owner != by => {
                    self.foreign_deletes += 1;
                    let (o, b) = (
                        REDLOCK_CLIENTS[owner.0 as usize],
                        REDLOCK_CLIENTS[by.0 as usize],
                    );
                    let node = REDLOCK_NODES[who - l.clients];
                    self.check(invariant::RELEASES_OWN_KEY_ONLY, e.at_ms, || {
                        format!("{b} deleted {o}'s key on {node}")
                    });
                }
                EventKind::WriteArrived {
                    writer,
                    token,
                    accepted,
                    last_seen_before,
                    fencing,
                } => {
                    let w = writer.0 as usize;
                    let fresh = client(world, w).holds_with_validity(now)
                        && nodes_holding(world, l, w).count_ones() >= self.quorum;
                    let replaced = self
                        .writes
                        .iter()
                        .rev()
                        .find(|x| x.accepted)
                        .map(|x| (x.writer, x.token));
                    let judgement = judge(fresh, *accepted, *writer, replaced.map(|(r, _)| r));
                    if !fresh && *accepted {
                        let name = REDLOCK_CLIENTS[w];
                        self.check(invariant::NO_STALE_WRITE_ACCEPTED, e.at_ms, || {
                            format!("{name}'s write was accepted after it had lost the lock")
                        });
                    }
                    self.writes.push(WriteRecord {
                        at_ms: e.at_ms,
                        writer: *writer,
                        token: *token,
                        accepted: *accepted,
                        last_seen_before: *last_seen_before,
                        last_seen_after: (*last_seen_before).max(*token),
                        fencing: *fencing,
                        judgement,
                        replaced: replaced.filter(|_| *accepted),
                    });
                }
                _ => {}
            }
        }
        self.seen_events = rec.events.len();
    }

    /// Counts holders both ways and checks that every believer still has its majority. Runs
    /// after every step, so it works on bit sets and allocates only to word a failure.
    fn holders(&mut self, world: &World) {
        let now = world.now;
        let l = self.l;
        let mut believers = 0u8;
        let mut nodes_view = 0u32;
        let mut backed = [0u8; REDLOCK_CLIENTS.len()];
        for (i, b) in backed.iter_mut().enumerate().take(l.clients) {
            if client(world, i).holds_with_validity(now) {
                believers |= 1 << i;
            }
            *b = nodes_holding(world, l, i);
            if b.count_ones() >= self.quorum {
                nodes_view += 1;
            }
        }
        self.max_nodes_view = self.max_nodes_view.max(nodes_view);
        self.max_holders = self.max_holders.max(believers.count_ones());
        let names = |set: u8| -> Vec<&'static str> {
            (0..l.clients)
                .filter(|i| set & (1 << i) != 0)
                .map(|i| REDLOCK_CLIENTS[i])
                .collect()
        };
        if believers.count_ones() >= 2 {
            self.two_since.get_or_insert(now);
            self.check(invariant::ONE_HOLDER, now, || {
                format!("{} all believe they hold", names(believers).join(", "))
            });
        } else if let Some(since) = self.two_since.take() {
            // A validity can lapse while its client is frozen, with no step at that instant:
            // the overlap ended when the second-to-last believer's validity did.
            let mut dropped = [now; REDLOCK_CLIENTS.len()];
            let mut n = 0;
            for i in (0..l.clients).filter(|i| self.believers & !believers & (1 << i) != 0) {
                let c = client(world, i);
                dropped[n] = match c.valid_until {
                    Some(v) if c.step == RedlockStep::Holding && v <= now => v,
                    _ => now,
                };
                n += 1;
            }
            dropped[..n].sort_unstable();
            let k = self.believers.count_ones() as usize;
            let end = dropped[..n]
                .get(k.saturating_sub(2))
                .copied()
                .unwrap_or(now);
            self.two_holders_ms += end.max(since) - since;
        }
        self.believers = believers;
        for i in (0..l.clients).filter(|i| believers & (1 << i) != 0) {
            let held = backed[i];
            if held.count_ones() < self.quorum {
                let quorum = self.quorum;
                self.check(invariant::HOLDER_HAS_MAJORITY, now, || {
                    let on: Vec<&str> = (0..l.nodes)
                        .filter(|n| held & (1 << n) != 0)
                        .map(|n| REDLOCK_NODES[n])
                        .collect();
                    format!(
                        "{} believes it holds, but only {} of the {quorum} needed hold its key ({})",
                        REDLOCK_CLIENTS[i],
                        on.len(),
                        if on.is_empty() { "none".to_string() } else { on.join(", ") }
                    )
                });
            }
        }
    }

    fn finish(mut self, mut rec: Recorder, end: Millis) -> Trace {
        if let Some(since) = self.two_since.take() {
            self.two_holders_ms += end.saturating_sub(since);
        }
        let l = self.l;
        rec.event(end, l.resource(), EventKind::RunEnded);
        let moments = super::moments::moments(&rec, &self.writes, &self.checks);
        let actors = actors(l.clients, l.nodes);
        let Outcome {
            stale,
            final_value,
            violations,
        } = outcome(&self.writes, &self.checks);
        Trace {
            schema_version: crate::engine::trace::SCHEMA_VERSION,
            family: Family::Redlock,
            end_ms: end,
            actors,
            nodes: Vec::new(),
            events: rec.events,
            messages: rec.messages,
            lanes: self.lanes.finish(end),
            service: Vec::new(),
            writes: self.writes,
            windows: Vec::new(),
            moments,
            metrics: Metrics::Redlock(RedlockMetrics {
                quorum: self.quorum,
                validity_ms: self.acquisitions.first().map(|a| a.validity_ms),
                acquisitions: self.acquisitions,
                failed_attempts: self.failed_attempts,
                max_holders: self.max_holders,
                max_holders_nodes_view: self.max_nodes_view,
                two_holders_ms: self.two_holders_ms,
                stale_writes_accepted: stale,
                foreign_deletes: self.foreign_deletes,
                final_value,
                violations,
            }),
            invariants: self.checks,
        }
    }
}

impl Observer for RedlockObserver {
    fn observe(&mut self, world: &World, rec: &mut Recorder) {
        self.events(world, rec);
        self.holders(world);
        // A step can change a client (its own handler) and the nodes' keys can lapse with time,
        // so every lane is looked at; there are at most a dozen.
        for i in 0..=self.l.clients + self.l.nodes {
            self.lanes.set(i, world.now, lane_state(world, self.l, i));
        }
    }
}

/// The Redlock metrics of a trace, if it is one.
pub fn metrics(trace: &Trace) -> Option<&RedlockMetrics> {
    match &trace.metrics {
        Metrics::Redlock(m) => Some(m),
        _ => None,
    }
}
