//! etcd's lease lock: clients running `concurrency.Mutex` on a session's lease against one
//! leader, and the data they write (a resource outside etcd, or a key in it behind a Txn).
//!
//! The worked example (TTL 6 s, 10 ms each way): A opens its session at 0, the leader grants at
//! 10 and A's first keep-alive, sent at 20, refreshes the lease at 30 to expire at 6,030. A
//! answers come back at 40: the next is due a third of the TTL later, at 2,040, and the library's
//! 500 ms loop sends it at 2,520. If A freezes at 1,500, no keep-alive leaves: the lease expires at
//! 6,030 and the leader's revoke loop, which runs every 500 ms, revokes it at 6,500, deleting A's
//! key at a new revision; B's watch on that key (and only B's) fires.

use crate::engine::actors::etcd_client::{EtcdClient, EtcdClientConfig, EtcdStep};
use crate::engine::actors::etcd_leader::EtcdLeader;
use crate::engine::actors::{Actor, Resource};
use crate::engine::params::{ETCD_CLIENTS, EtcdParams};
use crate::engine::time::Millis;
use crate::engine::trace::etcd::{EtcdEvent, EtcdMetrics, Guard, protocol::granted_ttl_s};
use crate::engine::trace::lane::LaneRecorder;
use crate::engine::trace::record::Recorder;
use crate::engine::trace::{
    ActorInfo, EventKind, InvariantReport, Metrics, Role, SpanState, Trace, invariant,
};

use super::etcd_facts::{ClientStep, Ledger, RunEnd, client_span, data_span, prefix_span};
use crate::engine::world::run::{self, Observer, Plan};
use crate::engine::world::{ActorId, World};

/// Where everyone sits: the clients, then the leader, then the data.
#[derive(Debug, Clone, Copy)]
struct Layout {
    clients: usize,
}

impl Layout {
    fn leader(self) -> ActorId {
        ActorId(self.clients as u8)
    }
    fn data(self) -> ActorId {
        ActorId(self.clients as u8 + 1)
    }
}

/// The properties every etcd run is checked against, the model's and a live one's.
pub fn checks() -> Vec<InvariantReport> {
    vec![
        InvariantReport::always(invariant::ONE_HOLDER),
        InvariantReport::always(invariant::NO_STALE_WRITE_ACCEPTED),
        InvariantReport::always(invariant::ONE_WATCHER_PER_DELETE),
        InvariantReport::sometimes(invariant::SUCCESSOR_GRANTED),
        InvariantReport::sometimes(invariant::HOLDER_RELEASED),
    ]
}

/// Who is in a run: the clients (A, B, ...), then etcd, then the data (a resource outside etcd,
/// or the data key in it).
pub fn actors(clients: usize, guard: Guard) -> Vec<ActorInfo> {
    let l = Layout { clients };
    let mut actors: Vec<ActorInfo> = (0..clients)
        .map(|i| ActorInfo {
            id: ActorId(i as u8),
            name: ETCD_CLIENTS[i].into(),
            role: Role::Client,
        })
        .collect();
    actors.push(ActorInfo {
        id: l.leader(),
        name: "etcd".into(),
        role: Role::Coordinator,
    });
    actors.push(ActorInfo {
        id: l.data(),
        name: match guard {
            Guard::Txn => "data key",
            _ => "resource",
        }
        .into(),
        role: Role::Resource,
    });
    actors
}

pub fn build(p: &EtcdParams) -> (World, Plan) {
    let l = Layout {
        clients: p.clients as usize,
    };
    let mut actors = Vec::with_capacity(l.clients + 2);
    for i in 0..l.clients {
        actors.push(Actor::EtcdClient(EtcdClient::new(EtcdClientConfig {
            etcd: l.leader(),
            resource: l.data(),
            ttl_s: p.ttl_s,
            start_ms: p.start_gap_ms * i as u64,
            work_ms: p.work_ms,
            write_every_ms: p.write_every_ms,
            // A write's round trip, at least a millisecond, so the last write lands before the
            // release even with no delay.
            write_ms: (2 * p.delay_ms).max(1),
            guard: p.guard,
            on_lost: p.on_lost,
        })));
    }
    actors.push(Actor::EtcdLeader(EtcdLeader::with_lessor_phase(
        p.lessor_phase_ms,
    )));
    actors.push(Actor::Resource(Resource::new(p.guard == Guard::Token)));
    let mut world = World::new(actors, p.delay_ms, 0);
    for i in 0..l.clients {
        world.link(ActorId(i as u8), l.leader());
    }
    let mut plan = Plan::default();
    if let Some(c) = p.pause_client {
        plan.freeze(ActorId(c as u8), p.pause_at_ms, p.pause_len_ms);
    }
    if let Some(c) = p.cut_client {
        plan.cut(ActorId(c as u8), p.cut_at_ms, p.cut_len_ms);
    }
    (world, plan)
}

/// Runs an etcd scenario.
pub fn run(p: &EtcdParams) -> Trace {
    let (mut world, plan) = build(p);
    let l = Layout {
        clients: p.clients as usize,
    };
    let mut rec = Recorder::with_capacity(512, 512);
    let mut obs = EtcdObserver::new(&world, l, p.guard);
    run::run(&mut world, &plan, p.duration_ms, &mut rec, &mut obs);
    obs.finish(rec, p)
}

fn client(world: &World, i: usize) -> &EtcdClient {
    world.actors[i].as_etcd_client().expect("an etcd client")
}

fn leader(world: &World, l: Layout) -> &EtcdLeader {
    world
        .actor(l.leader())
        .as_etcd_leader()
        .expect("the etcd leader")
}

/// Whether client `i` acts as the holder and its key is still there on the leader.
fn holds_on_leader(world: &World, l: Layout, i: usize) -> bool {
    let c = client(world, i);
    c.step == EtcdStep::Holding && leader(world, l).has_key(ActorId(i as u8), c.my_rev)
}

fn client_step(c: &EtcdClient) -> ClientStep {
    match c.step {
        EtcdStep::Idle => ClientStep::Idle,
        EtcdStep::Granting | EtcdStep::Locking => ClientStep::Opening,
        EtcdStep::Reading | EtcdStep::Waiting => match c.ahead {
            Some((owner, create_rev)) => ClientStep::Waiting { owner, create_rev },
            None => ClientStep::Opening,
        },
        EtcdStep::Holding => ClientStep::Holding { token: c.my_rev },
        EtcdStep::Lost => ClientStep::Lost,
        EtcdStep::Released => ClientStep::Released,
    }
}

fn lane_state(world: &World, l: Layout, guard: Guard, lane: usize) -> SpanState {
    let id = ActorId(lane as u8);
    if lane < l.clients {
        let c = client(world, lane);
        let on_leader = leader(world, l).has_key(id, c.my_rev);
        return client_span(client_step(c), world.status(id).is_frozen(), on_leader);
    }
    if id == l.leader() {
        let s = leader(world, l);
        let holder = s.holder().map(|k| (k.owner, k.create_rev));
        return prefix_span(holder, s.keys.len());
    }
    data_span(match guard {
        Guard::Txn => leader(world, l).data.map(|(w, t, _)| (w, t)),
        _ => world.actor(id).as_resource().and_then(|r| r.value),
    })
}

struct EtcdObserver {
    l: Layout,
    guard: Guard,
    lanes: LaneRecorder,
    ledger: Ledger,
    /// The store's revision after the last step.
    revision: u64,
    seen_events: usize,
}

impl EtcdObserver {
    fn new(world: &World, l: Layout, guard: Guard) -> Self {
        let mut lanes = LaneRecorder::default();
        for i in 0..l.clients + 2 {
            lanes.add(ActorId(i as u8), 0, lane_state(world, l, guard, i));
        }
        Self {
            l,
            guard,
            lanes,
            ledger: Ledger::new(guard),
            revision: leader(world, l).revision,
            seen_events: 0,
        }
    }

    /// Records a write as it reaches the data, judged against the leader's keys at that step.
    fn write(&mut self, world: &World, at: Millis, writer: ActorId, token: u64, accepted: bool) {
        let on_leader = leader(world, self.l).has_key(writer, token);
        self.ledger.write(at, writer, token, accepted, on_leader);
    }

    fn events(&mut self, world: &World, rec: &Recorder) {
        for i in self.seen_events..rec.events.len() {
            let e = &rec.events[i];
            let (at, who) = (e.at_ms, e.actor);
            match e.kind.clone() {
                EventKind::Etcd(EtcdEvent::Locked { token }) => {
                    let lease = client(world, who.0 as usize).lease.unwrap_or(0);
                    self.ledger.locked(at, who.0 as usize, lease, token);
                }
                EventKind::Etcd(EtcdEvent::KeyDeleted {
                    create_rev,
                    cause,
                    notified,
                    ..
                }) => self
                    .ledger
                    .key_deleted(at, create_rev, cause, notified.len()),
                EventKind::Etcd(EtcdEvent::LeaseExpired { .. }) => self.ledger.lease_expired(at),
                EventKind::Etcd(EtcdEvent::UnlockSent { .. }) => {
                    self.ledger.unlocked(at, who.0 as usize)
                }
                EventKind::Etcd(
                    EtcdEvent::SessionDone { .. } | EtcdEvent::KeepAliveNotFound { .. },
                ) => self.ledger.session_ended(at),
                EventKind::WriteArrived {
                    writer,
                    token,
                    accepted,
                    ..
                } => self.write(world, at, writer, token, accepted),
                EventKind::Etcd(EtcdEvent::DataTxn {
                    writer,
                    token,
                    succeeded,
                    ..
                }) => self.write(world, at, writer, token, succeeded),
                _ => {}
            }
        }
        self.seen_events = rec.events.len();
    }

    fn holders(&mut self, world: &World) {
        let l = self.l;
        let on_leader = (0..l.clients)
            .filter(|&i| holds_on_leader(world, l, i))
            .count();
        let unaware = (0..l.clients)
            .any(|i| client(world, i).step == EtcdStep::Holding && !holds_on_leader(world, l, i));
        self.ledger.holders(world.now, on_leader, unaware);
    }

    fn finish(self, rec: Recorder, p: &EtcdParams) -> Trace {
        self.ledger.finish(
            rec,
            self.lanes,
            RunEnd {
                end: p.duration_ms,
                clients: self.l.clients,
                ttl_s: granted_ttl_s(p.ttl_s),
                revision: self.revision,
            },
        )
    }
}

impl Observer for EtcdObserver {
    fn observe(&mut self, world: &World, rec: &mut Recorder) {
        self.events(world, rec);
        self.holders(world);
        for i in 0..self.l.clients + 2 {
            self.lanes
                .set(i, world.now, lane_state(world, self.l, self.guard, i));
        }
        self.revision = leader(world, self.l).revision;
    }
}

/// The etcd metrics of a trace, if it is one.
pub fn metrics(trace: &Trace) -> Option<&EtcdMetrics> {
    match &trace.metrics {
        Metrics::Etcd(m) => Some(m),
        _ => None,
    }
}
