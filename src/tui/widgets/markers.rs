//! The markers a lane carries, read off the trace: writes with their judgement and token,
//! grants, wake-ups and fired notifications, keepalives, expiries, and the lease deadline in
//! force at the cursor (the engine's `Trace::lease_deadline_at`). Nothing here is worked out: each
//! marker is one recorded fact.

use crate::engine::time::Millis;
use crate::engine::trace::{EventKind, Judgement, Role, Trace};
use crate::engine::world::ActorId;
use crate::tui::theme::Mark;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Marker {
    pub at_ms: Millis,
    pub actor: ActorId,
    pub mark: Mark,
    /// A few characters drawn after the glyph when there is room: a token, a count.
    pub text: Option<String>,
    /// Shown even after the cursor (a deadline already known at the cursor).
    pub known_ahead: bool,
}

/// The mark a write's judgement gets: an accepted stale write never looks like a good one.
pub fn write_mark(j: Judgement) -> Mark {
    match j {
        Judgement::Fresh => Mark::WriteOk,
        Judgement::StaleRejected | Judgement::Refused => Mark::WriteRefused,
        Judgement::StaleAccepted | Judgement::Overwrote => Mark::WriteStale,
    }
}

/// Every marker of `trace`, in drawing order (writes last, so they win a shared cell).
pub fn markers(trace: &Trace, cursor: Millis) -> Vec<Marker> {
    let mut out = Vec::new();
    let mut put = |at_ms, actor, mark, text: Option<String>| {
        out.push(Marker {
            at_ms,
            actor,
            mark,
            text,
            known_ahead: false,
        })
    };
    for e in &trace.events {
        match &e.kind {
            EventKind::Acquired { .. } | EventKind::LearnedGrant { .. } => {
                put(e.at_ms, e.actor, Mark::Grant, None)
            }
            EventKind::LeaseGranted { .. } if e.at_ms > 0 => {
                put(e.at_ms, e.actor, Mark::Grant, None)
            }
            EventKind::WokeUp { .. } => put(e.at_ms, e.actor, Mark::Wake, None),
            EventKind::NodeDeleted { notified, .. } if !notified.is_empty() => put(
                e.at_ms,
                e.actor,
                Mark::Wake,
                (notified.len() > 1).then(|| notified.len().to_string()),
            ),
            EventKind::KeepaliveSent { merged } => put(
                e.at_ms,
                e.actor,
                Mark::Keepalive,
                (*merged > 1).then(|| format!("×{merged}")),
            ),
            EventKind::SessionExpired { owner, .. } => {
                put(e.at_ms, e.actor, Mark::Expired, None);
                put(e.at_ms, *owner, Mark::Expired, None);
            }
            EventKind::LeaseExpired { holder } => {
                put(e.at_ms, e.actor, Mark::Expired, None);
                put(e.at_ms, *holder, Mark::Expired, None);
            }
            _ => {}
        }
    }
    if let Some((service, at)) = trace.lease_deadline_at(cursor) {
        out.push(Marker {
            at_ms: at,
            actor: service,
            mark: Mark::Deadline,
            text: None,
            known_ahead: true,
        });
    }
    // Writes land on what they write to: the resource, or the table a job's result goes in.
    if let Some(resource) = trace
        .actors
        .iter()
        .find(|a| matches!(a.role, Role::Resource | Role::Table))
        .map(|a| a.id)
    {
        for w in &trace.writes {
            out.push(Marker {
                at_ms: w.at_ms,
                actor: resource,
                mark: write_mark(w.judgement),
                // A write without a token (Redlock's) shows none.
                text: crate::engine::registry::entry(trace.family)
                    .tokens()
                    .then(|| format!("#{}", w.token)),
                known_ahead: false,
            });
        }
    }
    out
}

/// The marks that occur in `trace`, for the legend.
pub fn marks_used(trace: &Trace) -> Vec<Mark> {
    let all = markers(trace, trace.end_ms);
    Mark::ALL
        .into_iter()
        .filter(|m| all.iter().any(|k| k.mark == *m))
        .collect()
}
