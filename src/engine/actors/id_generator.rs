//! A Snowflake-style ID generator with its own clock.
//!
//! Every millisecond its requests arrive and it serves them in order: it reads its clock, and an
//! ID is `(time, worker, sequence)` packed by the layout. A new millisecond starts the sequence
//! at 0; the same millisecond takes the next number. What it does when the clock reads earlier
//! than the last millisecond it used, or when a millisecond's numbers run out, is a parameter;
//! so are the defences: waiting out the start's millisecond, and issuing only under a worker id
//! a registry granted. A crash loses everything it kept in memory: the last millisecond, the
//! sequence and the requests it had not served.

use std::collections::VecDeque;

use crate::engine::msg::{ActorMsg, Timer};
use crate::engine::params::{Layout, OnExhaustion, OnRollback};
use crate::engine::time::Millis;
use crate::engine::trace::EventKind;
use crate::engine::trace::snowflake::{IdEvent, RefuseReason, WaitReason};
use crate::engine::world::{ActorId, Cx};

/// The generator's settings.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct GenConfig {
    pub worker: u32,
    pub layout: Layout,
    /// The clock at run time 0, in ms since the epoch.
    pub clock_start: u64,
    pub rate: u32,
    /// Extra requests in one millisecond: (when, how many).
    pub burst: Option<(Millis, u32)>,
    /// Requests arrive before this run time.
    pub stop_ms: Millis,
    /// A step back of the clock: (when, by how much).
    pub rollback: Option<(Millis, u64)>,
    pub wait_on_start: bool,
    pub on_rollback: OnRollback,
    pub on_exhaustion: OnExhaustion,
    /// The registry to claim the worker id from, when leases are on.
    pub registry: Option<ActorId>,
}

/// Where the worker id's lease stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Lease {
    NotNeeded,
    Asked,
    Held,
    Denied,
}

/// What the generator did at its last turn, for its lane.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GenView {
    Idle,
    Issued {
        time: u64,
        first: u32,
        last: u32,
        count: u32,
        /// Requests left waiting after this turn.
        held: u32,
    },
    Waiting(WaitReason),
    Refusing(RefuseReason),
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct IdGenerator {
    pub cfg: GenConfig,
    /// The clock minus `clock_start` minus run time.
    pub skew_ms: i64,
    pub last_ms: Option<i64>,
    pub seq: u32,
    /// Arrival times of the requests not served yet, oldest first.
    pub pending: VecDeque<Millis>,
    pub lease: Lease,
    /// After a start with the defence on: the first millisecond it may issue in.
    pub start_wait_until: Option<i64>,
    pub view: GenView,
    waiting: Option<WaitReason>,
    /// Claims for the worker id sent so far, by this process and the ones before it: the
    /// answer to an earlier incarnation's claim is not this one's.
    pub claims: u32,
}

impl IdGenerator {
    pub fn new(cfg: GenConfig) -> Self {
        Self {
            cfg,
            skew_ms: 0,
            last_ms: None,
            seq: 0,
            pending: VecDeque::new(),
            lease: Lease::NotNeeded,
            start_wait_until: None,
            view: GenView::Idle,
            waiting: None,
            claims: 0,
        }
    }

    /// The generator's clock at run time `now`, in ms since the epoch.
    pub fn clock(&self, now: Millis) -> i64 {
        self.cfg.clock_start as i64 + now as i64 + self.skew_ms
    }

    pub fn on_start(&mut self, cx: &mut Cx) {
        if let Some((at, _)) = self.cfg.rollback {
            cx.set_timer_at(Timer::ClockJump, at);
        }
        self.begin(cx);
    }

    /// A crash loses everything the process kept in memory.
    pub fn on_crash(&mut self) {
        self.last_ms = None;
        self.seq = 0;
        self.pending.clear();
        self.view = GenView::Idle;
        self.waiting = None;
        self.start_wait_until = None;
        self.lease = Lease::NotNeeded;
    }

    /// Starts (or starts again) with an empty memory.
    fn begin(&mut self, cx: &mut Cx) {
        self.on_crash();
        if self.cfg.wait_on_start {
            let until = self.clock(cx.now) + 1;
            self.start_wait_until = Some(until);
            cx.event(EventKind::Snowflake(IdEvent::StartWait {
                until: until as u64,
            }));
        }
        if let Some(registry) = self.cfg.registry {
            self.lease = Lease::Asked;
            let worker = self.cfg.worker;
            self.claims += 1;
            cx.event(EventKind::Snowflake(IdEvent::WorkerClaimSent { worker }));
            cx.send(
                registry,
                ActorMsg::ClaimWorker {
                    worker,
                    claim: self.claims,
                },
            );
        }
        cx.set_timer_at(Timer::IdTick, cx.now);
    }

    /// The clock's step is the machine's and its timer outlived the crash, so only the process
    /// starts again.
    pub fn on_restart(&mut self, cx: &mut Cx) {
        self.begin(cx);
    }

    pub fn on_timer(&mut self, timer: Timer, cx: &mut Cx) {
        match timer {
            Timer::IdTick => {
                if cx.now < self.cfg.stop_ms {
                    let mut n = self.cfg.rate;
                    if let Some((at, extra)) = self.cfg.burst
                        && at == cx.now
                    {
                        n += extra;
                    }
                    self.pending.extend(std::iter::repeat_n(cx.now, n as usize));
                }
                self.serve(cx);
                cx.set_timer(Timer::IdTick, 1);
            }
            Timer::ClockJump => {
                if let Some((_, by)) = self.cfg.rollback {
                    self.skew_ms -= by as i64;
                    let reads = self.clock(cx.now).max(0) as u64;
                    let last_used = self.last_ms.map(|l| l as u64);
                    cx.event(EventKind::Snowflake(IdEvent::ClockSteppedBack {
                        by_ms: by,
                        reads,
                        last_used,
                    }));
                }
            }
            _ => {}
        }
    }

    pub fn on_msg(&mut self, msg: ActorMsg, cx: &mut Cx) {
        if let ActorMsg::WorkerClaimed {
            worker,
            claim,
            granted,
        } = msg
            && worker == self.cfg.worker
            && claim == self.claims
            && self.lease == Lease::Asked
        {
            self.lease = if granted { Lease::Held } else { Lease::Denied };
            self.serve(cx);
        }
    }

    fn wait(&mut self, reason: WaitReason, cx: &mut Cx) {
        if self.waiting != Some(reason) {
            cx.event(EventKind::Snowflake(IdEvent::WaitStarted { reason }));
        }
        self.waiting = Some(reason);
    }

    fn refuse(&mut self, count: u32, reason: RefuseReason, cx: &mut Cx) {
        if count > 0 {
            cx.event(EventKind::Snowflake(IdEvent::Refused { count, reason }));
        }
    }

    /// Serves waiting requests, oldest first, as far as the clock and the rules allow.
    fn serve(&mut self, cx: &mut Cx) {
        if self.pending.is_empty() {
            return;
        }
        match self.lease {
            Lease::Asked => {
                self.wait(WaitReason::WorkerLease, cx);
                self.view = GenView::Waiting(WaitReason::WorkerLease);
                return;
            }
            Lease::Denied => {
                let n = self.pending.len() as u32;
                self.pending.clear();
                self.refuse(n, RefuseReason::WorkerTaken, cx);
                self.view = GenView::Refusing(RefuseReason::WorkerTaken);
                return;
            }
            Lease::Held | Lease::NotNeeded => {}
        }
        let m = self.clock(cx.now);
        if let Some(until) = self.start_wait_until {
            if m < until {
                self.wait(WaitReason::StartWait, cx);
                self.view = GenView::Waiting(WaitReason::StartWait);
                return;
            }
            self.start_wait_until = None;
        }
        if !self.cfg.layout.time_fits(m) {
            let n = self.pending.len() as u32;
            self.pending.clear();
            self.refuse(n, RefuseReason::TimeOutOfRange, cx);
            self.view = GenView::Refusing(RefuseReason::TimeOutOfRange);
            return;
        }
        let max = self.cfg.layout.max_sequence();
        let mut issued: Option<(u32, u32, u32)> = None;
        let mut refused = 0;
        let mut held_back = None;
        while let Some(&arrived) = self.pending.front() {
            let (seq, wrapped) = match self.last_ms {
                Some(l) if m < l => {
                    let behind_ms = (l - m) as u64;
                    match self.cfg.on_rollback {
                        OnRollback::Wait => {
                            held_back = Some(WaitReason::ClockBehind { behind_ms });
                            break;
                        }
                        OnRollback::Refuse => {
                            self.pending.pop_front();
                            refused += 1;
                            continue;
                        }
                        OnRollback::Ignore => (0, false),
                    }
                }
                Some(l) if m == l => {
                    if self.seq < max {
                        (self.seq + 1, false)
                    } else if self.cfg.on_exhaustion == OnExhaustion::Wait {
                        held_back = Some(WaitReason::SequenceUsedUp);
                        break;
                    } else {
                        (0, true)
                    }
                }
                _ => (0, false),
            };
            self.pending.pop_front();
            self.last_ms = Some(m);
            self.seq = seq;
            let time = m as u64;
            let id = self.cfg.layout.encode(time, self.cfg.worker, seq);
            cx.event(EventKind::Snowflake(IdEvent::Issued {
                id,
                time,
                worker: self.cfg.worker,
                sequence: seq,
                waited_ms: cx.now - arrived,
                wrapped,
            }));
            issued = Some(match issued {
                None => (seq, seq, 1),
                Some((first, _, n)) => (first, seq, n + 1),
            });
        }
        if refused > 0 {
            let behind_ms = self.last_ms.map_or(0, |l| (l - m).max(0) as u64);
            let reason = RefuseReason::ClockBehind { behind_ms };
            self.refuse(refused, reason, cx);
            self.view = GenView::Refusing(reason);
        }
        match held_back {
            Some(reason) => self.wait(reason, cx),
            None => self.waiting = None,
        }
        if let Some((first, last, count)) = issued {
            self.view = GenView::Issued {
                time: m as u64,
                first,
                last,
                count,
                held: self.pending.len() as u32,
            };
        } else if let Some(reason) = held_back {
            self.view = GenView::Waiting(reason);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::world::{Effect, Rng};

    fn generator(on_rollback: OnRollback) -> IdGenerator {
        IdGenerator::new(GenConfig {
            worker: 7,
            layout: Layout::default(),
            clock_start: 995,
            rate: 1,
            burst: None,
            stop_ms: 100,
            rollback: Some((6, 2)),
            wait_on_start: false,
            on_rollback,
            on_exhaustion: OnExhaustion::Wait,
            registry: None,
        })
    }

    /// Runs one handler and returns the (time, sequence) of the IDs it issued.
    fn run(g: &mut IdGenerator, now: Millis, timer: Timer) -> Vec<(u64, u32)> {
        let mut effects = Vec::new();
        let mut rng = Rng::new(1);
        let mut cx = Cx::new(now, now, ActorId(0), &mut effects, &mut rng, true);
        g.on_timer(timer, &mut cx);
        effects
            .iter()
            .filter_map(|e| match e {
                Effect::Event(EventKind::Snowflake(IdEvent::Issued { time, sequence, .. })) => {
                    Some((*time, *sequence))
                }
                _ => None,
            })
            .collect()
    }

    #[test]
    fn a_clock_stepped_back_repeats_ids_unless_the_generator_waits() {
        for (rule, at_7) in [
            (OnRollback::Ignore, vec![(1000, 0)]),
            (OnRollback::Wait, vec![(1000, 1), (1000, 2)]),
        ] {
            let mut g = generator(rule);
            for t in 0..6 {
                run(&mut g, t, Timer::IdTick);
            }
            run(&mut g, 6, Timer::ClockJump);
            let at_6 = run(&mut g, 6, Timer::IdTick);
            assert_eq!(at_6.is_empty(), rule == OnRollback::Wait, "{rule:?}");
            assert_eq!(run(&mut g, 7, Timer::IdTick), at_7, "{rule:?}");
        }
    }
}
