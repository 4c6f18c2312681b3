//! Key moments, for "next key moment" navigation in every family that has them: the one list
//! every screen's `n`/`N`, story line and sequence chart read.

use crate::engine::trace::etcd::EtcdEvent;
use crate::engine::trace::record::Recorder;
use crate::engine::trace::redlock::RedlockEvent;
use crate::engine::trace::{
    EventKind, InvariantReport, Judgement, Moment, MomentKind, WriteRecord,
};

/// The moments to jump between, in time order: grants (the first holder's at 0 s too),
/// releases, expiries at the service, a holder learning it lost, stale writes accepted or
/// refused, and each invariant's first failure. One fact told twice at one instant (the
/// service granting B and B learning it in the same millisecond) is one moment.
pub fn moments(rec: &Recorder, writes: &[WriteRecord], checks: &[InvariantReport]) -> Vec<Moment> {
    let mut out: Vec<Moment> = rec
        .events
        .iter()
        .filter_map(|e| {
            let kind = match e.kind {
                EventKind::Acquired { .. }
                | EventKind::Admitted { .. }
                | EventKind::LearnedGrant { .. }
                | EventKind::Redlock(RedlockEvent::Acquired { .. })
                | EventKind::Etcd(EtcdEvent::Locked { .. }) => MomentKind::Grant { actor: e.actor },
                EventKind::LeaseGranted { holder, .. } => MomentKind::Grant { actor: holder },
                EventKind::ReleaseSent { .. }
                | EventKind::LeaseReleaseSent
                | EventKind::Etcd(EtcdEvent::UnlockSent { .. }) => {
                    MomentKind::Release { actor: e.actor }
                }
                EventKind::SessionExpired { owner, .. } => MomentKind::Expiry {
                    actor: owner,
                    by: e.actor,
                },
                EventKind::LeaseExpired { holder }
                | EventKind::Etcd(EtcdEvent::LeaseExpired { owner: holder, .. }) => {
                    MomentKind::Expiry {
                        actor: holder,
                        by: e.actor,
                    }
                }
                EventKind::LearnedLeaseLost
                | EventKind::LearnedSessionExpired
                | EventKind::LearnedClaimLost
                | EventKind::Etcd(EtcdEvent::KeepAliveNotFound { .. })
                | EventKind::Etcd(EtcdEvent::SessionDone { .. }) => {
                    MomentKind::LearnedLost { actor: e.actor }
                }
                _ => return None,
            };
            Some(Moment {
                at_ms: e.at_ms,
                kind,
            })
        })
        .collect();
    for w in writes {
        if matches!(
            w.judgement,
            Judgement::StaleAccepted | Judgement::StaleRejected | Judgement::Overwrote
        ) {
            out.push(Moment {
                at_ms: w.at_ms,
                kind: MomentKind::StaleWrite {
                    actor: w.writer,
                    accepted: w.accepted,
                },
            });
        }
    }
    for c in checks {
        if let Some(at) = c.first_violation_ms() {
            out.push(Moment {
                at_ms: at,
                kind: MomentKind::FirstViolation { invariant: c.name },
            });
        }
    }
    out.sort_by_key(|m| m.at_ms);
    let mut seen: Vec<Moment> = Vec::with_capacity(out.len());
    for m in out {
        let told = seen
            .iter()
            .rev()
            .take_while(|s| s.at_ms == m.at_ms)
            .any(|s| *s == m);
        if !told {
            seen.push(m);
        }
    }
    seen
}

#[cfg(test)]
mod tests {
    use crate::engine::families::frozen::{A, B, SERVICE, run};
    use crate::engine::params::FrozenParams;
    use crate::engine::trace::MomentKind;

    #[test]
    fn the_frozen_holders_key_moments_are_the_worked_examples_turns() {
        // docs/src/model/frozen.md, the defaults: A holds from 0 s; its lease expires at 19 s
        // and B is granted at 19 s (no delay: B learns it at once); A wakes at 26 s and its
        // merged keepalive is refused, so A learns it lost; A's fenced write at 38 s is refused.
        let t = run(&FrozenParams::default());
        let at = |ms| -> Vec<MomentKind> {
            t.moments
                .iter()
                .filter(|m| m.at_ms == ms)
                .map(|m| m.kind)
                .collect()
        };
        let mut instants: Vec<u64> = t.moments.iter().map(|m| m.at_ms).collect();
        instants.dedup();
        assert_eq!(instants, [0, 19_000, 26_000, 38_000], "{:?}", t.moments);
        assert_eq!(at(0), [MomentKind::Grant { actor: A }]);
        let at19 = at(19_000);
        assert!(at19.contains(&MomentKind::Expiry {
            actor: A,
            by: SERVICE
        }));
        assert_eq!(
            at19.iter()
                .filter(|k| **k == MomentKind::Grant { actor: B })
                .count(),
            1,
            "B's grant is one moment: {at19:?}"
        );
        assert_eq!(at(26_000), [MomentKind::LearnedLost { actor: A }]);
        assert!(at(38_000).contains(&MomentKind::StaleWrite {
            actor: A,
            accepted: false
        }));
        // In time order, and no fact twice at one instant.
        assert!(t.moments.windows(2).all(|w| w[0].at_ms <= w[1].at_ms));
        for (i, m) in t.moments.iter().enumerate() {
            assert!(!t.moments[..i].contains(m), "{m:?} twice");
        }
    }
}
