//! What a live read-write lock or semaphore run saw, on one clock: each client's requests,
//! replies, notifications and grants, and the service's side pieced together from what the
//! service told anyone (create replies, children reads, an observer's persistent watch). The
//! first to tell of a change dates it; a node deleted without its owner asking is its session
//! ending at the service: that is when the service expired it.

use std::sync::{Mutex, MutexGuard};
use std::time::Instant;

use crate::engine::msg::ActorMsg;
use crate::engine::time::Millis;
use crate::engine::trace::lane::LaneRecorder;
use crate::engine::trace::record::Recorder;
use crate::engine::trace::{EventKind, Fate, NodeInfo, SpanState};
use crate::engine::world::ActorId;
use crate::engine::zk::tree::{NodeId, SessionId, Tag};

/// A live queue node's name: `{guid:08x}-{tag}-{sequence}`, as the model names them.
pub fn parse(name: &str) -> Option<(u32, Tag, i32)> {
    let mut parts = name.splitn(3, '-');
    let guid = u32::from_str_radix(parts.next()?, 16).ok()?;
    let tag = match parts.next()? {
        "read" => Tag::Read,
        "write" => Tag::Write,
        "lease" => Tag::Lease,
        _ => return None,
    };
    let seq = parts.next()?.parse().ok()?;
    Some((guid, tag, seq))
}

#[derive(Clone)]
pub(super) struct Inner {
    pub rec: Recorder,
    pub nodes: Vec<NodeInfo>,
    pub lanes: LaneRecorder,
    /// Whose GUID is whose.
    guids: Vec<(u32, ActorId)>,
    /// Nodes each client asked to delete: their deletion is not an expiry.
    deleting: Vec<NodeId>,
    /// Clients whose session has ended at the service.
    pub ended: Vec<bool>,
}

/// The log every thread of a live queue run writes to.
pub struct Log {
    /// The run's zero: set again once every session is open (see [`Log::start_now`]).
    start: Mutex<Instant>,
    pub service: ActorId,
    inner: Mutex<Inner>,
}

impl Log {
    /// A log for `clients` clients followed by the service.
    pub fn new(clients: usize, service_state: SpanState) -> Self {
        let mut lanes = LaneRecorder::default();
        for i in 0..clients {
            lanes.add(ActorId(i as u8), 0, SpanState::Idle);
        }
        lanes.add(ActorId(clients as u8), 0, service_state);
        Self {
            start: Mutex::new(Instant::now()),
            service: ActorId(clients as u8),
            inner: Mutex::new(Inner {
                rec: Recorder::with_capacity(256, 512),
                nodes: Vec::new(),
                lanes,
                guids: Vec::new(),
                deleting: Vec::new(),
                ended: vec![false; clients],
            }),
        }
    }

    pub(super) fn lock(&self) -> MutexGuard<'_, Inner> {
        // A panicking writer leaves the log as it was: keep reading it.
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn start(&self) -> Instant {
        *self.start.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Starts the run's clock now: once every client's session is open, so a session slow to
    /// open does not put its client's first request after a later client's, as the model
    /// (where every session opens at 0) never does.
    pub fn start_now(&self) {
        *self.start.lock().unwrap_or_else(|e| e.into_inner()) = Instant::now();
    }

    pub fn now(&self) -> Millis {
        self.start().elapsed().as_millis() as Millis
    }

    /// The instant `ms` after the run started.
    pub fn instant(&self, ms: Millis) -> Instant {
        self.start() + std::time::Duration::from_millis(ms)
    }

    /// Where a server on this machine with this tick has its boundaries, in this run's time.
    pub fn tick_phase(&self, tick_ms: Millis) -> Millis {
        super::super::tick::phase_ms(self.start(), tick_ms)
    }

    pub fn event(&self, actor: ActorId, kind: EventKind) {
        let at = self.now();
        self.lock().rec.event(at, actor, kind);
    }

    pub fn lane(&self, actor: ActorId, state: SpanState) {
        let at = self.now();
        self.lock().lanes.set(actor.0 as usize, at, state);
    }

    /// A request going out from `client`; returns its message id.
    pub fn request(&self, client: ActorId, xid: u32, op: crate::engine::msg::ZkOp) -> u32 {
        let msg = ActorMsg::ZkRequest {
            session: SessionId(u32::from(client.0)),
            xid,
            op,
        };
        let at = self.now();
        let mut g = self.lock();
        let id = g.rec.messages.len() as u32;
        g.rec.message_sent(id, at, client, self.service, &msg);
        id
    }

    /// A ping `client`'s library sent on its own, as the relay saw it go to the server: the
    /// server hears a session on every packet, so the session's deadline moves with it.
    pub fn pinged(&self, client: ActorId) {
        let msg = ActorMsg::ZkRequest {
            session: SessionId(u32::from(client.0)),
            xid: 0,
            op: crate::engine::msg::ZkOp::Ping,
        };
        let at = self.now();
        let mut g = self.lock();
        let id = g.rec.messages.len() as u32;
        g.rec.message_sent(id, at, client, self.service, &msg);
        g.rec.message_fate(id, Fate::Delivered, Some(at));
    }

    /// The answer to request `id` (or its loss).
    pub fn answered(&self, id: u32, client: ActorId, reply: Option<ActorMsg>) {
        let at = self.now();
        let mut g = self.lock();
        match reply {
            Some(msg) => {
                g.rec.message_fate(id, Fate::Delivered, Some(at));
                let rid = g.rec.messages.len() as u32;
                g.rec.message_sent(rid, at, self.service, client, &msg);
                g.rec.message_fate(rid, Fate::Delivered, Some(at));
            }
            None => g.rec.message_fate(id, Fate::Dropped, None),
        }
    }

    /// A message from the service that `client` read off its connection now (a notification).
    pub fn arrived(&self, client: ActorId, msg: ActorMsg) {
        let at = self.now();
        let mut g = self.lock();
        let id = g.rec.messages.len() as u32;
        g.rec.message_sent(id, at, self.service, client, &msg);
        g.rec.message_fate(id, Fate::Delivered, Some(at));
    }

    pub fn register_guid(&self, guid: u32, owner: ActorId) {
        self.lock().guids.push((guid, owner));
    }

    /// The node called `name`, numbered the first time anyone mentions it; `None` for a name
    /// that is no queue node of this run.
    pub fn node(&self, name: &str) -> Option<NodeId> {
        let at = self.now();
        let mut g = self.lock();
        node_id(&mut g, name, at)
    }

    pub fn node_name(&self, id: NodeId) -> Option<String> {
        self.lock()
            .nodes
            .iter()
            .find(|n| n.id == id)
            .map(|n| n.name.clone())
    }

    pub fn set_czxid(&self, id: NodeId, czxid: u64) {
        if let Some(n) = self.lock().nodes.iter_mut().find(|n| n.id == id) {
            n.czxid = czxid;
        }
    }

    /// A client is about to delete its own node.
    pub fn deleting(&self, node: NodeId) {
        self.lock().deleting.push(node);
    }

    /// The service has node `name` (a reply or the observer said so): the first word dates it.
    pub fn created(&self, name: &str) {
        let at = self.now();
        let mut g = self.lock();
        let Some(id) = node_id(&mut g, name, at) else {
            return;
        };
        let Some(n) = g.nodes.iter_mut().find(|n| n.id == id) else {
            return;
        };
        if n.created_ms != Millis::MAX {
            return;
        }
        n.created_ms = at;
        let owner = n.owner;
        g.rec
            .event(at, self.service, EventKind::NodeCreated { node: id, owner });
    }

    /// The service no longer has node `name`: deleted by its owner, or with its session.
    pub fn deleted(&self, name: &str) {
        let at = self.now();
        let mut g = self.lock();
        let Some(id) = node_id(&mut g, name, at) else {
            return;
        };
        let asked = g.deleting.contains(&id);
        let Some(n) = g.nodes.iter_mut().find(|n| n.id == id) else {
            return;
        };
        if n.deleted_ms.is_some() {
            return;
        }
        n.deleted_ms = Some(at);
        if n.created_ms == Millis::MAX {
            n.created_ms = at;
        }
        let owner = n.owner;
        if !asked {
            if let Some(e) = g.ended.get_mut(owner.0 as usize) {
                *e = true;
            }
            g.rec.event(
                at,
                self.service,
                EventKind::SessionExpired {
                    session: SessionId(u32::from(owner.0)),
                    owner,
                    nodes_deleted: vec![id],
                },
            );
        }
        g.rec.event(
            at,
            self.service,
            EventKind::NodeDeleted {
                node: id,
                notified: Vec::new(),
            },
        );
    }

    /// A client closed its session on purpose.
    pub fn session_closed(&self, client: ActorId) {
        let at = self.now();
        let mut g = self.lock();
        if let Some(e) = g.ended.get_mut(client.0 as usize) {
            *e = true;
        }
        g.rec.event(
            at,
            self.service,
            EventKind::SessionClosed {
                session: SessionId(u32::from(client.0)),
                nodes_deleted: Vec::new(),
            },
        );
    }
}

fn node_id(g: &mut Inner, name: &str, _at: Millis) -> Option<NodeId> {
    if let Some(n) = g.nodes.iter().find(|n| n.name == name) {
        return Some(n.id);
    }
    let (guid, tag, seq) = parse(name)?;
    let owner = g.guids.iter().find(|(x, _)| *x == guid)?.1;
    let id = NodeId(g.nodes.len() as u32);
    g.nodes.push(NodeInfo {
        id,
        name: name.to_string(),
        tag,
        seq,
        czxid: 0,
        owner,
        // Not yet seen at the service: dated by the first word of it.
        created_ms: Millis::MAX,
        deleted_ms: None,
    });
    Some(id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_read_as_the_model_writes_them() {
        assert_eq!(
            parse("cfc5d07f-read-0000000041"),
            Some((0xcfc5_d07f, Tag::Read, 41))
        );
        assert_eq!(
            parse("19a37d57-write-0000000043"),
            Some((0x19a3_7d57, Tag::Write, 43))
        );
        assert_eq!(
            parse("0000000a-lease-0000000051").map(|p| p.1),
            Some(Tag::Lease)
        );
        assert_eq!(parse("pad-0000000003"), None);
        assert_eq!(parse("0000000a-lock-0000000051"), None);
    }

    #[test]
    fn a_deletion_nobody_asked_for_is_an_expiry() {
        let log = Log::new(2, SpanState::Idle);
        log.register_guid(1, ActorId(0));
        log.register_guid(2, ActorId(1));
        log.created("00000001-lease-0000000051");
        log.created("00000002-lease-0000000052");
        let a = log.node("00000001-lease-0000000051").expect("A's node");
        log.deleting(a);
        log.deleted("00000001-lease-0000000051");
        log.deleted("00000002-lease-0000000052");
        // Told twice, recorded once.
        log.deleted("00000002-lease-0000000052");
        let g = log.lock();
        let expired: Vec<ActorId> = g
            .rec
            .events
            .iter()
            .filter_map(|e| match e.kind {
                EventKind::SessionExpired { owner, .. } => Some(owner),
                _ => None,
            })
            .collect();
        assert_eq!(expired, vec![ActorId(1)]);
        let deleted = g
            .rec
            .events
            .iter()
            .filter(|e| matches!(e.kind, EventKind::NodeDeleted { .. }))
            .count();
        assert_eq!(deleted, 2);
        assert_eq!(g.ended, vec![false, true]);
    }
}
