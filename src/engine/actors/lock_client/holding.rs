//! Holding the lock: the grant, the one write to the protected resource, the release, and
//! what a client that learns it lost does with a write it still owes.

use super::{LockClient, OnLoss, Step, TokenSource};
use crate::engine::msg::{ActorMsg, Timer, ZkOp};
use crate::engine::trace::EventKind;
use crate::engine::world::Cx;
use crate::engine::zk::client::ConnState;
use crate::engine::zk::tree::NodeId;

impl LockClient {
    pub(super) fn acquire(&mut self, node: NodeId, seq: i32, cx: &mut Cx) {
        if self.recipe.token == TokenSource::Sequence {
            // A negative (wrapped) number cannot be a token: it is clamped at 0.
            self.token = seq.max(0) as u64;
        }
        cx.event(EventKind::Acquired {
            node,
            token: self.token,
        });
        self.step = Step::Holding;
        self.read_data(cx);
        cx.set_timer(Timer::WriteDue, self.recipe.write_after_ms);
        cx.set_timer(Timer::ReleaseDue, self.recipe.hold_ms);
    }

    pub(super) fn write_due(&mut self, cx: &mut Cx) {
        if self.wrote || self.step == Step::Released {
            return;
        }
        if self.knows_expired && self.recipe.on_loss == OnLoss::Stop {
            return;
        }
        if self.step != Step::Holding && self.step != Step::Lost {
            return;
        }
        if self.suspended || self.revalidating {
            self.write_pending = true;
            cx.event(EventKind::WriteDeferred);
            return;
        }
        self.write_pending = false;
        if self.has_data() {
            self.write_data(cx);
            return;
        }
        self.wrote = true;
        cx.event(EventKind::WriteSent { token: self.token });
        cx.send(self.recipe.resource, ActorMsg::Write { token: self.token });
    }

    pub(super) fn release_due(&mut self, cx: &mut Cx) {
        if self.step != Step::Holding {
            return;
        }
        if self.suspended || self.write_pending || !self.conn.is_connected() {
            self.release_pending = true;
            return;
        }
        self.release(cx);
    }

    pub(super) fn release(&mut self, cx: &mut Cx) {
        if let Some(node) = self.node {
            cx.event(EventKind::ReleaseSent { node });
            let _ = self.conn.request(ZkOp::Delete { node, version: -1 }, cx);
        }
        self.conn.close(cx);
        self.step = Step::Released;
    }

    pub(super) fn resume(&mut self, cx: &mut Cx) {
        if self.write_pending {
            self.write_pending = false;
            self.write_due(cx);
        }
        if self.release_pending {
            self.release_pending = false;
            self.release_due(cx);
        }
    }

    pub(super) fn lose(&mut self, cx: &mut Cx) {
        if matches!(self.step, Step::Released | Step::Lost | Step::GaveUp) {
            return;
        }
        self.suspended = false;
        self.revalidating = false;
        self.step = Step::Lost;
        if self.conn.state != ConnState::Expired {
            self.conn.close(cx);
        }
        if self.recipe.on_loss == OnLoss::CarryOn && self.write_pending {
            self.write_pending = false;
            self.write_due(cx);
        }
    }
}
