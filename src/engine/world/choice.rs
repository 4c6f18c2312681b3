//! The steps a World can take: deliver, fire, or apply a fault.

use serde::Serialize;

use super::{ActorId, Phase};
use crate::engine::msg::ActorMsg;

/// A fault the World can apply to an actor.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(tag = "fault", content = "actor", rename_all = "snake_case")]
pub enum FaultAction {
    Freeze(ActorId),
    Thaw(ActorId),
    /// The network between a client and the service goes silent (nothing arrives either way).
    Cut(ActorId),
    Restore(ActorId),
    /// The connection breaks and both ends notice at once: what was in flight is lost.
    Reset(ActorId),
    Crash(ActorId),
    /// A crashed process starts again with whatever it kept on disk (see `Actor::on_restart`).
    Restart(ActorId),
    /// The actor finishes its work early and releases (a holder's node vanishes between another
    /// client's read and its watch).
    ReleaseNow(ActorId),
}

impl FaultAction {
    pub fn actor(self) -> ActorId {
        match self {
            FaultAction::Freeze(a)
            | FaultAction::Thaw(a)
            | FaultAction::Cut(a)
            | FaultAction::Restore(a)
            | FaultAction::Reset(a)
            | FaultAction::Crash(a)
            | FaultAction::Restart(a)
            | FaultAction::ReleaseNow(a) => a,
        }
    }

    pub fn phase(self) -> Phase {
        match self {
            FaultAction::Freeze(_) | FaultAction::Cut(_) | FaultAction::Crash(_) => Phase::Freeze,
            FaultAction::Thaw(_) | FaultAction::Restore(_) | FaultAction::Restart(_) => Phase::Wake,
            FaultAction::Reset(_) | FaultAction::ReleaseNow(_) => Phase::Work,
        }
    }
}

/// One step the World can take.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Choice {
    /// Deliver the oldest message of a channel.
    Deliver(usize),
    /// Fire an armed timer (by its index among the armed timers).
    Fire(usize),
    Fault(FaultAction),
}

/// What a step delivered, for rules that react to a particular message (fault triggers).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Delivered {
    pub from: ActorId,
    pub to: ActorId,
    pub msg: ActorMsg,
}
