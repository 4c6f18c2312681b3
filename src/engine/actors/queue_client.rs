//! A client of a read-write lock or a semaphore on the ZooKeeper queue: the same service, the
//! same client library, and an eligibility rule per role.
//!
//! * A writer holds when its node is first; otherwise it watches the node just before its own.
//! * A fair reader holds when no write node comes before its own; otherwise it watches the last
//!   write node before it.
//! * The reader-preferring variant: a reader skips writers that are only waiting, and a writer
//!   yields to readers. A writer takes the lock only when no read node exists at all; it claims
//!   it by bumping its own node's version to an odd number, reads again, and backs off (another
//!   bump, to even) if a reader appeared meanwhile. A reader goes in unless the first writer's
//!   version is odd. Readers that keep coming starve the writer.
//! * A permit holder holds when its node is among the first `permits`; otherwise it watches the
//!   children (any change may free a permit) and reads again.

use crate::engine::msg::{ActorMsg, ChildName, Timer, ZkOp, ZkResult};
use crate::engine::params::{ReadRule, Want};
use crate::engine::time::Millis;
use crate::engine::trace::EventKind;
use crate::engine::trace::event::{Admission, Request};
use crate::engine::world::Cx;
use crate::engine::zk::client::{LibEvent, NotSent, ThroughConn, ZkConn, woken};
use crate::engine::zk::tree::{DirId, NodeId, Tag, Watched};

/// What a queue client is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Role {
    Reader(ReadRule),
    Writer,
    /// One of `permits` holders of a semaphore.
    Permit(u32),
}

impl Role {
    pub fn tag(self) -> Tag {
        match self {
            Role::Reader(_) => Tag::Read,
            Role::Writer => Tag::Write,
            Role::Permit(_) => Tag::Lease,
        }
    }

    pub fn from_want(want: Want, rule: ReadRule) -> Self {
        match want {
            Want::Read => Role::Reader(rule),
            Want::Write => Role::Writer,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum QStep {
    Idle,
    Creating,
    Reading,
    /// A yielding writer bumping its own node's version to claim or back off.
    Claiming,
    Checking(NodeId),
    Waiting(Watched),
    Holding,
    Released,
    Lost,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct QueueClient {
    pub role: Role,
    pub dir: DirId,
    pub start_ms: Millis,
    pub hold_ms: Millis,
    pub requested_timeout_ms: Millis,
    pub conn: ZkConn,
    pub guid: u32,
    pub step: QStep,
    pub node: Option<NodeId>,
    pub token: u64,
    /// When it asked (its create), for the writer's wait.
    pub asked_at: Option<Millis>,
    /// A writer in a lock whose readers skip waiting writers: it yields to readers.
    pub writers_yield: bool,
    /// A yielding writer's node version: odd while it claims or holds the lock.
    pub version: i32,
    create_xid: u32,
}

impl QueueClient {
    pub fn new(
        role: Role,
        dir: DirId,
        start_ms: Millis,
        hold_ms: Millis,
        requested_timeout_ms: Millis,
        conn: ZkConn,
        guid: u32,
    ) -> Self {
        Self {
            role,
            dir,
            start_ms,
            hold_ms,
            requested_timeout_ms,
            conn,
            guid,
            step: QStep::Idle,
            node: None,
            token: 0,
            asked_at: None,
            writers_yield: false,
            version: 0,
            create_xid: 0,
        }
    }

    pub fn watching(&self) -> Option<Watched> {
        match self.step {
            QStep::Waiting(w) => Some(w),
            _ => None,
        }
    }

    pub fn on_start(&mut self, cx: &mut Cx) {
        self.conn.start(self.requested_timeout_ms, cx);
        cx.set_timer_at(Timer::Start, self.start_ms);
    }

    pub fn on_timer(&mut self, timer: Timer, cx: &mut Cx) {
        match timer {
            Timer::Start if self.step == QStep::Idle => self.create(cx),
            Timer::ReleaseDue if self.step == QStep::Holding => self.release(cx),
            Timer::Ping | Timer::ReadTimeout | Timer::Reconnect => self.conn_timer(timer, cx),
            _ => {}
        }
    }

    pub fn on_msg(&mut self, msg: ActorMsg, cx: &mut Cx) {
        self.conn_msg(msg, cx);
    }

    pub fn on_connection_reset(&mut self, cx: &mut Cx) {
        self.conn_reset(cx);
    }

    fn handle(&mut self, events: Vec<LibEvent>, cx: &mut Cx) {
        for e in events {
            match e {
                LibEvent::Reply {
                    xid,
                    request,
                    result,
                } => self.on_reply(xid, request, result, cx),
                LibEvent::Watch { target, event } => {
                    let waiting_on = match self.step {
                        QStep::Waiting(t) => Some(t),
                        _ => None,
                    };
                    if woken(target, event, waiting_on, cx) {
                        self.read(cx);
                    }
                }
                // A read or check lost to a dropped connection is redone once it is back; a
                // create lost that way is left to the lock family, which teaches it.
                LibEvent::Lost { .. } | LibEvent::Disconnected | LibEvent::NewSession => {}
                LibEvent::Reconnected => {
                    if matches!(self.step, QStep::Reading | QStep::Checking(_)) {
                        self.read(cx);
                    }
                }
                LibEvent::Expired => self.lose(cx),
            }
        }
    }

    fn create(&mut self, cx: &mut Cx) {
        self.step = QStep::Creating;
        self.asked_at = Some(cx.now);
        cx.event(EventKind::CreateSent { guid: self.guid });
        let op = ZkOp::Create {
            dir: self.dir,
            tag: self.role.tag(),
            guid: self.guid,
        };
        match self.conn.request(op, cx) {
            Ok(xid) => self.create_xid = xid,
            Err(_) => self.lose(cx),
        }
    }

    fn read(&mut self, cx: &mut Cx) {
        self.step = QStep::Reading;
        let watch = matches!(self.role, Role::Permit(_))
            || (self.role == Role::Writer && self.writers_yield);
        let op = ZkOp::GetChildren {
            dir: self.dir,
            watch,
        };
        if let Err(NotSent::SessionExpired) = self.conn.request(op, cx) {
            self.lose(cx);
        }
    }

    fn on_reply(&mut self, xid: u32, request: Request, result: ZkResult, cx: &mut Cx) {
        if matches!(self.step, QStep::Lost | QStep::Released) {
            return;
        }
        match (request, result) {
            (Request::Create, ZkResult::Created { node, czxid }) if xid == self.create_xid => {
                cx.event(EventKind::GotNode { node });
                self.node = Some(node);
                self.token = czxid;
                self.read(cx);
            }
            (Request::GetChildren, ZkResult::Children { mut children })
                if self.step == QStep::Reading =>
            {
                children.sort_by_key(|c| c.seq);
                self.decide(&children, cx);
            }
            (Request::SetData, ZkResult::Set { version }) => {
                self.version = version;
                if self.step == QStep::Claiming {
                    // Read again: a reader that came meanwhile makes it back off.
                    self.read(cx);
                }
            }
            (Request::Exists, ZkResult::Exists { stat }) => {
                if let QStep::Checking(node) = self.step {
                    cx.event(EventKind::ExistsChecked {
                        node,
                        exists: stat.is_some(),
                    });
                    if stat.is_some_and(|s| skips_writer(self.role, s.version)) {
                        // The writer only waits: go past it.
                        self.hold(
                            Some(Admission::Read {
                                skipped: Some(node),
                            }),
                            cx,
                        );
                        return;
                    }
                    if stat.is_some() {
                        self.conn.watch_armed(Watched::Node(node));
                        cx.event(EventKind::Waiting {
                            on: Watched::Node(node),
                        });
                        self.step = QStep::Waiting(Watched::Node(node));
                    } else {
                        self.read(cx);
                    }
                }
            }
            _ => {}
        }
    }

    /// Applies this role's rule to the sorted children.
    fn decide(&mut self, children: &[ChildName], cx: &mut Cx) {
        let nodes: Vec<NodeId> = children.iter().map(|c| c.node).collect();
        let mine = self.node;
        cx.event_with(|| EventKind::ChildrenRead {
            children: nodes.clone(),
            mine,
        });
        let Some(idx) = mine.and_then(|m| nodes.iter().position(|n| *n == m)) else {
            self.lose(cx);
            return;
        };
        match rule(self.role, self.writers_yield, self.version, children, idx) {
            Decision::WatchChildren { back_off } => {
                if back_off {
                    self.bump_version(cx);
                }
                let target = Watched::Children(self.dir);
                self.conn.watch_armed(target);
                cx.event(EventKind::WatchChildren);
                self.step = QStep::Waiting(target);
            }
            Decision::Claim => self.bump_version(cx),
            Decision::Hold(how) => self.hold(how, cx),
            Decision::Check(node) => {
                self.step = QStep::Checking(node);
                let op = ZkOp::Exists { node, watch: true };
                if let Err(NotSent::SessionExpired) = self.conn.request(op, cx) {
                    self.lose(cx);
                }
            }
        }
    }

    /// Bumps this writer's own node version: odd claims the lock, even gives the claim up.
    fn bump_version(&mut self, cx: &mut Cx) {
        let Some(node) = self.node else {
            return;
        };
        self.step = QStep::Claiming;
        let op = ZkOp::SetData {
            node,
            version: self.version,
            data: 0,
        };
        if let Err(NotSent::SessionExpired) = self.conn.request(op, cx) {
            self.lose(cx);
        }
    }

    fn hold(&mut self, how: Option<Admission>, cx: &mut Cx) {
        let Some(node) = self.node else {
            return;
        };
        let token = self.token;
        cx.event(match how {
            None => EventKind::Acquired { node, token },
            Some(how) => EventKind::Admitted { node, token, how },
        });
        self.step = QStep::Holding;
        cx.set_timer(Timer::ReleaseDue, self.hold_ms);
    }

    fn release(&mut self, cx: &mut Cx) {
        if let Some(node) = self.node {
            cx.event(EventKind::ReleaseSent { node });
            let _ = self.conn.request(ZkOp::Delete { node, version: -1 }, cx);
        }
        self.conn.close(cx);
        self.step = QStep::Released;
    }

    fn lose(&mut self, cx: &mut Cx) {
        if matches!(self.step, QStep::Released | QStep::Lost) {
            return;
        }
        self.step = QStep::Lost;
        cx.cancel(Timer::ReleaseDue);
    }
}

impl ThroughConn for QueueClient {
    fn conn_mut(&mut self) -> &mut ZkConn {
        &mut self.conn
    }
    fn on_lib_events(&mut self, events: Vec<LibEvent>, cx: &mut Cx) {
        self.handle(events, cx);
    }
}

/// What a queue client does after reading the children: the recipe's one rule, which the
/// model's client and the live lab's real sessions both follow.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decision {
    /// It holds now (`None`: a writer's exclusive grant).
    Hold(Option<Admission>),
    /// Check this node with a watch and wait for it to go (or, for a reader that skips waiting
    /// writers, look at its version).
    Check(NodeId),
    /// Wait for any change of the directory (the read armed the watch); a yielding writer
    /// that had claimed first backs off (bumps its version back to even).
    WatchChildren { back_off: bool },
    /// A yielding writer claims the lock: bump its own node's version to odd and read again.
    Claim,
}

/// The rule for `role` whose node is `children[idx]` (children sorted by sequence number);
/// `version`: a yielding writer's own node version (odd while it claims).
pub fn rule(
    role: Role,
    writers_yield: bool,
    version: i32,
    children: &[ChildName],
    idx: usize,
) -> Decision {
    let ahead = &children[..idx];
    let wait_on = match role {
        Role::Writer if writers_yield => {
            let readers = children.iter().any(|c| c.tag == Tag::Read);
            let claimed = version % 2 == 1;
            if readers {
                // Wait for the readers to go, backing off first if a reader came while this
                // writer claimed.
                return Decision::WatchChildren { back_off: claimed };
            }
            match ahead.iter().rev().find(|c| c.tag == Tag::Write) {
                Some(w) => Some(w.node),
                None if claimed => None,
                None => return Decision::Claim,
            }
        }
        Role::Writer => ahead.last().map(|c| c.node),
        Role::Reader(ReadRule::Fair) => ahead
            .iter()
            .rev()
            .find(|c| c.tag == Tag::Write)
            .map(|c| c.node),
        // Look at the first writer: it stops this reader only if it claims the lock.
        Role::Reader(ReadRule::SkipWaitingWriters) => children
            .iter()
            .find(|c| c.tag == Tag::Write)
            .map(|c| c.node),
        Role::Permit(permits) => {
            if idx >= permits as usize {
                // Any change may free a permit.
                return Decision::WatchChildren { back_off: false };
            }
            None
        }
    };
    match wait_on {
        Some(node) => Decision::Check(node),
        None => Decision::Hold(match role {
            Role::Writer => None,
            Role::Reader(_) => Some(Admission::Read { skipped: None }),
            Role::Permit(permits) => Some(Admission::Permit {
                place: idx as u32 + 1,
                permits,
            }),
        }),
    }
}

/// Whether a reader that skips waiting writers goes past the writer it checked: its version
/// is even, so the writer only waits.
pub fn skips_writer(role: Role, version: i32) -> bool {
    role == Role::Reader(ReadRule::SkipWaitingWriters) && version % 2 == 0
}
