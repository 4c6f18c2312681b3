//! Snowflake IDs in the trace: every ID with its bit fields, the collisions, the generators'
//! lane states, and the family's numbers.

use crate::engine::trace::Invariant;
use serde::Serialize;

use crate::engine::time::Millis;
use crate::engine::world::ActorId;

/// Why a generator holds requests back.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(tag = "reason", rename_all = "snake_case")]
pub enum WaitReason {
    /// This millisecond's sequence numbers are used up.
    SequenceUsedUp,
    /// The clock reads `behind_ms` before the last millisecond used.
    ClockBehind { behind_ms: u64 },
    /// Just started: waiting out the millisecond a previous process may have used.
    StartWait,
    /// No answer yet on the worker id's lease.
    WorkerLease,
}

/// Why a generator turns requests down.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(tag = "reason", rename_all = "snake_case")]
pub enum RefuseReason {
    ClockBehind {
        behind_ms: u64,
    },
    /// Another process holds the worker id.
    WorkerTaken,
    /// The clock is outside what the time field can hold.
    TimeOutOfRange,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum IdEvent {
    /// One ID, with its fields: `time | worker | sequence`.
    Issued {
        id: u64,
        time: u64,
        worker: u32,
        sequence: u32,
        waited_ms: Millis,
        /// The sequence ran past its last value in this millisecond and started again at 0.
        wrapped: bool,
    },
    /// The same ID was issued before.
    Collision {
        id: u64,
        first: ActorId,
        first_at_ms: Millis,
    },
    WaitStarted {
        reason: WaitReason,
    },
    Refused {
        count: u32,
        reason: RefuseReason,
    },
    /// The generator's clock is stepped back.
    ClockSteppedBack {
        by_ms: u64,
        reads: u64,
        last_used: Option<u64>,
    },
    /// On start, the generator will not issue before this millisecond.
    StartWait {
        until: u64,
    },
    WorkerClaimSent {
        worker: u32,
    },
    WorkerGranted {
        worker: u32,
        to: ActorId,
    },
    WorkerDenied {
        worker: u32,
        to: ActorId,
        holder: ActorId,
    },
}

/// A generator's lane state.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(tag = "snowflake", rename_all = "snake_case")]
pub enum IdSpan {
    /// In the millisecond `time`, `count` IDs from sequence `first` to `last` (fewer numbers than
    /// IDs when the sequence wrapped), with `held` requests left waiting; `duplicate` when one of
    /// them had been issued before.
    Issued {
        time: u64,
        worker: u32,
        first: u32,
        last: u32,
        count: u32,
        held: u32,
        duplicate: bool,
    },
    Waiting {
        reason: WaitReason,
    },
    Refusing {
        reason: RefuseReason,
    },
}

impl IdSpan {
    pub fn name(self) -> &'static str {
        match self {
            IdSpan::Issued {
                duplicate: true, ..
            } => "issued_duplicate",
            IdSpan::Issued { held: 1.., .. } => "issued_some_wait",
            IdSpan::Issued { .. } => "issued",
            IdSpan::Waiting { .. } => "waiting",
            IdSpan::Refusing { .. } => "refusing",
        }
    }
}

/// The bit budget of a layout, worked out by the engine.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LayoutFacts {
    pub time_bits: u32,
    pub worker_bits: u32,
    pub sequence_bits: u32,
    pub ids_per_ms: u64,
    pub workers: u64,
    /// How long the time field lasts from its epoch, in years of 365.2425 days.
    pub years: f64,
}

/// One issued ID.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct IdRecord {
    pub at_ms: Millis,
    pub generator: ActorId,
    pub id: u64,
    pub time: u64,
    pub worker: u32,
    pub sequence: u32,
    pub waited_ms: Millis,
    pub duplicate: bool,
}

/// An ID issued twice.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Collision {
    pub id: u64,
    pub time: u64,
    pub worker: u32,
    pub sequence: u32,
    pub first: ActorId,
    pub first_at_ms: Millis,
    pub again: ActorId,
    pub again_at_ms: Millis,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SnowflakeMetrics {
    pub layout: LayoutFacts,
    pub ids_issued: u32,
    /// IDs that repeat one issued earlier.
    pub duplicate_ids: u32,
    /// The longest a request waited, in ms; one still waiting when the run ended counts until
    /// the end.
    pub max_wait_ms: Millis,
    /// Served requests that waited at least a millisecond.
    pub waited: u32,
    pub refused: u32,
    /// Requests still waiting when the run ended.
    pub pending_at_end: u32,
    pub ids: Vec<IdRecord>,
    pub collisions: Vec<Collision>,
    pub violations: Vec<Invariant>,
}
