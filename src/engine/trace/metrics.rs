//! Each family's numbers, and the named invariant results.

use serde::Serialize;

use crate::engine::time::Millis;

/// Whether a named check must hold throughout ("always") or be seen at least once
/// ("sometimes": proof that the run exercised what it claims to).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Check {
    Always,
    Sometimes,
}

/// One named check and how it went.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct InvariantReport {
    pub name: &'static str,
    pub check: Check,
    /// Always: it never failed. Sometimes: it was seen.
    pub held: bool,
    /// Always: when it first failed. Sometimes: when it was first seen.
    pub first_ms: Option<Millis>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
}

impl InvariantReport {
    pub fn always(name: &'static str) -> Self {
        Self {
            name,
            check: Check::Always,
            held: true,
            first_ms: None,
            detail: None,
        }
    }

    pub fn sometimes(name: &'static str) -> Self {
        Self {
            name,
            check: Check::Sometimes,
            held: false,
            first_ms: None,
            detail: None,
        }
    }

    /// Records what a check found at `at`: a failure of an "always", a sighting of a
    /// "sometimes". Only the first is kept.
    pub fn record(&mut self, at: Millis, detail: impl FnOnce() -> String) {
        match self.check {
            Check::Always if self.held => {
                self.held = false;
                self.first_ms = Some(at);
                self.detail = Some(detail());
            }
            Check::Sometimes if !self.held => {
                self.held = true;
                self.first_ms = Some(at);
                self.detail = Some(detail());
            }
            _ => {}
        }
    }

    /// For an "always" check: when it first failed, if it did.
    pub fn first_violation_ms(&self) -> Option<Millis> {
        match self.check {
            Check::Always if !self.held => self.first_ms,
            _ => None,
        }
    }
}

/// The names of the checks, shared by every family.
pub mod invariant {
    // always
    pub const ONE_HOLDER: &str = "one_holder";
    pub const TOKENS_NON_DECREASING: &str = "tokens_non_decreasing";
    pub const NO_ORPHAN_NODE: &str = "no_orphan_node";
    pub const NOBODY_STUCK: &str = "nobody_stuck";
    /// Checked only when holders update a data node.
    pub const NO_LOST_UPDATE: &str = "no_lost_update";
    // sometimes
    pub const HOLDER_RELEASED: &str = "holder_released";
    pub const WAITER_WOKEN: &str = "waiter_woken";
    pub const STALE_WRITE_ARRIVED: &str = "stale_write_arrived";
    pub const STALE_WRITE_REJECTED: &str = "stale_write_rejected";
    pub const SUCCESSOR_GRANTED: &str = "successor_granted";
    pub const EVERYONE_HELD: &str = "everyone_held";
    // queue families
    pub const WRITER_ALONE: &str = "writer_alone";
    pub const WITHIN_PERMITS: &str = "within_permits";
    pub const WRITER_HELD: &str = "writer_held";
    pub const READERS_SHARED: &str = "readers_shared";
    // election and tasks
    pub const ONE_LEADER: &str = "one_leader";
    pub const EPOCHS_NON_DECREASING: &str = "epochs_non_decreasing";
    pub const TAKEOVER_HAPPENED: &str = "takeover_happened";
    pub const STALE_SUBMIT_ARRIVED: &str = "stale_submit_arrived";
    pub const EFFECT_ONCE: &str = "effect_once";
    pub const NO_STALE_COMPLETION: &str = "no_stale_completion";
    pub const SCANNER_ALIVE: &str = "scanner_alive";
    // redlock
    pub const HOLDER_HAS_MAJORITY: &str = "holder_has_majority";
    pub const NO_STALE_WRITE_ACCEPTED: &str = "no_stale_write_accepted";
    pub const RELEASES_OWN_KEY_ONLY: &str = "releases_own_key_only";
    pub const MAJORITY_ACQUIRED: &str = "majority_acquired";
    // snowflake
    pub const UNIQUE_IDS: &str = "unique_ids";
    pub const IDS_INCREASE: &str = "ids_increase";
    pub const ID_ISSUED: &str = "id_issued";
    pub const REQUEST_WAITED: &str = "request_waited";

    /// Every "always" name, in the order views show them.
    pub const ALWAYS: [&str; 4] = [
        ONE_HOLDER,
        TOKENS_NON_DECREASING,
        NO_ORPHAN_NODE,
        NOBODY_STUCK,
    ];
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Metrics {
    Frozen(FrozenMetrics),
    Abc(AbcMetrics),
    Herd(HerdMetrics),
    Queue(QueueMetrics),
    Election(ElectionMetrics),
    Tasks(TaskMetrics),
    Redlock(super::redlock::RedlockMetrics),
    Snowflake(super::snowflake::SnowflakeMetrics),
}

/// How the frozen holder's story ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    NoIncident,
    HolderStopped,
    StaleWriteRejected,
    StaleWriteAccepted,
    Corruption,
    Unresolved,
}

impl Verdict {
    pub const ALL: [Verdict; 6] = [
        Verdict::NoIncident,
        Verdict::HolderStopped,
        Verdict::StaleWriteRejected,
        Verdict::StaleWriteAccepted,
        Verdict::Corruption,
        Verdict::Unresolved,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Verdict::NoIncident => "no_incident",
            Verdict::HolderStopped => "holder_stopped",
            Verdict::StaleWriteRejected => "stale_write_rejected",
            Verdict::StaleWriteAccepted => "stale_write_accepted",
            Verdict::Corruption => "corruption",
            Verdict::Unresolved => "unresolved",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FrozenMetrics {
    pub lease_expiry: Option<f64>,
    pub successor_acquire: Option<f64>,
    pub handover_delay: Option<f64>,
    pub holder_write_arrival: Option<f64>,
    pub holder_write_accepted: Option<bool>,
    pub danger_window: f64,
    pub verdict: Verdict,
    pub final_value: Option<String>,
    pub last_seen_token: u64,
    /// The last keepalive A sent before its pause, if any (for explanations).
    pub last_keepalive_before_pause: Option<f64>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AbcMetrics {
    pub wakeups_per_release: Vec<u32>,
    pub max_holders: u32,
    pub stuck_clients: Vec<String>,
    pub duplicate_nodes: u32,
    pub stale_writes_accepted: u32,
    pub stale_writes_rejected: u32,
    /// Writes the resource refused from a client that did hold the lock (its token was not
    /// newer, as when a re-created directory restarts the sequence numbers).
    pub current_writes_refused: u32,
    /// The most clients that believed at one moment that they held ([`Trace::most_believers`]).
    ///
    /// [`Trace::most_believers`]: super::Trace::most_believers
    pub believed_holders: u32,
    /// When a client other than the first holder was first granted the lock, in seconds
    /// ([`Trace::successor_acquire`]).
    ///
    /// [`Trace::successor_acquire`]: super::Trace::successor_acquire
    #[serde(skip_serializing_if = "Option::is_none")]
    pub successor_acquire: Option<f64>,
    /// How long, in all, two or more clients believed at once that they held
    /// ([`Trace::believers_overlap_ms`]).
    ///
    /// [`Trace::believers_overlap_ms`]: super::Trace::believers_overlap_ms
    pub believers_overlap_ms: u64,
    /// With a data node: applied `setData`s that wiped out an update another holder made after
    /// the writer's read.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lost_updates: Option<u32>,
    /// The data node's reads and writes, when the run has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub data: Option<super::data::DataFacts>,
    pub violations: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct HerdRow {
    pub release: u32,
    pub start_ms: f64,
    pub woken: u32,
    /// Queue position (1-based among the waiters) of the one who took the lock.
    pub winner: u32,
    pub wasted: u32,
    pub not_notified: u32,
    /// The woken waiters' reads at the service (woken × grab cost); the rest is the hold.
    pub reads_ms: f64,
    pub duration_ms: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct HerdMetrics {
    pub total_notifications: u64,
    pub wasted_wakeups: u64,
    pub total_time_ms: f64,
    pub rows: Vec<HerdRow>,
}

/// A read-write lock's or a semaphore's numbers.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct QueueMetrics {
    /// Who was granted, in order.
    pub grant_order: Vec<String>,
    /// The most readers holding at one instant (0 for a semaphore).
    pub max_concurrent_readers: u32,
    /// The most clients holding at one instant, in the service's view.
    pub max_holders: u32,
    /// The longest a writer waited from asking to holding, in ms; a writer still waiting when
    /// the run ended counts until the end, one that crashed waiting until its crash. `None`
    /// when no writer asked.
    pub writer_wait_ms: Option<u64>,
    /// How many grants came before the first writer's, readers' and any earlier writer's
    /// alike: the first writer's place in `grant_order`, counted from 0. `None` when no
    /// writer held (always for a semaphore).
    pub grants_before_writer: Option<u32>,
    /// Writers that asked and never held.
    pub starved_writers: Vec<String>,
    pub stuck_clients: Vec<String>,
    pub violations: Vec<String>,
}

/// A leader election's numbers.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ElectionMetrics {
    /// Each leader and its epoch, in order (`A@81`).
    pub leaders: Vec<String>,
    /// The job's row when the run ends.
    pub final_state: crate::engine::msg::RowState,
    pub final_owner: Option<String>,
    pub final_epoch: u64,
    pub final_version: u64,
    /// Whose result the row holds.
    pub result: Option<String>,
    pub stale_submits_rejected: u32,
    pub stale_submits_accepted: u32,
    pub max_leaders: u32,
    pub violations: Vec<String>,
}

/// What became of an operator's cancellation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CancelOutcome {
    /// `READY → CANCELLED` won: the task never ran.
    CancelledBeforeRun,
    /// The claim had won; the worker saw the request before its outside call and backed out.
    BackedOut,
    /// The claim had won and the request came too late to stop the outside call.
    RequestedTooLate,
    /// The task had already finished.
    NothingToCancel,
}

/// One successful claim: who, which task (0-based), under which version.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ClaimRecord {
    pub worker: String,
    pub task: u8,
    pub version: u64,
}

/// Durable task claims' numbers. The single-task facts are about the first task.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TaskMetrics {
    /// Every successful claim in order.
    pub claims: Vec<ClaimRecord>,
    /// How many tasks the table holds.
    pub tasks: u8,
    pub final_state: crate::engine::msg::RowState,
    pub final_owner: Option<String>,
    pub final_version: u64,
    pub final_attempt: u32,
    /// Whose completion the first task's row holds.
    pub result: Option<String>,
    /// Effects the outside system applied, and repeats it recognised by key.
    pub effects_applied: u32,
    pub effects_deduplicated: u32,
    /// Statements from an overtaken claim (an older version) that reached the table.
    pub late_refused: u32,
    pub late_accepted: u32,
    pub cancel: Option<CancelOutcome>,
    pub tasks_done: u32,
    pub tasks_failed: u32,
    /// Tasks claimable when the run ends: due and ready, or running under a lapsed lease.
    pub tasks_waiting: u32,
    /// How long the oldest of those had been due when the run ended.
    pub oldest_due_age_ms: Option<Millis>,
    pub scanner_stopped_at_ms: Option<Millis>,
    /// The most workers believing at one instant that they hold the first task.
    pub max_believers: u32,
    pub violations: Vec<String>,
}
