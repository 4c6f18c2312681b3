//! What an actor's handler sees and returns: the time, its own id, and an outbox of effects
//! the World carries out afterwards.

use super::{ActorId, Rng};
use crate::engine::msg::{ActorMsg, Clock, Timer};
use crate::engine::time::Millis;
use crate::engine::trace::EventKind;

/// An effect an actor asks the World to carry out.
#[derive(Debug, Clone, PartialEq)]
pub enum Effect {
    /// Send a message; it arrives one network delay plus `after` later.
    Send {
        to: ActorId,
        msg: ActorMsg,
        after: Millis,
    },
    /// Arm (or move) a timer.
    SetTimer {
        timer: Timer,
        at: Millis,
        clock: Clock,
    },
    Cancel(Timer),
    /// The client gives up on its connection: whatever is in flight on it is lost.
    Teardown,
    /// Something worth telling in the trace.
    Event(EventKind),
}

/// A handler's context and outbox.
pub struct Cx<'a> {
    pub now: Millis,
    /// For a timer: when it was due (earlier than `now` if its actor was frozen then).
    pub due: Millis,
    pub me: ActorId,
    effects: &'a mut Vec<Effect>,
    rng: &'a mut Rng,
    /// Whether a trace is being recorded; an explorer runs without one.
    pub recording: bool,
}

impl<'a> Cx<'a> {
    pub fn new(
        now: Millis,
        due: Millis,
        me: ActorId,
        effects: &'a mut Vec<Effect>,
        rng: &'a mut Rng,
        recording: bool,
    ) -> Self {
        Self {
            now,
            due,
            me,
            effects,
            rng,
            recording,
        }
    }

    pub fn send(&mut self, to: ActorId, msg: ActorMsg) {
        self.effects.push(Effect::Send { to, msg, after: 0 });
    }

    /// Arms a wall-clock timer `after` from now.
    pub fn set_timer(&mut self, timer: Timer, after: Millis) {
        self.set_timer_at(timer, self.now + after);
    }

    pub fn set_timer_at(&mut self, timer: Timer, at: Millis) {
        self.effects.push(Effect::SetTimer {
            timer,
            at,
            clock: Clock::Wall,
        });
    }

    /// Arms a timer on the actor's own running time: a pause pushes it back.
    pub fn set_own_timer(&mut self, timer: Timer, after: Millis) {
        self.effects.push(Effect::SetTimer {
            timer,
            at: self.now + after,
            clock: Clock::Own,
        });
    }

    pub fn cancel(&mut self, timer: Timer) {
        self.effects.push(Effect::Cancel(timer));
    }

    /// Closes this client's connection to its service (to reconnect on a new one).
    pub fn teardown(&mut self) {
        self.effects.push(Effect::Teardown);
    }

    pub fn event(&mut self, kind: EventKind) {
        if self.recording {
            self.effects.push(Effect::Event(kind));
        }
    }

    /// Like [`Cx::event`], building the event only when a trace is being recorded.
    pub fn event_with(&mut self, kind: impl FnOnce() -> EventKind) {
        if self.recording {
            self.effects.push(Effect::Event(kind()));
        }
    }

    /// A value from the World's one seeded generator.
    pub fn random_u32(&mut self) -> u32 {
        self.rng.next_u32()
    }
}
