//! Lanes: each actor's state over the run as consecutive typed spans.

use serde::Serialize;

use crate::engine::time::Millis;
use crate::engine::world::ActorId;
use crate::engine::zk::tree::{NodeId, Watched};

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Lane {
    pub actor: ActorId,
    pub spans: Vec<Span>,
}

impl Lane {
    /// The span covering time `at` (the last one for `at` at or after the end of the run).
    pub fn span_at(&self, at: Millis) -> Option<&Span> {
        let i = self.spans.partition_point(|s| s.end_ms <= at);
        self.spans.get(i).or(self.spans.last())
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Span {
    pub start_ms: Millis,
    pub end_ms: Millis,
    pub state: SpanState,
}

/// What an actor is doing during a span, with the facts a label needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum SpanState {
    // --- clients ---
    Idle,
    /// A create is on its way or awaiting its reply.
    Creating,
    /// The create's reply was lost: the node may or may not exist.
    OutcomeUnknown,
    /// Reading the lock directory's children.
    Reading,
    /// Checking the node ahead with `exists` and a watch.
    Checking {
        node: NodeId,
    },
    Waiting {
        watching: Watched,
    },
    /// Holding the lock in its own belief (and in the service's, unless a window says
    /// otherwise).
    Holding {
        token: u64,
    },
    /// Holding a read lock, which other readers may share.
    HoldingRead {
        token: u64,
    },
    /// The elected leader, with its epoch.
    Leading {
        epoch: u64,
    },
    /// A worker holding a task's claim (in its own belief), with the claim version and attempt.
    Claimed {
        version: u64,
        attempt: u32,
    },
    /// A client that stopped waiting for the lock; `left_node` when its node is still queued.
    GaveUp {
        left_node: bool,
    },
    /// A worker whose periodic scanner ended with an uncaught exception.
    ScannerStopped,
    /// A task's row: state, owner, claim version and attempt.
    Task {
        row_state: crate::engine::msg::RowState,
        owner: Option<ActorId>,
        version: u64,
        attempt: u32,
    },
    /// A table of several tasks, counted by where they stand.
    Backlog {
        waiting: u8,
        running: u8,
        done: u8,
        failed: u8,
    },
    /// The outside system, with how many effects it has applied.
    Effects {
        count: u32,
    },
    /// A table row: its state, owner, epoch and version.
    Row {
        row_state: crate::engine::msg::RowState,
        owner: Option<ActorId>,
        epoch: u64,
        version: u64,
    },
    /// A holder that knows it is disconnected and holds back its side effects.
    Suspended {
        token: u64,
    },
    /// A client that knows it is disconnected, not holding, trying to reconnect.
    Reconnecting,
    /// Frozen in a pause; `believes_holding` if it held the lock when it froze.
    Frozen {
        believes_holding: bool,
    },
    /// Knows its lock (lease or session) is gone.
    Lost,
    Released,
    /// Waiting on something that can never happen.
    Stuck {
        watching: Watched,
    },
    Crashed,
    /// Asking for the lock again and again (the lease successor).
    Retrying,
    // --- a coordination or lease service ---
    /// The lock directory: who holds through it (the owner of its first child for a mutex;
    /// every reader or permit holder for a shared lock) and how many nodes queue behind them.
    Queue {
        holders: ActorSet,
        share: Share,
        waiting: u8,
    },
    /// A lease is live.
    Leased {
        holder: ActorId,
        token: u64,
    },
    /// Nobody holds the lock.
    Free,
    // --- the resource ---
    Empty,
    Value {
        writer: ActorId,
        token: u64,
    },
    // --- Redlock's clients and nodes, Snowflake's generators ---
    Redlock(super::redlock::RedlockSpan),
    Snowflake(super::snowflake::IdSpan),
    // --- etcd's clients and leader ---
    Etcd(super::etcd::EtcdSpan),
}

/// How the holders of a lock directory share it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Share {
    /// One holder: a mutex, a leader, or a read-write lock's writer.
    Exclusive,
    /// Readers of a read-write lock, together.
    Read,
    /// A semaphore's permit holders.
    Permits,
}

/// A small set of actors (those of one run, at most [`ActorSet::CAPACITY`]), in id order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct ActorSet(u64);

impl ActorSet {
    pub const CAPACITY: usize = 64;

    pub fn one(actor: ActorId) -> Self {
        let mut s = Self::default();
        s.insert(actor);
        s
    }

    /// Adds `actor`. The families that hold through a lock directory have far fewer actors
    /// than the capacity; an id past it (the live lab's owner of a node no client of its own
    /// made) is not kept.
    pub fn insert(&mut self, actor: ActorId) {
        if usize::from(actor.0) < Self::CAPACITY {
            self.0 |= 1 << actor.0;
        }
    }

    pub fn contains(self, actor: ActorId) -> bool {
        usize::from(actor.0) < Self::CAPACITY && self.0 & (1 << actor.0) != 0
    }

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    pub fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    pub fn first(self) -> Option<ActorId> {
        self.iter().next()
    }

    pub fn iter(self) -> impl Iterator<Item = ActorId> {
        (0..Self::CAPACITY as u8)
            .filter(move |i| self.0 & (1 << i) != 0)
            .map(ActorId)
    }
}

impl FromIterator<ActorId> for ActorSet {
    fn from_iter<I: IntoIterator<Item = ActorId>>(iter: I) -> Self {
        let mut s = Self::default();
        iter.into_iter().for_each(|a| s.insert(a));
        s
    }
}

impl Serialize for ActorSet {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.iter())
    }
}

impl SpanState {
    /// A mutex's lock directory: `holder` owns its first child, `waiting` nodes queue behind.
    pub fn exclusive_queue(holder: Option<ActorId>, waiting: u8) -> Self {
        SpanState::Queue {
            holders: holder.map(ActorSet::one).unwrap_or_default(),
            share: Share::Exclusive,
            waiting,
        }
    }

    /// A short, stable name for JSON readers and tests.
    pub fn name(self) -> &'static str {
        match self {
            SpanState::Idle => "idle",
            SpanState::Creating => "creating",
            SpanState::OutcomeUnknown => "outcome_unknown",
            SpanState::Reading => "reading",
            SpanState::Checking { .. } => "checking",
            SpanState::Waiting { .. } => "waiting",
            SpanState::Holding { .. } => "holding",
            SpanState::HoldingRead { .. } => "holding_read",
            SpanState::Leading { .. } => "leading",
            SpanState::Row { .. } => "row",
            SpanState::Claimed { .. } => "claimed",
            SpanState::ScannerStopped => "scanner_stopped",
            SpanState::GaveUp { .. } => "gave_up",
            SpanState::Task { .. } => "task",
            SpanState::Backlog { .. } => "backlog",
            SpanState::Effects { .. } => "effects",
            SpanState::Suspended { .. } => "suspended",
            SpanState::Reconnecting => "reconnecting",
            SpanState::Frozen { .. } => "frozen",
            SpanState::Lost => "lost",
            SpanState::Released => "released",
            SpanState::Stuck { .. } => "stuck",
            SpanState::Crashed => "crashed",
            SpanState::Retrying => "retrying",
            SpanState::Queue { .. } => "queue",
            SpanState::Leased { .. } => "leased",
            SpanState::Free => "free",
            SpanState::Empty => "empty",
            SpanState::Value { .. } => "value",
            SpanState::Redlock(s) => s.name(),
            SpanState::Snowflake(s) => s.name(),
            SpanState::Etcd(s) => s.name(),
        }
    }

    /// Whether the actor holds and acts on it: holding the lock (to write or to read), leading,
    /// holding a claim, or holding a Redlock majority within its validity. A holder that is
    /// frozen, suspended or past its validity still believes it holds, but does not act.
    pub fn holds(self) -> bool {
        matches!(
            self,
            SpanState::Holding { .. }
                | SpanState::HoldingRead { .. }
                | SpanState::Leading { .. }
                | SpanState::Claimed { .. }
                | SpanState::Redlock(super::redlock::RedlockSpan::Holding { .. })
        )
    }

    /// Whether the actor believes it holds the lock: it [holds](Self::holds), or is frozen,
    /// suspended or past its validity while still believing so.
    pub fn believes_holding(self) -> bool {
        self.holds()
            || matches!(
                self,
                SpanState::Suspended { .. }
                    | SpanState::Frozen {
                        believes_holding: true
                    }
                    | SpanState::Redlock(super::redlock::RedlockSpan::Overdue)
                    | SpanState::Etcd(super::etcd::EtcdSpan::Unaware { .. })
            )
    }
}

/// Records lanes as state changes, closing each span when its state changes.
#[derive(Debug, Clone, Default)]
pub struct LaneRecorder {
    lanes: Vec<Lane>,
    open: Vec<(Millis, SpanState)>,
}

impl LaneRecorder {
    pub fn add(&mut self, actor: ActorId, at: Millis, state: SpanState) -> usize {
        self.lanes.push(Lane {
            actor,
            spans: Vec::new(),
        });
        self.open.push((at, state));
        self.lanes.len() - 1
    }

    /// Moves lane `lane` to `state` at `at`; nothing happens when the state is the same.
    pub fn set(&mut self, lane: usize, at: Millis, state: SpanState) {
        let (start, cur) = self.open[lane];
        if cur == state {
            return;
        }
        if start < at {
            self.lanes[lane].spans.push(Span {
                start_ms: start,
                end_ms: at,
                state: cur,
            });
        }
        self.open[lane] = (at, state);
    }

    pub fn current(&self, lane: usize) -> SpanState {
        self.open[lane].1
    }

    /// Closes every open span at `end` and returns the lanes, with equal neighbours merged.
    pub fn finish(mut self, end: Millis) -> Vec<Lane> {
        for (i, &(start, state)) in self.open.iter().enumerate() {
            let start = start.min(end);
            if start < end || self.lanes[i].spans.is_empty() {
                self.lanes[i].spans.push(Span {
                    start_ms: start,
                    end_ms: end,
                    state,
                });
            }
        }
        for lane in &mut self.lanes {
            let mut merged: Vec<Span> = Vec::with_capacity(lane.spans.len());
            for span in lane.spans.drain(..) {
                match merged.last_mut() {
                    Some(prev) if prev.state == span.state => prev.end_ms = span.end_ms,
                    _ => merged.push(span),
                }
            }
            lane.spans = merged;
        }
        self.lanes
    }
}
