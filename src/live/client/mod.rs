//! One lock client on a real ZooKeeper session, running the same recipe as the model's
//! [`LockClient`](crate::engine::actors::lock_client::LockClient) with the same options, and
//! writing every request, reply, notification and state change into the run's log.
//!
//! Each client runs on a single-threaded runtime of its own, so a freeze is real: the thread
//! sleeps, and with it the client library's pings and everything else the process would do. It
//! resumes where it stopped: a timer that fell due during the pause fires first.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use zookeeper_client::{Acls, Client, CreateMode, Error as ZkError, EventType, SessionState};

use super::log::{ClientView, Log, guid_of, seq_of};
use crate::engine::actors::recipe::{
    OnDisconnect, OnLoss, Recipe, Recovery, Registration, TokenSource, WatchMode,
};
use crate::engine::msg::{ChildName, Msg, Stat, ZkOp, ZkResult};
use crate::engine::time::Millis;
use crate::engine::trace::event::Request;
use crate::engine::trace::{EventKind, Fate, SpanState};
use crate::engine::world::ActorId;
use crate::engine::zk::tree::{DirId, NodeId, SessionId, Tag, WatchEvent, Watched};

const POLL: Duration = Duration::from_millis(5);
const DIR: DirId = DirId(0);

/// Flags one client's thread shares with the rest of the run.
#[derive(Debug, Default)]
pub struct Control {
    /// The run is over: stop.
    pub stop: AtomicBool,
    /// Another client asks this holder to release right now.
    pub release_now: AtomicBool,
    /// This client's release has been answered.
    pub released: AtomicBool,
}

/// Everything one client needs to run.
pub struct Plan {
    pub id: ActorId,
    pub recipe: Recipe,
    pub guid: u32,
    /// The lock directory's path.
    pub dir: String,
    /// Where to connect: the server, or this client's proxy.
    pub connect: String,
    pub freeze: Option<(Millis, Millis)>,
    pub crash: Option<Millis>,
    /// Set when this client is the reader of a delete-between fault: the owner's controls.
    pub delete_between: Option<Arc<Control>>,
    pub control: Arc<Control>,
    /// Closes this client's proxy when it crashes.
    pub on_crash: Option<Arc<super::proxy::Faults>>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Step {
    Idle,
    Creating,
    Unknown,
    Recovering,
    Confirming,
    Reading,
    Checking(NodeId),
    Waiting(Watched),
    Holding,
    Released,
    Lost,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Redo {
    Read,
    Recover,
    Revalidate,
}

/// What to do next, so the recipe's steps chain without recursion.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Next {
    Nothing,
    Create,
    Read,
    Recover,
    Check(NodeId),
    Release,
}

type WatchFuture = Pin<Box<dyn Future<Output = zookeeper_client::WatchedEvent> + Send>>;

struct Runner {
    p: Plan,
    log: Arc<Log>,
    zk: Option<Client>,
    step: Step,
    node: Option<(NodeId, String)>,
    token: u64,
    suspended: bool,
    knows_expired: bool,
    wrote: bool,
    write_pending: bool,
    release_pending: bool,
    revalidating: bool,
    redo: Option<Redo>,
    write_at: Option<Millis>,
    release_at: Option<Millis>,
    new_watch: Option<(Watched, WatchFuture)>,
    can_fire: bool,
    frozen: bool,
    crashed: bool,
    connected: bool,
    xid: u32,
    delete_between_done: bool,
}

/// Connects this client's session; call on the client's own runtime.
pub async fn connect(p: &Plan, log: &Log) -> Result<Client, ZkError> {
    let timeout = Duration::from_millis(p.recipe.requested_timeout_ms);
    let zk = Client::connector()
        .with_session_timeout(timeout)
        .connect(&p.connect)
        .await?;
    log.event(
        p.id,
        EventKind::SessionOpened {
            session: SessionId(u32::from(p.id.0)),
            requested_ms: p.recipe.requested_timeout_ms,
            granted_ms: zk.session_timeout().as_millis() as Millis,
        },
    );
    Ok(zk)
}

/// Runs the recipe until the run's end.
pub async fn run(p: Plan, zk: Client, log: Arc<Log>) {
    let mut r = Runner {
        p,
        log,
        zk: Some(zk),
        step: Step::Idle,
        node: None,
        token: 0,
        suspended: false,
        knows_expired: false,
        wrote: false,
        write_pending: false,
        release_pending: false,
        revalidating: false,
        redo: None,
        write_at: None,
        release_at: None,
        new_watch: None,
        can_fire: true,
        frozen: false,
        crashed: false,
        connected: true,
        xid: 0,
        delete_between_done: false,
    };
    r.main().await;
}

/// Sleeps until `ms` after the run's start, or forever without one.
async fn until(log: &Log, ms: Option<Millis>) {
    match ms {
        Some(ms) => tokio::time::sleep_until(tokio::time::Instant::from_std(log.instant(ms))).await,
        None => std::future::pending().await,
    }
}

fn watch_event(t: EventType) -> WatchEvent {
    match t {
        EventType::NodeChildrenChanged => WatchEvent::NodeChildrenChanged,
        EventType::NodeDataChanged => WatchEvent::NodeDataChanged,
        _ => WatchEvent::NodeDeleted,
    }
}

impl Runner {
    fn id(&self) -> ActorId {
        self.p.id
    }

    fn event(&self, kind: EventKind) {
        self.log.event(self.p.id, kind);
    }

    fn path(&self, name: &str) -> String {
        format!("{}/{name}", self.p.dir)
    }

    async fn main(&mut self) {
        let Some(mut states) = self.zk.as_ref().map(Client::state_watcher) else {
            return;
        };
        let mut watch: Option<(Watched, WatchFuture)> = None;
        let mut started = false;
        let mut freeze = self.p.freeze;
        let crash = self.p.crash;
        self.view();
        while !self.p.control.stop.load(Ordering::Relaxed) {
            let log = Arc::clone(&self.log);
            let next = tokio::select! {
                biased;
                _ = until(&log, self.write_at) => {
                    self.write_at = None;
                    self.write_due();
                    Next::Nothing
                }
                _ = until(&log, self.release_at) => {
                    self.release_at = None;
                    self.release_due()
                }
                _ = until(&log, freeze.map(|(at, _)| at)) => {
                    let len = freeze.take().map_or(0, |(_, len)| len);
                    self.freeze(len);
                    Next::Nothing
                }
                _ = until(&log, crash) => {
                    self.crash();
                    return;
                }
                _ = until(&log, (!started).then_some(self.p.recipe.start_ms)) => {
                    started = true;
                    Next::Create
                }
                s = states.changed(), if self.zk.is_some() => self.on_state(s).await,
                ev = async { match watch.as_mut() { Some((_, f)) => f.await, None => std::future::pending().await } } => {
                    let target = watch.take().map(|(t, _)| t);
                    self.on_watch(target, ev)
                }
                _ = tokio::time::sleep(POLL) => {
                    if self.p.control.release_now.swap(false, Ordering::Relaxed) {
                        self.release_now()
                    } else {
                        Next::Nothing
                    }
                }
            };
            self.go(next).await;
            if let Some(w) = self.new_watch.take() {
                watch = Some(w);
            }
            self.view();
        }
    }

    async fn go(&mut self, mut next: Next) {
        loop {
            self.view();
            next = match next {
                Next::Nothing => return,
                Next::Create => self.create().await,
                Next::Read => self.read().await,
                Next::Recover => self.recover().await,
                Next::Check(target) => self.check(target).await,
                Next::Release => {
                    self.release().await;
                    Next::Nothing
                }
            };
        }
    }

    fn view(&self) {
        let state = if self.crashed {
            SpanState::Crashed
        } else if self.frozen {
            SpanState::Frozen {
                believes_holding: self.step == Step::Holding,
            }
        } else {
            match self.step {
                Step::Idle => SpanState::Idle,
                Step::Creating => SpanState::Creating,
                Step::Unknown => SpanState::OutcomeUnknown,
                Step::Recovering | Step::Confirming | Step::Reading => {
                    if self.connected {
                        SpanState::Reading
                    } else {
                        SpanState::Reconnecting
                    }
                }
                Step::Checking(node) => SpanState::Checking { node },
                Step::Waiting(w) => SpanState::Waiting { watching: w },
                Step::Holding if self.suspended => SpanState::Suspended { token: self.token },
                Step::Holding => SpanState::Holding { token: self.token },
                Step::Released => SpanState::Released,
                Step::Lost => SpanState::Lost,
            }
        };
        let waiting = match self.step {
            Step::Waiting(w) => Some(w),
            _ => None,
        };
        self.log.client(
            self.id(),
            ClientView {
                state,
                node: self.node.as_ref().map(|(id, _)| *id),
                waiting,
                can_fire: self.can_fire,
                connected: self.connected && !self.crashed,
                believes_holding: self.step == Step::Holding,
            },
        );
    }

    /// Records a request going out; returns its message id.
    fn request(&mut self, op: ZkOp) -> (u32, u32) {
        self.xid += 1;
        let msg = Msg::ZkRequest {
            session: SessionId(u32::from(self.id().0)),
            xid: self.xid,
            op,
        };
        (self.log.sent(self.id(), self.log.service, msg), self.xid)
    }

    fn reply(&self, (mid, xid): (u32, u32), result: ZkResult) {
        self.log.fate(mid, Fate::Delivered);
        let zxid = match result {
            ZkResult::Created { czxid, .. } => czxid,
            _ => 0,
        };
        let msg = Msg::ZkReply { xid, zxid, result };
        self.log.arrived(self.log.service, self.id(), msg);
    }

    /// A request failed: connection loss leaves its outcome unknown.
    fn failed(&mut self, (mid, _): (u32, u32), request: Request, e: &ZkError) -> Next {
        self.log.fate(mid, Fate::Dropped);
        match e {
            ZkError::ConnectionLoss => {
                self.event(EventKind::ConnectionLoss { request });
                Next::Nothing
            }
            _ => {
                if matches!(e, ZkError::SessionExpired) {
                    self.knows_expired = true;
                }
                Next::Release
            }
        }
    }

    fn children(&self, names: &[String]) -> Vec<ChildName> {
        let mut v: Vec<ChildName> = names
            .iter()
            .filter_map(|n| {
                Some(ChildName {
                    node: self.log.node(n),
                    tag: Tag::Lock,
                    guid: guid_of(n)?,
                    seq: seq_of(n)?,
                })
            })
            .collect();
        v.sort_by_key(|c| c.seq);
        v
    }

    async fn create(&mut self) -> Next {
        self.step = Step::Creating;
        self.event(EventKind::CreateSent { guid: self.p.guid });
        self.log.register_guid(self.p.guid, self.id());
        let req = self.request(ZkOp::Create {
            dir: DIR,
            tag: Tag::Lock,
            guid: self.p.guid,
        });
        self.view();
        let Some(zk) = self.zk.clone() else {
            return Next::Nothing;
        };
        let prefix = self.path(&format!("{:08x}-lock-", self.p.guid));
        let opts = CreateMode::EphemeralSequential.with_acls(Acls::anyone_all());
        match zk.create(&prefix, &[], &opts).await {
            Ok((stat, seq)) => {
                let name = format!("{:08x}-lock-{seq}", self.p.guid);
                self.log.service_created(&name);
                let node = self.log.node(&name);
                let czxid = stat.czxid as u64;
                self.log.set_czxid(node, czxid);
                self.reply(req, ZkResult::Created { node, czxid });
                self.event(EventKind::GotNode { node });
                self.node = Some((node, name));
                self.token = czxid;
                Next::Read
            }
            Err(e) => match self.failed(req, Request::Create, &e) {
                Next::Release => self.lose().await,
                _ => {
                    self.event(EventKind::CreateOutcomeUnknown);
                    self.step = Step::Unknown;
                    self.redo = Some(Redo::Recover);
                    self.if_connected_redo()
                }
            },
        }
    }

    /// After a connection loss: redo at once if the library has already reconnected.
    fn if_connected_redo(&mut self) -> Next {
        let connected = self
            .zk
            .as_ref()
            .is_some_and(|z| z.state() == SessionState::SyncConnected);
        if connected && self.connected {
            self.on_reconnected()
        } else {
            Next::Nothing
        }
    }

    async fn read(&mut self) -> Next {
        if self.step != Step::Holding {
            self.step = Step::Reading;
        }
        let watch = self.p.recipe.watch == WatchMode::Children && self.step != Step::Holding;
        let req = self.request(ZkOp::GetChildren { dir: DIR, watch });
        self.view();
        let Some(zk) = self.zk.clone() else {
            return Next::Nothing;
        };
        let result = if watch {
            zk.get_and_watch_children(&self.p.dir)
                .await
                .map(|(c, _, w)| (c, Some(w)))
        } else {
            zk.list_children(&self.p.dir).await.map(|c| (c, None))
        };
        match result {
            Ok((names, w)) => {
                self.log.service_children(&names);
                let children = self.children(&names);
                self.reply(
                    req,
                    ZkResult::Children {
                        children: children.clone(),
                    },
                );
                if let Some(w) = w {
                    let target = Watched::Children(DIR);
                    self.log.watch(self.id(), target, true);
                    self.new_watch = Some((target, Box::pin(w.changed())));
                    self.can_fire = true;
                }
                self.delete_between().await;
                match self.step {
                    Step::Reading | Step::Holding => self.children_read(&children).await,
                    _ => Next::Nothing,
                }
            }
            Err(e) => match self.failed(req, Request::GetChildren, &e) {
                Next::Release => self.lose().await,
                _ => {
                    self.redo = Some(if self.revalidating {
                        Redo::Revalidate
                    } else {
                        Redo::Read
                    });
                    self.if_connected_redo()
                }
            },
        }
    }

    /// The reader of a delete-between fault: right after its read is answered, the owner
    /// releases, before this client's next request goes out.
    async fn delete_between(&mut self) {
        let Some(owner) = self.p.delete_between.clone() else {
            return;
        };
        if self.delete_between_done || self.step != Step::Reading {
            return;
        }
        self.delete_between_done = true;
        owner.release_now.store(true, Ordering::Relaxed);
        for _ in 0..1000 {
            if owner.released.load(Ordering::Relaxed) {
                return;
            }
            tokio::time::sleep(Duration::from_millis(2)).await;
        }
    }

    async fn children_read(&mut self, children: &[ChildName]) -> Next {
        let nodes: Vec<NodeId> = children.iter().map(|c| c.node).collect();
        let mine = self.node.as_ref().map(|(id, _)| *id);
        self.event(EventKind::ChildrenRead {
            children: nodes.clone(),
            mine,
        });
        let Some(mine) = mine else {
            return Next::Nothing;
        };
        let Some(idx) = nodes.iter().position(|n| *n == mine) else {
            // Its node is gone: the session that owned it must have ended.
            return self.lose().await;
        };
        if self.revalidating {
            self.revalidating = false;
            let still_first = idx == 0;
            self.event(EventKind::Revalidated { still_first });
            if still_first {
                self.suspended = false;
                return self.resume();
            }
            return self.lose().await;
        }
        if idx == 0 {
            self.log.service_first(mine);
            self.acquire(mine, children[0].seq);
            return Next::Nothing;
        }
        match self.p.recipe.watch {
            WatchMode::Children => {
                self.event(EventKind::WatchChildren);
                self.step = Step::Waiting(Watched::Children(DIR));
                Next::Nothing
            }
            WatchMode::Predecessor | WatchMode::Ahead(_) => {
                let k = match self.p.recipe.watch {
                    WatchMode::Ahead(k) => k.max(1) as usize,
                    _ => 1,
                };
                let target = nodes[idx.saturating_sub(k)];
                self.step = Step::Checking(target);
                Next::Check(target)
            }
        }
    }

    async fn check(&mut self, target: NodeId) -> Next {
        let req = self.request(ZkOp::Exists {
            node: target,
            watch: true,
        });
        self.view();
        let (Some(zk), Some(name)) = (self.zk.clone(), self.log.node_name(target)) else {
            return Next::Nothing;
        };
        match zk.check_and_watch_stat(&self.path(&name)).await {
            Ok((stat, w)) => {
                let exists = stat.is_some();
                let stat = stat.map(|s| Stat {
                    czxid: s.czxid as u64,
                    version: s.version,
                });
                self.reply(req, ZkResult::Exists { stat });
                self.event(EventKind::ExistsChecked {
                    node: target,
                    exists,
                });
                let on = Watched::Node(target);
                self.log.watch(self.id(), on, true);
                if exists || self.p.recipe.registration == Registration::TwoStep {
                    // The broken two-step recipe trusts its earlier read and waits anyway.
                    self.event(EventKind::Waiting { on });
                    self.step = Step::Waiting(on);
                    self.can_fire = exists;
                    self.new_watch = Some((on, Box::pin(w.changed())));
                    Next::Nothing
                } else {
                    self.log.watch(self.id(), on, false);
                    Next::Read
                }
            }
            Err(e) => match self.failed(req, Request::Exists, &e) {
                Next::Release => self.lose().await,
                _ => {
                    self.redo = Some(Redo::Read);
                    self.if_connected_redo()
                }
            },
        }
    }

    /// GUID recovery: find this request's node among the children.
    async fn recover(&mut self) -> Next {
        self.step = Step::Recovering;
        let req = self.request(ZkOp::GetChildren {
            dir: DIR,
            watch: false,
        });
        self.view();
        let Some(zk) = self.zk.clone() else {
            return Next::Nothing;
        };
        let names = match zk.list_children(&self.p.dir).await {
            Ok(n) => n,
            Err(e) => {
                return match self.failed(req, Request::GetChildren, &e) {
                    Next::Release => self.lose().await,
                    _ => {
                        self.redo = Some(Redo::Recover);
                        self.if_connected_redo()
                    }
                };
            }
        };
        self.log.service_children(&names);
        let children = self.children(&names);
        self.reply(
            req,
            ZkResult::Children {
                children: children.clone(),
            },
        );
        let mine: Vec<NodeId> = children
            .iter()
            .filter(|c| c.guid == self.p.guid)
            .map(|c| c.node)
            .collect();
        let Some((&keep, extras)) = mine.split_first() else {
            return Next::Create;
        };
        self.event(EventKind::RecoveredNode { node: keep });
        for &extra in extras {
            self.event(EventKind::DuplicateDeleted { node: extra });
            self.log.deleting(self.id(), extra);
            let req = self.request(ZkOp::Delete {
                node: extra,
                version: -1,
            });
            if let Some(name) = self.log.node_name(extra)
                && zk.delete(&self.path(&name), None).await.is_ok()
            {
                self.reply(req, ZkResult::Done);
                self.log.service_deleted(&name);
            }
        }
        let Some(name) = self.log.node_name(keep) else {
            return Next::Nothing;
        };
        self.node = Some((keep, name.clone()));
        if self.p.recipe.token == TokenSource::Sequence {
            return Next::Read;
        }
        self.step = Step::Confirming;
        let req = self.request(ZkOp::Exists {
            node: keep,
            watch: false,
        });
        match zk.check_stat(&self.path(&name)).await {
            Ok(Some(s)) => {
                self.token = s.czxid as u64;
                let stat = Some(Stat {
                    czxid: s.czxid as u64,
                    version: s.version,
                });
                self.reply(req, ZkResult::Exists { stat });
                Next::Read
            }
            Ok(None) => {
                self.reply(req, ZkResult::Exists { stat: None });
                self.lose().await
            }
            Err(e) => match self.failed(req, Request::Exists, &e) {
                Next::Release => self.lose().await,
                _ => {
                    self.redo = Some(Redo::Recover);
                    self.if_connected_redo()
                }
            },
        }
    }

    fn acquire(&mut self, node: NodeId, seq: i32) {
        if self.p.recipe.token == TokenSource::Sequence {
            self.token = seq.max(0) as u64;
        }
        self.event(EventKind::Acquired {
            node,
            token: self.token,
        });
        self.step = Step::Holding;
        let now = self.log.now();
        self.write_at = Some(now + self.p.recipe.write_after_ms);
        self.release_at = Some(now + self.p.recipe.hold_ms);
    }

    fn write_due(&mut self) {
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
            Msg::Write { token: self.token },
        );
        self.log.fate(id, Fate::Delivered);
        self.log.write(self.id(), self.token);
    }

    fn release_due(&mut self) -> Next {
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
    fn release_now(&mut self) -> Next {
        if self.step != Step::Holding {
            self.p.control.released.store(true, Ordering::Relaxed);
            return Next::Nothing;
        }
        self.event(EventKind::ReleasedEarly);
        self.write_at = None;
        self.release_at = None;
        Next::Release
    }

    async fn release(&mut self) {
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
    async fn close(&mut self) {
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

    fn resume(&mut self) -> Next {
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

    async fn lose(&mut self) -> Next {
        if matches!(self.step, Step::Released | Step::Lost) {
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

    async fn on_state(&mut self, s: SessionState) -> Next {
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

    fn on_reconnected(&mut self) -> Next {
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

    fn on_watch(&mut self, target: Option<Watched>, ev: zookeeper_client::WatchedEvent) -> Next {
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
            Msg::ZkWatch {
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
    fn freeze(&mut self, len: Millis) {
        self.frozen = true;
        self.event(EventKind::Froze);
        self.view();
        std::thread::sleep(Duration::from_millis(len));
        self.frozen = false;
        self.event(EventKind::Woke);
    }

    /// The process dies: its connection closes, its session lives on until the service
    /// expires it.
    fn crash(&mut self) {
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
