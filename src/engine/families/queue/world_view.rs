//! What a queue family's world shows at an instant: each lane's state, the service's holders,
//! and who queues in the directory.

use super::DIR;
use crate::engine::actors::queue_client::{QStep, QueueClient, Role};
use crate::engine::trace::{ActorSet, Share, SpanState};
use crate::engine::world::{ActorId, World};

pub(super) fn client(world: &World, i: usize) -> &QueueClient {
    world.actors[i].as_queue().expect("a queue client")
}

/// The lock directory as the service holds it: every client that reached the lock (a writer,
/// the readers together, or the permit holders) and whose node is still there holds through
/// it; the other nodes queue. A client reaches the lock only when its node is entitled, and a
/// node ahead of it can only go, so "reached it and still queued" is exactly "entitled".
fn service_state(world: &World, n: usize) -> SpanState {
    let zk = world.actors[n].as_zk().expect("the service");
    let children = &zk.tree.dir(DIR).children;
    let holders: ActorSet = (0..n)
        .filter(|&i| {
            let c = client(world, i);
            c.step == QStep::Holding && c.node.is_some_and(|m| children.contains(&m))
        })
        .map(|i| ActorId(i as u8))
        .collect();
    let share = match holders
        .first()
        .map(|h| client(world, usize::from(h.0)).role)
    {
        Some(Role::Reader(_)) => Share::Read,
        Some(Role::Permit(_)) => Share::Permits,
        Some(Role::Writer) | None => Share::Exclusive,
    };
    SpanState::Queue {
        holders,
        share,
        waiting: children.len().saturating_sub(holders.len()) as u8,
    }
}

pub(super) fn lane_state(world: &World, i: usize, n: usize, stuck: u32) -> SpanState {
    let id = ActorId(i as u8);
    if i == n {
        return service_state(world, n);
    }
    let c = client(world, i);
    let status = world.status(id);
    if status.crashed {
        return SpanState::Crashed;
    }
    if status.is_frozen() {
        return SpanState::Frozen {
            believes_holding: c.step == QStep::Holding,
        };
    }
    if stuck & (1 << i) != 0
        && let Some(w) = c.watching()
    {
        return SpanState::Stuck { watching: w };
    }
    match c.step {
        QStep::Idle => SpanState::Idle,
        QStep::Creating => SpanState::Creating,
        QStep::Reading | QStep::Claiming => SpanState::Reading,
        QStep::Checking(node) => SpanState::Checking { node },
        QStep::Waiting(w) => SpanState::Waiting { watching: w },
        QStep::Holding if matches!(c.role, Role::Reader(_)) => {
            SpanState::HoldingRead { token: c.token }
        }
        QStep::Holding => SpanState::Holding { token: c.token },
        QStep::Released => SpanState::Released,
        QStep::Lost => SpanState::Lost,
    }
}

/// Each client with a node in the directory, and whether it holds: (client, role, the node's
/// sequence number).
pub(super) fn queued(world: &World, n: usize, holders: &[ActorId]) -> [Vec<(usize, Role, i32)>; 2] {
    let mut out = [Vec::new(), Vec::new()];
    let Some(zk) = world.actors[n].as_zk() else {
        return out;
    };
    let children = &zk.tree.dir(DIR).children;
    for i in 0..n {
        let c = client(world, i);
        if let Some(m) = c.node.filter(|m| children.contains(m)) {
            let holds = holders.contains(&ActorId(i as u8));
            out[usize::from(!holds)].push((i, c.role, zk.tree.node(m).seq));
        }
    }
    out
}
