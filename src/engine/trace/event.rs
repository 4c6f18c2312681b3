//! Events: one thing that happened, at one instant, to one actor, with typed details a view can
//! word in any language.

use serde::Serialize;

use crate::engine::time::Millis;
use crate::engine::world::ActorId;
use crate::engine::zk::tree::{NodeId, SessionId, WatchEvent, Watched};

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Event {
    pub at_ms: Millis,
    pub actor: ActorId,
    #[serde(flatten)]
    pub kind: EventKind,
}

/// Which request a connection loss failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Request {
    Create,
    GetChildren,
    Exists,
    Delete,
    SetData,
    GetData,
    Close,
}

/// Why a reader or a permit holder may go in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "as", rename_all = "snake_case")]
pub enum Admission {
    /// No write node comes before its own; `skipped` is a waiting writer it went past.
    Read { skipped: Option<NodeId> },
    /// Its node is at `place` (1-based) among the first `permits`.
    Permit { place: u32, permits: u32 },
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum EventKind {
    // --- faults, as the World applies them ---
    Froze,
    Woke,
    /// The network between this client and the service goes silent.
    LinkCut,
    LinkRestored,
    /// The connection breaks and both ends notice at once.
    ConnectionReset,
    Crashed,
    /// A crashed process starts again, with only what it kept on disk.
    Restarted,

    // --- a ZooKeeper client library ---
    SessionOpened {
        session: SessionId,
        requested_ms: Millis,
        /// What the server grants: the request clamped to 2 to 20 ticks.
        granted_ms: Millis,
    },
    /// Nothing heard for the read timeout (two thirds of the session timeout): the client
    /// declares the connection lost.
    NoticedDisconnect {
        silent_ms: Millis,
    },
    /// A request in flight, or issued while disconnected, fails: its outcome is unknown.
    ConnectionLoss {
        request: Request,
    },
    Reconnecting,
    Reconnected,
    LearnedSessionExpired,

    // --- the lock recipe ---
    CreateSent {
        guid: u32,
    },
    GotNode {
        node: NodeId,
    },
    CreateOutcomeUnknown,
    RecoveredNode {
        node: NodeId,
    },
    DuplicateDeleted {
        node: NodeId,
    },
    ChildrenRead {
        children: Vec<NodeId>,
        mine: Option<NodeId>,
    },
    ExistsChecked {
        node: NodeId,
        exists: bool,
    },
    WatchChildren,
    Waiting {
        on: Watched,
    },
    Notified {
        target: Watched,
        event: WatchEvent,
    },
    /// A waiter's watch fired: it must read again, a wake-up is not a grant.
    WokeUp {
        target: Watched,
    },
    Acquired {
        node: NodeId,
        token: u64,
    },
    /// A reader or a permit holder is let in (a writer's grant is `Acquired`).
    Admitted {
        node: NodeId,
        token: u64,
        how: Admission,
    },
    Suspended,
    Revalidated {
        still_first: bool,
    },
    ReleaseSent {
        node: NodeId,
    },
    /// The holder finishes early and releases right now.
    ReleasedEarly,
    /// The client stopped waiting for the lock; `deleted` says whether it deleted its node.
    AcquireTimedOut {
        deleted: bool,
    },
    /// The service deleted an empty container directory (the lock directory).
    DirDeleted {
        dir: crate::engine::zk::tree::DirId,
    },
    /// A create re-created the missing lock directory: its sequence counter starts again at 0.
    DirCreated {
        dir: crate::engine::zk::tree::DirId,
    },
    /// The client is waiting for something that can never happen.
    Stuck {
        on: Watched,
    },
    /// What it waited for became possible again.
    Unstuck,

    // --- the coordination service ---
    NodeCreated {
        node: NodeId,
        owner: ActorId,
    },
    NodeDeleted {
        node: NodeId,
        /// The clients whose watches this deletion fired.
        notified: Vec<ActorId>,
    },
    SessionExpired {
        session: SessionId,
        owner: ActorId,
        nodes_deleted: Vec<NodeId>,
    },
    /// The configured permit count changes; holders already inside stay.
    PermitsLowered {
        permits: u32,
    },
    SessionClosed {
        session: SessionId,
        nodes_deleted: Vec<NodeId>,
    },

    // --- a lease service and its clients (the frozen holder) ---
    LeaseGranted {
        holder: ActorId,
        token: u64,
        /// `None` for a lease kept to the end of the run.
        deadline_ms: Option<Millis>,
    },
    KeepaliveSent {
        merged: u32,
    },
    KeepaliveRenewed {
        deadline_ms: Millis,
    },
    KeepaliveRefused,
    LeaseExpired {
        holder: ActorId,
    },
    LearnedLeaseLost,
    AcquireRequested,
    AcquireRefused {
        holder: ActorId,
    },
    LearnedGrant {
        token: u64,
    },
    Released {
        holder: ActorId,
    },
    ReleaseIgnored,
    LeaseReleaseSent,

    // --- a leader election ---
    /// Raised the epoch to this value and leads with it.
    Elected {
        epoch: u64,
    },

    // --- a table of jobs or tasks, and the outside system ---
    RowUpdated {
        row: u8,
        by: ActorId,
        op: crate::engine::msg::RowOp,
        /// The statement's WHERE clause, for the words.
        cond: crate::engine::msg::RowCond,
        affected: u8,
        value: crate::engine::msg::RowValue,
    },
    /// A worker calls the outside system, with its task's stable key if it sends one.
    EffectSent {
        attempt: u32,
        key: Option<u64>,
    },
    /// A renewal affected no row: the worker now knows its claim is gone.
    LearnedClaimLost,
    /// Just before its outside call the worker read `cancel_requested` and backs out.
    CancelSeen,
    /// Processing a task threw; `caught` says whether the scanner's body caught it.
    ScanFailed {
        row: u8,
        caught: bool,
    },
    EffectApplied {
        task: u8,
        by: ActorId,
        attempt: u32,
        /// How many effects the outside system has applied in all.
        count: u32,
        /// A repeat of an idempotency key it had already applied.
        deduplicated: bool,
    },

    // --- writes ---
    WriteSent {
        token: u64,
    },
    /// A holder read the data node the lock protects.
    DataRead {
        version: i32,
        value: u64,
    },
    /// A holder sent `setData` on the data node with this expected version (-1: any).
    DataWriteSent {
        expected: i32,
        value: u64,
    },
    /// The service applied or refused a `setData` on the data node.
    DataSet {
        writer: ActorId,
        expected: i32,
        outcome: super::data::DataOutcome,
        value: u64,
    },
    /// The holder's `setData` came back BadVersion: it re-reads and stops instead of writing.
    DataWriteRefused,
    WriteAbandoned,
    WriteDeferred,
    WriteArrived {
        writer: ActorId,
        token: u64,
        accepted: bool,
        last_seen_before: u64,
        fencing: bool,
    },

    // --- herd ---
    ReleaseRound {
        release: u32,
        woken: u32,
        winner: u32,
        wasted: u32,
        not_notified: u32,
    },
    RunEnded,

    // --- Redlock and Snowflake IDs, worded by their own modules ---
    Redlock(super::redlock::RedlockEvent),
    Snowflake(super::snowflake::IdEvent),
    Etcd(super::etcd::EtcdEvent),
    /// A live run's ensemble: a server killed or cut off, a new leader.
    Ensemble(super::ensemble::EnsembleEvent),
}
