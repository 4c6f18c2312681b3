//! Snowflake-style IDs: generators with their own clocks, worker ids and sequences, and the
//! four ways the same ID comes out twice: a restart within the same millisecond, a clock
//! stepped back, two processes with one worker id, and a sequence that wraps within one
//! millisecond. Every ID is in the trace with its fields, and every collision with both issuers.

use crate::engine::trace::Invariant;
use std::collections::BTreeMap;

use crate::engine::actors::Actor;
use crate::engine::actors::id_generator::{GenConfig, GenView, IdGenerator};
use crate::engine::actors::worker_registry::WorkerRegistry;
use crate::engine::params::{GENERATORS, SnowflakeParams};
use crate::engine::time::Millis;
use crate::engine::trace::lane::LaneRecorder;
use crate::engine::trace::record::Recorder;
use crate::engine::trace::snowflake::{
    Collision, IdEvent, IdRecord, IdSpan, LayoutFacts, SnowflakeMetrics,
};
use crate::engine::trace::{
    ActorInfo, EventKind, Family, InvariantReport, Metrics, Role, SpanState, Trace, invariant,
};
use crate::engine::world::run::{self, Observer, Plan};
use crate::engine::world::{ActorId, World};

pub fn build(p: &SnowflakeParams) -> (World, Plan) {
    let n = p.workers.len();
    let registry = p.worker_leases.then_some(ActorId(n as u8));
    let mut actors: Vec<Actor> = p
        .workers
        .iter()
        .enumerate()
        .map(|(i, &worker)| {
            Actor::IdGen(IdGenerator::new(GenConfig {
                worker,
                layout: p.layout,
                clock_start: p.clock_start,
                rate: p.rate,
                burst: (i == 0 && p.burst > 0).then_some((p.burst_at_ms, p.burst)),
                stop_ms: p.duration_ms,
                rollback: (p.rollback_ms > 0 && p.rollback_generator as usize == i + 1)
                    .then_some((p.rollback_at_ms, p.rollback_ms)),
                wait_on_start: p.wait_on_start,
                on_rollback: p.on_rollback,
                on_exhaustion: p.on_exhaustion,
                registry,
            }))
        })
        .collect();
    if registry.is_some() {
        actors.push(Actor::Registry(WorkerRegistry::default()));
    }
    let world = World::new(actors, p.delay_ms, 0);
    let mut plan = Plan::default();
    if p.crash_generator > 0 {
        let g = ActorId(p.crash_generator as u8 - 1);
        plan.crash_restart(g, p.crash_at_ms, p.restart_after_ms);
    }
    (world, plan)
}

/// Runs a Snowflake scenario.
pub fn run(p: &SnowflakeParams) -> Trace {
    let (mut world, plan) = build(p);
    let mut rec = Recorder::with_capacity(256, 16);
    let mut obs = IdObserver::new(&world, p);
    run::run(&mut world, &plan, p.duration_ms, &mut rec, &mut obs);
    obs.finish(&world, rec, p)
}

fn generator(world: &World, i: usize) -> &IdGenerator {
    world.actors[i].as_id_gen().expect("an ID generator")
}

struct IdObserver {
    n: usize,
    lanes: LaneRecorder,
    checks: Vec<InvariantReport>,
    ids: Vec<IdRecord>,
    /// Every ID issued so far: who issued it first, and when.
    seen: BTreeMap<u64, (ActorId, Millis)>,
    collisions: Vec<Collision>,
    /// Each generator's last ID, for the check that its IDs only grow.
    last_id: Vec<Option<u64>>,
    /// When each generator last issued a duplicate, to mark its lane.
    dup_at: Vec<Option<Millis>>,
    max_wait_ms: Millis,
    waited: u32,
    refused: u32,
    seen_events: usize,
}

fn lane_state(world: &World, i: usize, dup_at: Option<Millis>) -> SpanState {
    if world.status(ActorId(i as u8)).crashed {
        return SpanState::Crashed;
    }
    let g = generator(world, i);
    match g.view {
        GenView::Idle => SpanState::Idle,
        GenView::Issued {
            time,
            first,
            last,
            count,
            held,
        } => SpanState::Snowflake(IdSpan::Issued {
            time,
            worker: g.cfg.worker,
            first,
            last,
            count,
            held,
            duplicate: dup_at == Some(world.now),
        }),
        GenView::Waiting(reason) => SpanState::Snowflake(IdSpan::Waiting { reason }),
        GenView::Refusing(reason) => SpanState::Snowflake(IdSpan::Refusing { reason }),
    }
}

impl IdObserver {
    fn new(world: &World, p: &SnowflakeParams) -> Self {
        let n = p.workers.len();
        let mut lanes = LaneRecorder::default();
        for i in 0..n {
            lanes.add(ActorId(i as u8), 0, lane_state(world, i, None));
        }
        Self {
            n,
            lanes,
            checks: vec![
                InvariantReport::always(invariant::UNIQUE_IDS),
                InvariantReport::always(invariant::IDS_INCREASE),
                InvariantReport::sometimes(invariant::ID_ISSUED),
                InvariantReport::sometimes(invariant::REQUEST_WAITED),
            ],
            ids: Vec::new(),
            seen: BTreeMap::new(),
            collisions: Vec::new(),
            last_id: vec![None; n],
            dup_at: vec![None; n],
            max_wait_ms: 0,
            waited: 0,
            refused: 0,
            seen_events: 0,
        }
    }

    fn check(&mut self, name: Invariant, at: Millis, detail: impl FnOnce() -> String) {
        InvariantReport::record_named(&mut self.checks, name, at, detail);
    }

    /// One issued ID: recorded, compared with every earlier one and with its issuer's last.
    fn issued(&mut self, at: Millis, g: ActorId, e: &IdEvent) -> Option<IdEvent> {
        let IdEvent::Issued {
            id,
            time,
            worker,
            sequence,
            waited_ms,
            ..
        } = *e
        else {
            return None;
        };
        let name = GENERATORS[g.0 as usize];
        let first = self.seen.get(&id).copied();
        self.ids.push(IdRecord {
            at_ms: at,
            generator: g,
            id,
            time,
            worker,
            sequence,
            waited_ms,
            duplicate: first.is_some(),
        });
        self.check(invariant::ID_ISSUED, at, || format!("{name} issued {id}"));
        if waited_ms > 0 {
            self.waited += 1;
            self.max_wait_ms = self.max_wait_ms.max(waited_ms);
            self.check(invariant::REQUEST_WAITED, at, || {
                format!("a request to {name} waited {waited_ms} ms")
            });
        }
        let last = self.last_id[g.0 as usize].replace(id);
        if let Some(last) = last
            && id <= last
        {
            self.check(invariant::IDS_INCREASE, at, || {
                format!("{name} issued {id} after {last}")
            });
        }
        let Some((first, first_at_ms)) = first else {
            self.seen.insert(id, (g, at));
            return None;
        };
        self.dup_at[g.0 as usize] = Some(at);
        self.collisions.push(Collision {
            id,
            time,
            worker,
            sequence,
            first,
            first_at_ms,
            again: g,
            again_at_ms: at,
        });
        let before = GENERATORS[first.0 as usize];
        self.check(invariant::UNIQUE_IDS, at, || {
            format!("{name} issued {time}|{worker}|{sequence} = {id}, which {before} issued at {first_at_ms} ms")
        });
        Some(IdEvent::Collision {
            id,
            first,
            first_at_ms,
        })
    }

    fn finish(self, world: &World, mut rec: Recorder, p: &SnowflakeParams) -> Trace {
        let end = p.duration_ms;
        let n = self.n;
        rec.event(end, ActorId(0), EventKind::RunEnded);
        let moments = super::moments::moments(&rec, &[], &self.checks);
        let mut actors: Vec<ActorInfo> = (0..n)
            .map(|i| ActorInfo {
                id: ActorId(i as u8),
                name: GENERATORS[i].into(),
                role: Role::Client,
            })
            .collect();
        if p.worker_leases {
            actors.push(ActorInfo {
                id: ActorId(n as u8),
                name: "registry".into(),
                role: Role::Coordinator,
            });
        }
        let live = || (0..n).filter(|&i| !world.status(ActorId(i as u8)).crashed);
        let pending_at_end = live()
            .map(|i| generator(world, i).pending.len() as u32)
            .sum();
        // A request still waiting when the run ends has waited until the end.
        let still_waiting = live()
            .filter_map(|i| generator(world, i).pending.front())
            .map(|&arrived| end.saturating_sub(arrived))
            .max()
            .unwrap_or(0);
        let l = p.layout;
        let violations = self
            .checks
            .iter()
            .filter(|c| c.first_violation_ms().is_some())
            .map(|c| c.name)
            .collect();
        Trace {
            schema_version: crate::engine::trace::SCHEMA_VERSION,
            family: Family::Snowflake,
            end_ms: end,
            actors,
            nodes: Vec::new(),
            events: rec.events,
            messages: rec.messages,
            lanes: self.lanes.finish(end),
            service: Vec::new(),
            writes: Vec::new(),
            windows: Vec::new(),
            moments,
            metrics: Metrics::Snowflake(SnowflakeMetrics {
                layout: LayoutFacts {
                    time_bits: l.time_bits,
                    worker_bits: l.worker_bits,
                    sequence_bits: l.sequence_bits,
                    ids_per_ms: 1u64 << l.sequence_bits,
                    workers: 1u64 << l.worker_bits,
                    years: l.years(),
                },
                ids_issued: self.ids.len() as u32,
                duplicate_ids: self.collisions.len() as u32,
                max_wait_ms: self.max_wait_ms.max(still_waiting),
                waited: self.waited,
                refused: self.refused,
                pending_at_end,
                ids: self.ids,
                collisions: self.collisions,
                violations,
            }),
            invariants: self.checks,
        }
    }
}

impl Observer for IdObserver {
    fn observe(&mut self, world: &World, rec: &mut Recorder) {
        let now = world.now;
        let mut found = Vec::new();
        for i in self.seen_events..rec.events.len() {
            let e = &rec.events[i];
            let EventKind::Snowflake(kind) = &e.kind else {
                continue;
            };
            if let IdEvent::Refused { count, .. } = kind {
                self.refused += count;
            }
            let (at, actor, kind) = (e.at_ms, e.actor, kind.clone());
            if let Some(c) = self.issued(at, actor, &kind) {
                found.push((at, actor, c));
            }
        }
        for (at, actor, c) in found {
            rec.event(at, actor, EventKind::Snowflake(c));
        }
        self.seen_events = rec.events.len();
        for i in 0..self.n {
            let state = lane_state(world, i, self.dup_at[i]);
            self.lanes.set(i, now, state);
        }
    }
}

/// The Snowflake metrics of a trace, if it is one.
pub fn metrics(trace: &Trace) -> Option<&SnowflakeMetrics> {
    match &trace.metrics {
        Metrics::Snowflake(m) => Some(m),
        _ => None,
    }
}
