//! The frozen holder: a lease that expires while its holder is frozen in a GC pause.
//!
//! A holds the lease (token 1) and needs 24 s of its own running time; B asks for the lock every
//! second and writes 2 s after it learns it holds it. The rules are listed in the README
//! ("The frozen holder, rule by rule") so that any picture can be checked by hand.

use crate::engine::lease::{LeaseId, LeaseService};
use crate::engine::params::FrozenParams;
use crate::engine::params::frozen_fixed::{RETRY_MS, RUN_MS, WORK_MS, WRITE_AFTER_MS};
use crate::engine::queue::{EventQueue, Phase};
use crate::engine::resource::Resource;
use crate::engine::time::{Millis, to_secs};
use crate::engine::trace::{
    Event, EventKind, Family, FrozenMetrics, InvariantReport, LaneRecorder, Metrics, State, Trace,
    Verdict, invariant,
};

const A: &str = "A";
const B: &str = "B";
const SERVICE: &str = "service";
const RESOURCE: &str = "resource";

#[derive(Debug, Clone)]
enum Ev {
    /// A's critical section has had all the running time it needs (stale if `gen` is old).
    WorkDone {
        generation: u64,
    },
    PauseStart,
    PauseEnd,
    /// A's keepalive timer is due.
    Tick,
    KeepaliveArrives,
    RefusalArrives,
    LeaseExpiry {
        lease: LeaseId,
        generation: u64,
    },
    ReleaseArrives,
    AcquireSend,
    AcquireArrives,
    GrantArrives {
        token: u64,
    },
    BWriteDue,
    WriteArrives {
        writer: &'static str,
        value: &'static str,
        token: u64,
    },
}

struct World {
    p: FrozenParams,
    now: Millis,
    queue: EventQueue<Ev>,
    events: Vec<Event>,
    lanes: LaneRecorder,
    leases: LeaseService,
    resource: Resource,
    a_lease: LeaseId,
    b_lease: Option<LeaseId>,
    // A's side
    work_due: Millis,
    work_generation: u64,
    work_done: bool,
    released: bool,
    learned_lost_at: Option<Millis>,
    abandoned: bool,
    ticks_while_frozen: u32,
    last_keepalive_sent: Option<Millis>,
    a_write_arrival: Option<(Millis, bool)>,
    // B's side
    b_learned_grant: bool,
    // service facts
    lease_expiry: Option<Millis>,
    successor_acquire: Option<Millis>,
    first_b_write_accepted: Option<Millis>,
    one_holder: InvariantReport,
    tokens: InvariantReport,
    lane_a: usize,
    lane_service: usize,
    lane_b: usize,
    lane_resource: usize,
}

/// Runs the frozen-holder scenario.
pub fn run(p: &FrozenParams) -> Trace {
    let mut leases = LeaseService::new(1);
    let a_lease = leases
        .try_grant(A, 0, p.ttl_ms)
        .expect("the lock starts free");
    let mut lanes = LaneRecorder::default();
    let lane_a = lanes.add(A, 0, State::Held, None);
    let lane_service = lanes.add(SERVICE, 0, State::LeaseLive, Some(A.into()));
    let lane_b = lanes.add(B, 0, State::Retrying, None);
    let lane_resource = lanes.add(RESOURCE, 0, State::Empty, None);
    let mut w = World {
        p: p.clone(),
        now: 0,
        queue: EventQueue::new(),
        events: Vec::new(),
        lanes,
        leases,
        resource: Resource::new(p.fencing),
        a_lease,
        b_lease: None,
        work_due: WORK_MS,
        work_generation: 0,
        work_done: false,
        released: false,
        learned_lost_at: None,
        abandoned: false,
        ticks_while_frozen: 0,
        last_keepalive_sent: None,
        a_write_arrival: None,
        b_learned_grant: false,
        lease_expiry: None,
        successor_acquire: None,
        first_b_write_accepted: None,
        one_holder: InvariantReport::ok(invariant::ONE_HOLDER),
        tokens: InvariantReport::ok(invariant::TOKENS_NON_DECREASING),
        lane_a,
        lane_service,
        lane_b,
        lane_resource,
    };
    w.log(
        A,
        EventKind::LeaseGranted {
            holder: A.into(),
            token: 1,
            deadline_ms: Some(p.ttl_ms),
        },
    );
    w.schedule(
        p.ttl_ms,
        Phase::Expiry,
        Ev::LeaseExpiry {
            lease: a_lease,
            generation: 0,
        },
    );
    w.schedule(WORK_MS, Phase::Work, Ev::WorkDone { generation: 0 });
    if p.pause_len_ms > 0 {
        w.schedule(p.pause_start_ms, Phase::Freeze, Ev::PauseStart);
        w.schedule(p.pause_start_ms + p.pause_len_ms, Phase::Wake, Ev::PauseEnd);
    }
    w.schedule(p.keepalive_ms, Phase::Tick, Ev::Tick);
    w.schedule(RETRY_MS, Phase::Work, Ev::AcquireSend);

    while let Some((at, _, ev)) = w.queue.pop() {
        w.now = at;
        w.handle(ev);
    }
    w.now = RUN_MS;
    w.log(SERVICE, EventKind::RunEnded);
    w.finish()
}

impl World {
    /// Schedules an event; anything after the end of the run is not part of it.
    fn schedule(&mut self, at: Millis, phase: Phase, ev: Ev) {
        if at <= RUN_MS {
            self.queue.push(at, phase, ev);
        }
    }

    fn log(&mut self, actor: &str, kind: EventKind) {
        self.events.push(Event {
            at_ms: self.now,
            actor: actor.to_string(),
            kind,
        });
    }

    fn frozen_at(&self, t: Millis) -> bool {
        let p = &self.p;
        p.pause_len_ms > 0 && p.pause_start_ms <= t && t < p.pause_start_ms + p.pause_len_ms
    }

    /// Whether A still acts as a holder that renews its lease.
    fn a_renews(&self) -> bool {
        !self.released && self.learned_lost_at.is_none() && !self.abandoned
    }

    fn handle(&mut self, ev: Ev) {
        match ev {
            Ev::WorkDone { generation } if generation == self.work_generation => self.a_work_done(),
            Ev::WorkDone { .. } => {}
            Ev::PauseStart => self.a_pause_start(),
            Ev::PauseEnd => self.a_pause_end(),
            Ev::Tick => self.a_tick(),
            Ev::KeepaliveArrives => self.service_keepalive(),
            Ev::RefusalArrives => self.a_learns_lost(),
            Ev::LeaseExpiry { lease, generation } => self.service_expiry(lease, generation),
            Ev::ReleaseArrives => self.service_release(),
            Ev::AcquireSend => self.b_acquire_send(),
            Ev::AcquireArrives => self.service_acquire(),
            Ev::GrantArrives { token } => self.b_learns_grant(token),
            Ev::BWriteDue => {
                self.log(
                    B,
                    EventKind::WriteSent {
                        value: "B".into(),
                        token: 2,
                    },
                );
                self.lanes.set(self.lane_b, self.now, State::Written, None);
                let at = self.now + self.p.delay_ms;
                self.schedule(
                    at,
                    Phase::Write,
                    Ev::WriteArrives {
                        writer: B,
                        value: "B",
                        token: 2,
                    },
                );
            }
            Ev::WriteArrives {
                writer,
                value,
                token,
            } => self.resource_write(writer, value, token),
        }
    }

    // --- A ---

    fn a_work_done(&mut self) {
        self.work_done = true;
        if self.p.stop_on_loss && self.learned_lost_at.is_some() {
            self.abandoned = true;
            self.log(A, EventKind::WriteAbandoned);
            return;
        }
        self.log(
            A,
            EventKind::WriteSent {
                value: "A".into(),
                token: 1,
            },
        );
        let arrive = self.now + self.p.delay_ms;
        self.schedule(
            arrive,
            Phase::Write,
            Ev::WriteArrives {
                writer: A,
                value: "A",
                token: 1,
            },
        );
        self.log(A, EventKind::LeaseReleaseSent);
        self.released = true;
        self.lanes.set(self.lane_a, self.now, State::Released, None);
        self.schedule(arrive, Phase::Release, Ev::ReleaseArrives);
    }

    fn a_pause_start(&mut self) {
        let until = self.p.pause_start_ms + self.p.pause_len_ms;
        self.log(A, EventKind::Froze { until_ms: until });
        // A's critical section counts A's own running time: the pause pushes its end back.
        if !self.work_done && self.work_due > self.now {
            self.work_generation += 1;
            self.work_due += self.p.pause_len_ms;
            let generation = self.work_generation;
            self.schedule(self.work_due, Phase::Work, Ev::WorkDone { generation });
        }
        let state = if self.released {
            State::Frozen
        } else {
            State::FrozenHolding
        };
        self.lanes.set(self.lane_a, self.now, state, None);
    }

    fn a_pause_end(&mut self) {
        self.log(A, EventKind::Woke);
        let state = match (self.released, self.learned_lost_at) {
            (true, _) => State::Released,
            (false, Some(_)) => State::Lost,
            (false, None) => State::Held,
        };
        self.lanes.set(self.lane_a, self.now, state, None);
        if self.ticks_while_frozen > 0 && self.a_renews() {
            let merged = self.ticks_while_frozen;
            self.send_keepalive(merged);
        }
        self.ticks_while_frozen = 0;
    }

    fn a_tick(&mut self) {
        let next = self.now + self.p.keepalive_ms;
        self.schedule(next, Phase::Tick, Ev::Tick);
        if !self.a_renews() {
            return;
        }
        if self.frozen_at(self.now) {
            self.ticks_while_frozen += 1;
        } else if self.last_keepalive_sent != Some(self.now) {
            self.send_keepalive(1);
        }
    }

    fn send_keepalive(&mut self, merged: u32) {
        self.last_keepalive_sent = Some(self.now);
        self.log(A, EventKind::KeepaliveSent { merged });
        let at = self.now + self.p.delay_ms;
        self.schedule(at, Phase::Keepalive, Ev::KeepaliveArrives);
    }

    fn a_learns_lost(&mut self) {
        if self.frozen_at(self.now) {
            // A frozen process reads nothing: it hears the refusal when it wakes.
            let wake = self.p.pause_start_ms + self.p.pause_len_ms;
            self.schedule(wake, Phase::Deliver, Ev::RefusalArrives);
            return;
        }
        if self.learned_lost_at.is_none() {
            self.learned_lost_at = Some(self.now);
            self.log(A, EventKind::LearnedLeaseLost);
            if !self.released {
                self.lanes.set(self.lane_a, self.now, State::Lost, None);
            }
        }
    }

    // --- the lease service ---

    fn service_keepalive(&mut self) {
        match self.leases.keepalive(self.a_lease, self.now) {
            Ok(deadline) => {
                self.log(
                    SERVICE,
                    EventKind::KeepaliveRenewed {
                        deadline_ms: deadline,
                    },
                );
                let generation = self.leases.lease(self.a_lease).generation;
                let lease = self.a_lease;
                self.schedule(
                    deadline,
                    Phase::Expiry,
                    Ev::LeaseExpiry { lease, generation },
                );
            }
            Err(_) => {
                self.log(SERVICE, EventKind::KeepaliveRefused);
                let at = self.now + self.p.delay_ms;
                self.schedule(at, Phase::Deliver, Ev::RefusalArrives);
            }
        }
    }

    fn service_expiry(&mut self, lease: LeaseId, generation: u64) {
        if self.leases.expire(lease, generation, self.now) {
            self.lease_expiry = Some(self.now);
            self.log(SERVICE, EventKind::LeaseExpired { holder: A.into() });
            self.lanes
                .set(self.lane_service, self.now, State::Free, None);
        }
    }

    fn service_release(&mut self) {
        if self.leases.release(self.a_lease) {
            self.log(SERVICE, EventKind::Released { holder: A.into() });
            self.lanes
                .set(self.lane_service, self.now, State::Free, None);
        } else {
            self.log(SERVICE, EventKind::ReleaseIgnored);
        }
    }

    fn service_acquire(&mut self) {
        if self.b_lease.is_some() {
            return; // B already holds it and simply has not heard yet.
        }
        // B keeps its lease to the end of the run, so its TTL outlasts the run.
        match self.leases.try_grant(B, self.now, RUN_MS + 1) {
            Some(id) => {
                self.b_lease = Some(id);
                self.successor_acquire = Some(self.now);
                let token = self.leases.lease(id).token;
                self.log(
                    SERVICE,
                    EventKind::LeaseGranted {
                        holder: B.into(),
                        token,
                        deadline_ms: None,
                    },
                );
                self.lanes.set(
                    self.lane_service,
                    self.now,
                    State::LeaseLive,
                    Some(B.into()),
                );
                if self.leases.live_count() > 1 {
                    self.one_holder
                        .fail(self.now, "two live leases on one lock".into());
                }
                let at = self.now + self.p.delay_ms;
                self.schedule(at, Phase::Deliver, Ev::GrantArrives { token });
            }
            None => self.log(SERVICE, EventKind::AcquireRefused { holder: A.into() }),
        }
    }

    // --- B ---

    fn b_acquire_send(&mut self) {
        if self.b_learned_grant {
            return;
        }
        self.log(B, EventKind::AcquireRequested);
        let at = self.now + self.p.delay_ms;
        self.schedule(at, Phase::Request, Ev::AcquireArrives);
        let next = self.now + RETRY_MS;
        self.schedule(next, Phase::Work, Ev::AcquireSend);
    }

    fn b_learns_grant(&mut self, token: u64) {
        self.b_learned_grant = true;
        self.log(B, EventKind::LearnedGrant { token });
        self.lanes.set(self.lane_b, self.now, State::Held, None);
        self.schedule(self.now + WRITE_AFTER_MS, Phase::Work, Ev::BWriteDue);
    }

    // --- the resource ---

    fn resource_write(&mut self, writer: &'static str, value: &str, token: u64) {
        let (accepted, event) = self.resource.apply(
            self.now,
            writer,
            value,
            token,
            &mut self.tokens,
            (&mut self.lanes, self.lane_resource),
        );
        self.log(RESOURCE, event);
        if accepted && writer == B && self.first_b_write_accepted.is_none() {
            self.first_b_write_accepted = Some(self.now);
        }
        if writer == A {
            self.a_write_arrival = Some((self.now, accepted));
        }
    }

    fn verdict(&self) -> Verdict {
        if self.abandoned {
            return Verdict::HolderStopped;
        }
        match self.a_write_arrival {
            Some((arrival, accepted)) => {
                if self.lease_expiry.is_none_or(|expiry| arrival < expiry) {
                    Verdict::NoIncident
                } else if !accepted {
                    Verdict::StaleWriteRejected
                } else if self.first_b_write_accepted.is_some_and(|b| b <= arrival) {
                    Verdict::Corruption
                } else {
                    Verdict::StaleWriteAccepted
                }
            }
            None if self.lease_expiry.is_none() => Verdict::NoIncident,
            None => Verdict::Unresolved,
        }
    }

    fn finish(self) -> Trace {
        let verdict = self.verdict();
        let expiry = self.lease_expiry;
        let acquire = self.successor_acquire;
        let arrival = self.a_write_arrival.map(|(t, _)| t);
        let metrics = FrozenMetrics {
            lease_expiry: expiry.map(to_secs),
            successor_acquire: acquire.map(to_secs),
            handover_delay: expiry
                .zip(acquire)
                .map(|(e, a)| to_secs(a.saturating_sub(e))),
            holder_write_arrival: arrival.map(to_secs),
            holder_write_accepted: self.a_write_arrival.map(|(_, ok)| ok),
            danger_window: expiry
                .zip(arrival)
                .map(|(e, w)| to_secs(w.saturating_sub(e)))
                .unwrap_or(0.0),
            verdict,
            final_value: self.resource.value.clone(),
            last_seen_token: self.resource.last_seen_token,
        };
        Trace {
            schema_version: crate::engine::trace::SCHEMA_VERSION,
            family: Family::Frozen,
            end_ms: RUN_MS,
            events: self.events,
            lanes: self.lanes.finish(RUN_MS),
            metrics: Metrics::Frozen(metrics),
            invariants: vec![self.one_holder, self.tokens],
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
