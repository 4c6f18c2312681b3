//! Redlock in the trace: what the Redis nodes and their clients did, the lane states they were
//! in, and the family's numbers.

use serde::Serialize;

use crate::engine::time::Millis;
use crate::engine::world::ActorId;

/// How a client releases its lock on every node.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ReleaseHow {
    /// The script: delete the key only if it still holds this client's value.
    CompareAndDelete,
    /// `DEL key`, whoever's value it holds.
    NaiveDel,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum RedlockEvent {
    // --- a client ---
    /// The client starts an attempt with a fresh random value, asking the nodes in order.
    AttemptStarted {
        attempt: u32,
        value: u32,
    },
    SetAnswered {
        node: ActorId,
        ok: bool,
    },
    /// No answer within the request timeout: the client counts the node as failed and moves on.
    SetTimedOut {
        node: ActorId,
    },
    /// A majority said OK and time is left: the client holds until `valid_until_ms`.
    Acquired {
        ok: Vec<ActorId>,
        ttl_ms: Millis,
        elapsed_ms: Millis,
        drift_ms: Millis,
        validity_ms: i64,
        valid_until_ms: Millis,
    },
    /// Too few OKs, or no validity left: the client releases everywhere and tries again later.
    AttemptFailed {
        ok: Vec<ActorId>,
        quorum: u32,
        elapsed_ms: Millis,
        validity_ms: i64,
    },
    /// The validity the client computed ran out at `since_ms` (earlier than the event when the
    /// client was frozen then); nothing in the client notices.
    ValidityOver {
        since_ms: Millis,
    },
    /// The client sends its release to every node.
    ReleaseSent {
        how: ReleaseHow,
    },
    // --- a node ---
    KeySet {
        owner: ActorId,
        value: u32,
        ttl_ms: Millis,
        /// When the key expires, in run time, as the node's clock stands now.
        expires_ms: Millis,
    },
    /// `SET NX` finds the key held.
    SetRefused {
        by: ActorId,
        holder: ActorId,
    },
    KeyExpired {
        owner: ActorId,
    },
    /// A release deletes a key; `checked` when it compared the value first.
    KeyDeleted {
        owner: ActorId,
        by: ActorId,
        checked: bool,
    },
    /// A compare-and-delete finds another client's value and leaves the key alone.
    KeyKept {
        holder: ActorId,
        by: ActorId,
    },
    /// The node's clock is stepped forward; a key whose expiry it passes is gone at once.
    ClockJumped {
        by_ms: Millis,
    },
    /// The node is back after a crash, with the key it had synced to disk or without it.
    NodeRecovered {
        fsync: bool,
        kept: Option<ActorId>,
        lost: Option<ActorId>,
    },
}

/// A Redlock lane state, for clients and nodes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(tag = "redlock", rename_all = "snake_case")]
pub enum RedlockSpan {
    /// Asking the nodes one after another: `ok` of the `asked` said OK so far.
    Acquiring { ok: u8, asked: u8 },
    /// Holding with validity left, until `until_ms`.
    Holding { until_ms: Millis },
    /// Still acting as the holder after its validity ran out.
    Overdue,
    /// The attempt failed; waiting to try again.
    Backoff,
    /// A node holding a client's key.
    Key { owner: ActorId },
}

impl RedlockSpan {
    pub fn name(self) -> &'static str {
        match self {
            RedlockSpan::Acquiring { .. } => "acquiring",
            RedlockSpan::Holding { .. } => "holding",
            RedlockSpan::Overdue => "overdue",
            RedlockSpan::Backoff => "backoff",
            RedlockSpan::Key { .. } => "key",
        }
    }
}

/// One successful acquisition.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Acquisition {
    pub client: String,
    pub started_ms: Millis,
    pub acquired_ms: Millis,
    pub ok_nodes: Vec<String>,
    pub ttl_ms: Millis,
    pub elapsed_ms: Millis,
    pub drift_ms: Millis,
    /// TTL − elapsed − drift.
    pub validity_ms: i64,
    pub valid_until_ms: Millis,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RedlockMetrics {
    /// Nodes needed for a majority.
    pub quorum: u32,
    pub acquisitions: Vec<Acquisition>,
    pub failed_attempts: u32,
    /// The first acquisition's validity.
    pub validity_ms: Option<i64>,
    /// The most clients at one instant that believed they held with validity left.
    pub max_holders: u32,
    /// The most clients at one instant whose key a majority of live nodes held.
    pub max_holders_nodes_view: u32,
    /// How long two or more clients believed they held with validity left.
    pub two_holders_ms: Millis,
    /// Writes accepted from a client whose validity was over or that no longer had a majority.
    pub stale_writes_accepted: u32,
    /// Keys deleted by a client they did not belong to.
    pub foreign_deletes: u32,
    /// Who wrote the resource's value last.
    pub final_value: Option<String>,
    pub violations: Vec<String>,
}
