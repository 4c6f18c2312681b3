//! Redlock in the trace: what the Redis nodes and their clients did, the lane states they were
//! in, and the family's numbers.

use serde::Serialize;

use super::{EventKind, Invariant, InvariantReport, Judgement, Trace, WriteRecord};
use crate::engine::time::Millis;
use crate::engine::world::ActorId;

/// How a client releases its lock on every node.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ReleaseHow {
    /// The script: delete the key only if it still holds this client's value.
    CompareAndDelete,
    /// `DEL key`, whoever's value it holds.
    NaiveDel,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum RedlockEvent {
    // --- a client ---
    /// The client starts an attempt with a fresh random value, asking the nodes in order.
    AttemptStarted {
        attempt: u32,
        value: u32,
    },
    SetAnswered {
        node: ActorId,
        ok: bool,
    },
    /// No answer within the request timeout: the client counts the node as failed and moves on.
    SetTimedOut {
        node: ActorId,
    },
    /// A majority said OK and time is left: the client holds until `valid_until_ms`.
    Acquired {
        ok: Vec<ActorId>,
        ttl_ms: Millis,
        elapsed_ms: Millis,
        drift_ms: Millis,
        validity_ms: i64,
        valid_until_ms: Millis,
    },
    /// Too few OKs, or no validity left: the client releases everywhere and tries again later.
    AttemptFailed {
        ok: Vec<ActorId>,
        quorum: u32,
        elapsed_ms: Millis,
        validity_ms: i64,
    },
    /// The validity the client computed ran out at `since_ms` (earlier than the event when the
    /// client was frozen then); nothing in the client notices.
    ValidityOver {
        since_ms: Millis,
    },
    /// The client sends its release to every node.
    ReleaseSent {
        how: ReleaseHow,
    },
    // --- a node ---
    KeySet {
        owner: ActorId,
        value: u32,
        ttl_ms: Millis,
        /// When the key expires, in run time, as the node's clock stands now.
        expires_ms: Millis,
    },
    /// `SET NX` finds the key held.
    SetRefused {
        by: ActorId,
        holder: ActorId,
    },
    KeyExpired {
        owner: ActorId,
    },
    /// A release deletes a key; `checked` when it compared the value first.
    KeyDeleted {
        owner: ActorId,
        by: ActorId,
        checked: bool,
    },
    /// A compare-and-delete finds another client's value and leaves the key alone.
    KeyKept {
        holder: ActorId,
        by: ActorId,
    },
    /// The node's clock is stepped forward; a key whose expiry it passes is gone at once.
    ClockJumped {
        by_ms: Millis,
    },
    /// The node is back after a crash, with the key it had synced to disk or without it.
    NodeRecovered {
        fsync: bool,
        kept: Option<ActorId>,
        lost: Option<ActorId>,
    },
}

/// A Redlock lane state, for clients and nodes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(tag = "redlock", rename_all = "snake_case")]
pub enum RedlockSpan {
    /// Asking the nodes one after another: `ok` of the `asked` said OK so far.
    Acquiring { ok: u8, asked: u8 },
    /// Holding with validity left, until `until_ms`.
    Holding { until_ms: Millis },
    /// Still acting as the holder after its validity ran out.
    Overdue,
    /// The attempt failed; waiting to try again.
    Backoff,
    /// A node holding a client's key.
    Key { owner: ActorId },
}

impl RedlockSpan {
    pub fn name(self) -> &'static str {
        match self {
            RedlockSpan::Acquiring { .. } => "acquiring",
            RedlockSpan::Holding { .. } => "holding",
            RedlockSpan::Overdue => "overdue",
            RedlockSpan::Backoff => "backoff",
            RedlockSpan::Key { .. } => "key",
        }
    }
}

/// One successful acquisition.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Acquisition {
    pub client: String,
    pub started_ms: Millis,
    pub acquired_ms: Millis,
    pub ok_nodes: Vec<String>,
    pub ttl_ms: Millis,
    pub elapsed_ms: Millis,
    pub drift_ms: Millis,
    /// TTL − elapsed − drift.
    pub validity_ms: i64,
    pub valid_until_ms: Millis,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RedlockMetrics {
    /// Nodes needed for a majority.
    pub quorum: u32,
    pub acquisitions: Vec<Acquisition>,
    pub failed_attempts: u32,
    /// The first acquisition's validity.
    pub validity_ms: Option<i64>,
    /// The most clients at one instant that believed they held with validity left.
    pub max_holders: u32,
    /// The most clients at one instant whose key a majority of live nodes held.
    pub max_holders_nodes_view: u32,
    /// How long two or more clients believed they held with validity left.
    pub two_holders_ms: Millis,
    /// Writes accepted from a client whose validity was over or that no longer had a majority.
    pub stale_writes_accepted: u32,
    /// Keys deleted by a client they did not belong to.
    pub foreign_deletes: u32,
    /// Who wrote the resource's value last.
    pub final_value: Option<String>,
    pub violations: Vec<Invariant>,
}

/// One Redlock attempt as the trace recorded it, by event index into `Trace::events`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AttemptGroup {
    pub client: ActorId,
    /// The attempt's start, each node's answer or timeout, and each refusal it met.
    pub asks: Vec<usize>,
    /// How it ended: `Some(true)` acquired, `Some(false)` failed, `None` still asking at the end.
    pub acquired: Option<bool>,
    /// After a failure, the keys its release left alone (another client's value).
    pub cleanup_kept: Vec<usize>,
}

impl AttemptGroup {
    fn new(client: ActorId) -> Self {
        Self {
            client,
            asks: Vec::new(),
            acquired: None,
            cleanup_kept: Vec::new(),
        }
    }
}

impl Trace {
    /// Every Redlock attempt, in the order they ended (those still asking last).
    pub fn redlock_attempts(&self) -> Vec<AttemptGroup> {
        let mut open: Vec<Option<AttemptGroup>> = vec![None; self.actors.len()];
        // A client's last failed attempt, while its release runs (until it starts again).
        let mut cleaning: Vec<Option<usize>> = vec![None; self.actors.len()];
        let mut done: Vec<AttemptGroup> = Vec::new();
        // An event of `who`'s attempt under way (one begun without a start, if none is).
        let push = |open: &mut [Option<AttemptGroup>], who: ActorId, i: usize| {
            open[who.0 as usize]
                .get_or_insert_with(|| AttemptGroup::new(who))
                .asks
                .push(i)
        };
        for (i, e) in self.events.iter().enumerate() {
            let EventKind::Redlock(ev) = &e.kind else {
                continue;
            };
            let me = e.actor.0 as usize;
            match ev {
                RedlockEvent::AttemptStarted { .. } => {
                    cleaning[me] = None;
                    open[me] = Some(AttemptGroup::new(e.actor));
                    push(&mut open, e.actor, i);
                }
                RedlockEvent::SetAnswered { .. } | RedlockEvent::SetTimedOut { .. } => {
                    push(&mut open, e.actor, i)
                }
                RedlockEvent::SetRefused { by, .. } => push(&mut open, *by, i),
                RedlockEvent::AttemptFailed { .. } | RedlockEvent::Acquired { .. } => {
                    let mut g = open[me]
                        .take()
                        .unwrap_or_else(|| AttemptGroup::new(e.actor));
                    let failed = matches!(ev, RedlockEvent::AttemptFailed { .. });
                    g.acquired = Some(!failed);
                    cleaning[me] = failed.then_some(done.len());
                    done.push(g);
                }
                RedlockEvent::KeyKept { by, .. } => {
                    if let Some(k) = cleaning[by.0 as usize] {
                        done[k].cleanup_kept.push(i);
                    }
                }
                _ => {}
            }
        }
        done.extend(open.into_iter().flatten());
        done
    }
}

/// What a Redlock run's writes and checks come to: the stale writes the resource accepted, the
/// writer whose value it keeps, and the invariants that failed.
pub struct Outcome {
    pub stale: u32,
    pub final_value: Option<String>,
    pub violations: Vec<Invariant>,
}

/// The one reading of a run's outcome, for the model's run and the live lab's alike.
pub fn outcome(writes: &[WriteRecord], checks: &[InvariantReport]) -> Outcome {
    Outcome {
        stale: writes
            .iter()
            .filter(|w| matches!(w.judgement, Judgement::StaleAccepted | Judgement::Overwrote))
            .count() as u32,
        final_value: writes
            .iter()
            .rev()
            .find(|w| w.accepted)
            .map(|w| crate::engine::params::REDLOCK_CLIENTS[w.writer.0 as usize].to_string()),
        violations: checks
            .iter()
            .filter(|c| c.first_violation_ms().is_some())
            .map(|c| c.name)
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::{EventKind, RedlockEvent, ReleaseHow};
    use crate::engine::params::RedlockParams;

    /// Five nodes, two clients: A starts at 0 and holds every node; B starts 1.5 s later, while
    /// A still works, and each of the five nodes refuses it.
    fn run(release: ReleaseHow) -> crate::engine::trace::Trace {
        crate::engine::families::redlock::run(&RedlockParams {
            release,
            ..RedlockParams::default()
        })
    }

    #[test]
    fn an_attempt_groups_its_start_every_node_s_answer_and_every_refusal() {
        let t = run(ReleaseHow::CompareAndDelete);
        let (a, b) = (t.actor_named("A").unwrap(), t.actor_named("B").unwrap());
        let groups = t.redlock_attempts();
        let first_a = groups.iter().find(|g| g.client == a).expect("A tried");
        // Its start and five OKs.
        assert_eq!((first_a.acquired, first_a.asks.len()), (Some(true), 6));
        let first_b = groups.iter().find(|g| g.client == b).expect("B tried");
        // Its start, five refusals and five answers that are not OK; its release finds A's
        // value on all five nodes and leaves each key alone.
        assert_eq!(first_b.acquired, Some(false));
        assert_eq!(first_b.asks.len(), 11);
        assert_eq!(first_b.cleanup_kept.len(), 5);
        assert!(matches!(
            t.events[first_b.asks[0]].kind,
            EventKind::Redlock(RedlockEvent::AttemptStarted { .. })
        ));
        assert!(
            groups
                .iter()
                .any(|g| g.client == b && g.acquired == Some(true))
        );
    }

    #[test]
    fn a_plain_del_leaves_no_key_alone_after_a_failed_attempt() {
        let t = run(ReleaseHow::NaiveDel);
        let b = t.actor_named("B").unwrap();
        let groups = t.redlock_attempts();
        let first_b = groups.iter().find(|g| g.client == b).expect("B tried");
        assert_eq!(
            (first_b.acquired, first_b.cleanup_kept.len()),
            (Some(false), 0)
        );
    }
}
