//! A Redlock client, as the Redis documentation describes the algorithm.
//!
//! An attempt picks a fresh random value and asks every node in order with `SET key value NX PX
//! ttl`, waiting for each answer (or the request timeout) before asking the next. It holds when a
//! majority said OK and time is left: validity = TTL − elapsed − drift, counted from the start
//! of the attempt. Otherwise it releases on every node, even those that said no, and tries again
//! `retry` later. A holder works for `work` of its own running time (a pause pushes that back),
//! writes once to the resource, with no fencing token because Redlock has none, and releases on
//! every node once the write's answer is back (a round trip later). It never checks its validity
//! again: nothing in the algorithm tells it to.

use crate::engine::actors::redis_node::{RedisCmd, RedisReply};
use crate::engine::msg::{ActorMsg, Timer};
use crate::engine::time::Millis;
use crate::engine::trace::EventKind;
use crate::engine::trace::redlock::{RedlockEvent, ReleaseHow};
use crate::engine::world::{ActorId, Cx};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RedlockStep {
    Idle,
    /// Waiting for node `next`'s answer.
    Acquiring,
    Holding,
    /// The attempt failed; the next starts at the retry timer.
    Backoff,
    Released,
}

/// The client's settings.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct RedlockConfig {
    pub nodes: Vec<ActorId>,
    pub resource: ActorId,
    pub ttl_ms: Millis,
    pub drift_ms: Millis,
    pub timeout_ms: Millis,
    pub retry_ms: Millis,
    pub work_ms: Millis,
    /// How long the write takes to be acknowledged (a round trip) before the client releases.
    pub write_ms: Millis,
    pub start_ms: Millis,
    pub release: ReleaseHow,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct RedlockClient {
    pub cfg: RedlockConfig,
    pub step: RedlockStep,
    pub attempt: u32,
    /// This attempt's random value: its only proof of ownership.
    pub value: u32,
    /// The node being asked, by its place in `cfg.nodes`.
    pub next: usize,
    /// Which nodes said OK in this attempt, one bit per place.
    pub ok: u8,
    pub started_ms: Millis,
    pub valid_until: Option<Millis>,
    xid: u32,
}

impl RedlockClient {
    pub fn new(cfg: RedlockConfig) -> Self {
        Self {
            cfg,
            step: RedlockStep::Idle,
            attempt: 0,
            value: 0,
            next: 0,
            ok: 0,
            started_ms: 0,
            valid_until: None,
            xid: 0,
        }
    }

    pub fn quorum(&self) -> u32 {
        self.cfg.nodes.len() as u32 / 2 + 1
    }

    /// Whether it acts as the holder with validity left at `now`.
    pub fn holds_with_validity(&self, now: Millis) -> bool {
        self.step == RedlockStep::Holding && self.valid_until.is_some_and(|v| now < v)
    }

    pub fn on_start(&mut self, cx: &mut Cx) {
        cx.set_timer_at(Timer::Start, self.cfg.start_ms);
    }

    pub fn on_timer(&mut self, timer: Timer, cx: &mut Cx) {
        match timer {
            Timer::Start | Timer::AcquireRetry
                if matches!(self.step, RedlockStep::Idle | RedlockStep::Backoff) =>
            {
                self.begin(cx)
            }
            Timer::RequestTimeout if self.step == RedlockStep::Acquiring => {
                let node = self.cfg.nodes[self.next];
                cx.event(EventKind::Redlock(RedlockEvent::SetTimedOut { node }));
                self.advance(cx);
            }
            Timer::ValidityEnd if self.step == RedlockStep::Holding => {
                let since_ms = cx.due;
                cx.event(EventKind::Redlock(RedlockEvent::ValidityOver { since_ms }));
            }
            Timer::WorkDone if self.step == RedlockStep::Holding => {
                cx.event(EventKind::WriteSent { token: 0 });
                cx.send(self.cfg.resource, ActorMsg::Write { token: 0 });
                cx.set_timer(Timer::ReleaseDue, self.cfg.write_ms);
            }
            Timer::ReleaseDue if self.step == RedlockStep::Holding => {
                self.release_all(cx);
                self.step = RedlockStep::Released;
                cx.cancel(Timer::ValidityEnd);
            }
            _ => {}
        }
    }

    pub fn on_msg(&mut self, from: ActorId, msg: ActorMsg, cx: &mut Cx) {
        let ActorMsg::RedisReply { xid, reply } = msg else {
            return;
        };
        // Only the answer to the SET being waited for moves an attempt on; answers to releases
        // and late answers to timed-out requests are dropped.
        if self.step != RedlockStep::Acquiring
            || xid != self.xid
            || from != self.cfg.nodes[self.next]
        {
            return;
        }
        cx.cancel(Timer::RequestTimeout);
        let ok = reply == RedisReply::Ok;
        if ok {
            self.ok |= 1 << self.next;
        }
        cx.event(EventKind::Redlock(RedlockEvent::SetAnswered {
            node: from,
            ok,
        }));
        self.advance(cx);
    }

    fn begin(&mut self, cx: &mut Cx) {
        self.attempt += 1;
        self.value = cx.random_u32();
        self.ok = 0;
        self.next = 0;
        self.started_ms = cx.now;
        self.step = RedlockStep::Acquiring;
        cx.event(EventKind::Redlock(RedlockEvent::AttemptStarted {
            attempt: self.attempt,
            value: self.value,
        }));
        self.ask(cx);
    }

    fn ask(&mut self, cx: &mut Cx) {
        self.xid += 1;
        let cmd = RedisCmd::Set {
            value: self.value,
            ttl_ms: self.cfg.ttl_ms,
        };
        cx.send(
            self.cfg.nodes[self.next],
            ActorMsg::Redis { xid: self.xid, cmd },
        );
        cx.set_timer(Timer::RequestTimeout, self.cfg.timeout_ms);
    }

    fn advance(&mut self, cx: &mut Cx) {
        self.next += 1;
        if self.next < self.cfg.nodes.len() {
            self.ask(cx);
        } else {
            self.decide(cx);
        }
    }

    fn ok_nodes(&self) -> Vec<ActorId> {
        (0..self.cfg.nodes.len())
            .filter(|i| self.ok & (1 << i) != 0)
            .map(|i| self.cfg.nodes[i])
            .collect()
    }

    /// Every node has answered or timed out: a majority and time left, or try again.
    fn decide(&mut self, cx: &mut Cx) {
        let elapsed = cx.now - self.started_ms;
        let validity = self.cfg.ttl_ms as i64 - elapsed as i64 - self.cfg.drift_ms as i64;
        if self.ok.count_ones() >= self.quorum() && validity > 0 {
            let until = cx.now + validity as Millis;
            self.step = RedlockStep::Holding;
            self.valid_until = Some(until);
            let (ok, drift_ms) = (self.ok_nodes(), self.cfg.drift_ms);
            cx.event(EventKind::Redlock(RedlockEvent::Acquired {
                ok,
                ttl_ms: self.cfg.ttl_ms,
                elapsed_ms: elapsed,
                drift_ms,
                validity_ms: validity,
                valid_until_ms: until,
            }));
            cx.set_timer_at(Timer::ValidityEnd, until);
            cx.set_own_timer(Timer::WorkDone, self.cfg.work_ms);
        } else {
            let (ok, quorum) = (self.ok_nodes(), self.quorum());
            cx.event(EventKind::Redlock(RedlockEvent::AttemptFailed {
                ok,
                quorum,
                elapsed_ms: elapsed,
                validity_ms: validity,
            }));
            self.release_all(cx);
            self.step = RedlockStep::Backoff;
            cx.set_timer(Timer::AcquireRetry, self.cfg.retry_ms);
        }
    }

    /// Sends the release to every node at once, without waiting for the answers.
    fn release_all(&mut self, cx: &mut Cx) {
        let how = self.cfg.release;
        cx.event(EventKind::Redlock(RedlockEvent::ReleaseSent { how }));
        let cmd = match how {
            ReleaseHow::CompareAndDelete => RedisCmd::DelIfValue { value: self.value },
            ReleaseHow::NaiveDel => RedisCmd::Del,
        };
        for i in 0..self.cfg.nodes.len() {
            self.xid += 1;
            cx.send(self.cfg.nodes[i], ActorMsg::Redis { xid: self.xid, cmd });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::world::{Effect, Rng};

    fn client() -> RedlockClient {
        RedlockClient::new(RedlockConfig {
            nodes: (1..=5).map(ActorId).collect(),
            resource: ActorId(6),
            ttl_ms: 10_000,
            drift_ms: 102,
            timeout_ms: 30,
            retry_ms: 500,
            work_ms: 3_000,
            write_ms: 20,
            start_ms: 0,
            release: ReleaseHow::CompareAndDelete,
        })
    }

    fn step(c: &mut RedlockClient, now: Millis, f: impl FnOnce(&mut RedlockClient, &mut Cx)) {
        let mut effects: Vec<Effect> = Vec::new();
        let mut rng = Rng::new(1);
        let mut cx = Cx::new(now, now, ActorId(0), &mut effects, &mut rng, true);
        f(c, &mut cx);
    }

    fn answer(c: &mut RedlockClient, now: Millis, reply: RedisReply) {
        let (from, xid) = (c.cfg.nodes[c.next], c.xid);
        step(c, now, |c, cx| {
            c.on_msg(from, ActorMsg::RedisReply { xid, reply }, cx)
        });
    }

    #[test]
    fn three_oks_and_two_timeouts_in_120_ms_leave_9778_ms() {
        let mut c = client();
        step(&mut c, 0, |c, cx| c.on_timer(Timer::Start, cx));
        answer(&mut c, 20, RedisReply::Ok);
        answer(&mut c, 40, RedisReply::Ok);
        step(&mut c, 70, |c, cx| c.on_timer(Timer::RequestTimeout, cx));
        answer(&mut c, 90, RedisReply::Ok);
        step(&mut c, 120, |c, cx| c.on_timer(Timer::RequestTimeout, cx));
        assert_eq!(c.step, RedlockStep::Holding);
        assert_eq!(c.valid_until, Some(120 + 9_778));
        assert!(c.holds_with_validity(9_897) && !c.holds_with_validity(9_898));
    }

    #[test]
    fn two_oks_of_five_is_no_lock_and_a_late_answer_moves_nothing() {
        let mut c = client();
        step(&mut c, 0, |c, cx| c.on_timer(Timer::Start, cx));
        answer(&mut c, 20, RedisReply::Ok);
        let stale_xid = c.xid;
        step(&mut c, 50, |c, cx| c.on_timer(Timer::RequestTimeout, cx));
        // The timed-out node answers late: ignored.
        let late = ActorMsg::RedisReply {
            xid: stale_xid,
            reply: RedisReply::Ok,
        };
        step(&mut c, 55, |c, cx| c.on_msg(ActorId(2), late, cx));
        assert_eq!(c.ok.count_ones(), 1);
        answer(&mut c, 75, RedisReply::Ok);
        answer(&mut c, 95, RedisReply::Nil);
        answer(&mut c, 115, RedisReply::Nil);
        assert_eq!(c.step, RedlockStep::Backoff);
    }
}
