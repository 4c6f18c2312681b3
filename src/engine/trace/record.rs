//! The recorder a run writes its trace into while the World steps.

use super::{Event, EventKind, Fate, Message};
use crate::engine::msg::ActorMsg;
use crate::engine::time::Millis;
use crate::engine::world::ActorId;

/// Collects events and messages as they happen. Lanes, snapshots and other facts are added by
/// each family's observer.
#[derive(Debug, Clone, Default)]
pub struct Recorder {
    pub events: Vec<Event>,
    pub messages: Vec<Message>,
}

impl Recorder {
    /// A recorder with room for a run of about this many events and messages.
    pub fn with_capacity(events: usize, messages: usize) -> Self {
        Self {
            events: Vec::with_capacity(events),
            messages: Vec::with_capacity(messages),
        }
    }

    pub fn event(&mut self, at_ms: Millis, actor: ActorId, kind: EventKind) {
        self.events.push(Event { at_ms, actor, kind });
    }

    pub fn message_sent(
        &mut self,
        id: u32,
        at: Millis,
        from: ActorId,
        to: ActorId,
        msg: &ActorMsg,
    ) {
        debug_assert_eq!(id as usize, self.messages.len());
        self.messages.push(Message {
            id,
            from,
            to,
            sent_ms: at,
            fate: Fate::InFlight,
            received_ms: None,
            msg: msg.clone(),
        });
    }

    pub fn message_fate(&mut self, id: u32, fate: Fate, at: Option<Millis>) {
        if let Some(m) = self.messages.get_mut(id as usize) {
            m.fate = fate;
            m.received_ms = at;
        }
    }
}
