//! The two clients of the frozen-holder story: A, which holds the lease and needs a stretch of
//! its own running time to finish, and B, which asks for the lock every second.

use crate::engine::msg::{ActorMsg, Timer};
use crate::engine::time::Millis;
use crate::engine::trace::EventKind;
use crate::engine::world::{ActorId, Cx};

/// A: holds the lease with token 1, renews it on every multiple of the keepalive interval,
/// writes once and releases when its work is done.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct LeaseHolder {
    pub service: ActorId,
    pub resource: ActorId,
    pub token: u64,
    pub keepalive_ms: Millis,
    pub work_ms: Millis,
    pub stop_on_loss: bool,
    pub released: bool,
    pub learned_lost: bool,
    pub abandoned: bool,
    last_keepalive_sent: Option<Millis>,
}

impl LeaseHolder {
    pub fn new(
        service: ActorId,
        resource: ActorId,
        keepalive_ms: Millis,
        work_ms: Millis,
        stop_on_loss: bool,
    ) -> Self {
        Self {
            service,
            resource,
            token: 1,
            keepalive_ms: keepalive_ms.max(1),
            work_ms,
            stop_on_loss,
            released: false,
            learned_lost: false,
            abandoned: false,
            last_keepalive_sent: None,
        }
    }

    /// Whether A still acts as a holder that renews its lease.
    pub fn renews(&self) -> bool {
        !self.released && !self.learned_lost && !self.abandoned
    }

    pub fn on_start(&mut self, cx: &mut Cx) {
        // The critical section counts A's own running time: a pause pushes its end back.
        cx.set_own_timer(Timer::WorkDone, self.work_ms);
        cx.set_timer_at(Timer::KeepaliveTick, self.keepalive_ms);
    }

    pub fn on_timer(&mut self, timer: Timer, cx: &mut Cx) {
        match timer {
            Timer::KeepaliveTick => self.tick(cx),
            Timer::WorkDone => self.work_done(cx),
            _ => {}
        }
    }

    /// A tick due at `cx.due`, handled at `cx.now`: later if A was frozen, and then it stands
    /// for every tick it missed, merged into one keepalive.
    fn tick(&mut self, cx: &mut Cx) {
        let k = self.keepalive_ms;
        let merged = if cx.now > cx.due {
            (cx.now - cx.due).div_ceil(k) as u32
        } else {
            1
        };
        // The next tick is the next multiple of the interval; one due this very instant is
        // absorbed by the keepalive sent now.
        cx.set_timer_at(Timer::KeepaliveTick, (cx.now / k + 1) * k);
        if self.renews() && self.last_keepalive_sent != Some(cx.now) {
            self.last_keepalive_sent = Some(cx.now);
            cx.event(EventKind::KeepaliveSent { merged });
            cx.send(self.service, ActorMsg::Keepalive { merged });
        }
    }

    fn work_done(&mut self, cx: &mut Cx) {
        if self.stop_on_loss && self.learned_lost {
            self.abandoned = true;
            cx.event(EventKind::WriteAbandoned);
            return;
        }
        cx.event(EventKind::WriteSent { token: self.token });
        cx.send(self.resource, ActorMsg::Write { token: self.token });
        cx.event(EventKind::LeaseReleaseSent);
        self.released = true;
        cx.send(self.service, ActorMsg::Release);
    }

    pub fn on_msg(&mut self, msg: ActorMsg, cx: &mut Cx) {
        if msg == ActorMsg::Refused && !self.learned_lost {
            self.learned_lost = true;
            cx.event(EventKind::LearnedLeaseLost);
        }
    }
}

/// B: asks for the lock every `retry_ms` until granted, then writes `write_after_ms` later.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct LeaseSeeker {
    pub service: ActorId,
    pub resource: ActorId,
    pub retry_ms: Millis,
    pub write_after_ms: Millis,
    pub token: Option<u64>,
}

impl LeaseSeeker {
    pub fn new(
        service: ActorId,
        resource: ActorId,
        retry_ms: Millis,
        write_after_ms: Millis,
    ) -> Self {
        Self {
            service,
            resource,
            retry_ms,
            write_after_ms,
            token: None,
        }
    }

    pub fn on_start(&mut self, cx: &mut Cx) {
        cx.set_timer_at(Timer::AcquireRetry, self.retry_ms);
    }

    pub fn on_timer(&mut self, timer: Timer, cx: &mut Cx) {
        match timer {
            Timer::AcquireRetry if self.token.is_none() => {
                cx.event(EventKind::AcquireRequested);
                cx.send(self.service, ActorMsg::Acquire);
                cx.set_timer(Timer::AcquireRetry, self.retry_ms);
            }
            Timer::WriteDue => {
                if let Some(token) = self.token {
                    cx.event(EventKind::WriteSent { token });
                    cx.send(self.resource, ActorMsg::Write { token });
                }
            }
            _ => {}
        }
    }

    pub fn on_msg(&mut self, msg: ActorMsg, cx: &mut Cx) {
        if let ActorMsg::Granted { token, .. } = msg
            && self.token.is_none()
        {
            self.token = Some(token);
            cx.event(EventKind::LearnedGrant { token });
            cx.set_timer(Timer::WriteDue, self.write_after_ms);
        }
    }
}
