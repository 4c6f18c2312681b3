//! Facts the A/B/C observer reads off the World: the lock directory, lane states, write
//! judgements, duplicates and the link windows.

use super::{DIR, NAMES, RESOURCE, SERVICE, client, zk};
use crate::engine::actors::lock_client::{LockClient, Step};
use crate::engine::time::Millis;
use crate::engine::trace::record::Recorder;
use crate::engine::trace::{EventKind, ServiceSnapshot, SpanState, Window, WriteRecord};
use crate::engine::world::{ActorId, World};
use crate::engine::zk::client::ConnState;

pub(super) fn snapshot(world: &World, now: Millis) -> ServiceSnapshot {
    super::super::zk_facts::snapshot(zk(world), DIR, SERVICE, now)
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
                Step::GaveUp => SpanState::GaveUp {
                    left_node: c.abandoned_node().is_some(),
                },
            }
        }
        crate::engine::actors::Actor::Zk(zk) => SpanState::exclusive_queue(
            zk.tree
                .first_child(DIR)
                .and_then(|n| zk.tree.node(n).owner.map(|s| zk.owner(s))),
            zk.tree.dir(DIR).children.len().saturating_sub(1) as u8,
        ),
        crate::engine::actors::Actor::Resource(r) => match r.value {
            Some((writer, token)) => SpanState::Value { writer, token },
            None => SpanState::Empty,
        },
        _ => SpanState::Idle,
    }
}

/// Judges a write as it arrives: stale when the service had already expired the writer's
/// session, whatever the writer believes.
pub(super) fn judge(
    world: &World,
    earlier: &[WriteRecord],
    at_ms: Millis,
    arrived: &EventKind,
) -> Option<WriteRecord> {
    let &EventKind::WriteArrived { writer, .. } = arrived else {
        return None;
    };
    let zk = zk(world);
    let session = client(world, writer.0 as usize).conn.session;
    let s = zk.tree.session(session);
    let stale = !s.live && !s.closed;
    let last_seen_after = world
        .actor(RESOURCE)
        .as_resource()
        .map_or(0, |r| r.last_seen_token);
    WriteRecord::judged(at_ms, arrived, last_seen_after, stale, earlier)
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

pub(super) fn link_windows(rec: &Recorder, end: Millis) -> Vec<Window> {
    super::super::zk_facts::link_windows(rec, NAMES.len(), end)
}
