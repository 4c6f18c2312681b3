//! What happens to the client from outside: session state changes, watch notifications, and
//! the freezes and crashes the run injects.

use super::*;

impl Runner {
    pub(super) async fn on_state(&mut self, s: SessionState) -> Next {
        match s {
            SessionState::Disconnected if self.connected => {
                self.connected = false;
                let now = self.log.now();
                let silent_ms = now.saturating_sub(self.log.last_heard(self.id()));
                self.event(EventKind::NoticedDisconnect { silent_ms });
                self.event(EventKind::Reconnecting);
                if self.step == Step::Holding
                    && self.p.recipe.on_disconnect == OnDisconnect::Suspend
                    && !self.suspended
                {
                    self.suspended = true;
                    self.event(EventKind::Suspended);
                }
                Next::Nothing
            }
            SessionState::SyncConnected if !self.connected => {
                self.connected = true;
                self.event(EventKind::Reconnected);
                self.on_reconnected()
            }
            SessionState::Expired => {
                self.event(EventKind::LearnedSessionExpired);
                self.knows_expired = true;
                self.connected = true;
                self.lose().await
            }
            _ => Next::Nothing,
        }
    }

    pub(super) fn on_reconnected(&mut self) -> Next {
        if self.suspended && self.step == Step::Holding && !self.revalidating {
            self.revalidating = true;
            return Next::Read;
        }
        let next = match self.redo.take() {
            Some(Redo::Recover) => match self.p.recipe.recovery {
                Recovery::Guid => Next::Recover,
                Recovery::Blind => {
                    // The first attempt's node, if the service made one, is now nobody's.
                    self.p.guid = self.p.guid.wrapping_mul(0x9E37_79B9).rotate_left(13) ^ 0x5bd1;
                    Next::Create
                }
            },
            Some(Redo::Read) => Next::Read,
            Some(Redo::Revalidate) => {
                self.revalidating = true;
                Next::Read
            }
            None => Next::Nothing,
        };
        if next == Next::Nothing
            && self.release_pending
            && !self.suspended
            && !self.write_pending
            && self.step == Step::Holding
        {
            self.release_pending = false;
            return Next::Release;
        }
        next
    }

    pub(super) fn on_watch(
        &mut self,
        target: Option<Watched>,
        ev: zookeeper_client::WatchedEvent,
    ) -> Next {
        let Some(target) = target else {
            return Next::Nothing;
        };
        if ev.event_type == EventType::Session {
            // The session ended; the state change says so.
            return Next::Nothing;
        }
        let event = watch_event(ev.event_type);
        if let (Watched::Node(node), WatchEvent::NodeDeleted) = (target, event)
            && let Some(name) = self.log.node_name(node)
        {
            // The notification is the service's word that the node is gone.
            self.log.service_deleted(&name);
        }
        self.log.watch(self.id(), target, false);
        self.log.arrived(
            self.log.service,
            self.id(),
            ActorMsg::ZkWatch {
                event,
                target,
                zxid: 0,
            },
        );
        self.event(EventKind::Notified { target, event });
        if self.step == Step::Waiting(target) {
            // A wake-up is not a grant: read again and decide.
            self.event(EventKind::WokeUp { target });
            return Next::Read;
        }
        Next::Nothing
    }

    /// A stop-the-world pause: this client's whole runtime stops, pings included.
    pub(super) fn freeze(&mut self, len: Millis) {
        self.frozen = true;
        self.event(EventKind::Froze);
        self.view();
        std::thread::sleep(Duration::from_millis(len));
        self.frozen = false;
        self.event(EventKind::Woke);
    }

    /// The process dies: its connection closes, its session lives on until the service
    /// expires it.
    pub(super) fn crash(&mut self) {
        self.crashed = true;
        self.event(EventKind::Crashed);
        if let Some(f) = &self.p.on_crash {
            f.kill();
        }
        self.view();
        // A dead process does nothing at all, not even close its session.
        while !self.p.control.stop.load(Ordering::Relaxed) {
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}
