//! Everything an actor can send or set: messages between actors and the timers they arm.
//!
//! Messages are typed data; the trace keeps every one of them as it was sent, so a view can
//! draw who sent what to whom without parsing anything.

use serde::Serialize;

use super::actors::redis_node::{RedisCmd, RedisReply};
use super::world::{ActorId, Phase};
use super::zk::tree::{DirId, NodeId, SessionId, Tag, WatchEvent, Watched};

/// A ZooKeeper request, as a client library sends it on its session's connection.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum ZkOp {
    /// Create an ephemeral sequential node named with the request's GUID.
    Create { dir: DirId, tag: Tag, guid: u32 },
    /// List a directory's children, optionally setting a children watch in the same step.
    GetChildren { dir: DirId, watch: bool },
    /// Check a node, optionally setting a watch on it in the same step.
    Exists { node: NodeId, watch: bool },
    /// Delete a node; version -1 matches any.
    Delete { node: NodeId, version: i32 },
    /// Read a node's data, optionally setting a watch on it.
    GetData { node: NodeId, watch: bool },
    /// Replace a node's data; version -1 skips the check.
    SetData {
        node: NodeId,
        version: i32,
        data: u64,
    },
    /// A heartbeat on an idle connection.
    Ping,
    /// Re-establish the session on a new connection and re-arm its watches (`setWatches`).
    Connect {
        last_zxid: u64,
        watches: Vec<Watched>,
    },
    /// End the session: the service deletes its ephemeral nodes at once.
    Close,
    /// Open a new session after the handle's old one expired, as a client library that retries
    /// a failed call on a fresh session does (Curator's retry loop). Nothing of the old session
    /// carries over: not its nodes, not its watches, not its lock.
    NewSession {
        requested_ms: crate::engine::time::Millis,
    },
}

impl ZkOp {
    /// The tie-order phase of this request when it reaches the service.
    pub fn phase(&self) -> Phase {
        match self {
            ZkOp::Delete { .. } | ZkOp::Close => Phase::Release,
            ZkOp::Ping => Phase::Keepalive,
            _ => Phase::Request,
        }
    }
}

/// A node's metadata as a read returns it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub struct Stat {
    pub czxid: u64,
    pub version: i32,
}

/// A child's name as `getChildren` returns it: the GUID and sequence number written in it (the
/// node id stands for its path).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub struct ChildName {
    pub node: NodeId,
    pub tag: Tag,
    pub guid: u32,
    pub seq: i32,
}

/// The service's answer to one request.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
#[serde(tag = "result", rename_all = "snake_case")]
pub enum ZkResult {
    Created {
        node: NodeId,
        czxid: u64,
    },
    /// The directory's children in no particular order (ZooKeeper's); a recipe sorts them.
    Children {
        children: Vec<ChildName>,
    },
    Exists {
        stat: Option<Stat>,
    },
    Data {
        value: u64,
        version: i32,
    },
    Done,
    /// `setData` succeeded with this new version.
    Set {
        version: i32,
    },
    NoNode,
    BadVersion,
    Pong,
    /// The session is still valid: the connection is back.
    Connected,
    /// The session is gone; every later call on this handle fails the same way.
    SessionExpired,
    /// A new session for a handle whose old one expired.
    SessionOpened {
        session: SessionId,
        timeout_ms: crate::engine::time::Millis,
    },
}

/// A job's or task's state in its row.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RowState {
    Ready,
    Running,
    Done,
    Cancelled,
    /// The attempt failed and nothing scheduled another.
    Failed,
}

/// One row of the jobs (or tasks) table. Times are the store's own clock.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub struct RowValue {
    pub state: RowState,
    pub owner: Option<ActorId>,
    pub epoch: u64,
    pub version: u64,
    pub lease_until_ms: Option<u64>,
    pub attempt: u32,
    pub due_ms: u64,
    /// Whose result the row holds.
    pub result: Option<ActorId>,
    pub cancel_requested: bool,
}

/// The WHERE clause of a conditional update: every condition given must hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Default)]
pub struct RowCond {
    pub version: Option<u64>,
    pub epoch: Option<u64>,
    pub owner: Option<ActorId>,
    pub state: Option<RowState>,
    /// The lease has run out (by the store's clock): `lease_until < now()`.
    pub lease_expired: bool,
    /// The lease still runs: `lease_until >= now()`.
    pub lease_live: bool,
    /// Ready and due, or running with its lease run out.
    pub claimable: bool,
    /// The statement reads `now()` inside a transaction begun at this instant (the World's
    /// time), as PostgreSQL's `now()` is the transaction's start; `None`: the statement's own
    /// instant, as `statement_timestamp()`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub now_as_of_ms: Option<u64>,
}

/// The SET clause.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Default)]
pub struct RowSet {
    pub state: Option<RowState>,
    pub owner: Option<ActorId>,
    pub epoch: Option<u64>,
    /// A new lease of this length from the store's now.
    pub lease_for_ms: Option<u64>,
    pub bump_version: bool,
    pub bump_attempt: bool,
    pub result: Option<ActorId>,
    /// Due again this long after the store's now.
    pub due_in_ms: Option<u64>,
    pub cancel_requested: bool,
    /// Clear the owner and the lease.
    pub release: bool,
}

/// What an update is for, so a trace can word it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RowOp {
    Claim,
    Renew,
    Complete,
    TakeOver,
    Submit,
    Cancel,
    /// Ask the worker of a running task to back out (`cancel_requested = true`).
    RequestCancel,
    Reschedule,
    Fail,
}

/// Anything that travels between two actors.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ActorMsg {
    // --- ZooKeeper: one connection per session, replies and events in the order sent ---
    ZkRequest {
        session: SessionId,
        xid: u32,
        op: ZkOp,
    },
    ZkReply {
        xid: u32,
        zxid: u64,
        result: ZkResult,
    },
    ZkWatch {
        event: WatchEvent,
        target: Watched,
        zxid: u64,
    },
    // --- a lease service (etcd- or Redis-like) ---
    Acquire,
    Granted {
        token: u64,
        deadline_ms: Option<u64>,
    },
    Busy,
    Keepalive {
        /// How many keepalive ticks this one message stands for (more than one after a pause).
        merged: u32,
    },
    Renewed {
        deadline_ms: u64,
    },
    Refused,
    Release,
    // --- the protected resource ---
    Write {
        token: u64,
    },
    // --- a table of jobs or tasks (one conditional statement at a time) ---
    RowRead {
        row: u8,
    },
    /// `SELECT task_id FROM task WHERE due <= now() AND (READY OR lease run out)`.
    RowScan,
    /// The queue's claim in one statement: the first claimable row in order that no other
    /// transaction has locked (`FOR UPDATE SKIP LOCKED`), set as `set` says. Answered with
    /// [`ActorMsg::RowDone`] when it took a row, with no candidates when none was left.
    RowClaimNext {
        set: RowSet,
    },
    /// The claimable rows a scan found, one bit per row.
    RowCandidates {
        mask: u16,
    },
    RowValue {
        row: u8,
        value: RowValue,
    },
    RowUpdate {
        row: u8,
        op: RowOp,
        cond: RowCond,
        set: RowSet,
    },
    /// How many rows the update affected (0 or 1) and the row afterwards.
    RowDone {
        row: u8,
        op: RowOp,
        affected: u8,
        value: RowValue,
    },
    // --- an outside system a worker acts on (a payment provider, a mailer) ---
    Effect {
        task: u8,
        attempt: u32,
        /// An idempotency key, if the worker sends one.
        key: Option<u64>,
    },
    // --- Redis nodes (Redlock); `xid` matches a reply to its command on the connection ---
    Redis {
        xid: u32,
        cmd: RedisCmd,
    },
    RedisReply {
        xid: u32,
        reply: RedisReply,
    },
    // --- etcd's leader and the clients of its lease lock ---
    Etcd(super::actors::etcd_leader::EtcdReq),
    EtcdReply(super::actors::etcd_leader::EtcdReply),
    // --- a registry of Snowflake worker ids ---
    /// `claim` numbers the claims of one generator's successive incarnations, so that a
    /// restarted process can tell the answer to its own claim from one meant for its
    /// predecessor.
    ClaimWorker {
        worker: u32,
        claim: u32,
    },
    WorkerClaimed {
        worker: u32,
        claim: u32,
        granted: bool,
    },
}

impl ActorMsg {
    /// The tie-order phase of this message when it arrives.
    pub fn phase(&self) -> Phase {
        match self {
            ActorMsg::ZkRequest { op, .. } => op.phase(),
            ActorMsg::ZkReply { .. }
            | ActorMsg::ZkWatch { .. }
            | ActorMsg::Granted { .. }
            | ActorMsg::Busy
            | ActorMsg::Renewed { .. }
            | ActorMsg::Refused => Phase::Deliver,
            ActorMsg::Acquire => Phase::Request,
            ActorMsg::Keepalive { .. } => Phase::Keepalive,
            ActorMsg::Release => Phase::Release,
            ActorMsg::Write { .. } | ActorMsg::Effect { .. } => Phase::Write,
            ActorMsg::RowRead { .. }
            | ActorMsg::RowScan
            | ActorMsg::RowClaimNext { .. }
            | ActorMsg::RowUpdate { .. } => Phase::Request,
            ActorMsg::RowValue { .. }
            | ActorMsg::RowCandidates { .. }
            | ActorMsg::RowDone { .. } => Phase::Deliver,
            ActorMsg::Redis { cmd, .. } => cmd.phase(),
            ActorMsg::ClaimWorker { .. } => Phase::Request,
            ActorMsg::Etcd(req) => req.phase(),
            ActorMsg::EtcdReply(_) => Phase::Deliver,
            ActorMsg::RedisReply { .. } | ActorMsg::WorkerClaimed { .. } => Phase::Deliver,
        }
    }

    /// Heartbeats and their answers, which a view may show faintly.
    pub fn is_heartbeat(&self) -> bool {
        matches!(
            self,
            ActorMsg::ZkRequest { op: ZkOp::Ping, .. }
                | ActorMsg::ZkReply {
                    result: ZkResult::Pong,
                    ..
                }
        )
    }
}

/// A timer an actor arms. Arming a timer that is already armed moves it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Timer {
    // a ZooKeeper client library
    /// Send a ping on an idle connection (every third of the session timeout).
    Ping,
    /// Nothing heard from the service for two thirds of the session timeout: the connection is
    /// declared lost.
    ReadTimeout,
    /// Try to reconnect.
    Reconnect,
    // a lock recipe
    Start,
    WriteDue,
    ReleaseDue,
    // the coordination service
    SessionExpiry(SessionId),
    // a lease service
    LeaseExpiry,
    // a configuration change (a semaphore's permit count)
    ConfigChange,
    // a leader or a worker
    Poll,
    /// A worker's periodic scan for claimable tasks.
    Scan,
    /// A scan overdue after a pause, run at the wake once the worker has done what fell due
    /// before it.
    ScanOverdue,
    RenewDue,
    WorkDue,
    EffectDue,
    // the frozen holder and its successor
    WorkDone,
    KeepaliveTick,
    AcquireRetry,
    /// A lock client stops waiting.
    AcquireTimeout,
    /// The service looks for empty container directories to delete.
    ContainerCheck,
    // a Redis node and a Redlock client
    KeyExpiry,
    /// A node's or an ID generator's clock is stepped. The machine's clock, not the process's:
    /// it steps whether the process runs, is paused or is down (see [`Timer::of_machine`]).
    ClockJump,
    RequestTimeout,
    /// A Redlock client's computed validity runs out (it only tells the trace).
    ValidityEnd,
    // an ID generator: requests arrive and are served once a millisecond
    IdTick,
    // etcd: the leader's revoke loop, a client library's keep-alive and deadline loops
    RevokeCheck,
    KeepAliveLoop,
    DeadlineLoop,
}

impl Timer {
    /// Whether the timer belongs to the machine rather than the process: it survives a crash
    /// and fires while the process is down or paused.
    pub fn of_machine(self) -> bool {
        matches!(self, Timer::ClockJump)
    }

    pub fn phase(self) -> Phase {
        match self {
            // A clock step takes effect before anything else due at that instant.
            Timer::SessionExpiry(_)
            | Timer::LeaseExpiry
            | Timer::KeyExpiry
            | Timer::ClockJump
            | Timer::ValidityEnd
            | Timer::RevokeCheck => Phase::Expiry,
            Timer::RequestTimeout => Phase::Tick,
            Timer::IdTick => Phase::Work,
            // A scan is a query to the table: scans due at one instant all reach it before
            // anything they lead to, so workers scanning "at once" really race.
            Timer::Scan => Phase::Request,
            Timer::Ping
            | Timer::KeepaliveTick
            | Timer::ReadTimeout
            | Timer::Reconnect
            | Timer::KeepAliveLoop
            | Timer::DeadlineLoop => Phase::Tick,
            Timer::ConfigChange
            | Timer::Poll
            | Timer::RenewDue
            | Timer::WorkDue
            | Timer::EffectDue
            | Timer::ScanOverdue => Phase::Work,
            Timer::Start
            | Timer::WriteDue
            | Timer::ReleaseDue
            | Timer::WorkDone
            | Timer::AcquireRetry
            | Timer::AcquireTimeout
            | Timer::ContainerCheck => Phase::Work,
        }
    }
}

/// Which clock a timer runs on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Clock {
    /// Wall-clock time: a timer due while its actor is frozen fires the moment it wakes.
    Wall,
    /// The actor's own running time: a pause pushes the timer back by its length.
    Own,
}
