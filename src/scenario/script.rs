//! Instructor scripts: the steps of a scripted preset and the questions a step poses to a
//! class. A question is answered from the simulation's own trace (see [`super::answers`]),
//! never from text in the file, so the answer a presenter reveals is the engine's.

use serde::Serialize;

use super::text::Text;
use crate::engine::Params;
use crate::engine::time::Millis;
use crate::engine::trace::Family;

/// What a question step asks, answered from the trace.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Ask {
    /// Who holds the lock in the coordination service's view at the step's time.
    HolderAt,
    /// What the resource holds at the step's time.
    ValueAt,
    /// Whether A's write was accepted (frozen holder).
    WriteAccepted,
    Verdict,
    FinalValue,
    DangerWindow,
    HandoverDelay,
    StuckClients,
    DuplicateNodes,
    StaleWritesAccepted,
    StaleWritesRejected,
    WakeupsPerRelease,
    TotalNotifications,
    WastedWakeups,
    /// Everyone holding at the step's time (readers share, a semaphore has several holders).
    HoldersAt,
    GrantOrder,
    MaxHolders,
    MaxConcurrentReaders,
    WriterWait,
    /// Whose result the job's row holds.
    Result,
    StaleSubmitsRejected,
    StaleSubmitsAccepted,
    /// Who the task's row names as its claimant at the step's time, with the claim version.
    ClaimAt,
    EffectsApplied,
    LateRefused,
    /// Claim statements that affected no row.
    ClaimsMissed,
    /// Completions that took effect after their lease had lapsed.
    CompletedAfterLease,
    CancelOutcome,
    TasksWaiting,
    // Redlock and Snowflake IDs
    /// The first acquisition's validity: TTL − elapsed − drift.
    ValidityMs,
    /// Whose key each node holds at the step's time.
    KeysAt,
    ForeignDeletes,
    IdsIssued,
    DuplicateIds,
    MaxWaitMs,
    /// The IDs issued at the step's time, with their fields.
    IdsAt,
    /// Updates of the data node an applied write wiped out.
    LostUpdates,
    /// The data node's version and counter at the step's time.
    DataAt,
}

impl Ask {
    pub const ALL: [(&'static str, Ask); 38] = [
        ("holder_at", Ask::HolderAt),
        ("value_at", Ask::ValueAt),
        ("write_accepted", Ask::WriteAccepted),
        ("verdict", Ask::Verdict),
        ("final_value", Ask::FinalValue),
        ("danger_window", Ask::DangerWindow),
        ("handover_delay", Ask::HandoverDelay),
        ("stuck_clients", Ask::StuckClients),
        ("duplicate_nodes", Ask::DuplicateNodes),
        ("stale_writes_accepted", Ask::StaleWritesAccepted),
        ("stale_writes_rejected", Ask::StaleWritesRejected),
        ("wakeups_per_release", Ask::WakeupsPerRelease),
        ("total_notifications", Ask::TotalNotifications),
        ("wasted_wakeups", Ask::WastedWakeups),
        ("holders_at", Ask::HoldersAt),
        ("grant_order", Ask::GrantOrder),
        ("max_holders", Ask::MaxHolders),
        ("max_concurrent_readers", Ask::MaxConcurrentReaders),
        ("writer_wait", Ask::WriterWait),
        ("result", Ask::Result),
        ("stale_submits_rejected", Ask::StaleSubmitsRejected),
        ("stale_submits_accepted", Ask::StaleSubmitsAccepted),
        ("claim_at", Ask::ClaimAt),
        ("effects_applied", Ask::EffectsApplied),
        ("late_refused", Ask::LateRefused),
        ("claims_missed", Ask::ClaimsMissed),
        ("completed_after_lease", Ask::CompletedAfterLease),
        ("cancel_outcome", Ask::CancelOutcome),
        ("tasks_waiting", Ask::TasksWaiting),
        ("validity_ms", Ask::ValidityMs),
        ("keys_at", Ask::KeysAt),
        ("foreign_deletes", Ask::ForeignDeletes),
        ("ids_issued", Ask::IdsIssued),
        ("duplicate_ids", Ask::DuplicateIds),
        ("max_wait_ms", Ask::MaxWaitMs),
        ("ids_at", Ask::IdsAt),
        ("lost_updates", Ask::LostUpdates),
        ("data_at", Ask::DataAt),
    ];

    pub fn parse(s: &str) -> Option<Ask> {
        Self::ALL.iter().find(|(n, _)| *n == s).map(|(_, a)| *a)
    }

    /// The families whose traces can answer this question.
    pub fn families(self) -> &'static [Family] {
        match self {
            Ask::HolderAt | Ask::ValueAt => &[Family::Frozen, Family::Abc, Family::Etcd],
            Ask::FinalValue => &[Family::Frozen, Family::Redlock, Family::Etcd],
            Ask::WriteAccepted | Ask::Verdict | Ask::DangerWindow | Ask::HandoverDelay => {
                &[Family::Frozen]
            }
            Ask::StuckClients => &[Family::Abc, Family::Rwlock, Family::Semaphore],
            Ask::HoldersAt => &[
                Family::Rwlock,
                Family::Semaphore,
                Family::Redlock,
                Family::Etcd,
            ],
            Ask::MaxHolders => &[Family::Rwlock, Family::Semaphore, Family::Redlock],
            Ask::GrantOrder => &[Family::Rwlock, Family::Semaphore],
            Ask::MaxConcurrentReaders | Ask::WriterWait => &[Family::Rwlock],
            Ask::Result => &[Family::Election, Family::Tasks],
            Ask::StaleSubmitsRejected | Ask::StaleSubmitsAccepted => &[Family::Election],
            Ask::ClaimAt
            | Ask::EffectsApplied
            | Ask::LateRefused
            | Ask::ClaimsMissed
            | Ask::CompletedAfterLease
            | Ask::CancelOutcome
            | Ask::TasksWaiting => &[Family::Tasks],
            Ask::StaleWritesAccepted => &[Family::Abc, Family::Redlock, Family::Etcd],
            Ask::StaleWritesRejected => &[Family::Abc, Family::Etcd],
            Ask::DuplicateNodes | Ask::WakeupsPerRelease | Ask::LostUpdates | Ask::DataAt => {
                &[Family::Abc]
            }
            Ask::ValidityMs | Ask::KeysAt | Ask::ForeignDeletes => &[Family::Redlock],
            Ask::IdsIssued | Ask::DuplicateIds | Ask::MaxWaitMs | Ask::IdsAt => {
                &[Family::Snowflake]
            }
            Ask::TotalNotifications | Ask::WastedWakeups => &[Family::Herd],
        }
    }

    /// Whether the question needs a time on its step.
    pub fn needs_time(self) -> bool {
        matches!(
            self,
            Ask::HolderAt
                | Ask::ValueAt
                | Ask::HoldersAt
                | Ask::ClaimAt
                | Ask::KeysAt
                | Ask::IdsAt
                | Ask::DataAt
        )
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Question {
    pub ask: Ask,
    pub text: Text,
}

/// One step of a script: where the cursor goes, with which parameters, and what is said.
#[derive(Debug, Clone, PartialEq)]
pub struct Step {
    /// The time cursor, if the step moves it.
    pub at_ms: Option<Millis>,
    /// The parameters in force at this step (the preset's, with every change so far applied).
    pub params: Params,
    /// Whether this step changed any parameter.
    pub changes_params: bool,
    pub caption: Text,
    pub question: Option<Question>,
}
