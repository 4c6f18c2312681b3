//! The facts every view asks of a run, each answered once, here, from the typed trace: who
//! holds at an instant, who believes it holds, and the most that believed so at once.

use super::{Role, SpanState, Trace};
use crate::engine::time::Millis;
use crate::engine::world::ActorId;

/// The largest number of clients that at one moment believed they held the lock, and the first
/// interval with that many.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Believers {
    pub count: u32,
    pub from_ms: Millis,
    pub to_ms: Millis,
    /// Who they were, in lane order.
    pub clients: Vec<ActorId>,
}

impl Trace {
    /// Clients whose own state at `at` is [`SpanState::holds`], in lane order.
    pub fn holders_at(&self, at: Millis) -> Vec<ActorId> {
        self.clients_at(at, SpanState::holds)
    }

    /// Clients that at `at` believe they hold ([`SpanState::believes_holding`]): holding, or
    /// frozen, suspended or overdue while still believing so.
    pub fn believers_at(&self, at: Millis) -> Vec<ActorId> {
        self.clients_at(at, SpanState::believes_holding)
    }

    fn clients_at(&self, at: Millis, test: fn(SpanState) -> bool) -> Vec<ActorId> {
        self.lanes
            .iter()
            .filter(|l| self.role(l.actor) == Some(Role::Client))
            .filter(|l| l.span_at(at).is_some_and(|s| test(s.state)))
            .map(|l| l.actor)
            .collect()
    }

    /// Fills in an A/B/C run's `believed_holders` from its lanes and `successor_acquire` from
    /// its events.
    pub fn with_believed_holders(mut self) -> Self {
        let n = self.most_believers().count;
        let next = self.successor_acquire();
        let overlap = self.believers_overlap_ms();
        if let super::Metrics::Abc(m) = &mut self.metrics {
            m.believed_holders = n;
            m.successor_acquire = next;
            m.believers_overlap_ms = overlap;
        }
        self
    }

    /// When the lock was first granted to a client other than its first holder, in seconds:
    /// the moment the hand-over (or the take-over) happened.
    pub fn successor_acquire(&self) -> Option<f64> {
        let mut grants = self
            .events
            .iter()
            .filter(|e| matches!(e.kind, super::EventKind::Acquired { .. }));
        let first = grants.next()?.actor;
        grants
            .find(|e| e.actor != first)
            .map(|e| e.at_ms as f64 / 1000.0)
    }

    /// How long, in all, two or more clients believed at the same time that they held.
    pub fn believers_overlap_ms(&self) -> Millis {
        let spans = self.believer_spans();
        let mut edges: Vec<Millis> = spans.iter().flat_map(|s| [s.1, s.2]).collect();
        edges.sort_unstable();
        edges.dedup();
        edges
            .windows(2)
            .filter(|w| {
                let mut who: Vec<ActorId> = spans
                    .iter()
                    .filter(|s| s.1 <= w[0] && w[0] < s.2)
                    .map(|s| s.0)
                    .collect();
                who.sort_unstable();
                who.dedup();
                who.len() >= 2
            })
            .map(|w| w[1] - w[0])
            .sum()
    }

    /// Each client's spans of believing it holds: who, from, to.
    fn believer_spans(&self) -> Vec<(ActorId, Millis, Millis)> {
        self.lanes
            .iter()
            .filter(|l| self.role(l.actor) == Some(Role::Client))
            .flat_map(|l| {
                l.spans
                    .iter()
                    .filter(|s| s.state.believes_holding())
                    .map(move |s| (l.actor, s.start_ms, s.end_ms))
            })
            .collect()
    }

    /// The most clients that believed at once that they held, and from when to when.
    pub fn most_believers(&self) -> Believers {
        let spans = self.believer_spans();
        let mut best = Believers {
            count: 0,
            from_ms: 0,
            to_ms: 0,
            clients: Vec::new(),
        };
        // The count can only grow at the start of a span.
        let mut starts: Vec<Millis> = spans.iter().map(|s| s.1).collect();
        starts.sort_unstable();
        starts.dedup();
        for t in starts {
            let live: Vec<&(ActorId, Millis, Millis)> =
                spans.iter().filter(|s| s.1 <= t && t < s.2).collect();
            let mut who: Vec<ActorId> = live.iter().map(|s| s.0).collect();
            who.dedup();
            if who.len() as u32 > best.count {
                best = Believers {
                    count: who.len() as u32,
                    from_ms: t,
                    to_ms: live.iter().map(|s| s.2).min().unwrap_or(t),
                    clients: who,
                };
            }
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Judgement, WriteRecord};
    use crate::engine::world::ActorId;

    const B: ActorId = ActorId(1);

    fn accepted(writer: ActorId, token: u64) -> WriteRecord {
        WriteRecord {
            at_ms: 0,
            writer,
            token,
            accepted: true,
            last_seen_before: 0,
            last_seen_after: token,
            fencing: true,
            judgement: Judgement::Fresh,
            replaced: None,
        }
    }

    #[test]
    fn a_write_is_judged_by_whether_its_writer_had_lost_the_lock_and_what_it_replaced() {
        // The frozen holder's story: B (token 2) wrote; A (token 1) comes back late.
        let earlier = [accepted(B, 2)];
        assert_eq!(
            Judgement::of(true, false, 1, &earlier),
            (Judgement::StaleRejected, None),
            "fencing refuses the old token"
        );
        assert_eq!(
            Judgement::of(true, true, 1, &earlier),
            (Judgement::Overwrote, Some((B, 2))),
            "without fencing the old token destroys the newer value"
        );
        // Nothing newer yet: a stale write that lands harms no newer value, but is stale.
        assert_eq!(
            Judgement::of(true, true, 1, &[]),
            (Judgement::StaleAccepted, None)
        );
        assert_eq!(
            Judgement::of(false, true, 3, &earlier),
            (Judgement::Fresh, Some((B, 2)))
        );
        assert_eq!(
            Judgement::of(false, false, 2, &earlier),
            (Judgement::Refused, None)
        );
        assert!(Judgement::Overwrote.stale() && !Judgement::Refused.stale());
    }
}
