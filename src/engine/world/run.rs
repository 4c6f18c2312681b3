//! The timed run: one schedule of the World's choices, always the earliest by
//! (time, phase, order scheduled), with faults planned at given instants or triggered by a
//! particular message.
//!
//! A run can also follow a given schedule (an explorer's counterexample): each step happens at
//! the earliest instant it can (a timer never fires before it is due; a message may arrive
//! later than one network delay), and once the schedule is done the run carries on earliest
//! first under the explorer's rules for time (see [`super::step`]), so heartbeats it never
//! drew cannot make a session expire after the fact.

use super::schedule::Scheduled;
use super::{ActorId, Choice, Delivered, FaultAction, World};
use crate::engine::msg::{ActorMsg, ZkOp};
use crate::engine::time::Millis;
use crate::engine::trace::record::Recorder;

/// A fault planned at an instant.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Planned {
    pub at: Millis,
    pub fault: FaultAction,
}

/// A fault applied right after the service handles a particular request, once.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Trigger {
    /// The connection of `client` breaks just as the service answers its first create: the
    /// node exists, the reply is lost.
    ResetAfterCreate { client: ActorId },
    /// Right after the service answers `reader`'s read of the children, `owner` releases.
    ReleaseAfterRead { owner: ActorId, reader: ActorId },
}

impl Trigger {
    fn fires(&self, d: &Delivered) -> Option<FaultAction> {
        match (*self, &d.msg) {
            (
                Trigger::ResetAfterCreate { client },
                ActorMsg::ZkRequest {
                    op: ZkOp::Create { .. },
                    ..
                },
            ) if d.from == client => Some(FaultAction::Reset(client)),
            (
                Trigger::ReleaseAfterRead { owner, reader },
                ActorMsg::ZkRequest {
                    op: ZkOp::GetChildren { .. },
                    ..
                },
            ) if d.from == reader => Some(FaultAction::ReleaseNow(owner)),
            _ => None,
        }
    }
}

#[derive(Debug, Clone, Default)]
pub struct Plan {
    pub planned: Vec<Planned>,
    pub triggers: Vec<Trigger>,
    /// Steps to follow before anything else; when given, planned faults and triggers are not
    /// used (the schedule holds its faults).
    pub schedule: Vec<Scheduled>,
    /// Actors that are down before anything happens: nothing reaches them at instant 0.
    pub down_at_start: Vec<ActorId>,
}

impl Plan {
    /// Freezes `a` for `[at, at + len)`; overlapping freezes compose.
    pub fn freeze(&mut self, a: ActorId, at: Millis, len: Millis) {
        if len > 0 {
            self.planned.push(Planned {
                at,
                fault: FaultAction::Freeze(a),
            });
            self.planned.push(Planned {
                at: at + len,
                fault: FaultAction::Thaw(a),
            });
        }
    }

    /// Cuts `a`'s link for `[at, at + len)`; overlapping cuts compose.
    pub fn cut(&mut self, a: ActorId, at: Millis, len: Millis) {
        if len > 0 {
            self.planned.push(Planned {
                at,
                fault: FaultAction::Cut(a),
            });
            self.planned.push(Planned {
                at: at + len,
                fault: FaultAction::Restore(a),
            });
        }
    }

    pub fn crash(&mut self, a: ActorId, at: Millis) {
        self.planned.push(Planned {
            at,
            fault: FaultAction::Crash(a),
        });
    }

    /// Keeps `a` down from before the first instant until `until`: unlike a crash at 0, which
    /// comes after that instant's requests and replies, nothing reaches `a` before it restarts.
    pub fn down_from_start(&mut self, a: ActorId, until: Millis) {
        self.down_at_start.push(a);
        self.planned.push(Planned {
            at: until,
            fault: FaultAction::Restart(a),
        });
    }

    /// Crashes `a` at `at` and starts it again `down` later (in the same instant for 0, after
    /// the crash).
    pub fn crash_restart(&mut self, a: ActorId, at: Millis, down: Millis) {
        self.crash(a, at);
        self.planned.push(Planned {
            at: at + down,
            fault: FaultAction::Restart(a),
        });
    }
}

/// Something a family looks at after every step: lanes, invariants, facts for the trace.
pub trait Observer {
    fn observe(&mut self, world: &World, rec: &mut Recorder);
}

/// Runs the World from its start to `end`, the earliest choice first. Nothing due after `end`
/// happens.
pub fn run(
    world: &mut World,
    plan: &Plan,
    end: Millis,
    rec: &mut Recorder,
    observer: &mut impl Observer,
) {
    let mut planned = plan.planned.clone();
    // Stable by time, then phase; equal keys keep the order they were planned in.
    planned.sort_by_key(|p| (p.at, p.fault.phase()));
    let mut next_planned = 0;
    let mut triggers = plan.triggers.clone();
    for &a in &plan.down_at_start {
        world.apply(
            Choice::Fault(FaultAction::Crash(a)),
            0,
            &mut Some(&mut *rec),
        );
    }
    world.start(&mut Some(&mut *rec));
    world.touched.0 = None;
    observer.observe(world, rec);
    if !plan.schedule.is_empty() {
        follow(world, &plan.schedule, end, rec, observer);
        world.now = world.now.max(end);
        return;
    }
    loop {
        let best = world.next_timed();
        let fault = planned.get(next_planned);
        let take_fault = match (fault, best) {
            (Some(p), Some(((t, phase, _), _))) => (p.at, p.fault.phase()) <= (t, phase),
            (Some(_), None) => true,
            (None, _) => false,
        };
        if take_fault {
            let p = planned[next_planned];
            next_planned += 1;
            if p.at > end {
                break;
            }
            world.apply(Choice::Fault(p.fault), p.at, &mut Some(&mut *rec));
        } else if let Some(((t, _, _), c)) = best {
            if t > end {
                break;
            }
            let delivered = world.apply(c, t, &mut Some(&mut *rec));
            if let Some(d) = delivered
                && let Some(i) = triggers.iter().position(|tr| tr.fires(&d).is_some())
            {
                let f = triggers.remove(i).fires(&d).expect("checked");
                let now = world.now;
                observer.observe(world, rec);
                world.apply(Choice::Fault(f), now, &mut Some(&mut *rec));
            }
        } else {
            break;
        }
        observer.observe(world, rec);
    }
    world.now = world.now.max(end);
}

/// Follows a schedule, skipping any step that is not enabled when its turn comes (a schedule
/// replayed under another recipe), then carries on under the explorer's rules for time.
fn follow(
    world: &mut World,
    schedule: &[Scheduled],
    end: Millis,
    rec: &mut Recorder,
    observer: &mut impl Observer,
) {
    let mut scratch = Vec::new();
    for step in schedule {
        let Some(c) = step.choice(world, &mut scratch) else {
            continue;
        };
        let at = world.key(c).0.max(world.now);
        if at > end {
            return;
        }
        world.apply(c, at, &mut Some(&mut *rec));
        observer.observe(world, rec);
    }
    loop {
        // Everything enabled but the timers time abstraction holds back.
        world.choices(&mut scratch);
        scratch.retain(|c| !matches!(*c, Choice::Fire(i) if !world.may_fire(i)));
        let Some((key, c)) = scratch
            .iter()
            .map(|&c| (world.key(c), c))
            .min_by_key(|(k, _)| *k)
        else {
            return;
        };
        let at = key.0.max(world.now);
        if at > end {
            return;
        }
        world.apply(c, at, &mut Some(&mut *rec));
        observer.observe(world, rec);
    }
}
