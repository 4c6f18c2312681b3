//! One read-write lock or semaphore client on a real ZooKeeper session: it creates its
//! ephemeral sequential node, reads the children, and follows the engine's rule for its role
//! ([`rule`]): hold, wait on one node, or wait on the directory; then it holds for its time,
//! deletes its node and closes its session.
//!
//! A crash is real: the client's thread stops, and with it the client library's pings, so the
//! server expires the session after its timeout and deletes the node.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

use zookeeper_client::{Acls, Client, CreateMode, EventType, OneshotWatcher, SessionState};

use super::record::{Log, parse};
use crate::engine::actors::queue_client::{Decision, Role, rule, skips_writer};
use crate::engine::msg::{ActorMsg, ChildName, Stat, ZkOp, ZkResult};
use crate::engine::time::Millis;
use crate::engine::trace::event::Admission;
use crate::engine::trace::{EventKind, SpanState};
use crate::engine::world::ActorId;
use crate::engine::zk::tree::{DirId, NodeId, SessionId, WatchEvent, Watched};

const DIR: DirId = DirId(0);

/// Everything one client needs to run.
pub struct Plan {
    pub id: ActorId,
    pub role: Role,
    pub writers_yield: bool,
    pub guid: u32,
    pub start_ms: Millis,
    pub hold_ms: Millis,
    pub requested_timeout_ms: Millis,
    /// The directory's path.
    pub dir: String,
    pub crash: Option<Millis>,
    pub stop: Arc<AtomicBool>,
}

/// Connects this client's session (on its own runtime).
pub async fn connect(p: &Plan, addr: &str) -> Result<Client, zookeeper_client::Error> {
    let timeout = Duration::from_millis(p.requested_timeout_ms);
    let connector = super::super::net::connector().with_session_timeout(timeout);
    super::super::net::open(connector, addr).await
}

/// Records what the server granted, when the run starts (as the model opens every session at
/// its start).
pub fn opened(p: &Plan, zk: &Client, log: &Log) {
    log.event(
        p.id,
        EventKind::SessionOpened {
            session: SessionId(u32::from(p.id.0)),
            requested_ms: p.requested_timeout_ms,
            granted_ms: zk.session_timeout().as_millis() as Millis,
        },
    );
}

/// Runs the client until it has released, lost its session or crashed, then waits for the
/// run's end (a crashed client's thread stays stopped until then).
pub async fn run(p: Plan, zk: Client, log: Arc<Log>, finished: Arc<AtomicUsize>) {
    log.register_guid(p.guid, p.id);
    let crash = p.crash;
    let mut c = Recipe {
        p,
        zk: Some(zk),
        log: Arc::clone(&log),
        xid: 0,
        node: None,
        version: 0,
    };
    let until = |ms: Option<Millis>| {
        let log = Arc::clone(&log);
        async move {
            match ms {
                Some(ms) => {
                    tokio::time::sleep_until(tokio::time::Instant::from_std(log.instant(ms))).await
                }
                None => std::future::pending().await,
            }
        }
    };
    let id = c.p.id;
    let stop = Arc::clone(&c.p.stop);
    tokio::select! {
        biased;
        _ = until(crash) => {
            log.event(id, EventKind::Crashed);
            log.lane(id, SpanState::Crashed);
            finished.fetch_add(1, Ordering::Relaxed);
            // A dead process does nothing at all, not even close its session: the thread
            // stops whole, the library's pings with it, while `zk` keeps the session open.
            while !stop.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(10));
            }
            return;
        }
        _ = c.story() => {}
    }
    finished.fetch_add(1, Ordering::Relaxed);
    while !stop.load(Ordering::Relaxed) {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

struct Recipe {
    p: Plan,
    /// The session's handle, until the client closes it (the last handle closes it).
    zk: Option<Client>,
    log: Arc<Log>,
    xid: u32,
    node: Option<(NodeId, String)>,
    /// A yielding writer's own node version: odd while it claims or holds.
    version: i32,
}

/// Why the story ended early.
struct Lost;

impl Recipe {
    fn id(&self) -> ActorId {
        self.p.id
    }

    fn lane(&self, state: SpanState) {
        self.log.lane(self.id(), state);
    }

    fn event(&self, kind: EventKind) {
        self.log.event(self.id(), kind);
    }

    fn zk(&self) -> Result<Client, Lost> {
        self.zk.clone().ok_or(Lost)
    }

    fn path(&self, name: &str) -> String {
        format!("{}/{name}", self.p.dir)
    }

    fn request(&mut self, op: ZkOp) -> (u32, u32) {
        self.xid += 1;
        (self.log.request(self.id(), self.xid, op), self.xid)
    }

    fn reply(&self, (id, xid): (u32, u32), result: Option<ZkResult>) {
        let msg = result.map(|result| {
            let zxid = match result {
                ZkResult::Created { czxid, .. } => czxid,
                _ => 0,
            };
            ActorMsg::ZkReply { xid, zxid, result }
        });
        self.log.answered(id, self.id(), msg);
    }

    async fn story(&mut self) {
        let start = self.log.instant(self.p.start_ms);
        tokio::time::sleep_until(tokio::time::Instant::from_std(start)).await;
        if self.take().await.is_err() {
            self.event(EventKind::LearnedSessionExpired);
            self.lane(SpanState::Lost);
        }
    }

    /// Create, then read and follow the rule until it holds; hold, then release.
    async fn take(&mut self) -> Result<(), Lost> {
        self.create().await?;
        loop {
            let (children, watch) = self.read().await?;
            let Some(idx) = self
                .node
                .as_ref()
                .and_then(|(m, _)| children.iter().position(|c| c.node == *m))
            else {
                return Err(Lost);
            };
            match rule(
                self.p.role,
                self.p.writers_yield,
                self.version,
                &children,
                idx,
            ) {
                Decision::Hold(how) => return self.hold(how).await,
                Decision::Claim => self.bump().await?,
                Decision::WatchChildren { back_off } => {
                    if back_off {
                        self.bump().await?;
                    }
                    let Some(w) = watch else {
                        return Err(Lost);
                    };
                    self.event(EventKind::WatchChildren);
                    self.wait(Watched::Children(DIR), w).await?;
                }
                Decision::Check(node) => {
                    if let Some(skipped) = self.check(node).await? {
                        return self.hold(Some(Admission::Read { skipped })).await;
                    }
                }
            }
        }
    }

    async fn create(&mut self) -> Result<(), Lost> {
        self.lane(SpanState::Creating);
        self.event(EventKind::CreateSent { guid: self.p.guid });
        let tag = self.p.role.tag();
        let req = self.request(ZkOp::Create {
            dir: DIR,
            tag,
            guid: self.p.guid,
        });
        let prefix = self.path(&format!("{:08x}-{}", self.p.guid, tag.prefix()));
        let opts = CreateMode::EphemeralSequential.with_acls(Acls::anyone_all());
        match self.zk()?.create(&prefix, &[], &opts).await {
            Ok((stat, seq)) => {
                let name = format!("{:08x}-{}{seq}", self.p.guid, tag.prefix());
                self.log.created(&name);
                let node = self.log.node(&name).ok_or(Lost)?;
                let czxid = stat.czxid as u64;
                self.log.set_czxid(node, czxid);
                self.reply(req, Some(ZkResult::Created { node, czxid }));
                self.event(EventKind::GotNode { node });
                self.node = Some((node, name));
                Ok(())
            }
            Err(_) => {
                self.reply(req, None);
                Err(Lost)
            }
        }
    }

    /// Reads the children, with a children watch where the role waits on the directory.
    async fn read(&mut self) -> Result<(Vec<ChildName>, Option<OneshotWatcher>), Lost> {
        self.lane(SpanState::Reading);
        let watch = matches!(self.p.role, Role::Permit(_))
            || (self.p.role == Role::Writer && self.p.writers_yield);
        let req = self.request(ZkOp::GetChildren { dir: DIR, watch });
        let zk = self.zk()?;
        let got = if watch {
            zk.get_and_watch_children(&self.p.dir)
                .await
                .map(|(c, _, w)| (c, Some(w)))
        } else {
            zk.list_children(&self.p.dir).await.map(|c| (c, None))
        };
        let Ok((names, w)) = got else {
            self.reply(req, None);
            return Err(Lost);
        };
        let mut children: Vec<ChildName> = names
            .iter()
            .filter_map(|n| {
                let (guid, tag, seq) = parse(n)?;
                self.log.created(n);
                Some(ChildName {
                    node: self.log.node(n)?,
                    tag,
                    guid,
                    seq,
                })
            })
            .collect();
        children.sort_by_key(|c| c.seq);
        self.reply(
            req,
            Some(ZkResult::Children {
                children: children.clone(),
            }),
        );
        self.event(EventKind::ChildrenRead {
            children: children.iter().map(|c| c.node).collect(),
            mine: self.node.as_ref().map(|(n, _)| *n),
        });
        Ok((children, w))
    }

    /// Checks `node` with a watch: waits for it to go, or, for a reader that skips waiting
    /// writers, goes past it (`Some(skipped)`).
    async fn check(&mut self, node: NodeId) -> Result<Option<Option<NodeId>>, Lost> {
        self.lane(SpanState::Checking { node });
        let name = self.log.node_name(node).ok_or(Lost)?;
        let req = self.request(ZkOp::Exists { node, watch: true });
        let Ok((stat, w)) = self.zk()?.check_and_watch_stat(&self.path(&name)).await else {
            self.reply(req, None);
            return Err(Lost);
        };
        let stat = stat.map(|s| Stat {
            czxid: s.czxid as u64,
            version: s.version,
        });
        self.reply(req, Some(ZkResult::Exists { stat }));
        self.event(EventKind::ExistsChecked {
            node,
            exists: stat.is_some(),
        });
        match stat {
            None => Ok(None),
            Some(s) if skips_writer(self.p.role, s.version) => Ok(Some(Some(node))),
            Some(_) => {
                let on = Watched::Node(node);
                self.event(EventKind::Waiting { on });
                self.wait(on, w).await?;
                Ok(None)
            }
        }
    }

    /// Waits for the watch on `on` to fire; a wake-up is not a grant: the caller reads again.
    async fn wait(&mut self, on: Watched, w: OneshotWatcher) -> Result<(), Lost> {
        self.lane(SpanState::Waiting { watching: on });
        let ev = w.changed().await;
        if ev.event_type == EventType::Session {
            return Err(Lost);
        }
        let event = match ev.event_type {
            EventType::NodeChildrenChanged => WatchEvent::NodeChildrenChanged,
            EventType::NodeDataChanged => WatchEvent::NodeDataChanged,
            _ => WatchEvent::NodeDeleted,
        };
        if let (Watched::Node(n), WatchEvent::NodeDeleted) = (on, event)
            && let Some(name) = self.log.node_name(n)
        {
            // The notification is the service's word that the node is gone.
            self.log.deleted(&name);
        }
        let msg = ActorMsg::ZkWatch {
            event,
            target: on,
            zxid: 0,
        };
        self.log.arrived(self.id(), msg);
        self.event(EventKind::Notified { target: on, event });
        self.event(EventKind::WokeUp { target: on });
        Ok(())
    }

    /// A yielding writer bumps its own node's version: odd claims, even backs off.
    async fn bump(&mut self) -> Result<(), Lost> {
        let (node, name) = self.node.clone().ok_or(Lost)?;
        let req = self.request(ZkOp::SetData {
            node,
            version: self.version,
            data: 0,
        });
        match self
            .zk()?
            .set_data(&self.path(&name), &[], Some(self.version))
            .await
        {
            Ok(stat) => {
                self.version = stat.version;
                self.reply(
                    req,
                    Some(ZkResult::Set {
                        version: stat.version,
                    }),
                );
                Ok(())
            }
            Err(_) => {
                self.reply(req, None);
                Err(Lost)
            }
        }
    }

    async fn hold(&mut self, how: Option<Admission>) -> Result<(), Lost> {
        let (node, name) = self.node.clone().ok_or(Lost)?;
        let token = self.log.lock().nodes[node.0 as usize].czxid;
        self.event(match how {
            None => EventKind::Acquired { node, token },
            Some(how) => EventKind::Admitted { node, token, how },
        });
        self.lane(match self.p.role {
            Role::Reader(_) => SpanState::HoldingRead { token },
            _ => SpanState::Holding { token },
        });
        let held = tokio::time::Instant::now() + Duration::from_millis(self.p.hold_ms);
        tokio::time::sleep_until(held).await;
        self.event(EventKind::ReleaseSent { node });
        self.log.deleting(node);
        let req = self.request(ZkOp::Delete { node, version: -1 });
        match self.zk()?.delete(&self.path(&name), None).await {
            Ok(()) => {
                self.reply(req, Some(ZkResult::Done));
                self.log.deleted(&name);
            }
            Err(zookeeper_client::Error::NoNode) => self.reply(req, Some(ZkResult::NoNode)),
            Err(_) => self.reply(req, None),
        }
        self.close().await;
        self.lane(SpanState::Released);
        Ok(())
    }

    /// Ends the session on purpose: the last handle going closes it.
    async fn close(&mut self) {
        let Some(zk) = self.zk.take() else {
            return;
        };
        let mut states = zk.state_watcher();
        let req = self.request(ZkOp::Close);
        drop(zk);
        let closed = async { while states.changed().await != SessionState::Closed {} };
        if tokio::time::timeout(Duration::from_secs(2), closed)
            .await
            .is_ok()
        {
            self.reply(req, Some(ZkResult::Done));
            self.log.session_closed(self.id());
        } else {
            self.reply(req, None);
        }
    }
}
