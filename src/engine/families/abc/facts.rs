//! Facts the A/B/C observer reads off the World: the lock directory, lane states, write
//! judgements, duplicates and the link windows.

use super::{DIR, NAMES, RESOURCE, SERVICE, client, zk};
use crate::engine::actors::lock_client::{LockClient, Step};
use crate::engine::time::Millis;
use crate::engine::trace::record::Recorder;
use crate::engine::trace::{
    Child, EventKind, Judgement, ServiceSnapshot, SpanState, WatchInfo, Window, WindowKind,
    WriteRecord,
};
use crate::engine::world::{ActorId, World};
use crate::engine::zk::client::ConnState;

/// The lock directory now: children in sequence order, and the watches that can still fire.
pub(super) fn snapshot(world: &World, now: Millis) -> ServiceSnapshot {
    let zk = zk(world);
    let children = zk
        .tree
        .sorted_children(DIR)
        .into_iter()
        .map(|n| {
            let node = zk.tree.node(n);
            Child {
                node: n,
                owner: node.owner.map_or(SERVICE, |s| zk.owner(s)),
                seq: node.seq,
            }
        })
        .collect();
    let mut watches = Vec::new();
    for (i, s) in zk.tree.sessions.iter().enumerate() {
        let session = crate::engine::zk::tree::SessionId(i as u32);
        for &target in &s.watches {
            if zk.tree.can_fire(session, target) {
                watches.push(WatchInfo {
                    watcher: zk.owner(session),
                    target,
                });
            }
        }
    }
    ServiceSnapshot {
        at_ms: now,
        children,
        watches,
    }
}

/// What actor `i`'s lane shows now.
pub(super) fn lane_state(world: &World, i: usize, stuck: &[bool]) -> SpanState {
    let id = ActorId(i as u8);
    match world.actor(id) {
        crate::engine::actors::Actor::Lock(c) => {
            let status = world.status(id);
            if status.crashed {
                return SpanState::Crashed;
            }
            if status.is_frozen() {
                return SpanState::Frozen {
                    believes_holding: c.step == Step::Holding,
                };
            }
            if stuck.get(i).copied().unwrap_or(false)
                && let Some(w) = c.watching()
            {
                return SpanState::Stuck { watching: w };
            }
            match c.step {
                Step::Idle => SpanState::Idle,
                Step::Creating => SpanState::Creating,
                Step::Unknown => SpanState::OutcomeUnknown,
                Step::Recovering | Step::Confirming | Step::Reading => {
                    if c.conn.state == ConnState::Reconnecting {
                        SpanState::Reconnecting
                    } else {
                        SpanState::Reading
                    }
                }
                Step::Checking(node) => SpanState::Checking { node },
                Step::Waiting(w) => SpanState::Waiting { watching: w },
                Step::Holding if c.suspended => SpanState::Suspended { token: c.token },
                Step::Holding => SpanState::Holding { token: c.token },
                Step::Released => SpanState::Released,
                Step::Lost => SpanState::Lost,
            }
        }
        crate::engine::actors::Actor::Zk(zk) => SpanState::Queue {
            holder: zk
                .tree
                .first_child(DIR)
                .and_then(|n| zk.tree.node(n).owner.map(|s| zk.owner(s))),
            waiting: zk.tree.dir(DIR).children.len().saturating_sub(1) as u8,
        },
        crate::engine::actors::Actor::Resource(r) => match r.value {
            Some((writer, token)) => SpanState::Value { writer, token },
            None => SpanState::Empty,
        },
        _ => SpanState::Idle,
    }
}

/// Judges a write as it arrives: stale when the service had already expired the writer's
/// session, whatever the writer believes.
#[allow(clippy::too_many_arguments)]
pub(super) fn judge(
    world: &World,
    earlier: &[WriteRecord],
    at_ms: Millis,
    writer: ActorId,
    token: u64,
    accepted: bool,
    last_seen_before: u64,
    fencing: bool,
) -> WriteRecord {
    let zk = zk(world);
    let session = client(world, writer.0 as usize).conn.session;
    let s = zk.tree.session(session);
    let stale = !s.live && !s.closed;
    let replaced = earlier
        .iter()
        .rev()
        .find(|w| w.accepted)
        .map(|w| (w.writer, w.token))
        .filter(|_| accepted);
    let judgement = match (stale, accepted) {
        (false, true) => Judgement::Fresh,
        (false, false) => Judgement::Refused,
        (true, false) => Judgement::StaleRejected,
        (true, true) if replaced.is_some_and(|(_, t)| t > token) => Judgement::Overwrote,
        (true, true) => Judgement::StaleAccepted,
    };
    let last_seen_after = world
        .actor(RESOURCE)
        .as_resource()
        .map_or(0, |r| r.last_seen_token);
    WriteRecord {
        at_ms,
        writer,
        token,
        accepted,
        last_seen_before,
        last_seen_after,
        fencing,
        judgement,
        replaced,
    }
}

/// Nodes a single request left behind: created for a client, neither its node at the end nor
/// deleted by it as an extra.
pub(super) fn duplicates(rec: &Recorder, clients: &[&LockClient]) -> u32 {
    let mut n = 0;
    for e in &rec.events {
        if let EventKind::NodeCreated { node, owner } = &e.kind {
            let c = owner.0 as usize;
            let Some(client) = clients.get(c) else {
                continue;
            };
            let cleaned = rec.events.iter().any(|d| {
                d.actor == *owner && d.kind == EventKind::DuplicateDeleted { node: *node }
            });
            if client.node != Some(*node) && !cleaned {
                n += 1;
            }
        }
    }
    n
}

/// Blind and disconnected windows from the link events.
pub(super) fn link_windows(rec: &Recorder, end: Millis) -> Vec<Window> {
    let mut out = Vec::new();
    for c in 0..NAMES.len() {
        let id = ActorId(c as u8);
        let mut blind_from = None;
        let mut away_from = None;
        for e in rec.events.iter().filter(|e| e.actor == id) {
            match e.kind {
                EventKind::LinkCut => blind_from = Some(e.at_ms),
                EventKind::NoticedDisconnect { .. } | EventKind::ConnectionReset => {
                    if let Some(from) = blind_from.take() {
                        out.push(Window {
                            kind: WindowKind::Blind { client: id },
                            from_ms: from,
                            to_ms: e.at_ms,
                        });
                    }
                    away_from.get_or_insert(e.at_ms);
                }
                EventKind::LinkRestored => {
                    if let Some(from) = blind_from.take() {
                        out.push(Window {
                            kind: WindowKind::Blind { client: id },
                            from_ms: from,
                            to_ms: e.at_ms,
                        });
                    }
                }
                EventKind::Reconnected | EventKind::LearnedSessionExpired => {
                    if let Some(from) = away_from.take() {
                        out.push(Window {
                            kind: WindowKind::Disconnected { client: id },
                            from_ms: from,
                            to_ms: e.at_ms,
                        });
                    }
                }
                _ => {}
            }
        }
        for (from, kind) in [
            (blind_from, WindowKind::Blind { client: id }),
            (away_from, WindowKind::Disconnected { client: id }),
        ] {
            if let Some(from) = from {
                out.push(Window {
                    kind,
                    from_ms: from,
                    to_ms: end,
                });
            }
        }
    }
    out.sort_by_key(|w| w.from_ms);
    out
}
