//! A lock client running the ZooKeeper lock recipe on one lock directory, with every variant
//! as an option so one scenario can show the right way and the broken ways.
//!
//! Create an ephemeral sequential node named with a GUID; read the children; the lowest holds
//! the lock; otherwise watch the node ahead (or the whole directory) and, when woken, read
//! again, since a wake-up is not a grant. The holder writes to the protected resource with its
//! fencing token, then releases by deleting its node and closing its session.

use crate::engine::msg::{ActorMsg, ChildName, Timer, ZkOp, ZkResult};
use crate::engine::trace::EventKind;
use crate::engine::trace::event::Request;
use crate::engine::world::Cx;
use crate::engine::zk::client::{LibEvent, NotSent, ThroughConn, ZkConn, woken};
use crate::engine::zk::tree::{NodeId, Tag, Watched};

mod data;
mod holding;

pub use data::DataClient;

pub use super::recipe::{
    OnDisconnect, OnLoss, OnTimeout, Recipe, Recovery, Registration, TokenSource, WatchMode,
};

/// Where the client is in the recipe.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Step {
    Idle,
    Creating,
    /// The create's outcome is unknown; recovery waits for the connection.
    Unknown,
    /// Reading the children to find its node by GUID.
    Recovering,
    /// Reading its recovered node's metadata for the token.
    Confirming,
    Reading,
    Checking(NodeId),
    Waiting(Watched),
    Holding,
    Released,
    Lost,
    /// Stopped waiting; with [`OnTimeout::Forget`] its node is still in the queue.
    GaveUp,
}

/// Work a connection loss interrupted, to redo once the connection is back.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Redo {
    Read,
    Recover,
    Revalidate,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct LockClient {
    pub recipe: Recipe,
    pub conn: ZkConn,
    pub step: Step,
    pub guid: u32,
    pub node: Option<NodeId>,
    pub token: u64,
    /// A holder that knows it is disconnected holds back its write and release.
    pub suspended: bool,
    pub knows_expired: bool,
    pub wrote: bool,
    pub write_pending: bool,
    pub release_pending: bool,
    /// Set while the holder re-reads the children after a reconnect, before resuming.
    revalidating: bool,
    redo: Option<Redo>,
    create_xid: u32,
    /// The data node this client updates while it holds, if the run has one.
    pub data: DataClient,
}

impl LockClient {
    pub fn new(recipe: Recipe, conn: ZkConn, guid: u32) -> Self {
        Self {
            recipe,
            conn,
            step: Step::Idle,
            guid,
            node: None,
            token: 0,
            suspended: false,
            knows_expired: false,
            wrote: false,
            write_pending: false,
            release_pending: false,
            revalidating: false,
            redo: None,
            create_xid: 0,
            data: DataClient::default(),
        }
    }

    /// The node this client waits on or watches, if it is waiting.
    pub fn watching(&self) -> Option<Watched> {
        match self.step {
            Step::Waiting(w) => Some(w),
            _ => None,
        }
    }

    pub fn on_start(&mut self, cx: &mut Cx) {
        self.conn.start(self.recipe.requested_timeout_ms, cx);
        cx.set_timer_at(Timer::Start, self.recipe.start_ms);
        if let Some(t) = self.recipe.acquire_timeout_ms {
            cx.set_timer_at(Timer::AcquireTimeout, self.recipe.start_ms + t);
        }
    }

    /// A client that gave up but left its node in the queue: nobody will ever delete it while
    /// the session lives.
    pub fn abandoned_node(&self) -> Option<NodeId> {
        (self.step == Step::GaveUp && self.recipe.on_timeout == OnTimeout::Forget)
            .then_some(self.node)
            .flatten()
    }

    fn give_up(&mut self, cx: &mut Cx) {
        if matches!(
            self.step,
            Step::Holding | Step::Released | Step::Lost | Step::GaveUp
        ) {
            return;
        }
        let delete = self.recipe.on_timeout == OnTimeout::DeleteNode;
        cx.event(EventKind::AcquireTimedOut { deleted: delete });
        // The node stays recorded as this client's: deleted or not, it was no duplicate.
        if delete && let Some(node) = self.node {
            let _ = self.conn.request(ZkOp::Delete { node, version: -1 }, cx);
        }
        self.redo = None;
        self.step = Step::GaveUp;
    }

    pub fn on_timer(&mut self, timer: Timer, cx: &mut Cx) {
        match timer {
            Timer::Start if self.step == Step::Idle => self.create(cx),
            Timer::WriteDue => self.write_due(cx),
            Timer::ReleaseDue => self.release_due(cx),
            Timer::AcquireTimeout => self.give_up(cx),
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

    /// The holder finishes its work early and releases now.
    pub fn on_release_now(&mut self, cx: &mut Cx) {
        if self.step == Step::Holding {
            cx.event(EventKind::ReleasedEarly);
            cx.cancel(Timer::WriteDue);
            cx.cancel(Timer::ReleaseDue);
            self.release(cx);
        }
    }

    fn handle(&mut self, events: Vec<LibEvent>, cx: &mut Cx) {
        for e in events {
            match e {
                LibEvent::Reply {
                    xid,
                    request,
                    result,
                } => self.on_reply(xid, request, result, cx),
                LibEvent::Lost { xid, request } => self.on_lost(xid, request, cx),
                LibEvent::Watch { target, event } => {
                    let waiting_on = match self.step {
                        Step::Waiting(t) => Some(t),
                        _ => None,
                    };
                    if woken(target, event, waiting_on, cx) {
                        // A wake-up is not a grant: read again and decide.
                        self.read(cx);
                    }
                }
                LibEvent::Disconnected => {
                    if self.step == Step::Holding
                        && self.recipe.on_disconnect == OnDisconnect::Suspend
                        && !self.suspended
                    {
                        self.suspended = true;
                        cx.event(EventKind::Suspended);
                    }
                }
                LibEvent::Reconnected => {
                    self.data_resume(cx);
                    self.on_reconnected(cx);
                }
                LibEvent::Expired => {
                    self.knows_expired = true;
                    self.lose(cx);
                    self.data_expired(cx);
                }
                LibEvent::NewSession => self.data_resume(cx),
            }
        }
    }

    fn send(&mut self, op: ZkOp, redo: Redo, cx: &mut Cx) -> Option<u32> {
        match self.conn.request(op, cx) {
            Ok(xid) => Some(xid),
            Err(NotSent::ConnectionLoss) => {
                self.redo = Some(redo);
                None
            }
            Err(NotSent::SessionExpired) => {
                self.knows_expired = true;
                self.lose(cx);
                None
            }
        }
    }

    fn create(&mut self, cx: &mut Cx) {
        self.step = Step::Creating;
        cx.event(EventKind::CreateSent { guid: self.guid });
        let op = ZkOp::Create {
            dir: self.recipe.dir,
            tag: Tag::Lock,
            guid: self.guid,
        };
        match self.conn.request(op, cx) {
            Ok(xid) => self.create_xid = xid,
            Err(NotSent::ConnectionLoss) => self.outcome_unknown(cx),
            Err(NotSent::SessionExpired) => {
                self.knows_expired = true;
                self.lose(cx);
            }
        }
    }

    fn outcome_unknown(&mut self, cx: &mut Cx) {
        cx.event(EventKind::CreateOutcomeUnknown);
        self.step = Step::Unknown;
        self.redo = Some(Redo::Recover);
        if self.conn.is_connected() {
            self.on_reconnected(cx);
        }
    }

    fn read(&mut self, cx: &mut Cx) {
        if self.step != Step::Holding {
            self.step = Step::Reading;
        }
        let watch = self.recipe.watch == WatchMode::Children && self.step != Step::Holding;
        let op = ZkOp::GetChildren {
            dir: self.recipe.dir,
            watch,
        };
        let redo = if self.revalidating {
            Redo::Revalidate
        } else {
            Redo::Read
        };
        self.send(op, redo, cx);
    }

    fn on_reconnected(&mut self, cx: &mut Cx) {
        if self.step == Step::GaveUp {
            self.redo = None;
            return;
        }
        if self.suspended && self.step == Step::Holding && !self.revalidating {
            self.revalidating = true;
            self.read(cx);
            return;
        }
        match self.redo.take() {
            Some(Redo::Recover) => match self.recipe.recovery {
                Recovery::Guid => {
                    self.step = Step::Recovering;
                    let op = ZkOp::GetChildren {
                        dir: self.recipe.dir,
                        watch: false,
                    };
                    self.send(op, Redo::Recover, cx);
                }
                Recovery::Blind => {
                    // The first attempt's node, if the service made one, is now nobody's.
                    self.guid = cx.random_u32();
                    self.create(cx);
                }
            },
            Some(Redo::Read) => self.read(cx),
            Some(Redo::Revalidate) => {
                self.revalidating = true;
                self.read(cx);
            }
            None => {}
        }
        if self.release_pending && !self.suspended && !self.write_pending {
            self.release_pending = false;
            self.release(cx);
        }
    }

    fn on_lost(&mut self, xid: u32, request: Request, cx: &mut Cx) {
        if self.data_lost(request) {
            return;
        }
        match (request, self.step) {
            (Request::Create, Step::Creating) if xid == self.create_xid => self.outcome_unknown(cx),
            (Request::GetChildren, Step::Recovering) => self.redo = Some(Redo::Recover),
            (Request::Exists, Step::Confirming) => self.redo = Some(Redo::Recover),
            (Request::GetChildren, _) if self.revalidating => self.redo = Some(Redo::Revalidate),
            (Request::GetChildren | Request::Exists, Step::Reading | Step::Checking(_)) => {
                self.redo = Some(Redo::Read)
            }
            _ => {}
        }
    }

    fn on_reply(&mut self, xid: u32, request: Request, result: ZkResult, cx: &mut Cx) {
        if self.data_reply(request, &result, cx) {
            return;
        }
        if self.step == Step::GaveUp {
            // A create that succeeds after the client gave up still leaves a node behind.
            if let (Request::Create, ZkResult::Created { node, .. }) = (request, result)
                && xid == self.create_xid
            {
                if self.recipe.on_timeout == OnTimeout::DeleteNode {
                    let _ = self.conn.request(ZkOp::Delete { node, version: -1 }, cx);
                } else {
                    self.node = Some(node);
                }
            }
            return;
        }
        if matches!(self.step, Step::Lost | Step::Released) {
            return;
        }
        match (request, result) {
            (Request::Create, ZkResult::Created { node, czxid }) if xid == self.create_xid => {
                if self.step != Step::Creating {
                    return;
                }
                cx.event(EventKind::GotNode { node });
                self.node = Some(node);
                self.token = czxid;
                self.read(cx);
            }
            (Request::GetChildren, ZkResult::Children { mut children }) => {
                // The lowest sequence number is first, as the recipe reads its names.
                children.sort_by_key(|c| c.seq);
                match self.step {
                    Step::Recovering => self.recovered(&children, cx),
                    Step::Reading | Step::Holding => self.children_read(&children, cx),
                    _ => {}
                }
            }
            (Request::Exists, ZkResult::Exists { stat }) => match self.step {
                Step::Confirming => match stat {
                    Some(s) => {
                        self.token = s.czxid;
                        self.read(cx);
                    }
                    None => self.lose(cx),
                },
                Step::Checking(node) => {
                    cx.event(EventKind::ExistsChecked {
                        node,
                        exists: stat.is_some(),
                    });
                    self.conn.watch_armed(Watched::Node(node));
                    if stat.is_some() || self.recipe.registration == Registration::TwoStep {
                        // The broken two-step recipe trusts its earlier read and waits anyway.
                        cx.event(EventKind::Waiting {
                            on: Watched::Node(node),
                        });
                        self.step = Step::Waiting(Watched::Node(node));
                    } else {
                        self.read(cx);
                    }
                }
                _ => {}
            },
            _ => {}
        }
    }

    /// GUID recovery: find this request's node among the children.
    fn recovered(&mut self, children: &[ChildName], cx: &mut Cx) {
        let mine: Vec<NodeId> = children
            .iter()
            .filter(|c| c.guid == self.guid)
            .map(|c| c.node)
            .collect();
        let Some((&keep, extras)) = mine.split_first() else {
            self.create(cx);
            return;
        };
        cx.event(EventKind::RecoveredNode { node: keep });
        for &extra in extras {
            cx.event(EventKind::DuplicateDeleted { node: extra });
            let _ = self.conn.request(
                ZkOp::Delete {
                    node: extra,
                    version: -1,
                },
                cx,
            );
        }
        self.node = Some(keep);
        match self.recipe.token {
            TokenSource::Czxid => {
                self.step = Step::Confirming;
                self.send(
                    ZkOp::Exists {
                        node: keep,
                        watch: false,
                    },
                    Redo::Recover,
                    cx,
                );
            }
            TokenSource::Sequence => self.read(cx),
        }
    }

    fn children_read(&mut self, children: &[ChildName], cx: &mut Cx) {
        let nodes: Vec<NodeId> = children.iter().map(|c| c.node).collect();
        let mine = self.node;
        cx.event_with(|| EventKind::ChildrenRead {
            children: nodes.clone(),
            mine,
        });
        let Some(mine) = self.node else {
            return;
        };
        let Some(idx) = nodes.iter().position(|n| *n == mine) else {
            // Our node is gone: the session that owned it must have ended.
            self.lose(cx);
            return;
        };
        if self.revalidating {
            self.revalidating = false;
            let still_first = idx == 0;
            cx.event(EventKind::Revalidated { still_first });
            if still_first {
                self.suspended = false;
                self.resume(cx);
            } else {
                self.lose(cx);
            }
            return;
        }
        if idx == 0 {
            self.acquire(mine, children[0].seq, cx);
            return;
        }
        match self.recipe.watch {
            WatchMode::Children => {
                // The read set a children watch in the same step.
                let target = Watched::Children(self.recipe.dir);
                self.conn.watch_armed(target);
                cx.event(EventKind::WatchChildren);
                self.step = Step::Waiting(target);
            }
            WatchMode::Predecessor | WatchMode::Ahead(_) => {
                let k = match self.recipe.watch {
                    WatchMode::Ahead(k) => k.max(1) as usize,
                    _ => 1,
                };
                let target = nodes[idx.saturating_sub(k)];
                self.step = Step::Checking(target);
                self.send(
                    ZkOp::Exists {
                        node: target,
                        watch: true,
                    },
                    Redo::Read,
                    cx,
                );
            }
        }
    }
}

impl ThroughConn for LockClient {
    fn conn_mut(&mut self) -> &mut ZkConn {
        &mut self.conn
    }
    fn on_lib_events(&mut self, events: Vec<LibEvent>, cx: &mut Cx) {
        self.handle(events, cx);
    }
}
