//! The facts every view asks of a run, each answered once, here, from the typed trace: who
//! holds at an instant, who believes it holds, the most that believed so at once, when a
//! client was paused or cut off, and the lease deadline in force.

use super::{EventKind, Role, SpanState, Trace};
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
    /// The side of a read-write lock `actor` asks for, from the tag of the nodes it creates;
    /// `None` for every other kind of client (and one that never reached the lock).
    pub fn lock_side(&self, actor: ActorId) -> Option<crate::engine::zk::tree::Tag> {
        use crate::engine::zk::tree::Tag;
        self.nodes
            .iter()
            .find(|n| n.owner == actor && matches!(n.tag, Tag::Read | Tag::Write))
            .map(|n| n.tag)
    }

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

    /// When `actor` froze and when it woke: its first pause, to the run's end if it never woke.
    pub fn pause_of(&self, actor: ActorId) -> Option<(Millis, Millis)> {
        let froze = self.first_event(actor, |k| matches!(k, EventKind::Froze))?;
        Some((froze, self.pause_end(actor, froze).unwrap_or(self.end_ms)))
    }

    /// When the pause of `actor` that began at `froze_ms` ended, if it woke before the run did.
    pub fn pause_end(&self, actor: ActorId, froze_ms: Millis) -> Option<Millis> {
        self.event_from(actor, froze_ms, |k| matches!(k, EventKind::Woke))
    }

    /// When the link between `actor` and the service went silent and when it came back: its
    /// first blind interval, to the run's end if the link never came back.
    pub fn cut_of(&self, actor: ActorId) -> Option<(Millis, Millis)> {
        let cut = self.first_event(actor, |k| matches!(k, EventKind::LinkCut))?;
        let back = self.event_from(actor, cut, |k| matches!(k, EventKind::LinkRestored));
        Some((cut, back.unwrap_or(self.end_ms)))
    }

    /// The lease deadline in force at `at`, with the service that keeps it: the one the last
    /// grant or accepted keepalive at or before `at` set (none after a grant without one).
    pub fn lease_deadline_at(&self, at: Millis) -> Option<(ActorId, Millis)> {
        let mut deadline = None;
        for e in self.events.iter().take_while(|e| e.at_ms <= at) {
            match &e.kind {
                EventKind::LeaseGranted { deadline_ms, .. } => {
                    deadline = deadline_ms.map(|d| (e.actor, d))
                }
                EventKind::KeepaliveRenewed { deadline_ms } => {
                    deadline = Some((e.actor, *deadline_ms))
                }
                _ => {}
            }
        }
        deadline
    }

    /// When `actor` first logged an event that passes `test`.
    fn first_event(&self, actor: ActorId, test: impl Fn(&EventKind) -> bool) -> Option<Millis> {
        self.event_from(actor, 0, test)
    }

    /// When `actor` first logged, at or after `from`, an event that passes `test`.
    fn event_from(
        &self,
        actor: ActorId,
        from: Millis,
        test: impl Fn(&EventKind) -> bool,
    ) -> Option<Millis> {
        self.events
            .iter()
            .find(|e| e.actor == actor && e.at_ms >= from && test(&e.kind))
            .map(|e| e.at_ms)
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

    /// The frozen holder's defaults: a 10 s lease, a keepalive every 3 s from the grant at 0,
    /// no network delay, and A frozen from 12 s for 14 s.
    fn frozen() -> super::Trace {
        crate::engine::families::frozen::run(&crate::engine::params::FrozenParams::default())
    }

    #[test]
    fn the_pause_is_the_interval_the_scenario_freezes_the_holder_for() {
        let t = frozen();
        let a = t.actor_named("A").expect("A");
        assert_eq!(t.pause_of(a), Some((12_000, 26_000)));
        assert_eq!(t.pause_end(a, 12_000), Some(26_000));
        assert_eq!(t.cut_of(a), None, "the frozen holder's link is never cut");
        assert_eq!(t.pause_of(t.actor_named("B").expect("B")), None);
    }

    #[test]
    fn the_deadline_in_force_is_the_last_renewal_s_arrival_plus_the_ttl() {
        let t = frozen();
        // Granted at 0: 0 + 10 s. Renewed on arrival at 3, 6 and 9 s (no delay): 9 + 10 s.
        let (service, at_start) = t.lease_deadline_at(1_000).expect("granted at 0");
        assert_eq!(at_start, 10_000);
        assert_eq!(t.role(service), Some(super::Role::LeaseService));
        assert_eq!(t.lease_deadline_at(3_000).map(|d| d.1), Some(13_000));
        assert_eq!(t.lease_deadline_at(10_500).map(|d| d.1), Some(19_000));
        // Frozen from 12 s, A sends no keepalive then: the deadline stays at 19 s.
        assert_eq!(t.lease_deadline_at(18_500).map(|d| d.1), Some(19_000));
    }

    #[test]
    fn a_cut_and_a_pause_past_the_end_run_to_the_end_of_the_run() {
        use crate::engine::params::{AbcParams, Fault};
        let p = AbcParams {
            faults: vec![
                Fault::Disconnect {
                    client: "A".into(),
                    at_ms: 1_000,
                    len_ms: 2_500,
                },
                Fault::Freeze {
                    client: "B".into(),
                    at_ms: 9_000,
                    len_ms: 30_000,
                },
            ],
            ..AbcParams::default()
        };
        let t = crate::engine::families::abc::run(&p);
        let (a, b) = (
            t.actor_named("A").expect("A"),
            t.actor_named("B").expect("B"),
        );
        assert_eq!(t.cut_of(a), Some((1_000, 3_500)));
        assert_eq!(t.pause_of(b), Some((9_000, t.end_ms)));
        assert_eq!(
            t.pause_end(b, 9_000),
            None,
            "B never woke before the run ended"
        );
    }
}
