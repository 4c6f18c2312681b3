//! A FIFO channel between two actors: what one sends, the other receives in the same order.

use smallvec::SmallVec;

use super::{ActorId, Bookkeeping};
use crate::engine::msg::ActorMsg;
use crate::engine::time::Millis;

/// A message on its way.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct InFlight {
    pub msg: ActorMsg,
    /// When it arrives, if its receiver can take it then.
    pub due: Millis,
    /// Which of the client's connections it travels on (for messages on a link).
    pub epoch: u16,
    pub(super) seq: Bookkeeping<u64>,
    /// Its record in the trace.
    pub(super) id: Bookkeeping<u32>,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Channel {
    pub from: ActorId,
    pub to: ActorId,
    /// Oldest first. Most channels are empty or carry one message, so one sits inline and a
    /// cloned state allocates only for a second; room for more in place would be paid for by
    /// every empty channel of every state the explorer keeps.
    pub queue: SmallVec<[InFlight; 1]>,
}

impl Channel {
    pub fn new(from: ActorId, to: ActorId) -> Self {
        Self {
            from,
            to,
            queue: SmallVec::new(),
        }
    }
}
