//! The data node a lock protects: every read and `setData` of it, judged by the service, and
//! the updates a later write wiped out.

use serde::Serialize;

use crate::engine::time::Millis;
use crate::engine::world::ActorId;

/// What the service did with one `setData` on the data node.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(tag = "result", rename_all = "snake_case")]
pub enum DataOutcome {
    /// Applied: the node's version is now `version`.
    Set { version: i32 },
    /// Refused: the expected version was not the node's `current` one.
    BadVersion { current: i32 },
}

/// A holder's `getData` of the data node, as the reply reached it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct DataRead {
    pub at_ms: Millis,
    pub reader: ActorId,
    pub version: i32,
    pub value: u64,
}

/// One `setData` on the data node, as the service applied or refused it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct DataWriteRecord {
    pub at_ms: Millis,
    pub writer: ActorId,
    /// The version the writer asked for; -1 skips the check.
    pub expected: i32,
    /// The version the writer last read, if it read at all.
    pub read_version: Option<i32>,
    pub outcome: DataOutcome,
    /// The node's data after the request.
    pub value: u64,
    /// For an applied write over versions someone else wrote after this writer's read: whose
    /// update it wiped out, and that update's version. A lost update.
    pub overwrote: Option<(ActorId, i32)>,
}

/// The data node over a whole run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DataFacts {
    pub path: &'static str,
    pub initial_version: i32,
    pub initial_value: u64,
    pub reads: Vec<DataRead>,
    pub writes: Vec<DataWriteRecord>,
    pub final_version: i32,
    pub final_value: u64,
}

impl DataFacts {
    /// The node's version and data just after `at` (the start, or the last write applied by then).
    pub fn at(&self, at: Millis) -> (i32, u64) {
        self.writes
            .iter()
            .filter(|w| w.at_ms <= at)
            .filter_map(|w| match w.outcome {
                DataOutcome::Set { version } => Some((version, w.value)),
                DataOutcome::BadVersion { .. } => None,
            })
            .next_back()
            .unwrap_or((self.initial_version, self.initial_value))
    }

    pub fn lost_updates(&self) -> u32 {
        self.writes.iter().filter(|w| w.overwrote.is_some()).count() as u32
    }
}
