//! A client of etcd's lease lock: a `concurrency.Session` (a lease kept alive by the client
//! library) and a `concurrency.Mutex` on it.
//!
//! The session grants a lease and starts the library's loops: every 500 ms it sends a keep-alive
//! if one is due (a third of the TTL after the last answer), and every second it closes the
//! session (`Done()`) if no answer came for a whole TTL. The mutex puts `PREFIX/<lease>` and,
//! unless its key has the lowest create revision, watches the key just ahead of it until it is
//! deleted, then reads again. The holder writes every `write_every` of its own running time while
//! it works, then unlocks and revokes its lease.

use crate::engine::msg::{ActorMsg, Timer};
use crate::engine::time::Millis;
use crate::engine::trace::EventKind;
use crate::engine::trace::etcd::protocol::{
    DEADLINE_LOOP_MS, FIRST_KEEPALIVE_TIMEOUT_MS, KEEPALIVE_LOOP_MS, lock_key, next_keepalive_ms,
};
use crate::engine::trace::etcd::{EtcdEvent, Guard, OnLost};
use crate::engine::world::{ActorId, Cx};

use super::etcd_leader::{EtcdReply, EtcdReq};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct EtcdClientConfig {
    pub etcd: ActorId,
    pub resource: ActorId,
    pub ttl_s: u64,
    pub start_ms: Millis,
    pub work_ms: Millis,
    pub write_every_ms: Millis,
    /// After the last write, how long before the release (a round trip).
    pub write_ms: Millis,
    pub guard: Guard,
    pub on_lost: OnLost,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EtcdStep {
    Idle,
    Granting,
    /// The lock Txn is on its way.
    Locking,
    /// Reading which key is just ahead.
    Reading,
    /// Watching the key just ahead.
    Waiting,
    Holding,
    /// Knows its session is done and stopped.
    Lost,
    Released,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct EtcdClient {
    pub cfg: EtcdClientConfig,
    pub step: EtcdStep,
    pub lease: Option<u64>,
    /// The TTL the leader granted.
    pub ttl_s: u64,
    /// The library's deadline: the session closes once it has passed with no answer.
    pub deadline_ms: Millis,
    next_keepalive_ms: Millis,
    /// Whether the session is done (`Done()` closed).
    pub session_done: bool,
    /// The create revision of its key: the fencing token once it holds.
    pub my_rev: u64,
    /// The key just ahead it last read: its owner and create revision.
    pub ahead: Option<(ActorId, u64)>,
    writes: u32,
}

impl EtcdClient {
    pub fn new(cfg: EtcdClientConfig) -> Self {
        Self {
            cfg,
            step: EtcdStep::Idle,
            lease: None,
            ttl_s: 0,
            deadline_ms: 0,
            next_keepalive_ms: 0,
            session_done: false,
            my_rev: 0,
            ahead: None,
            writes: 0,
        }
    }

    fn send(&self, cx: &mut Cx, req: EtcdReq) {
        cx.send(self.cfg.etcd, ActorMsg::Etcd(req));
    }

    pub fn on_start(&mut self, cx: &mut Cx) {
        cx.set_timer_at(Timer::Start, self.cfg.start_ms);
    }

    pub fn on_timer(&mut self, timer: Timer, cx: &mut Cx) {
        let now = cx.now;
        match timer {
            Timer::Start => {
                self.step = EtcdStep::Granting;
                cx.event(EventKind::Etcd(EtcdEvent::GrantSent {
                    ttl_s: self.cfg.ttl_s,
                }));
                self.send(
                    cx,
                    EtcdReq::Grant {
                        ttl_s: self.cfg.ttl_s,
                    },
                );
            }
            Timer::KeepAliveLoop if !self.session_done => {
                // `Before(now)`: a keep-alive due exactly now waits for the next turn.
                if self.next_keepalive_ms < now {
                    self.keepalive(cx);
                }
                cx.set_timer(Timer::KeepAliveLoop, KEEPALIVE_LOOP_MS);
            }
            Timer::DeadlineLoop if !self.session_done => {
                if self.deadline_ms < now {
                    self.close_session(cx);
                    cx.event(EventKind::Etcd(EtcdEvent::SessionDone {
                        lease: self.lease.unwrap_or(0),
                        deadline_ms: self.deadline_ms,
                    }));
                } else {
                    cx.set_timer(Timer::DeadlineLoop, DEADLINE_LOOP_MS);
                }
            }
            Timer::WriteDue if self.step == EtcdStep::Holding => {
                if self.gives_up(cx) {
                    return;
                }
                self.write(cx);
                self.writes += 1;
                let next = u64::from(self.writes + 1) * self.cfg.write_every_ms;
                if next <= self.cfg.work_ms {
                    cx.set_own_timer(Timer::WriteDue, self.cfg.write_every_ms);
                }
            }
            Timer::ReleaseDue if self.step == EtcdStep::Holding => {
                if self.gives_up(cx) {
                    return;
                }
                let lease = self.lease.unwrap_or(0);
                cx.event(EventKind::Etcd(EtcdEvent::UnlockSent {
                    key: lock_key(lease),
                }));
                self.send(cx, EtcdReq::Unlock { lease });
                self.send(cx, EtcdReq::Revoke { lease });
                self.step = EtcdStep::Released;
                self.close_session(cx);
            }
            _ => {}
        }
    }

    /// Under [`OnLost::Stop`], a holder whose session is done stops here instead of acting.
    fn gives_up(&mut self, cx: &mut Cx) -> bool {
        if self.cfg.on_lost == OnLost::Stop && self.session_done {
            cx.event(EventKind::Etcd(EtcdEvent::WriteSkipped {
                token: self.my_rev,
            }));
            self.step = EtcdStep::Lost;
            cx.cancel(Timer::WriteDue);
            cx.cancel(Timer::ReleaseDue);
            return true;
        }
        false
    }

    fn keepalive(&mut self, cx: &mut Cx) {
        let lease = self.lease.unwrap_or(0);
        cx.event(EventKind::Etcd(EtcdEvent::KeepAliveSent { lease }));
        self.send(cx, EtcdReq::KeepAlive { lease });
        // Not sent again until an answer moves the next one on.
        self.next_keepalive_ms = Millis::MAX;
    }

    fn close_session(&mut self, cx: &mut Cx) {
        self.session_done = true;
        cx.cancel(Timer::KeepAliveLoop);
        cx.cancel(Timer::DeadlineLoop);
    }

    fn write(&mut self, cx: &mut Cx) {
        let token = self.my_rev;
        match self.cfg.guard {
            Guard::None | Guard::Token => {
                cx.event(EventKind::WriteSent { token });
                cx.send(self.cfg.resource, ActorMsg::Write { token });
            }
            Guard::Txn => {
                cx.event(EventKind::Etcd(EtcdEvent::DataTxnSent { token }));
                let lease = self.lease.unwrap_or(0);
                self.send(cx, EtcdReq::DataTxn { lease, token });
            }
        }
    }

    fn locked(&mut self, cx: &mut Cx) {
        self.step = EtcdStep::Holding;
        cx.event(EventKind::Etcd(EtcdEvent::Locked { token: self.my_rev }));
        if self.cfg.write_every_ms <= self.cfg.work_ms {
            cx.set_own_timer(Timer::WriteDue, self.cfg.write_every_ms);
        }
        cx.set_own_timer(Timer::ReleaseDue, self.cfg.work_ms + self.cfg.write_ms);
    }

    fn read_ahead(&mut self, cx: &mut Cx) {
        self.step = EtcdStep::Reading;
        self.send(
            cx,
            EtcdReq::GetAhead {
                max_create_rev: self.my_rev - 1,
            },
        );
    }

    pub fn on_msg(&mut self, msg: ActorMsg, cx: &mut Cx) {
        let ActorMsg::EtcdReply(reply) = msg else {
            return;
        };
        let now = cx.now;
        match reply {
            EtcdReply::Granted { lease, ttl_s } => {
                self.lease = Some(lease);
                self.ttl_s = ttl_s;
                cx.event(EventKind::Etcd(EtcdEvent::SessionOpened { lease, ttl_s }));
                // The library's `KeepAlive`: the first one goes at once.
                self.deadline_ms = now + FIRST_KEEPALIVE_TIMEOUT_MS;
                self.keepalive(cx);
                cx.set_timer(Timer::KeepAliveLoop, KEEPALIVE_LOOP_MS);
                cx.set_timer(Timer::DeadlineLoop, DEADLINE_LOOP_MS);
                self.step = EtcdStep::Locking;
                cx.event(EventKind::Etcd(EtcdEvent::LockTxnSent {
                    key: lock_key(lease),
                }));
                self.send(cx, EtcdReq::LockTxn { lease });
            }
            EtcdReply::KeepAlive { .. } if self.session_done => {}
            EtcdReply::KeepAlive { lease, ttl_s: 0 } => {
                cx.event(EventKind::Etcd(EtcdEvent::KeepAliveNotFound { lease }));
                self.close_session(cx);
            }
            EtcdReply::KeepAlive { lease, ttl_s } => {
                self.deadline_ms = now + ttl_s * 1_000;
                self.next_keepalive_ms = next_keepalive_ms(now, ttl_s);
                cx.event(EventKind::Etcd(EtcdEvent::KeepAliveAnswered {
                    lease,
                    ttl_s,
                    deadline_ms: self.deadline_ms,
                }));
            }
            EtcdReply::LockTxn { my_rev, owner_rev } if self.step == EtcdStep::Locking => {
                self.my_rev = my_rev;
                cx.event(EventKind::Etcd(EtcdEvent::LockTxnAnswered {
                    my_rev,
                    owner_rev,
                }));
                if my_rev == 0 {
                    // The put failed: the leader no longer has the lease.
                    self.step = EtcdStep::Lost;
                } else if owner_rev == my_rev {
                    self.locked(cx);
                } else {
                    self.read_ahead(cx);
                }
            }
            EtcdReply::Ahead { ahead, revision } if self.step == EtcdStep::Reading => {
                cx.event(EventKind::Etcd(EtcdEvent::PredecessorRead {
                    ahead,
                    revision,
                }));
                match ahead {
                    None => {
                        self.ahead = None;
                        self.locked(cx);
                    }
                    Some((owner, create_rev)) => {
                        self.ahead = ahead;
                        self.step = EtcdStep::Waiting;
                        cx.event(EventKind::Etcd(EtcdEvent::WatchStarted {
                            owner,
                            create_rev,
                            from_rev: revision,
                        }));
                        self.send(
                            cx,
                            EtcdReq::Watch {
                                create_rev,
                                from_rev: revision,
                            },
                        );
                    }
                }
            }
            EtcdReply::Deleted {
                create_rev,
                delete_rev,
            } if self.step == EtcdStep::Waiting => {
                let owner = self.ahead.map_or(self.cfg.etcd, |(o, _)| o);
                cx.event(EventKind::Etcd(EtcdEvent::WatchFired {
                    owner,
                    create_rev,
                    delete_rev,
                }));
                self.read_ahead(cx);
            }
            EtcdReply::DataTxn { token, succeeded } => {
                cx.event(EventKind::Etcd(EtcdEvent::DataTxnAnswered {
                    token,
                    succeeded,
                }));
            }
            _ => {}
        }
    }
}
