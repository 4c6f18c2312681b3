//! Facts a model question's explanation quotes that only the trace's events, writes, nodes or
//! lanes carry, one small function per fact, so a change in the engine's trace is fixed here
//! alone. Nothing here decides anything about the protocol: each function finds what the
//! engine recorded and hands it over, with actors by name and nodes by sequence number.

use crate::engine::time::Millis;
use crate::engine::trace::{EventKind, Trace};
use crate::engine::zk::tree::Watched;

/// The last keepalive the service accepted: when it arrived and the deadline it set.
pub fn last_renewal(trace: &Trace) -> Option<(Millis, Millis)> {
    trace.events.iter().rev().find_map(|e| match e.kind {
        EventKind::KeepaliveRenewed { deadline_ms } => Some((e.at_ms, deadline_ms)),
        _ => None,
    })
}

/// When the service first refused a keepalive (it came too late).
pub fn keepalive_refused(trace: &Trace) -> Option<Millis> {
    trace.events.iter().find_map(|e| match e.kind {
        EventKind::KeepaliveRefused => Some(e.at_ms),
        _ => None,
    })
}

/// When `actor` froze and when it woke (the engine's first pause).
pub fn pause(trace: &Trace, actor: &str) -> Option<(Millis, Millis)> {
    trace.pause_of(trace.actor_named(actor)?)
}

/// When the link between `actor` and the service went silent and when it came back (the
/// engine's first cut).
pub fn disconnection(trace: &Trace, actor: &str) -> Option<(Millis, Millis)> {
    trace.cut_of(trace.actor_named(actor)?)
}

/// When the frozen holder learned that its lease was lost.
pub fn learned_lease_lost(trace: &Trace) -> Option<Millis> {
    trace.events.iter().find_map(|e| match e.kind {
        EventKind::LearnedLeaseLost => Some(e.at_ms),
        _ => None,
    })
}

/// When the holder abandoned its write.
pub fn write_abandoned(trace: &Trace) -> Option<Millis> {
    trace.events.iter().find_map(|e| match e.kind {
        EventKind::WriteAbandoned => Some(e.at_ms),
        _ => None,
    })
}

/// A write as it reached the protected resource.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WriteFact {
    pub at_ms: Millis,
    /// Who wrote it (`A`, `B`, `C`).
    pub value: String,
    pub token: u64,
    pub accepted: bool,
    /// The largest token the resource had accepted before this write.
    pub last_seen_before: u64,
    /// Whether the engine judged it stale (sent after its writer had lost the lock).
    pub stale: bool,
}

/// Every write that reached the resource, in arrival order.
pub fn writes(trace: &Trace) -> Vec<WriteFact> {
    trace
        .writes
        .iter()
        .map(|w| WriteFact {
            at_ms: w.at_ms,
            value: trace.name(w.writer).to_string(),
            token: w.token,
            accepted: w.accepted,
            last_seen_before: w.last_seen_before,
            stale: w.judgement.stale(),
        })
        .collect()
}

/// When the service expired `client`'s session, if it did.
pub fn session_expired(trace: &Trace, client: &str) -> Option<Millis> {
    let id = trace.actor_named(client)?;
    trace.events.iter().find_map(|e| match &e.kind {
        EventKind::SessionExpired { owner, .. } if *owner == id => Some(e.at_ms),
        _ => None,
    })
}

/// The last moment before `before` at which a message from `client` reached the coordination
/// service: what its session's expiry counts from.
pub fn last_heard(trace: &Trace, client: &str, before: Millis) -> Option<Millis> {
    use crate::engine::trace::Role;
    let id = trace.actor_named(client)?;
    trace
        .messages
        .iter()
        .filter(|m| m.from == id && trace.role(m.to) == Some(Role::Coordinator))
        .filter_map(|m| m.received_ms)
        .filter(|t| *t <= before)
        .max()
}

/// The first moment after `after` at which a message from `client` reached the coordination
/// service.
pub fn first_heard_after(trace: &Trace, client: &str, after: Millis) -> Option<Millis> {
    use crate::engine::trace::Role;
    let id = trace.actor_named(client)?;
    trace
        .messages
        .iter()
        .filter(|m| m.from == id && trace.role(m.to) == Some(Role::Coordinator))
        .filter_map(|m| m.received_ms)
        .filter(|t| *t > after)
        .min()
}

/// The session timeout the service granted `client`.
pub fn session_timeout(trace: &Trace, client: &str) -> Option<Millis> {
    let id = trace.actor_named(client)?;
    trace.events.iter().find_map(|e| match e.kind {
        EventKind::SessionOpened { granted_ms, .. } if e.actor == id => Some(granted_ms),
        _ => None,
    })
}

/// What a watch waits on, in words the explanation can use: a node's sequence number, or
/// `None` for the lock directory itself.
fn watched(trace: &Trace, w: Watched) -> Option<String> {
    match w {
        Watched::Node(n) => Some(trace.seq(n)),
        Watched::Children(_) => None,
    }
}

/// The clients the run reports stuck, each with the node it waits on (its sequence number).
pub fn stuck(trace: &Trace) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for e in &trace.events {
        if let EventKind::Stuck { on } = e.kind {
            let who = trace.name(e.actor).to_string();
            let on = watched(trace, on).unwrap_or_else(|| "/lock".into());
            // A client stuck again on the same node is still one stuck client.
            out.retain(|(c, _)| *c != who);
            out.push((who, on));
        }
    }
    out
}

/// The sequence numbers of every node the service created for `owner`, in order.
pub fn nodes_of(trace: &Trace, owner: &str) -> Vec<String> {
    let Some(id) = trace.actor_named(owner) else {
        return Vec::new();
    };
    trace
        .nodes
        .iter()
        .filter(|n| n.owner == id)
        .map(|n| n.seq.to_string())
        .collect()
}

/// The client whose create failed with a connection loss (its reply lost), if one did.
pub fn lost_create_reply(trace: &Trace) -> Option<String> {
    use crate::engine::trace::event::Request;
    trace.events.iter().find_map(|e| match e.kind {
        EventKind::ConnectionLoss {
            request: Request::Create,
        } => Some(trace.name(e.actor).to_string()),
        _ => None,
    })
}
