//! A lease service (etcd- or Redis-like) for one lock: at most one live lease, renewed by
//! keepalives that arrive strictly before its deadline, with a fencing token that only grows.

use crate::engine::msg::{ActorMsg, Timer};
use crate::engine::time::Millis;
use crate::engine::trace::EventKind;
use crate::engine::world::{ActorId, Cx};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Lease {
    pub holder: ActorId,
    pub token: u64,
    /// `None` for a lease kept to the end of the run.
    pub deadline_ms: Option<Millis>,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct LeaseService {
    pub ttl_ms: Millis,
    pub lease: Option<Lease>,
    pub next_token: u64,
}

impl LeaseService {
    /// A service whose lock `holder` already holds with token 1, from time 0.
    pub fn held_by(holder: ActorId, ttl_ms: Millis) -> Self {
        Self {
            ttl_ms,
            lease: Some(Lease {
                holder,
                token: 1,
                deadline_ms: Some(ttl_ms),
            }),
            next_token: 2,
        }
    }

    pub fn on_start(&mut self, cx: &mut Cx) {
        if let Some(l) = self.lease {
            cx.event(EventKind::LeaseGranted {
                holder: l.holder,
                token: l.token,
                deadline_ms: l.deadline_ms,
            });
            if let Some(d) = l.deadline_ms {
                cx.set_timer_at(Timer::LeaseExpiry, d);
            }
        }
    }

    pub fn on_timer(&mut self, timer: Timer, cx: &mut Cx) {
        if timer == Timer::LeaseExpiry
            && let Some(l) = self.lease.take()
        {
            cx.event(EventKind::LeaseExpired { holder: l.holder });
        }
    }

    pub fn on_msg(&mut self, from: ActorId, msg: ActorMsg, cx: &mut Cx) {
        match msg {
            ActorMsg::Keepalive { .. } => match &mut self.lease {
                // An expiry due at this instant was handled first: "strictly before".
                Some(l) if l.holder == from => {
                    let deadline = cx.now + self.ttl_ms;
                    l.deadline_ms = Some(deadline);
                    cx.set_timer_at(Timer::LeaseExpiry, deadline);
                    cx.event(EventKind::KeepaliveRenewed {
                        deadline_ms: deadline,
                    });
                    cx.send(
                        from,
                        ActorMsg::Renewed {
                            deadline_ms: deadline,
                        },
                    );
                }
                _ => {
                    cx.event(EventKind::KeepaliveRefused);
                    cx.send(from, ActorMsg::Refused);
                }
            },
            ActorMsg::Release => match self.lease {
                Some(l) if l.holder == from => {
                    self.lease = None;
                    cx.cancel(Timer::LeaseExpiry);
                    cx.event(EventKind::Released { holder: from });
                }
                _ => cx.event(EventKind::ReleaseIgnored),
            },
            ActorMsg::Acquire => match self.lease {
                // Already granted; the grant is still on its way.
                Some(l) if l.holder == from => {}
                Some(l) => {
                    cx.event(EventKind::AcquireRefused { holder: l.holder });
                    cx.send(from, ActorMsg::Busy);
                }
                None => {
                    let token = self.next_token;
                    self.next_token += 1;
                    // The successor keeps its lease to the end of the run.
                    self.lease = Some(Lease {
                        holder: from,
                        token,
                        deadline_ms: None,
                    });
                    cx.event(EventKind::LeaseGranted {
                        holder: from,
                        token,
                        deadline_ms: None,
                    });
                    cx.send(
                        from,
                        ActorMsg::Granted {
                            token,
                            deadline_ms: None,
                        },
                    );
                }
            },
            _ => {}
        }
    }
}
