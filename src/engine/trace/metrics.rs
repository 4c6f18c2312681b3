//! Each family's numbers, and the named invariant results.

use serde::Serialize;

use crate::engine::time::Millis;

pub use super::checks::{Invariant, invariant};

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
    pub name: Invariant,
    pub check: Check,
    /// Always: it never failed. Sometimes: it was seen.
    pub held: bool,
    /// Always: when it first failed. Sometimes: when it was first seen.
    pub first_ms: Option<Millis>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
}

impl InvariantReport {
    pub fn always(name: Invariant) -> Self {
        Self {
            name,
            check: Check::Always,
            held: true,
            first_ms: None,
            detail: None,
        }
    }

    pub fn sometimes(name: Invariant) -> Self {
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

    /// Records what the check named `name` found at `at` in a run's list of checks; a name the
    /// run does not check is passed over.
    pub fn record_named(
        checks: &mut [InvariantReport],
        name: Invariant,
        at: Millis,
        detail: impl FnOnce() -> String,
    ) {
        if let Some(c) = checks.iter_mut().find(|c| c.name == name) {
            c.record(at, detail);
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
    Etcd(super::etcd::EtcdMetrics),
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

/// What an A/B/C run counted as it went, beside its writes and checks.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct AbcTally {
    pub wakeups_per_release: Vec<u32>,
    pub max_holders: u32,
    pub stuck_clients: Vec<String>,
    pub duplicate_nodes: u32,
}

impl AbcMetrics {
    /// An A/B/C run's metrics from what it counted, its judged writes and its checks; the
    /// believers' figures are filled in from the finished trace
    /// ([`Trace::with_believed_holders`]). The model and the live lab both report through it.
    ///
    /// [`Trace::with_believed_holders`]: super::Trace::with_believed_holders
    pub fn of_run(
        tally: AbcTally,
        writes: &[super::WriteRecord],
        checks: &[InvariantReport],
        data: Option<super::data::DataFacts>,
    ) -> Self {
        use super::Judgement;
        let count = |judged: &[Judgement]| {
            writes
                .iter()
                .filter(|w| judged.contains(&w.judgement))
                .count() as u32
        };
        AbcMetrics {
            wakeups_per_release: tally.wakeups_per_release,
            max_holders: tally.max_holders,
            stuck_clients: tally.stuck_clients,
            duplicate_nodes: tally.duplicate_nodes,
            stale_writes_accepted: count(&[Judgement::StaleAccepted, Judgement::Overwrote]),
            stale_writes_rejected: count(&[Judgement::StaleRejected]),
            current_writes_refused: count(&[Judgement::Refused]),
            believed_holders: 0,
            successor_acquire: None,
            believers_overlap_ms: 0,
            lost_updates: data.as_ref().map(|d| d.lost_updates()),
            data,
            violations: checks
                .iter()
                .filter(|c| c.first_violation_ms().is_some())
                .map(|c| c.name)
                .collect(),
        }
    }
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
    pub violations: Vec<Invariant>,
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
    pub violations: Vec<Invariant>,
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
    pub violations: Vec<Invariant>,
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
    /// Claim statements that affected no row: another worker's claim got there first.
    pub claims_missed: u32,
    /// Completions that took effect when the row's lease had already lapsed by the store's
    /// clock at that instant.
    pub completed_after_lease: u32,
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
    pub violations: Vec<Invariant>,
}
