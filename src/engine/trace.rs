//! The trace: the only contract between the engine and everything that shows it.
//!
//! It holds the ordered events (with structured details a view can word in any language), the
//! per-actor state spans ready to draw as lanes, the scenario's metrics and the invariant results.

use serde::Serialize;

use super::time::Millis;

/// Bumped whenever the JSON shape of a trace changes incompatibly.
pub const SCHEMA_VERSION: u32 = 1;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Family {
    Frozen,
    Abc,
    Herd,
}

impl Family {
    pub fn name(self) -> &'static str {
        match self {
            Family::Frozen => "frozen",
            Family::Abc => "abc",
            Family::Herd => "herd",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Trace {
    pub schema_version: u32,
    pub family: Family,
    /// The run covers `[0, end_ms]`.
    pub end_ms: Millis,
    pub events: Vec<Event>,
    pub lanes: Vec<Lane>,
    pub metrics: Metrics,
    pub invariants: Vec<InvariantReport>,
}

impl Trace {
    pub fn lane(&self, actor: &str) -> Option<&Lane> {
        self.lanes.iter().find(|l| l.actor == actor)
    }

    /// True when every invariant held for the whole run.
    pub fn all_invariants_hold(&self) -> bool {
        self.invariants.iter().all(|i| i.held)
    }

    /// The invariants that had failed by time `at`.
    pub fn violations_at(&self, at: Millis) -> impl Iterator<Item = &InvariantReport> {
        self.invariants
            .iter()
            .filter(move |i| i.first_violation_ms.is_some_and(|t| t <= at))
    }

    /// Index of the last event at or before `at`, if any.
    pub fn event_index_at(&self, at: Millis) -> Option<usize> {
        let after = self.events.partition_point(|e| e.at_ms <= at);
        after.checked_sub(1)
    }
}

/// One thing that happened, at one instant, to one actor.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Event {
    pub at_ms: Millis,
    pub actor: String,
    #[serde(flatten)]
    pub kind: EventKind,
}

/// Who wrote a value to the protected resource, and with which token.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct WriteInfo {
    pub value: String,
    pub token: u64,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum EventKind {
    // --- leases (frozen holder) ---
    /// `deadline_ms` is `None` for a lease kept to the end of the run.
    LeaseGranted {
        holder: String,
        token: u64,
        deadline_ms: Option<Millis>,
    },
    LeaseReleaseSent,
    KeepaliveSent {
        merged: u32,
    },
    KeepaliveRenewed {
        deadline_ms: Millis,
    },
    KeepaliveRefused,
    LeaseExpired {
        holder: String,
    },
    LearnedLeaseLost,
    AcquireRequested,
    AcquireRefused {
        holder: String,
    },
    LearnedGrant {
        token: u64,
    },
    Released {
        holder: String,
    },
    ReleaseIgnored,
    // --- client faults ---
    Froze {
        until_ms: Millis,
    },
    Woke,
    Disconnected {
        until_ms: Millis,
    },
    Reconnected,
    Crashed,
    // --- coordination service (A/B/C queue) ---
    SessionOpened {
        session: u32,
        timeout_ms: Millis,
    },
    SessionExpired {
        session: u32,
        nodes_deleted: Vec<String>,
    },
    LearnedSessionExpired,
    CreateSent {
        guid: String,
    },
    NodeCreated {
        node: String,
        owner: String,
    },
    CreateResponseLost {
        node: String,
    },
    CreateOutcomeUnknown,
    RecoveredNode {
        node: String,
    },
    DuplicateDeleted {
        node: String,
    },
    ChildrenRead {
        children: Vec<String>,
        mine: Option<String>,
    },
    ExistsChecked {
        node: String,
        exists: bool,
        watch: bool,
    },
    WatchChildren,
    Waiting {
        on: String,
    },
    NodeDeleted {
        node: String,
        notified: Vec<String>,
    },
    Notified {
        path: String,
    },
    WokeUp {
        path: String,
    },
    Acquired {
        node: String,
        token: u64,
    },
    Suspended,
    Revalidated {
        still_first: bool,
    },
    ReleaseSent {
        node: String,
    },
    FaultDeletedNode {
        node: String,
        between: String,
    },
    Stuck {
        waiting_on: String,
    },
    // --- protected resource ---
    WriteSent {
        value: String,
        token: u64,
    },
    WriteAbandoned,
    WriteDeferred,
    WriteArrived {
        value: String,
        token: u64,
        accepted: bool,
        last_seen_before: u64,
        fencing: bool,
    },
    // --- herd ---
    ReleaseRound {
        release: u32,
        woken: u32,
        winner: u32,
        wasted: u32,
        not_notified: u32,
    },
    RunEnded,
}

/// One actor's lane: consecutive spans of state that cover the run.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Lane {
    pub actor: String,
    pub spans: Vec<Span>,
}

impl Lane {
    /// The span covering time `at` (the last one for `at` at the end of the run).
    pub fn span_at(&self, at: Millis) -> Option<&Span> {
        self.spans
            .iter()
            .find(|s| s.start_ms <= at && at < s.end_ms)
            .or_else(|| self.spans.last().filter(|s| s.end_ms <= at))
    }
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Span {
    pub start_ms: Millis,
    pub end_ms: Millis,
    pub state: State,
    /// Extra words for this span, such as who holds a lease or the resource's value.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// The state an actor is in during a span.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum State {
    // clients
    Idle,
    Creating,
    CreateUnknown,
    Reading,
    Waiting,
    Held,
    /// Frozen (a GC pause) while still believing it holds the lock.
    FrozenHolding,
    /// Frozen while not holding.
    Frozen,
    Suspended,
    Lost,
    Released,
    Stuck,
    Crashed,
    Retrying,
    Written,
    // services
    /// The lock directory's children, in queue order (the note lists them).
    Queue,
    LeaseLive,
    Free,
    // resource
    Empty,
    Value,
}

impl State {
    pub fn name(self) -> &'static str {
        match self {
            State::Idle => "idle",
            State::Creating => "creating",
            State::CreateUnknown => "create_unknown",
            State::Reading => "reading",
            State::Waiting => "waiting",
            State::Held => "held",
            State::FrozenHolding => "frozen_holding",
            State::Frozen => "frozen",
            State::Suspended => "suspended",
            State::Lost => "lost",
            State::Released => "released",
            State::Stuck => "stuck",
            State::Crashed => "crashed",
            State::Retrying => "retrying",
            State::Written => "written",
            State::Queue => "queue",
            State::LeaseLive => "lease_live",
            State::Free => "free",
            State::Empty => "empty",
            State::Value => "value",
        }
    }
}

/// Records lanes as a sequence of state changes, closing each span when the state changes.
#[derive(Debug, Clone, Default)]
pub struct LaneRecorder {
    lanes: Vec<Lane>,
    open: Vec<Option<(Millis, State, Option<String>)>>,
}

impl LaneRecorder {
    /// Adds a lane and returns its index.
    pub fn add(&mut self, actor: &str, at: Millis, state: State, note: Option<String>) -> usize {
        self.lanes.push(Lane {
            actor: actor.to_string(),
            spans: Vec::new(),
        });
        self.open.push(Some((at, state, note)));
        self.lanes.len() - 1
    }

    /// Switches lane `lane` to `state` at `at`; no-op when nothing changes.
    pub fn set(&mut self, lane: usize, at: Millis, state: State, note: Option<String>) {
        if let Some((start, cur, cur_note)) = &self.open[lane] {
            if *cur == state && *cur_note == note {
                return;
            }
            if *start < at {
                self.lanes[lane].spans.push(Span {
                    start_ms: *start,
                    end_ms: at,
                    state: *cur,
                    note: cur_note.clone(),
                });
            }
        }
        self.open[lane] = Some((at, state, note));
    }

    pub fn current(&self, lane: usize) -> Option<State> {
        self.open[lane].as_ref().map(|(_, s, _)| *s)
    }

    /// Closes every open span at `end` and returns the lanes.
    pub fn finish(mut self, end: Millis) -> Vec<Lane> {
        for (lane, open) in self.open.iter_mut().enumerate() {
            if let Some((start, state, note)) = open.take() {
                let start = start.min(end);
                if start < end || self.lanes[lane].spans.is_empty() {
                    self.lanes[lane].spans.push(Span {
                        start_ms: start,
                        end_ms: end,
                        state,
                        note,
                    });
                }
            }
        }
        // Merge neighbours that ended up equal, so a lane never shows a seam without a change.
        for lane in &mut self.lanes {
            let mut merged: Vec<Span> = Vec::with_capacity(lane.spans.len());
            for span in lane.spans.drain(..) {
                match merged.last_mut() {
                    Some(prev) if prev.state == span.state && prev.note == span.note => {
                        prev.end_ms = span.end_ms;
                    }
                    _ => merged.push(span),
                }
            }
            lane.spans = merged;
        }
        self.lanes
    }
}

/// One named invariant and whether it held over the whole run.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct InvariantReport {
    pub name: &'static str,
    pub held: bool,
    /// When it first failed, if it did.
    pub first_violation_ms: Option<Millis>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
}

impl InvariantReport {
    pub fn ok(name: &'static str) -> Self {
        Self {
            name,
            held: true,
            first_violation_ms: None,
            detail: None,
        }
    }

    /// Records a failure at `at`, keeping the first one.
    pub fn fail(&mut self, at: Millis, detail: String) {
        if self.held {
            self.held = false;
            self.first_violation_ms = Some(at);
            self.detail = Some(detail);
        }
    }
}

/// The names of the invariants, shared by every family.
pub mod invariant {
    pub const ONE_HOLDER: &str = "one_holder";
    pub const TOKENS_NON_DECREASING: &str = "tokens_non_decreasing";
    pub const NO_ORPHAN_NODE: &str = "no_orphan_node";
    pub const NOBODY_STUCK: &str = "nobody_stuck";
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
    pub duration_ms: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct HerdMetrics {
    pub total_notifications: u64,
    pub wasted_wakeups: u64,
    pub total_time_ms: f64,
    pub rows: Vec<HerdRow>,
}
