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
    // sometimes
    pub const HOLDER_RELEASED: &str = "holder_released";
    pub const WAITER_WOKEN: &str = "waiter_woken";
    pub const STALE_WRITE_ARRIVED: &str = "stale_write_arrived";
    pub const STALE_WRITE_REJECTED: &str = "stale_write_rejected";
    pub const SUCCESSOR_GRANTED: &str = "successor_granted";
    pub const EVERYONE_HELD: &str = "everyone_held";

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
