//! Holding and letting go: the write when it falls due, releasing, closing the session, and
//! acting on a lost lock.

use super::*;

impl Runner {
    pub(super) fn write_due(&mut self) {
        if self.wrote || self.step == Step::Released {
            return;
        }
        if self.knows_expired && self.p.recipe.on_loss == OnLoss::Stop {
            return;
        }
        if self.step != Step::Holding && self.step != Step::Lost {
            return;
        }
        if self.suspended || self.revalidating {
            self.write_pending = true;
            self.event(EventKind::WriteDeferred);
            return;
        }
        self.write_pending = false;
        self.wrote = true;
        self.event(EventKind::WriteSent { token: self.token });
        let id = self.log.sent(
            self.id(),
            self.log.resource,
            ActorMsg::Write { token: self.token },
        );
        self.log.fate(id, Fate::Delivered);
        self.log.write(self.id(), self.token);
    }

    pub(super) fn release_due(&mut self) -> Next {
        if self.step != Step::Holding {
            return Next::Nothing;
        }
        if self.suspended || self.write_pending || !self.connected {
            self.release_pending = true;
            return Next::Nothing;
        }
        Next::Release
    }

    /// The holder finishes early and releases now.
    pub(super) fn release_now(&mut self) -> Next {
        if self.step != Step::Holding {
            self.p.control.released.store(true, Ordering::Relaxed);
            return Next::Nothing;
        }
        self.event(EventKind::ReleasedEarly);
        self.write_at = None;
        self.release_at = None;
        Next::Release
    }

    pub(super) async fn release(&mut self) {
        if let (Some((node, name)), Some(zk)) = (self.node.clone(), self.zk.clone()) {
            self.event(EventKind::ReleaseSent { node });
            self.log.deleting(self.id(), node);
            let req = self.request(ZkOp::Delete { node, version: -1 });
            match zk.delete(&self.path(&name), None).await {
                Ok(()) => {
                    self.reply(req, ZkResult::Done);
                    self.log.service_deleted(&name);
                }
                Err(ZkError::NoNode) => self.reply(req, ZkResult::NoNode),
                Err(_) => self.log.fate(req.0, Fate::Dropped),
            }
        }
        self.p.control.released.store(true, Ordering::Relaxed);
        self.close().await;
        self.step = Step::Released;
    }

    /// Ends the session on purpose: the service deletes its nodes at once.
    pub(super) async fn close(&mut self) {
        let Some(zk) = self.zk.take() else {
            return;
        };
        let mut states = zk.state_watcher();
        let live = !zk.state().is_terminated();
        let req = live.then(|| self.request(ZkOp::Close));
        drop(zk);
        if let Some(req) = req {
            let closed = async { while states.changed().await != SessionState::Closed {} };
            if tokio::time::timeout(Duration::from_secs(2), closed)
                .await
                .is_ok()
            {
                self.reply(req, ZkResult::Done);
                self.log.session_closed(self.id());
            }
        }
    }

    pub(super) fn resume(&mut self) -> Next {
        if self.write_pending {
            self.write_pending = false;
            self.write_due();
        }
        if self.release_pending {
            self.release_pending = false;
            return self.release_due();
        }
        Next::Nothing
    }

    /// When this client's acquire deadline falls, while it still waits for the lock.
    pub(super) fn give_up_at(&self) -> Option<Millis> {
        let waiting = !matches!(
            self.step,
            Step::Holding | Step::Released | Step::Lost | Step::GaveUp
        );
        let t = self.p.recipe.acquire_timeout_ms?;
        waiting.then_some(self.p.recipe.start_ms + t)
    }

    /// Gave up and left its node in the queue: nobody will delete it while the session lives.
    pub(super) fn abandoned(&self) -> bool {
        self.step == Step::GaveUp
            && self.p.recipe.on_timeout == OnTimeout::Forget
            && self.node.is_some()
    }

    /// The acquire deadline passed: report failure and, as the recipe says, delete the node on
    /// the way out or leave it queued. The session stays open either way, and a watch it set
    /// still fires (the notification wakes nobody).
    pub(super) async fn give_up(&mut self) {
        let delete = self.p.recipe.on_timeout == OnTimeout::DeleteNode;
        self.event(EventKind::AcquireTimedOut { deleted: delete });
        self.redo = None;
        self.step = Step::GaveUp;
        self.view();
        if !delete {
            return;
        }
        if let (Some((node, name)), Some(zk)) = (self.node.clone(), self.zk.clone()) {
            self.log.deleting(self.id(), node);
            let req = self.request(ZkOp::Delete { node, version: -1 });
            match zk.delete(&self.path(&name), None).await {
                Ok(()) => {
                    self.reply(req, ZkResult::Done);
                    self.log.service_deleted(&name);
                }
                Err(ZkError::NoNode) => self.reply(req, ZkResult::NoNode),
                Err(_) => self.log.fate(req.0, Fate::Dropped),
            }
        }
    }

    pub(super) async fn lose(&mut self) -> Next {
        if matches!(self.step, Step::Released | Step::Lost | Step::GaveUp) {
            return Next::Nothing;
        }
        self.suspended = false;
        self.revalidating = false;
        self.step = Step::Lost;
        if !self.knows_expired {
            self.close().await;
        } else {
            self.zk = None;
        }
        if self.p.recipe.on_loss == OnLoss::CarryOn && self.write_pending {
            self.write_pending = false;
            self.write_due();
        }
        Next::Nothing
    }
}
