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
    OnDisconnect, OnLoss, OnTimeout, Recipe, Recovery, Registration, TokenSource, WatchMode,
};
use crate::engine::msg::{ActorMsg, ChildName, Stat, ZkOp, ZkResult};
use crate::engine::time::Millis;
use crate::engine::trace::event::Request;
use crate::engine::trace::{EventKind, Fate, SpanState};
use crate::engine::world::ActorId;
// The recipe's steps are the model's: the live client and the engine name each state alike.
use crate::engine::actors::lock_client::Step;
use crate::engine::zk::tree::{DirId, NodeId, SessionId, Tag, WatchEvent, Watched};

mod acquire;
mod events;
mod hold;

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
    /// The lock directory is a container node: the server deletes it once it is empty, and a
    /// create that finds it gone makes it again, as a recipe's "create parents as containers"
    /// does (Curator's `creatingParentContainersIfNeeded`).
    pub container_dir: bool,
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
    let connector = super::net::connector().with_session_timeout(timeout);
    let zk = super::net::open(connector, &p.connect).await?;
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
                _ = until(&log, self.give_up_at()) => {
                    self.give_up().await;
                    Next::Nothing
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
                Step::GaveUp => SpanState::GaveUp {
                    left_node: self.abandoned(),
                },
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
                abandoned: self.abandoned(),
            },
        );
    }

    /// Records a request going out; returns its message id.
    fn request(&mut self, op: ZkOp) -> (u32, u32) {
        self.xid += 1;
        let msg = ActorMsg::ZkRequest {
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
        let msg = ActorMsg::ZkReply { xid, zxid, result };
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
}
