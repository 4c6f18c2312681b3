//! The frozen holder: a lease that expires while its holder is frozen in a GC pause.
//!
//! A holds the lease (token 1) and needs 24 s of its own running time; B asks for the lock every
//! second and writes 2 s after it learns it holds it. The rules are listed in
//! docs/src/model/frozen.md so that any picture can be checked by hand.

use crate::engine::actors::{Actor, LeaseHolder, LeaseSeeker, LeaseService, Resource};
use crate::engine::invariants;
use crate::engine::params::FrozenParams;
use crate::engine::params::frozen_fixed::{RETRY_MS, RUN_MS, WORK_MS, WRITE_AFTER_MS};
use crate::engine::time::{Millis, to_secs};
use crate::engine::trace::Invariant;
use crate::engine::trace::lane::LaneRecorder;
use crate::engine::trace::record::Recorder;
use crate::engine::trace::{
    ActorInfo, EventKind, Family, FrozenMetrics, InvariantReport, Metrics, Role, SpanState, Trace,
    Verdict, Window, WindowKind, WriteRecord, invariant,
};
use crate::engine::world::run::{self, Observer, Plan};
use crate::engine::world::{ActorId, World};

pub const A: ActorId = ActorId(0);
pub const SERVICE: ActorId = ActorId(1);
pub const B: ActorId = ActorId(2);
pub const RESOURCE: ActorId = ActorId(3);

pub fn build(p: &FrozenParams) -> (World, Plan) {
    let actors = vec![
        Actor::Holder(LeaseHolder::new(
            SERVICE,
            RESOURCE,
            p.keepalive_ms,
            WORK_MS,
            p.stop_on_loss,
        )),
        Actor::Lease(LeaseService::held_by(A, p.ttl_ms)),
        Actor::Seeker(LeaseSeeker::new(
            SERVICE,
            RESOURCE,
            RETRY_MS,
            WRITE_AFTER_MS,
        )),
        Actor::Resource(Resource::new(p.fencing)),
    ];
    let world = World::new(actors, p.delay_ms, 0);
    let mut plan = Plan::default();
    plan.freeze(A, p.pause_start_ms, p.pause_len_ms);
    (world, plan)
}

/// Runs the frozen-holder scenario.
pub fn run(p: &FrozenParams) -> Trace {
    let (mut world, plan) = build(p);
    let mut rec = Recorder::with_capacity(128, 160);
    let mut obs = FrozenObserver::new(&world);
    run::run(&mut world, &plan, RUN_MS, &mut rec, &mut obs);
    obs.finish(p, rec)
}

struct FrozenObserver {
    lanes: LaneRecorder,
    writes: Vec<WriteRecord>,
    checks: Vec<InvariantReport>,
    lease_expiry: Option<Millis>,
    seen: usize,
}

fn lane_state(world: &World, i: usize) -> SpanState {
    let id = ActorId(i as u8);
    match world.actor(id) {
        Actor::Holder(a) => {
            let believes = !a.released && !a.learned_lost;
            if world.status(id).is_frozen() {
                SpanState::Frozen {
                    believes_holding: believes,
                }
            } else if a.released {
                SpanState::Released
            } else if a.learned_lost {
                SpanState::Lost
            } else {
                SpanState::Holding { token: a.token }
            }
        }
        Actor::Lease(s) => match s.lease {
            Some(l) => SpanState::Leased {
                holder: l.holder,
                token: l.token,
            },
            None => SpanState::Free,
        },
        Actor::Seeker(b) => match b.token {
            Some(token) => SpanState::Holding { token },
            None => SpanState::Retrying,
        },
        Actor::Resource(r) => match r.value {
            Some((writer, token)) => SpanState::Value { writer, token },
            None => SpanState::Empty,
        },
        _ => SpanState::Idle,
    }
}

impl FrozenObserver {
    fn new(world: &World) -> Self {
        let mut lanes = LaneRecorder::default();
        for i in 0..world.actors.len() {
            lanes.add(ActorId(i as u8), 0, lane_state(world, i));
        }
        Self {
            lanes,
            writes: Vec::new(),
            checks: vec![
                InvariantReport::always(invariant::ONE_HOLDER),
                InvariantReport::always(invariant::TOKENS_NON_DECREASING),
                InvariantReport::sometimes(invariant::SUCCESSOR_GRANTED),
                InvariantReport::sometimes(invariant::STALE_WRITE_ARRIVED),
            ],
            lease_expiry: None,
            seen: 0,
        }
    }

    fn check(&mut self, name: Invariant, at: Millis, detail: impl FnOnce() -> String) {
        InvariantReport::record_named(&mut self.checks, name, at, detail);
    }

    fn finish(self, p: &FrozenParams, mut rec: Recorder) -> Trace {
        let find = |f: &dyn Fn(&EventKind) -> bool| rec.events.iter().find(|e| f(&e.kind));
        let successor_acquire =
            find(&|k| matches!(k, EventKind::LeaseGranted { holder, .. } if *holder == B))
                .map(|e| e.at_ms);
        let a_at = self.writes.iter().position(|w| w.writer == A);
        let a_write = a_at.map(|i| self.writes[i].clone());
        // Order in the write log, not the millisecond: two writes can arrive in the same one, and
        // A's overwrites B's only if B's was applied first.
        let b_applied_before_a =
            a_at.is_some_and(|i| self.writes[..i].iter().any(|w| w.writer == B && w.accepted));
        let abandoned = find(&|k| *k == EventKind::WriteAbandoned).is_some();
        let expiry = self.lease_expiry;
        let verdict = if abandoned {
            Verdict::HolderStopped
        } else {
            match &a_write {
                Some(w) if expiry.is_none_or(|e| w.at_ms < e) => Verdict::NoIncident,
                Some(w) if !w.accepted => Verdict::StaleWriteRejected,
                Some(_) if b_applied_before_a => Verdict::Corruption,
                Some(_) => Verdict::StaleWriteAccepted,
                None if expiry.is_none() => Verdict::NoIncident,
                None => Verdict::Unresolved,
            }
        };
        let last_keepalive_before_pause = rec
            .events
            .iter()
            .rev()
            .filter(|e| {
                e.actor == A
                    && matches!(e.kind, EventKind::KeepaliveSent { .. })
                    && (p.pause_len_ms == 0 || e.at_ms < p.pause_start_ms)
            })
            .map(|e| e.at_ms)
            .next();
        let arrival = a_write.as_ref().map(|w| w.at_ms);
        let mut windows = Vec::new();
        if let (Some(from), Some(to)) = (expiry, arrival)
            && to > from
        {
            windows.push(Window {
                kind: WindowKind::Danger,
                from_ms: from,
                to_ms: to,
            });
        }
        let (final_value, last_seen_token) = {
            let last = self.writes.iter().rev().find(|w| w.accepted);
            let seen = self
                .writes
                .iter()
                .filter(|w| w.accepted)
                .map(|w| w.token)
                .max()
                .unwrap_or(0);
            (last.map(|w| NAMES[w.writer.0 as usize].to_string()), seen)
        };
        let metrics = FrozenMetrics {
            lease_expiry: expiry.map(to_secs),
            successor_acquire: successor_acquire.map(to_secs),
            handover_delay: expiry
                .zip(successor_acquire)
                .map(|(e, a)| to_secs(a.saturating_sub(e))),
            holder_write_arrival: arrival.map(to_secs),
            holder_write_accepted: a_write.as_ref().map(|w| w.accepted),
            danger_window: expiry
                .zip(arrival)
                .map(|(e, w)| to_secs(w.saturating_sub(e)))
                .unwrap_or(0.0),
            verdict,
            final_value,
            last_seen_token,
            last_keepalive_before_pause: last_keepalive_before_pause.map(to_secs),
        };
        rec.event(RUN_MS, SERVICE, EventKind::RunEnded);
        let moments = super::moments::moments(&rec, &self.writes, &self.checks);
        Trace {
            schema_version: crate::engine::trace::SCHEMA_VERSION,
            family: Family::Frozen,
            end_ms: RUN_MS,
            actors: actors(),
            nodes: Vec::new(),
            events: rec.events,
            messages: rec.messages,
            lanes: self.lanes.finish(RUN_MS),
            service: Vec::new(),
            writes: self.writes,
            windows,
            moments,
            metrics: Metrics::Frozen(metrics),
            invariants: self.checks,
        }
    }
}

const NAMES: [&str; 4] = ["A", "service", "B", "resource"];

pub fn actors() -> Vec<ActorInfo> {
    let roles = [
        Role::Client,
        Role::LeaseService,
        Role::Client,
        Role::Resource,
    ];
    ActorInfo::in_order(NAMES.into_iter().zip(roles))
}

impl Observer for FrozenObserver {
    fn observe(&mut self, world: &World, rec: &mut Recorder) {
        let now = world.now;
        for e in &rec.events[self.seen..] {
            match e.kind {
                EventKind::LeaseExpired { holder } if holder == A => {
                    self.lease_expiry.get_or_insert(e.at_ms);
                }
                EventKind::LeaseGranted { holder, .. } if holder == B => {
                    self.check(invariant::SUCCESSOR_GRANTED, e.at_ms, || {
                        "B was granted the lock".into()
                    });
                }
                EventKind::WriteArrived { writer, .. } => {
                    // A's write is stale once its lease has expired, whatever A believes.
                    let stale = writer == A && self.lease_expiry.is_some_and(|x| x <= e.at_ms);
                    if stale {
                        self.check(invariant::STALE_WRITE_ARRIVED, e.at_ms, || {
                            "A's write arrived after its lease expired".into()
                        });
                    }
                    let last_seen_after = world
                        .actor(RESOURCE)
                        .as_resource()
                        .map_or(0, |r| r.last_seen_token);
                    self.writes.extend(WriteRecord::judged(
                        e.at_ms,
                        &e.kind,
                        last_seen_after,
                        stale,
                        &self.writes,
                    ));
                }
                _ => {}
            }
        }
        self.seen = rec.events.len();
        let live = match world.actor(SERVICE) {
            Actor::Lease(s) => usize::from(s.lease.is_some()),
            _ => 0,
        };
        if live > 1 {
            self.check(invariant::ONE_HOLDER, now, || {
                "two live leases on one lock".into()
            });
        }
        if invariants::tokens_went_backwards(world, RESOURCE) {
            let w = self.writes.last().cloned();
            self.check(invariant::TOKENS_NON_DECREASING, now, || match w {
                Some(w) => format!(
                    "{}'s token {} was accepted after a larger one",
                    NAMES[w.writer.0 as usize], w.token
                ),
                None => "an accepted token went down".into(),
            });
        }
        // Each lane here depends only on its own actor.
        if let Some(a) = world.touched.0 {
            let i = a.0 as usize;
            self.lanes.set(i, now, lane_state(world, i));
        }
    }
}

/// The frozen-holder metrics of a trace, if it is one.
pub fn metrics(trace: &Trace) -> Option<&FrozenMetrics> {
    match &trace.metrics {
        Metrics::Frozen(m) => Some(m),
        _ => None,
    }
}
