//! The choices a task worker's statements are made with: how it claims, what its completion
//! checks, and which clock that check reads.

use serde::Serialize;

/// What a worker's completion statement checks besides the task.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CompleteRule {
    /// `AND claim_version = :mine AND state = 'RUNNING'`.
    Version,
    /// The version and `AND lease_until >= now()`: nothing completes after the lease lapsed.
    VersionAndLease,
    /// `WHERE task_id = :id` alone.
    Unconditional,
}

impl CompleteRule {
    pub const NAMES: [&'static str; 3] = ["version", "version_and_lease", "unconditional"];

    pub fn parse(s: &str) -> Option<CompleteRule> {
        match s {
            "version" => Some(CompleteRule::Version),
            "version_and_lease" => Some(CompleteRule::VersionAndLease),
            "unconditional" => Some(CompleteRule::Unconditional),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            CompleteRule::Version => "version",
            CompleteRule::VersionAndLease => "version_and_lease",
            CompleteRule::Unconditional => "unconditional",
        }
    }
}

/// How a worker's scan claims a task.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ClaimRule {
    /// Read the claimable tasks, then claim them one by one with a conditional UPDATE by id
    /// until one affects a row.
    Conditional,
    /// One statement takes the first claimable task no one else is claiming:
    /// `UPDATE … WHERE id = (SELECT id … ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED)`.
    SkipLocked,
}

impl ClaimRule {
    pub const NAMES: [&'static str; 2] = ["conditional", "skip_locked"];

    pub fn parse(s: &str) -> Option<ClaimRule> {
        match s {
            "conditional" => Some(ClaimRule::Conditional),
            "skip_locked" => Some(ClaimRule::SkipLocked),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            ClaimRule::Conditional => "conditional",
            ClaimRule::SkipLocked => "skip_locked",
        }
    }
}

/// Which clock the completion's lease check reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CompletionClock {
    /// `statement_timestamp()`, or `now()` in a transaction of its own: the statement's instant.
    Statement,
    /// `now()` inside the work's transaction, begun when the claim was granted: PostgreSQL's
    /// `now()` is the transaction's start, however long the work took.
    TransactionStart,
}

impl CompletionClock {
    pub const NAMES: [&'static str; 2] = ["statement", "transaction_start"];

    pub fn parse(s: &str) -> Option<CompletionClock> {
        match s {
            "statement" => Some(CompletionClock::Statement),
            "transaction_start" => Some(CompletionClock::TransactionStart),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            CompletionClock::Statement => "statement",
            CompletionClock::TransactionStart => "transaction_start",
        }
    }
}
