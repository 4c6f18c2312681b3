//! The protected resource: the only place that can refuse a stale holder's write.
//!
//! With fencing on, a write is accepted if and only if its token is at least the largest token
//! accepted so far, checked and stored in one step. With fencing off every write is accepted.
//! Either way it remembers the largest token it has accepted.

use crate::engine::msg::ActorMsg;
use crate::engine::trace::EventKind;
use crate::engine::world::{ActorId, Cx};

#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct Resource {
    pub fencing: bool,
    /// The largest token accepted so far.
    pub last_seen_token: u64,
    /// The value it holds: who wrote it, with which token.
    pub value: Option<(ActorId, u64)>,
    /// The token of the last accepted write.
    pub last_accepted: Option<u64>,
    /// Whether an accepted token was ever smaller than the one accepted before it.
    pub went_backwards: bool,
}

impl Resource {
    pub fn new(fencing: bool) -> Self {
        Self {
            fencing,
            ..Self::default()
        }
    }

    /// Applies one write; returns whether it was accepted.
    pub fn write(&mut self, writer: ActorId, token: u64) -> bool {
        let accepted = !self.fencing || token >= self.last_seen_token;
        if accepted {
            if self.last_accepted.is_some_and(|prev| token < prev) {
                self.went_backwards = true;
            }
            self.last_accepted = Some(token);
            self.value = Some((writer, token));
            self.last_seen_token = self.last_seen_token.max(token);
        }
        accepted
    }

    pub fn on_msg(&mut self, from: ActorId, msg: ActorMsg, cx: &mut Cx) {
        let ActorMsg::Write { token } = msg else {
            return;
        };
        let last_seen_before = self.last_seen_token;
        let accepted = self.write(from, token);
        cx.event(EventKind::WriteArrived {
            writer: from,
            token,
            accepted,
            last_seen_before,
            fencing: self.fencing,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const A: ActorId = ActorId(0);
    const B: ActorId = ActorId(1);

    #[test]
    fn fencing_accepts_equal_or_larger_tokens_only() {
        let mut r = Resource::new(true);
        assert!(r.write(B, 2));
        assert!(
            r.write(B, 2),
            "the same holder may write again with its token"
        );
        assert!(!r.write(A, 1), "an older token is refused");
        assert_eq!(r.value, Some((B, 2)));
        assert!(r.write(A, 3));
        assert!(!r.went_backwards);
    }

    #[test]
    fn without_fencing_every_write_lands_and_the_order_can_go_backwards() {
        let mut r = Resource::new(false);
        assert!(r.write(B, 2));
        assert!(r.write(A, 1));
        assert_eq!(r.value, Some((A, 1)));
        assert_eq!(r.last_seen_token, 2);
        assert!(r.went_backwards);
    }
}
