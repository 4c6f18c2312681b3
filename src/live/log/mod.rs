//! The live run's recorder: every client session, the service observer and the proxies write
//! what they saw into one log, under one lock and on one clock, and the log becomes a [`Trace`]
//! of the same shape the model produces.
//!
//! The service's side is pieced together from what the service told anyone: the observer's
//! persistent watch on the lock directory, create replies and children reads. The first to tell
//! of a change dates it. A node deleted without its owner asking is its session ending at the
//! service: that is when the service expired it.

use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Instant;

use crate::engine::actors::Resource;
use crate::engine::msg::ActorMsg;
use crate::engine::time::Millis;
use crate::engine::trace::lane::LaneRecorder;
use crate::engine::trace::record::Recorder;
use crate::engine::trace::{
    Child, EventKind, Fate, InvariantReport, NodeInfo, ServiceSnapshot, SpanState, WatchInfo,
    WriteRecord, invariant,
};
use crate::engine::world::ActorId;
use crate::engine::zk::tree::{NodeId, SessionId, Tag, Watched};

use super::stuck::{self, Waiter};

mod service;
#[cfg(test)]
mod tests;

use service::{check, created, deleted, node_id, note_event, refresh, snapshot};

/// What a client's recipe reports about itself, for lanes and the checks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClientView {
    /// Its lane state before the stuck check is applied.
    pub state: SpanState,
    pub node: Option<NodeId>,
    pub waiting: Option<Watched>,
    /// The target it waits on existed when its watch was armed, so the watch can fire.
    pub can_fire: bool,
    pub connected: bool,
    pub believes_holding: bool,
    /// It gave up waiting and left its node queued.
    pub abandoned: bool,
}

impl Default for ClientView {
    fn default() -> Self {
        Self {
            state: SpanState::Idle,
            node: None,
            waiting: None,
            can_fire: true,
            connected: true,
            believes_holding: false,
            abandoned: false,
        }
    }
}

#[derive(Clone)]
pub(crate) struct Inner {
    pub rec: Recorder,
    pub nodes: Vec<NodeInfo>,
    pub lanes: LaneRecorder,
    pub service: Vec<ServiceSnapshot>,
    pub writes: Vec<WriteRecord>,
    pub resource: Resource,
    pub checks: Vec<InvariantReport>,
    pub clients: Vec<ClientView>,
    /// Per client: its session ended at the service (expired or closed).
    pub session_ended: Vec<bool>,
    pub closed: Vec<bool>,
    pub stuck: Vec<bool>,
    pub held: Vec<bool>,
    /// Node names each client asked to delete: their deletion is not an expiry.
    pub deleting: Vec<Vec<NodeId>>,
    /// GUIDs written in node names, and whose they are.
    pub guids: Vec<(u32, ActorId)>,
    pub watches: Vec<WatchInfo>,
    pub max_holders: u32,
}

/// The log every part of a live run writes to.
pub struct Log {
    start: Instant,
    pub service: ActorId,
    pub resource: ActorId,
    inner: Mutex<Inner>,
}

/// The name part before `-lock-`, read as the GUID.
pub fn guid_of(name: &str) -> Option<u32> {
    let (g, _) = name.split_once("-lock-")?;
    u32::from_str_radix(g, 16).ok()
}

/// The sequence number ZooKeeper appended: the last ten digits (a minus sign once it wraps).
pub fn seq_of(name: &str) -> Option<i32> {
    let (_, s) = name.rsplit_once("-lock-")?;
    s.parse().ok()
}

impl Log {
    /// A log for `clients` lock clients followed by the service and the resource.
    pub fn new(clients: usize, fencing: bool) -> Arc<Self> {
        let mut lanes = LaneRecorder::default();
        for i in 0..clients {
            lanes.add(ActorId(i as u8), 0, SpanState::Idle);
        }
        let service = ActorId(clients as u8);
        let resource = ActorId(clients as u8 + 1);
        lanes.add(service, 0, SpanState::exclusive_queue(None, 0));
        lanes.add(resource, 0, SpanState::Empty);
        Arc::new(Self {
            start: Instant::now(),
            service,
            resource,
            inner: Mutex::new(Inner {
                rec: Recorder::with_capacity(256, 512),
                nodes: Vec::new(),
                lanes,
                service: Vec::new(),
                writes: Vec::new(),
                resource: Resource::new(fencing),
                checks: crate::engine::families::abc::checks(),
                clients: vec![ClientView::default(); clients],
                session_ended: vec![false; clients],
                closed: vec![false; clients],
                stuck: vec![false; clients],
                held: vec![false; clients],
                deleting: vec![Vec::new(); clients],
                guids: Vec::new(),
                watches: Vec::new(),
                max_holders: 0,
            }),
        })
    }

    /// Milliseconds since the run started.
    pub fn now(&self) -> Millis {
        self.start.elapsed().as_millis() as Millis
    }

    /// Where a server on this machine with this tick has its boundaries, in this run's time.
    pub fn tick_phase(&self, tick_ms: Millis) -> Millis {
        super::tick::phase_ms(self.start, tick_ms)
    }

    /// The instant `ms` after the run started.
    pub fn instant(&self, ms: Millis) -> Instant {
        self.start + std::time::Duration::from_millis(ms)
    }

    /// When `client` last heard anything from the service (0 if never).
    pub fn last_heard(&self, client: ActorId) -> Millis {
        let g = self.lock();
        g.rec
            .messages
            .iter()
            .rev()
            .find(|m| m.to == client && m.from == self.service && m.fate == Fate::Delivered)
            .and_then(|m| m.received_ms)
            .unwrap_or(0)
    }

    pub(crate) fn lock(&self) -> MutexGuard<'_, Inner> {
        // A panicking writer leaves the log as it was: keep reading it.
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub fn event(&self, actor: ActorId, kind: EventKind) {
        let mut g = self.lock();
        let at = self.now();
        note_event(&mut g, at, actor, &kind);
        g.rec.event(at, actor, kind);
    }

    /// Records a message as sent now and returns its id.
    pub fn sent(&self, from: ActorId, to: ActorId, msg: ActorMsg) -> u32 {
        let mut g = self.lock();
        let at = self.now();
        let id = g.rec.messages.len() as u32;
        g.rec.message_sent(id, at, from, to, &msg);
        id
    }

    /// A message that arrived (or was lost) now.
    pub fn fate(&self, id: u32, fate: Fate) {
        let mut g = self.lock();
        let at = (fate == Fate::Delivered).then(|| self.now());
        g.rec.message_fate(id, fate, at);
    }

    /// A message sent and received in the same instant (a reply or a notification, read off the
    /// connection as it arrived).
    pub fn arrived(&self, from: ActorId, to: ActorId, msg: ActorMsg) {
        let id = self.sent(from, to, msg);
        self.fate(id, Fate::Delivered);
    }

    pub fn register_guid(&self, guid: u32, owner: ActorId) {
        self.lock().guids.push((guid, owner));
    }

    /// The node called `name`, numbered the first time anyone mentions it.
    pub fn node(&self, name: &str) -> NodeId {
        let mut g = self.lock();
        let at = self.now();
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

    /// A client says it is about to delete its own node.
    pub fn deleting(&self, client: ActorId, node: NodeId) {
        if let Some(d) = self.lock().deleting.get_mut(client.0 as usize) {
            d.push(node);
        }
    }

    /// The service has this node (a create reply, the observer, or a read said so).
    pub fn service_created(&self, name: &str) {
        let mut g = self.lock();
        let at = self.now();
        let id = node_id(&mut g, name, at);
        created(&mut g, self, id, at);
    }

    /// The service no longer has this node.
    pub fn service_deleted(&self, name: &str) {
        let mut g = self.lock();
        let at = self.now();
        let id = node_id(&mut g, name, at);
        deleted(&mut g, self, id, at);
    }

    /// A children read: the service held these nodes when it answered. (Their absence proves
    /// little: the answer may have waited in the client before locklab saw it.)
    pub fn service_children(&self, names: &[String]) {
        let mut g = self.lock();
        let at = self.now();
        let ids: Vec<NodeId> = names.iter().map(|n| node_id(&mut g, n, at)).collect();
        for &id in &ids {
            created(&mut g, self, id, at);
        }
    }

    /// A client found its node first: every node numbered before it is gone at the service.
    pub fn service_first(&self, node: NodeId) {
        let mut g = self.lock();
        let at = self.now();
        let Some(seq) = g.nodes.get(node.0 as usize).map(|n| n.seq) else {
            return;
        };
        let gone: Vec<NodeId> = g
            .nodes
            .iter()
            .filter(|n| n.deleted_ms.is_none() && n.seq < seq)
            .map(|n| n.id)
            .collect();
        for id in gone {
            deleted(&mut g, self, id, at);
        }
    }

    /// A session closed on purpose: the service deletes its nodes at once.
    pub fn session_closed(&self, client: ActorId) {
        let mut g = self.lock();
        let c = client.0 as usize;
        if g.closed.get(c).copied().unwrap_or(true) {
            return;
        }
        g.closed[c] = true;
        g.session_ended[c] = true;
        let at = self.now();
        let kind = EventKind::SessionClosed {
            session: SessionId(c as u32),
            nodes_deleted: Vec::new(),
        };
        g.rec.event(at, self.service, kind);
        refresh(&mut g, self, at);
    }

    /// A watch the client armed (its read or exists was answered) or that fired.
    pub fn watch(&self, client: ActorId, target: Watched, armed: bool) {
        let mut g = self.lock();
        let w = WatchInfo {
            watcher: client,
            target,
        };
        if armed {
            if !g.watches.contains(&w) {
                g.watches.push(w);
            }
        } else {
            g.watches.retain(|x| *x != w);
        }
        let at = self.now();
        snapshot(&mut g, at);
    }

    /// A client's state changed.
    pub fn client(&self, client: ActorId, view: ClientView) {
        let mut g = self.lock();
        let c = client.0 as usize;
        if g.clients.get(c) == Some(&view) {
            return;
        }
        if let Some(v) = g.clients.get_mut(c) {
            *v = view;
        }
        let at = self.now();
        refresh(&mut g, self, at);
    }

    /// A write reaches the protected resource, which lives in this process.
    pub fn write(&self, writer: ActorId, token: u64) {
        let mut g = self.lock();
        let at = self.now();
        let last_seen_before = g.resource.last_seen_token;
        let accepted = g.resource.write(writer, token);
        let fencing = g.resource.fencing;
        let c = writer.0 as usize;
        let stale = g.session_ended.get(c).copied().unwrap_or(false)
            && !g.closed.get(c).copied().unwrap_or(false);
        let kind = EventKind::WriteArrived {
            writer,
            token,
            accepted,
            last_seen_before,
            fencing,
        };
        let last_seen_after = g.resource.last_seen_token;
        let record = WriteRecord::judged(at, &kind, last_seen_after, stale, &g.writes);
        g.rec.event(at, self.resource, kind);
        g.writes.extend(record);
        if stale {
            check(
                &mut g,
                invariant::STALE_WRITE_ARRIVED,
                at,
                "a stale write arrived",
            );
        }
        if g.resource.went_backwards {
            check(
                &mut g,
                invariant::TOKENS_NON_DECREASING,
                at,
                "a smaller token was accepted after a larger one",
            );
        }
        let state = match g.resource.value {
            Some((writer, token)) => SpanState::Value { writer, token },
            None => SpanState::Empty,
        };
        let lane = self.resource.0 as usize;
        g.lanes.set(lane, at, state);
    }

    /// A copy of what was recorded, for the family's finishing step; what clients write while
    /// they stop after the run's end goes into the log, not into the trace.
    pub(crate) fn take(&self) -> Inner {
        let mut g = self.lock();
        let at = self.now();
        refresh(&mut g, self, at);
        g.clone()
    }
}
