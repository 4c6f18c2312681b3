//! Key moments, for "next key moment" navigation in every family that has them.

use crate::engine::trace::etcd::EtcdEvent;
use crate::engine::trace::record::Recorder;
use crate::engine::trace::redlock::RedlockEvent;
use crate::engine::trace::{
    EventKind, InvariantReport, Judgement, Moment, MomentKind, WriteRecord,
};

/// The moments to jump between: grants, releases, expiries, stale writes, first failures.
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
                EventKind::LeaseGranted { holder, .. } if e.at_ms > 0 => {
                    MomentKind::Grant { actor: holder }
                }
                EventKind::ReleaseSent { .. }
                | EventKind::LeaseReleaseSent
                | EventKind::Etcd(EtcdEvent::UnlockSent { .. }) => {
                    MomentKind::Release { actor: e.actor }
                }
                EventKind::SessionExpired { owner, .. } => MomentKind::Expiry { actor: owner },
                EventKind::LeaseExpired { holder }
                | EventKind::Etcd(EtcdEvent::LeaseExpired { owner: holder, .. }) => {
                    MomentKind::Expiry { actor: holder }
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
    out
}
