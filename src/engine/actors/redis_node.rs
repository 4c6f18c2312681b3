//! One independent Redis node holding one lock key, as Redlock uses five of them.
//!
//! `SET key value NX PX ttl` creates the key only if it is absent and gives it an expiry on the
//! node's own clock; `GET` reads it; the release script deletes it only if it still holds the
//! caller's value; a naive `DEL` deletes whatever is there. Keys expire on the node's clock, so a
//! clock stepped forward expires them early. A crash loses the key unless it was synced to disk
//! (`fsync`), in which case it comes back with its expiry.

use serde::Serialize;

use crate::engine::msg::{ActorMsg, Timer};
use crate::engine::time::Millis;
use crate::engine::trace::EventKind;
use crate::engine::trace::redlock::RedlockEvent;
use crate::engine::world::{ActorId, Cx, Phase};

/// A command a client sends to a node.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(tag = "cmd", rename_all = "snake_case")]
pub enum RedisCmd {
    /// `SET key value NX PX ttl_ms`.
    Set {
        value: u32,
        ttl_ms: Millis,
    },
    Get,
    /// The release script: `if GET == value then DEL`.
    DelIfValue {
        value: u32,
    },
    /// `DEL key`.
    Del,
}

impl RedisCmd {
    pub fn phase(self) -> Phase {
        match self {
            RedisCmd::Set { .. } | RedisCmd::Get => Phase::Request,
            RedisCmd::DelIfValue { .. } | RedisCmd::Del => Phase::Release,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(tag = "reply", rename_all = "snake_case")]
pub enum RedisReply {
    Ok,
    /// `SET NX` found the key held.
    Nil,
    Value {
        value: Option<u32>,
    },
    /// How many keys a delete removed.
    Deleted {
        count: u32,
    },
}

/// The lock key as the node holds it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct StoredKey {
    pub value: u32,
    /// The client whose connection set it (for the trace; the node decides by value only).
    pub owner: ActorId,
    /// Expiry on the node's own clock.
    pub expires_at: i64,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct RedisNode {
    pub key: Option<StoredKey>,
    /// The node's clock minus run time.
    pub skew_ms: i64,
    pub fsync: bool,
    /// A planned step of the clock: when, and how far forward.
    pub jump: Option<(Millis, Millis)>,
}

impl RedisNode {
    pub fn new(fsync: bool, jump: Option<(Millis, Millis)>) -> Self {
        Self {
            fsync,
            jump,
            ..Self::default()
        }
    }

    /// The node's clock at run time `now`.
    pub fn clock(&self, now: Millis) -> i64 {
        now as i64 + self.skew_ms
    }

    /// The key, if it is there and not expired at `now` on this node's clock.
    pub fn live_key(&self, now: Millis) -> Option<StoredKey> {
        self.key.filter(|k| k.expires_at > self.clock(now))
    }

    pub fn on_start(&mut self, cx: &mut Cx) {
        if let Some((at, _)) = self.jump {
            cx.set_timer_at(Timer::ClockJump, at);
        }
    }

    pub fn on_timer(&mut self, timer: Timer, cx: &mut Cx) {
        match timer {
            Timer::KeyExpiry => self.expire_if_due(cx),
            Timer::ClockJump => {
                if let Some((_, by)) = self.jump.take() {
                    self.skew_ms += by as i64;
                    cx.event(EventKind::Redlock(RedlockEvent::ClockJumped { by_ms: by }));
                    self.arm_expiry(cx);
                }
            }
            _ => {}
        }
    }

    /// Arms the expiry timer where the key's expiry falls in run time, as the clock stands now.
    fn arm_expiry(&mut self, cx: &mut Cx) {
        if let Some(k) = self.key {
            let at = (k.expires_at - self.skew_ms).max(cx.now as i64) as Millis;
            cx.set_timer_at(Timer::KeyExpiry, at);
        }
    }

    /// Removes the key if its expiry has passed on this node's clock (Redis checks on every
    /// access, and its timer does the same).
    fn expire_if_due(&mut self, cx: &mut Cx) {
        if let Some(k) = self.key
            && k.expires_at <= self.clock(cx.now)
        {
            self.key = None;
            cx.cancel(Timer::KeyExpiry);
            cx.event(EventKind::Redlock(RedlockEvent::KeyExpired {
                owner: k.owner,
            }));
        }
    }

    pub fn on_msg(&mut self, from: ActorId, msg: ActorMsg, cx: &mut Cx) {
        let ActorMsg::Redis { xid, cmd } = msg else {
            return;
        };
        self.expire_if_due(cx);
        let reply = match cmd {
            RedisCmd::Set { value, ttl_ms } => match self.key {
                Some(k) => {
                    cx.event(EventKind::Redlock(RedlockEvent::SetRefused {
                        by: from,
                        holder: k.owner,
                    }));
                    RedisReply::Nil
                }
                None => {
                    let expires_at = self.clock(cx.now) + ttl_ms as i64;
                    self.key = Some(StoredKey {
                        value,
                        owner: from,
                        expires_at,
                    });
                    self.arm_expiry(cx);
                    cx.event(EventKind::Redlock(RedlockEvent::KeySet {
                        owner: from,
                        value,
                        ttl_ms,
                        expires_ms: cx.now + ttl_ms,
                    }));
                    RedisReply::Ok
                }
            },
            RedisCmd::Get => RedisReply::Value {
                value: self.key.map(|k| k.value),
            },
            RedisCmd::DelIfValue { value } => match self.key {
                Some(k) if k.value == value => self.delete(k, from, true, cx),
                Some(k) => {
                    cx.event(EventKind::Redlock(RedlockEvent::KeyKept {
                        holder: k.owner,
                        by: from,
                    }));
                    RedisReply::Deleted { count: 0 }
                }
                None => RedisReply::Deleted { count: 0 },
            },
            RedisCmd::Del => match self.key {
                Some(k) => self.delete(k, from, false, cx),
                None => RedisReply::Deleted { count: 0 },
            },
        };
        cx.send(from, ActorMsg::RedisReply { xid, reply });
    }

    fn delete(&mut self, k: StoredKey, by: ActorId, checked: bool, cx: &mut Cx) -> RedisReply {
        self.key = None;
        cx.cancel(Timer::KeyExpiry);
        cx.event(EventKind::Redlock(RedlockEvent::KeyDeleted {
            owner: k.owner,
            by,
            checked,
        }));
        RedisReply::Deleted { count: 1 }
    }

    /// Back after a crash: only a synced key survives, with its expiry on the node's clock.
    pub fn on_restart(&mut self, cx: &mut Cx) {
        let had = self.key.map(|k| k.owner);
        if !self.fsync {
            self.key = None;
        }
        cx.event(EventKind::Redlock(RedlockEvent::NodeRecovered {
            fsync: self.fsync,
            kept: self.key.map(|k| k.owner),
            lost: if self.fsync { None } else { had },
        }));
        // A clock jump still to come is the machine's: its timer outlived the crash.
        self.expire_if_due(cx);
        self.arm_expiry(cx);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::world::{Effect, Rng};

    const A: ActorId = ActorId(0);
    const B: ActorId = ActorId(1);

    fn handle(node: &mut RedisNode, now: Millis, from: ActorId, cmd: RedisCmd) -> RedisReply {
        let mut effects = Vec::new();
        let mut rng = Rng::new(1);
        let mut cx = Cx::new(now, now, ActorId(9), &mut effects, &mut rng, false);
        node.on_msg(from, ActorMsg::Redis { xid: 1, cmd }, &mut cx);
        effects
            .iter()
            .find_map(|e| match e {
                Effect::Send {
                    msg: ActorMsg::RedisReply { reply, .. },
                    ..
                } => Some(*reply),
                _ => None,
            })
            .expect("every command is answered")
    }

    #[test]
    fn set_nx_px_creates_only_an_absent_key_and_it_expires_on_the_nodes_clock() {
        let mut n = RedisNode::default();
        let set = |value| RedisCmd::Set { value, ttl_ms: 100 };
        assert_eq!(handle(&mut n, 10, A, set(7)), RedisReply::Ok);
        assert_eq!(handle(&mut n, 50, B, set(8)), RedisReply::Nil);
        assert_eq!(
            handle(&mut n, 50, B, RedisCmd::Get),
            RedisReply::Value { value: Some(7) }
        );
        assert_eq!(n.live_key(109).map(|k| k.owner), Some(A));
        assert!(n.live_key(110).is_none(), "expired at 10 + 100");
        assert_eq!(handle(&mut n, 110, B, set(8)), RedisReply::Ok);
        // Stepping the clock forward expires the key early.
        n.skew_ms = 100;
        assert!(n.live_key(111).is_none());
    }

    #[test]
    fn compare_and_delete_leaves_another_clients_key_and_del_does_not() {
        let mut n = RedisNode::default();
        handle(
            &mut n,
            0,
            B,
            RedisCmd::Set {
                value: 8,
                ttl_ms: 1_000,
            },
        );
        let cad = RedisCmd::DelIfValue { value: 7 };
        assert_eq!(handle(&mut n, 5, A, cad), RedisReply::Deleted { count: 0 });
        assert_eq!(n.key.map(|k| k.owner), Some(B));
        assert_eq!(
            handle(&mut n, 6, A, RedisCmd::Del),
            RedisReply::Deleted { count: 1 }
        );
        assert!(n.key.is_none(), "the naive DEL removed B's key");
    }

    #[test]
    fn a_restart_keeps_the_key_only_with_fsync() {
        for fsync in [false, true] {
            let mut n = RedisNode::new(fsync, None);
            handle(
                &mut n,
                0,
                A,
                RedisCmd::Set {
                    value: 7,
                    ttl_ms: 1_000,
                },
            );
            let mut effects = Vec::new();
            let mut rng = Rng::new(1);
            let mut cx = Cx::new(200, 200, ActorId(9), &mut effects, &mut rng, false);
            n.on_restart(&mut cx);
            assert_eq!(n.live_key(200).is_some(), fsync);
        }
    }
}
