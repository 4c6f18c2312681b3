//! What a live election run saw, on the story's clock: each runner's requests and what the service
//! told it, every statement on the rollup job's row with the rows it affected, and the lanes.

use std::sync::{Mutex, MutexGuard};

use serde::Serialize;

use crate::engine::msg::{RowCond, RowOp, RowState, RowValue};
use crate::engine::time::Millis;
use crate::engine::trace::lane::LaneRecorder;
use crate::engine::trace::record::Recorder;
use crate::engine::trace::{EventKind, NodeInfo, SpanState};
use crate::engine::world::ActorId;
use crate::engine::zk::tree::{NodeId, Tag};
use crate::live::tasks::Clock;

/// The rollup job's row as the table returned it after a statement.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Row {
    pub state: RowState,
    pub owner: Option<String>,
    pub epoch: u64,
    pub version: u64,
    /// On the store's clock (ms).
    pub lease_until_ms: Option<Millis>,
    pub result: Option<String>,
}

/// One statement on the rollup job's row.
#[derive(Debug, Clone, Serialize)]
pub struct Statement {
    /// When it was sent, in the story's time since the run began.
    pub at_ms: Millis,
    /// The store's clock as the statement read it.
    pub store_ms: Millis,
    pub by: String,
    pub op: RowOp,
    /// The epoch its runner acted with.
    pub epoch: u64,
    pub sql: String,
    pub affected: u64,
    /// The row just after it.
    pub row: Row,
}

pub(super) struct Inner {
    pub rec: Recorder,
    pub lanes: LaneRecorder,
    pub nodes: Vec<NodeInfo>,
    pub statements: Vec<Statement>,
}

/// The log both runners write to.
pub(super) struct Log {
    pub(super) clock: Clock,
    inner: Mutex<Inner>,
}

/// The actors' places in the trace, as the model numbers them.
pub const A: ActorId = crate::engine::families::election::A;
pub const B: ActorId = crate::engine::families::election::B;
pub const SERVICE: ActorId = crate::engine::families::election::SERVICE;
pub const ROWS: ActorId = crate::engine::families::election::ROWS;

pub fn actor(name: &str) -> Option<ActorId> {
    match name {
        "A" => Some(A),
        "B" => Some(B),
        _ => None,
    }
}

/// The row as the trace holds it.
pub fn value(r: &Row) -> RowValue {
    RowValue {
        state: r.state,
        owner: r.owner.as_deref().and_then(actor),
        epoch: r.epoch,
        version: r.version,
        lease_until_ms: r.lease_until_ms,
        attempt: 1,
        due_ms: 0,
        result: r.result.as_deref().and_then(actor),
        cancel_requested: false,
    }
}

impl Log {
    pub fn new(clock: Clock, first: &Row) -> Self {
        let mut lanes = LaneRecorder::default();
        let epoch = first.epoch;
        lanes.add(A, 0, SpanState::Leading { epoch });
        lanes.add(B, 0, SpanState::Idle);
        lanes.add(SERVICE, 0, SpanState::exclusive_queue(Some(A), 0));
        lanes.add(
            ROWS,
            0,
            SpanState::Row {
                row_state: first.state,
                owner: Some(A),
                epoch,
                version: first.version,
            },
        );
        Self {
            clock,
            inner: Mutex::new(Inner {
                rec: Recorder::with_capacity(64, 64),
                lanes,
                nodes: Vec::new(),
                statements: Vec::new(),
            }),
        }
    }

    pub(super) fn lock(&self) -> MutexGuard<'_, Inner> {
        // A panicking writer leaves the log as it was: keep reading it.
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub fn now(&self) -> Millis {
        self.clock.now()
    }

    pub fn event(&self, actor: ActorId, kind: EventKind) {
        let at = self.now();
        self.lock().rec.event(at, actor, kind);
    }

    pub fn lane(&self, actor: ActorId, state: SpanState) {
        let at = self.now();
        self.lock().lanes.set(actor.0 as usize, at, state);
    }

    /// A candidate node the service made for `owner`, numbered `seq`; `at` the story instant.
    pub fn node(&self, owner: ActorId, seq: i32, czxid: u64, at: Millis) -> NodeId {
        let mut g = self.lock();
        let id = NodeId(g.nodes.len() as u32);
        g.nodes.push(NodeInfo {
            id,
            name: format!("n_{seq:010}"),
            tag: Tag::Candidate,
            seq,
            czxid,
            owner,
            created_ms: at,
            deleted_ms: None,
        });
        id
    }

    /// The service deleted `node` with its owner's session.
    pub fn expired(&self, node: NodeId) {
        let at = self.now();
        let mut g = self.lock();
        let Some(n) = g.nodes.iter_mut().find(|n| n.id == node) else {
            return;
        };
        if n.deleted_ms.is_some() {
            return;
        }
        n.deleted_ms = Some(at);
        let owner = n.owner;
        g.rec.event(
            at,
            SERVICE,
            EventKind::SessionExpired {
                session: crate::engine::zk::tree::SessionId(u32::from(owner.0)),
                owner,
                nodes_deleted: vec![node],
            },
        );
        g.rec.event(
            at,
            SERVICE,
            EventKind::NodeDeleted {
                node,
                notified: Vec::new(),
            },
        );
        let left = g.nodes.iter().filter(|n| n.deleted_ms.is_none()).count();
        let first = g
            .nodes
            .iter()
            .filter(|n| n.deleted_ms.is_none())
            .min_by_key(|n| n.seq)
            .map(|n| n.owner);
        g.lanes.set(
            SERVICE.0 as usize,
            at,
            SpanState::exclusive_queue(first, left.saturating_sub(1) as u8),
        );
    }

    /// A candidate queued behind the leader's node.
    pub fn queued(&self) {
        let at = self.now();
        let mut g = self.lock();
        let left = g.nodes.iter().filter(|n| n.deleted_ms.is_none()).count();
        let first = g
            .nodes
            .iter()
            .filter(|n| n.deleted_ms.is_none())
            .min_by_key(|n| n.seq)
            .map(|n| n.owner);
        g.lanes.set(
            SERVICE.0 as usize,
            at,
            SpanState::exclusive_queue(first, left.saturating_sub(1) as u8),
        );
    }

    /// A statement on the row, sent at `at`, with what the table said.
    pub fn statement(&self, s: Statement, by: ActorId, cond: RowCond) {
        let mut g = self.lock();
        let v = value(&s.row);
        g.rec.event(
            s.at_ms,
            ROWS,
            EventKind::RowUpdated {
                row: 0,
                by,
                op: s.op,
                cond,
                affected: s.affected as u8,
                value: v,
            },
        );
        if s.affected > 0 {
            g.lanes.set(
                ROWS.0 as usize,
                s.at_ms,
                SpanState::Row {
                    row_state: v.state,
                    owner: v.owner,
                    epoch: v.epoch,
                    version: v.version,
                },
            );
        }
        g.statements.push(s);
    }
}
