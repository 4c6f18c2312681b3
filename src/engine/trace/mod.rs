//! The trace: the only contract between whatever produced a run and everything that shows it.
//!
//! It is typed throughout. Every message (who sent what to whom, when, and whether it arrived),
//! every lane span with its state (`Waiting { watching }`, `Holding { token }`, `Frozen {
//! believes_holding }`, ...), the coordination service's children with their owners and the
//! watches on them at every change, every write at the resource with its judgement, the windows
//! that matter (danger, blind), the key moments and the named invariant results. A view reads
//! these; it never parses a string and never works out a protocol fact itself.

mod checks;
pub mod data;
pub mod ensemble;
pub mod etcd;
pub mod event;
mod facts;
pub mod lane;
pub mod metric_table;
mod metrics;
pub mod record;
pub mod redlock;
pub mod snowflake;

use serde::Serialize;

pub use event::{Event, EventKind};
pub use facts::Believers;
pub use lane::{ActorSet, Lane, Share, Span, SpanState};
pub use metric_table::{MetricSpec, MetricValue, Unit, metrics_of};
pub use metrics::{
    AbcMetrics, AbcTally, CancelOutcome, Check, ClaimRecord, ElectionMetrics, FrozenMetrics,
    HerdMetrics, HerdRow, Invariant, InvariantReport, Metrics, QueueMetrics, TaskMetrics, Verdict,
    invariant,
};

use super::msg::ActorMsg;
use super::time::Millis;
use super::world::ActorId;
use super::zk::tree::{NodeId, Tag, Watched};

/// Bumped whenever the JSON shape of a trace changes incompatibly.
pub const SCHEMA_VERSION: u32 = 3;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Family {
    Frozen,
    Abc,
    Herd,
    Rwlock,
    Semaphore,
    Election,
    Tasks,
    Redlock,
    Snowflake,
    Etcd,
}

impl Family {
    pub const ALL: [Family; 10] = [
        Family::Frozen,
        Family::Abc,
        Family::Herd,
        Family::Rwlock,
        Family::Semaphore,
        Family::Election,
        Family::Tasks,
        Family::Redlock,
        Family::Snowflake,
        Family::Etcd,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Family::Frozen => "frozen",
            Family::Abc => "abc",
            Family::Herd => "herd",
            Family::Rwlock => "rwlock",
            Family::Semaphore => "semaphore",
            Family::Election => "election",
            Family::Tasks => "tasks",
            Family::Redlock => "redlock",
            Family::Snowflake => "snowflake",
            Family::Etcd => "etcd",
        }
    }

    pub fn parse(s: &str) -> Option<Family> {
        Self::ALL.into_iter().find(|f| f.name() == s)
    }
}

/// What an actor is, for choosing how to draw and word it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// A lock client (A, B, C).
    Client,
    /// A ZooKeeper-like coordination service.
    Coordinator,
    /// A lease service that grants tokens.
    LeaseService,
    /// The protected resource.
    Resource,
    /// A database table the clients update with conditional statements.
    Table,
    /// A system outside the lock's reach that a worker acts on (a payment provider).
    Outside,
    /// A person acting on the table (an operator cancelling a task).
    Operator,
    /// One of several independent Redis nodes (Redlock).
    Node,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ActorInfo {
    pub id: ActorId,
    pub name: String,
    pub role: Role,
}

impl ActorInfo {
    /// The run's actors with their names and roles, numbered from 0 in the order given.
    pub fn in_order<N: Into<String>>(actors: impl IntoIterator<Item = (N, Role)>) -> Vec<Self> {
        actors
            .into_iter()
            .enumerate()
            .map(|(i, (name, role))| Self {
                id: ActorId(i as u8),
                name: name.into(),
                role,
            })
            .collect()
    }
}

/// A lock node as the service created it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct NodeInfo {
    pub id: NodeId,
    /// The full name, such as `0a1b2c3d-lock-0000000017`.
    pub name: String,
    pub tag: Tag,
    pub seq: i32,
    pub czxid: u64,
    /// The client whose session owns it.
    pub owner: ActorId,
    pub created_ms: Millis,
    pub deleted_ms: Option<Millis>,
}

/// Whether a message arrived.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Fate {
    Delivered,
    /// Lost on a cut or reset link, or sent to a crashed process.
    Dropped,
    /// Still on its way when the run ended.
    InFlight,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Message {
    pub id: u32,
    pub from: ActorId,
    pub to: ActorId,
    pub sent_ms: Millis,
    pub fate: Fate,
    pub received_ms: Option<Millis>,
    pub msg: ActorMsg,
}

/// One child of the lock directory.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Child {
    pub node: NodeId,
    pub owner: ActorId,
    pub seq: i32,
}

/// A watch the service holds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct WatchInfo {
    pub watcher: ActorId,
    pub target: Watched,
}

/// The lock directory as the service has it, from `at_ms` until the next snapshot.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ServiceSnapshot {
    pub at_ms: Millis,
    /// In sequence order: the first one holds the lock.
    pub children: Vec<Child>,
    pub watches: Vec<WatchInfo>,
}

/// How a write at the resource is to be judged.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Judgement {
    /// Accepted from a writer that still held the lock.
    Fresh,
    /// From a writer that had lost the lock, and refused by the fencing check.
    StaleRejected,
    /// From a writer that had lost the lock, yet accepted (fencing off, or nothing newer yet).
    StaleAccepted,
    /// A stale write accepted over a newer holder's value: the newer value is destroyed.
    Overwrote,
    /// Refused although the writer still held the lock (a token that is not newer).
    Refused,
}

impl Judgement {
    /// Judges a write as it arrives at the resource, after `earlier` writes: `stale` when the
    /// writer had lost the lock, whatever it believes; `accepted` as the resource decided.
    /// Returns the judgement and the value the write replaced, if it was accepted over one.
    pub fn of(
        stale: bool,
        accepted: bool,
        token: u64,
        earlier: &[WriteRecord],
    ) -> (Judgement, Option<(ActorId, u64)>) {
        let replaced = earlier
            .iter()
            .rev()
            .find(|w| w.accepted)
            .map(|w| (w.writer, w.token))
            .filter(|_| accepted);
        let judgement = match (stale, accepted) {
            (false, true) => Judgement::Fresh,
            (false, false) => Judgement::Refused,
            (true, false) => Judgement::StaleRejected,
            (true, true) if replaced.is_some_and(|(_, t)| t > token) => Judgement::Overwrote,
            (true, true) => Judgement::StaleAccepted,
        };
        (judgement, replaced)
    }

    /// Whether the writer had lost the lock when the write arrived.
    pub fn stale(self) -> bool {
        matches!(
            self,
            Judgement::StaleRejected | Judgement::StaleAccepted | Judgement::Overwrote
        )
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct WriteRecord {
    pub at_ms: Millis,
    pub writer: ActorId,
    pub token: u64,
    pub accepted: bool,
    /// The largest token the resource had accepted before this write.
    pub last_seen_before: u64,
    /// ... and after it: what the resource remembers from now on.
    pub last_seen_after: u64,
    pub fencing: bool,
    pub judgement: Judgement,
    /// The value this write replaced, as (writer, token), if it was accepted over one.
    pub replaced: Option<(ActorId, u64)>,
}

impl WriteRecord {
    /// The write a `WriteArrived` event at `at_ms` reports, judged: `stale` when the writer's
    /// lock had already ended at the service, whatever the writer believes; what it replaced
    /// comes from the writes before it. `None` for any other event.
    pub fn judged(
        at_ms: Millis,
        arrived: &EventKind,
        last_seen_after: u64,
        stale: bool,
        earlier: &[WriteRecord],
    ) -> Option<Self> {
        let &EventKind::WriteArrived {
            writer,
            token,
            accepted,
            last_seen_before,
            fencing,
        } = arrived
        else {
            return None;
        };
        let (judgement, replaced) = Judgement::of(stale, accepted, token, earlier);
        Some(WriteRecord {
            at_ms,
            writer,
            token,
            accepted,
            last_seen_before,
            last_seen_after,
            fencing,
            judgement,
            replaced,
        })
    }
}

/// A stretch of time worth marking across the lanes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum WindowKind {
    /// From the old holder's lease expiry to its late write's arrival.
    Danger,
    /// A client's link is cut but it has not noticed yet: it still acts as before.
    Blind { client: ActorId },
    /// A client knows it is disconnected and is trying to reconnect.
    Disconnected { client: ActorId },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Window {
    #[serde(flatten)]
    pub kind: WindowKind,
    pub from_ms: Millis,
    pub to_ms: Millis,
}

/// A moment a learner should not miss, for "next key moment" navigation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum MomentKind {
    Grant {
        actor: ActorId,
    },
    Release {
        actor: ActorId,
    },
    /// `actor`'s lock or session ran out at `by`, the service: `actor` does not know it yet.
    Expiry {
        actor: ActorId,
        by: ActorId,
    },
    /// `actor` itself learns that its lock or session is gone.
    LearnedLost {
        actor: ActorId,
    },
    StaleWrite {
        actor: ActorId,
        accepted: bool,
    },
    FirstViolation {
        invariant: Invariant,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Moment {
    pub at_ms: Millis,
    #[serde(flatten)]
    pub kind: MomentKind,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Trace {
    pub schema_version: u32,
    pub family: Family,
    /// The run covers `[0, end_ms]`.
    pub end_ms: Millis,
    pub actors: Vec<ActorInfo>,
    pub nodes: Vec<NodeInfo>,
    pub events: Vec<Event>,
    pub messages: Vec<Message>,
    pub lanes: Vec<Lane>,
    pub service: Vec<ServiceSnapshot>,
    pub writes: Vec<WriteRecord>,
    pub windows: Vec<Window>,
    pub moments: Vec<Moment>,
    pub metrics: Metrics,
    pub invariants: Vec<InvariantReport>,
}

impl Trace {
    /// The actor called `name`.
    pub fn actor_named(&self, name: &str) -> Option<ActorId> {
        self.actors.iter().find(|a| a.name == name).map(|a| a.id)
    }

    /// An actor's name.
    pub fn name(&self, id: ActorId) -> &str {
        self.actors
            .iter()
            .find(|a| a.id == id)
            .map_or("?", |a| a.name.as_str())
    }

    pub fn role(&self, id: ActorId) -> Option<Role> {
        self.actors.iter().find(|a| a.id == id).map(|a| a.role)
    }

    pub fn node(&self, id: NodeId) -> Option<&NodeInfo> {
        self.nodes.iter().find(|n| n.id == id)
    }

    /// A node's sequence number for display, or `?` for an unknown id.
    pub fn seq(&self, id: NodeId) -> String {
        self.node(id)
            .map_or_else(|| "?".into(), |n| n.seq.to_string())
    }

    pub fn lane(&self, actor: &str) -> Option<&Lane> {
        let id = self.actor_named(actor)?;
        self.lanes.iter().find(|l| l.actor == id)
    }

    pub fn lane_of(&self, id: ActorId) -> Option<&Lane> {
        self.lanes.iter().find(|l| l.actor == id)
    }

    /// True when every "always" invariant held for the whole run.
    pub fn all_invariants_hold(&self) -> bool {
        self.invariants
            .iter()
            .filter(|i| i.check == Check::Always)
            .all(|i| i.held)
    }

    /// The report of a check, named by its [`Invariant`] or by its name.
    pub fn invariant<N>(&self, name: N) -> Option<&InvariantReport>
    where
        Invariant: PartialEq<N>,
    {
        self.invariants.iter().find(|i| i.name == name)
    }

    /// The "always" invariants that had failed by time `at`.
    pub fn violations_at(&self, at: Millis) -> impl Iterator<Item = &InvariantReport> {
        self.invariants.iter().filter(move |i| {
            i.check == Check::Always && i.first_ms.is_some_and(|t| t <= at) && !i.held
        })
    }

    /// Index of the last event at or before `at`, if any.
    pub fn event_index_at(&self, at: Millis) -> Option<usize> {
        let after = self.events.partition_point(|e| e.at_ms <= at);
        after.checked_sub(1)
    }

    /// The lock directory at `at`: the last snapshot taken at or before it.
    pub fn service_at(&self, at: Millis) -> Option<&ServiceSnapshot> {
        let after = self.service.partition_point(|s| s.at_ms <= at);
        after.checked_sub(1).map(|i| &self.service[i])
    }

    /// The resource's value at `at`: the last accepted write at or before it.
    pub fn value_at(&self, at: Millis) -> Option<&WriteRecord> {
        self.writes
            .iter()
            .rev()
            .find(|w| w.accepted && w.at_ms <= at)
    }

    pub fn window(&self, kind: WindowKind) -> Option<&Window> {
        self.windows.iter().find(|w| w.kind == kind)
    }

    pub fn danger(&self) -> Option<&Window> {
        self.window(WindowKind::Danger)
    }
}
