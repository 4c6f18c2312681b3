//! The lock recipe's options: every variant a scenario can switch, right or broken.

use serde::Serialize;

use crate::engine::time::Millis;
use crate::engine::world::ActorId;
use crate::engine::zk::tree::DirId;

/// What a waiting client watches.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case", tag = "mode", content = "k")]
pub enum WatchMode {
    /// Its immediate predecessor: one wake-up per release.
    Predecessor,
    /// The lock directory's children: every waiter wakes on every change.
    Children,
    /// The node `k` places ahead of its own.
    Ahead(u32),
}

/// What a client does after a create whose outcome is unknown.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Recovery {
    /// List the children, find this request's GUID, keep the smallest, delete extras.
    Guid,
    /// Create again under a new GUID, forgetting the first attempt.
    Blind,
}

/// How a waiter registers its watch on the node ahead.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Registration {
    /// `exists(path, watch)`: check and register in one step; if gone, read again at once.
    Atomic,
    /// Register the watch and ignore what `exists` answered, trusting the earlier read.
    TwoStep,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum OnDisconnect {
    /// Hold side effects until the session is confirmed again.
    Suspend,
    CarryOn,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum OnLoss {
    /// Stop all work as soon as it learns its session is gone.
    Stop,
    CarryOn,
}

/// What a client does with its node when it stops waiting for the lock.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum OnTimeout {
    /// Delete its own node before returning "not acquired".
    DeleteNode,
    /// Return "not acquired" and leave the node in the queue, its session still open.
    Forget,
}

/// Where the fencing token comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TokenSource {
    /// The lock node's creation zxid: it grows across deletions, wraps and re-created
    /// directories.
    Czxid,
    /// The sequence number in the node's name: it wraps and restarts with the directory.
    Sequence,
}

/// How a holder updates the data node the lock protects.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DataWrite {
    /// No data node: the holder writes the protected resource with its token.
    Off,
    /// `setData` with version -1: the service skips the version check.
    Unconditional,
    /// `setData` with the version the holder read: the service refuses it if anyone wrote since.
    Conditional,
}

impl DataWrite {
    /// The expected version a holder that read `read` sends.
    pub fn expected(self, read: i32) -> i32 {
        match self {
            DataWrite::Conditional => read,
            _ => -1,
        }
    }
}

/// The recipe's options and timings, fixed for a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Recipe {
    pub watch: WatchMode,
    pub recovery: Recovery,
    pub registration: Registration,
    pub on_disconnect: OnDisconnect,
    pub on_loss: OnLoss,
    pub token: TokenSource,
    pub start_ms: Millis,
    pub write_after_ms: Millis,
    pub hold_ms: Millis,
    pub dir: DirId,
    pub resource: ActorId,
    pub requested_timeout_ms: Millis,
    /// Give up waiting this long after starting (`None`: wait as long as it takes).
    pub acquire_timeout_ms: Option<Millis>,
    pub on_timeout: OnTimeout,
}
