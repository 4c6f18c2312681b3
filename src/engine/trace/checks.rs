//! The checks a run or a search makes, typed, with the names files and JSON carry.

use serde::Serialize;

/// Every check a run or a search makes, by what it checks. Its name (`one_holder`) is what
/// JSON, scenario files and reports carry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Invariant {
    OneHolder,
    TokensNonDecreasing,
    NoOrphanNode,
    NobodyStuck,
    /// Checked only when holders update a data node.
    NoLostUpdate,
    HolderReleased,
    WaiterWoken,
    StaleWriteArrived,
    StaleWriteRejected,
    SuccessorGranted,
    EveryoneHeld,
    WriterAlone,
    /// A fair read-write lock: no reader holds while a writer that asked before it waits.
    NoReaderPassesWriter,
    WithinPermits,
    WriterHeld,
    ReadersShared,
    OneLeader,
    EpochsNonDecreasing,
    TakeoverHappened,
    StaleSubmitArrived,
    EffectOnce,
    NoStaleCompletion,
    /// With an operator cancelling: no outside effect lands once the cancel was requested.
    NoEffectAfterCancel,
    ScannerAlive,
    HolderHasMajority,
    NoStaleWriteAccepted,
    ReleasesOwnKeyOnly,
    /// etcd: each key deleted wakes only the waiter watching it.
    OneWatcherPerDelete,
    MajorityAcquired,
    UniqueIds,
    IdsIncrease,
    IdIssued,
    RequestWaited,
}

impl Invariant {
    pub const ALL: [Invariant; 33] = [
        Invariant::OneHolder,
        Invariant::TokensNonDecreasing,
        Invariant::NoOrphanNode,
        Invariant::NobodyStuck,
        Invariant::NoLostUpdate,
        Invariant::HolderReleased,
        Invariant::WaiterWoken,
        Invariant::StaleWriteArrived,
        Invariant::StaleWriteRejected,
        Invariant::SuccessorGranted,
        Invariant::EveryoneHeld,
        Invariant::WriterAlone,
        Invariant::NoReaderPassesWriter,
        Invariant::WithinPermits,
        Invariant::WriterHeld,
        Invariant::ReadersShared,
        Invariant::OneLeader,
        Invariant::EpochsNonDecreasing,
        Invariant::TakeoverHappened,
        Invariant::StaleSubmitArrived,
        Invariant::EffectOnce,
        Invariant::NoStaleCompletion,
        Invariant::NoEffectAfterCancel,
        Invariant::ScannerAlive,
        Invariant::HolderHasMajority,
        Invariant::NoStaleWriteAccepted,
        Invariant::ReleasesOwnKeyOnly,
        Invariant::OneWatcherPerDelete,
        Invariant::MajorityAcquired,
        Invariant::UniqueIds,
        Invariant::IdsIncrease,
        Invariant::IdIssued,
        Invariant::RequestWaited,
    ];

    /// The name JSON and files use.
    pub fn name(self) -> &'static str {
        match self {
            Invariant::OneHolder => "one_holder",
            Invariant::TokensNonDecreasing => "tokens_non_decreasing",
            Invariant::NoOrphanNode => "no_orphan_node",
            Invariant::NobodyStuck => "nobody_stuck",
            Invariant::NoLostUpdate => "no_lost_update",
            Invariant::HolderReleased => "holder_released",
            Invariant::WaiterWoken => "waiter_woken",
            Invariant::StaleWriteArrived => "stale_write_arrived",
            Invariant::StaleWriteRejected => "stale_write_rejected",
            Invariant::SuccessorGranted => "successor_granted",
            Invariant::EveryoneHeld => "everyone_held",
            Invariant::WriterAlone => "writer_alone",
            Invariant::NoReaderPassesWriter => "no_reader_passes_writer",
            Invariant::WithinPermits => "within_permits",
            Invariant::WriterHeld => "writer_held",
            Invariant::ReadersShared => "readers_shared",
            Invariant::OneLeader => "one_leader",
            Invariant::EpochsNonDecreasing => "epochs_non_decreasing",
            Invariant::TakeoverHappened => "takeover_happened",
            Invariant::StaleSubmitArrived => "stale_submit_arrived",
            Invariant::EffectOnce => "effect_once",
            Invariant::NoStaleCompletion => "no_stale_completion",
            Invariant::NoEffectAfterCancel => "no_effect_after_cancel",
            Invariant::ScannerAlive => "scanner_alive",
            Invariant::HolderHasMajority => "holder_has_majority",
            Invariant::NoStaleWriteAccepted => "no_stale_write_accepted",
            Invariant::ReleasesOwnKeyOnly => "releases_own_key_only",
            Invariant::OneWatcherPerDelete => "one_watcher_per_delete",
            Invariant::MajorityAcquired => "majority_acquired",
            Invariant::UniqueIds => "unique_ids",
            Invariant::IdsIncrease => "ids_increase",
            Invariant::IdIssued => "id_issued",
            Invariant::RequestWaited => "request_waited",
        }
    }

    pub fn parse(name: &str) -> Option<Invariant> {
        Invariant::ALL.into_iter().find(|i| i.name() == name)
    }
}

/// So a list of checks compares with the names a test or a file spells.
impl PartialEq<&str> for Invariant {
    fn eq(&self, other: &&str) -> bool {
        self.name() == *other
    }
}

impl std::fmt::Display for Invariant {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The checks under the names every family's code spells them with.
pub mod invariant {
    use super::Invariant;

    pub const ONE_HOLDER: Invariant = Invariant::OneHolder;
    pub const TOKENS_NON_DECREASING: Invariant = Invariant::TokensNonDecreasing;
    pub const NO_ORPHAN_NODE: Invariant = Invariant::NoOrphanNode;
    pub const NOBODY_STUCK: Invariant = Invariant::NobodyStuck;
    pub const NO_LOST_UPDATE: Invariant = Invariant::NoLostUpdate;
    pub const HOLDER_RELEASED: Invariant = Invariant::HolderReleased;
    pub const WAITER_WOKEN: Invariant = Invariant::WaiterWoken;
    pub const STALE_WRITE_ARRIVED: Invariant = Invariant::StaleWriteArrived;
    pub const STALE_WRITE_REJECTED: Invariant = Invariant::StaleWriteRejected;
    pub const SUCCESSOR_GRANTED: Invariant = Invariant::SuccessorGranted;
    pub const EVERYONE_HELD: Invariant = Invariant::EveryoneHeld;
    pub const WRITER_ALONE: Invariant = Invariant::WriterAlone;
    pub const NO_READER_PASSES_WRITER: Invariant = Invariant::NoReaderPassesWriter;
    pub const WITHIN_PERMITS: Invariant = Invariant::WithinPermits;
    pub const WRITER_HELD: Invariant = Invariant::WriterHeld;
    pub const READERS_SHARED: Invariant = Invariant::ReadersShared;
    pub const ONE_LEADER: Invariant = Invariant::OneLeader;
    pub const EPOCHS_NON_DECREASING: Invariant = Invariant::EpochsNonDecreasing;
    pub const TAKEOVER_HAPPENED: Invariant = Invariant::TakeoverHappened;
    pub const STALE_SUBMIT_ARRIVED: Invariant = Invariant::StaleSubmitArrived;
    pub const EFFECT_ONCE: Invariant = Invariant::EffectOnce;
    pub const NO_STALE_COMPLETION: Invariant = Invariant::NoStaleCompletion;
    pub const NO_EFFECT_AFTER_CANCEL: Invariant = Invariant::NoEffectAfterCancel;
    pub const SCANNER_ALIVE: Invariant = Invariant::ScannerAlive;
    pub const HOLDER_HAS_MAJORITY: Invariant = Invariant::HolderHasMajority;
    pub const NO_STALE_WRITE_ACCEPTED: Invariant = Invariant::NoStaleWriteAccepted;
    pub const RELEASES_OWN_KEY_ONLY: Invariant = Invariant::ReleasesOwnKeyOnly;
    pub const ONE_WATCHER_PER_DELETE: Invariant = Invariant::OneWatcherPerDelete;
    pub const MAJORITY_ACQUIRED: Invariant = Invariant::MajorityAcquired;
    pub const UNIQUE_IDS: Invariant = Invariant::UniqueIds;
    pub const IDS_INCREASE: Invariant = Invariant::IdsIncrease;
    pub const ID_ISSUED: Invariant = Invariant::IdIssued;
    pub const REQUEST_WAITED: Invariant = Invariant::RequestWaited;

    /// Every "always" name, in the order views show them.
    pub const ALWAYS: [Invariant; 4] = [
        ONE_HOLDER,
        TOKENS_NON_DECREASING,
        NO_ORPHAN_NODE,
        NOBODY_STUCK,
    ];
}
