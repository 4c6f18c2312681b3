//! The client library side of a ZooKeeper session, as a lock recipe uses it.
//!
//! * Requests go out on the session's one connection and are answered in order.
//! * The library pings every third of the session timeout and declares the connection lost
//!   when it has heard nothing for two thirds of it (the read timeout). Until then a cut link
//!   goes unnoticed: the client keeps acting on what it believes.
//! * Once it knows the connection is lost, it closes it: every request in flight fails with a
//!   connection loss (its outcome is unknown: the service may have applied it), and so does any
//!   new request until the connection is back. It tries a new connection at once and again every
//!   third of the session timeout; the service then answers that the session is still valid (and
//!   re-arms its watches) or that it has expired.
//! * After an expiry every call fails the same way: the handle is dead.

use smallvec::SmallVec;

use super::tree::{SessionId, WatchEvent, Watched};
use crate::engine::msg::{ActorMsg, Timer, ZkOp, ZkResult};
use crate::engine::time::Millis;
use crate::engine::trace::EventKind;
use crate::engine::trace::event::Request;
use crate::engine::world::{ActorId, Cx};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ConnState {
    Connected,
    /// The connection is known to be lost; a reconnect is on its way or due.
    Reconnecting,
    Expired,
    /// The old session expired and a new one has been asked for.
    Opening,
    Closed,
}

/// What the library tells the recipe.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LibEvent {
    Reply {
        xid: u32,
        request: Request,
        result: ZkResult,
    },
    /// A request failed with a connection loss: its outcome is unknown.
    Lost {
        xid: u32,
        request: Request,
    },
    Watch {
        target: Watched,
        event: WatchEvent,
    },
    Disconnected,
    Reconnected,
    Expired,
    /// A new session replaced the expired one.
    NewSession,
}

/// An actor that reaches the service through its own [`ZkConn`]. Messages, the connection's
/// timers and resets pass through the client library first; what it makes of them comes back to
/// the actor as [`LibEvent`]s, as a real client library's callbacks would.
pub trait ThroughConn {
    fn conn_mut(&mut self) -> &mut ZkConn;

    /// What the library reported, in order.
    fn on_lib_events(&mut self, events: Vec<LibEvent>, cx: &mut Cx);

    /// A message from the service.
    fn conn_msg(&mut self, msg: ActorMsg, cx: &mut Cx) {
        let mut out = Vec::new();
        self.conn_mut().on_msg(msg, cx, &mut out);
        self.on_lib_events(out, cx);
    }

    /// One of the connection's own timers (ping, read timeout, reconnect).
    fn conn_timer(&mut self, timer: Timer, cx: &mut Cx) {
        let mut out = Vec::new();
        self.conn_mut().on_timer(timer, cx, &mut out);
        self.on_lib_events(out, cx);
    }

    /// The network dropped the connection.
    fn conn_reset(&mut self, cx: &mut Cx) {
        let mut out = Vec::new();
        self.conn_mut().on_reset(cx, &mut out);
        self.on_lib_events(out, cx);
    }
}

/// Records a watch firing and, when the actor was waiting on that very node, that it woke up.
/// Returns whether it must read again: a wake-up is not a grant.
pub fn woken(target: Watched, event: WatchEvent, waiting_on: Option<Watched>, cx: &mut Cx) -> bool {
    cx.event(EventKind::Notified { target, event });
    let woke = waiting_on == Some(target);
    if woke {
        cx.event(EventKind::WokeUp { target });
    }
    woke
}

/// Why a request could not be sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NotSent {
    /// Disconnected: fails at once with a connection loss.
    ConnectionLoss,
    SessionExpired,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ZkConn {
    pub service: ActorId,
    pub session: SessionId,
    pub timeout_ms: Millis,
    pub state: ConnState,
    pub next_xid: u32,
    /// Requests sent and not yet answered, oldest first.
    pub pending: SmallVec<[(u32, Request); 4]>,
    /// Watches the client believes are armed, to re-arm after a reconnect.
    pub watches: SmallVec<[Watched; 2]>,
    pub last_zxid: u64,
    pub last_heard_ms: Millis,
}

fn request_of(op: &ZkOp) -> Option<Request> {
    Some(match op {
        ZkOp::Create { .. } => Request::Create,
        ZkOp::GetChildren { .. } => Request::GetChildren,
        ZkOp::Exists { .. } => Request::Exists,
        ZkOp::Delete { .. } => Request::Delete,
        ZkOp::SetData { .. } => Request::SetData,
        ZkOp::GetData { .. } => Request::GetData,
        ZkOp::Close => Request::Close,
        ZkOp::Ping | ZkOp::Connect { .. } | ZkOp::NewSession { .. } => return None,
    })
}

impl ZkConn {
    pub fn new(service: ActorId, session: SessionId, timeout_ms: Millis) -> Self {
        Self {
            service,
            session,
            timeout_ms,
            state: ConnState::Connected,
            next_xid: 1,
            pending: SmallVec::new(),
            watches: SmallVec::new(),
            last_zxid: 0,
            last_heard_ms: 0,
        }
    }

    pub fn ping_interval(&self) -> Millis {
        (self.timeout_ms / 3).max(1)
    }

    pub fn read_timeout(&self) -> Millis {
        (self.timeout_ms * 2 / 3).max(1)
    }

    pub fn is_connected(&self) -> bool {
        self.state == ConnState::Connected
    }

    pub fn start(&mut self, requested_ms: Millis, cx: &mut Cx) {
        cx.event(EventKind::SessionOpened {
            session: self.session,
            requested_ms,
            granted_ms: self.timeout_ms,
        });
        cx.set_timer(Timer::Ping, self.ping_interval());
        cx.set_timer(Timer::ReadTimeout, self.read_timeout());
    }

    /// Sends a request, or says why it cannot go out.
    pub fn request(&mut self, op: ZkOp, cx: &mut Cx) -> Result<u32, NotSent> {
        match self.state {
            ConnState::Connected => {}
            ConnState::Expired | ConnState::Closed => return Err(NotSent::SessionExpired),
            // Waiting for the new session reads the same to a caller as a broken connection.
            ConnState::Opening => return Err(NotSent::ConnectionLoss),
            ConnState::Reconnecting => {
                if let Some(request) = request_of(&op) {
                    cx.event(EventKind::ConnectionLoss { request });
                }
                return Err(NotSent::ConnectionLoss);
            }
        }
        let xid = self.next_xid;
        self.next_xid += 1;
        if let Some(r) = request_of(&op) {
            self.pending.push((xid, r));
        }
        cx.send(
            self.service,
            ActorMsg::ZkRequest {
                session: self.session,
                xid,
                op,
            },
        );
        Ok(xid)
    }

    /// Ends the session on purpose: the service deletes its nodes at once.
    pub fn close(&mut self, cx: &mut Cx) {
        if self.state == ConnState::Connected {
            let _ = self.request(ZkOp::Close, cx);
        }
        self.state = ConnState::Closed;
        self.stop_timers(cx);
    }

    fn stop_timers(&self, cx: &mut Cx) {
        cx.cancel(Timer::Ping);
        cx.cancel(Timer::ReadTimeout);
        cx.cancel(Timer::Reconnect);
    }

    /// Remembers the watch a request set once the service has answered it.
    fn note_watch(&mut self, target: Watched) {
        if !self.watches.contains(&target) {
            self.watches.push(target);
        }
    }

    /// Asks the service for a new session in place of the expired one. Only a call that retries
    /// on expiry does this; the lock recipe never does.
    pub fn open_new_session(&mut self, cx: &mut Cx) {
        if self.state != ConnState::Expired {
            return;
        }
        self.state = ConnState::Opening;
        let xid = self.next_xid;
        self.next_xid += 1;
        cx.send(
            self.service,
            ActorMsg::ZkRequest {
                session: self.session,
                xid,
                op: ZkOp::NewSession {
                    requested_ms: self.timeout_ms,
                },
            },
        );
    }

    /// A message from the service.
    pub fn on_msg(&mut self, msg: ActorMsg, cx: &mut Cx, out: &mut Vec<LibEvent>) {
        if matches!(self.state, ConnState::Closed | ConnState::Expired) {
            return;
        }
        if self.state == ConnState::Opening {
            // Everything still addressed to the old session is moot.
            if let ActorMsg::ZkReply {
                zxid,
                result:
                    ZkResult::SessionOpened {
                        session,
                        timeout_ms,
                    },
                ..
            } = msg
            {
                self.session = session;
                self.timeout_ms = timeout_ms;
                self.last_zxid = self.last_zxid.max(zxid);
                self.state = ConnState::Connected;
                self.start(timeout_ms, cx);
                self.last_heard_ms = cx.now;
                out.push(LibEvent::NewSession);
            }
            return;
        }
        self.last_heard_ms = cx.now;
        cx.set_timer(Timer::ReadTimeout, self.read_timeout());
        match msg {
            ActorMsg::ZkReply { xid, zxid, result } => {
                self.last_zxid = self.last_zxid.max(zxid);
                match result {
                    ZkResult::SessionExpired => self.expire(cx, out),
                    ZkResult::Connected => {
                        self.state = ConnState::Connected;
                        cx.cancel(Timer::Reconnect);
                        cx.set_timer(Timer::Ping, self.ping_interval());
                        cx.event(EventKind::Reconnected);
                        out.push(LibEvent::Reconnected);
                    }
                    ZkResult::Pong => {}
                    result => {
                        let Some(i) = self.pending.iter().position(|(x, _)| *x == xid) else {
                            return;
                        };
                        let (_, request) = self.pending.remove(i);
                        out.push(LibEvent::Reply {
                            xid,
                            request,
                            result,
                        });
                    }
                }
            }
            ActorMsg::ZkWatch {
                event,
                target,
                zxid,
            } => {
                self.last_zxid = self.last_zxid.max(zxid);
                self.watches.retain(|w| *w != target);
                out.push(LibEvent::Watch { target, event });
            }
            _ => {}
        }
    }

    /// Records that a read set a watch (the recipe calls this when it sees the reply).
    pub fn watch_armed(&mut self, target: Watched) {
        self.note_watch(target);
    }

    pub fn on_timer(&mut self, timer: Timer, cx: &mut Cx, out: &mut Vec<LibEvent>) {
        match (timer, self.state) {
            (Timer::Ping, ConnState::Connected) => {
                let _ = self.request(ZkOp::Ping, cx);
                cx.set_timer(Timer::Ping, self.ping_interval());
            }
            (Timer::ReadTimeout, ConnState::Connected) => {
                cx.event(EventKind::NoticedDisconnect {
                    silent_ms: cx.now.saturating_sub(self.last_heard_ms),
                });
                self.lose_connection(cx, out);
            }
            (Timer::Reconnect, ConnState::Reconnecting) => {
                // The last attempt got no answer: abandon that connection, try a new one.
                cx.teardown();
                self.reconnect(cx);
            }
            _ => {}
        }
    }

    /// The connection broke and the library knows it at once.
    pub fn on_reset(&mut self, cx: &mut Cx, out: &mut Vec<LibEvent>) {
        if self.state == ConnState::Connected {
            self.lose_connection(cx, out);
        }
    }

    fn lose_connection(&mut self, cx: &mut Cx, out: &mut Vec<LibEvent>) {
        self.state = ConnState::Reconnecting;
        cx.teardown();
        cx.cancel(Timer::Ping);
        cx.cancel(Timer::ReadTimeout);
        out.push(LibEvent::Disconnected);
        for (xid, request) in std::mem::take(&mut self.pending) {
            cx.event(EventKind::ConnectionLoss { request });
            out.push(LibEvent::Lost { xid, request });
        }
        self.reconnect(cx);
    }

    fn reconnect(&mut self, cx: &mut Cx) {
        cx.event(EventKind::Reconnecting);
        let xid = self.next_xid;
        self.next_xid += 1;
        cx.send(
            self.service,
            ActorMsg::ZkRequest {
                session: self.session,
                xid,
                op: ZkOp::Connect {
                    last_zxid: self.last_zxid,
                    watches: self.watches.to_vec(),
                },
            },
        );
        cx.set_timer(Timer::Reconnect, self.ping_interval());
    }

    fn expire(&mut self, cx: &mut Cx, out: &mut Vec<LibEvent>) {
        if self.state == ConnState::Expired {
            return;
        }
        self.state = ConnState::Expired;
        self.stop_timers(cx);
        self.pending.clear();
        self.watches.clear();
        cx.event(EventKind::LearnedSessionExpired);
        out.push(LibEvent::Expired);
    }
}
