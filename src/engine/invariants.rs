//! The named checks, as pure functions of a World's state. The timed run records when each
//! first failed; an explorer evaluates the same functions on every state it reaches.

use crate::engine::actors::ZkClientView;
use crate::engine::msg::ActorMsg;
use crate::engine::world::{ActorId, World};
use crate::engine::zk::client::ConnState;
use crate::engine::zk::service::ZkService;
use crate::engine::zk::tree::Watched;

/// Whether a client holds in the service's view: it believes it holds, its session is live and
/// its node is there.
fn holds_in_service_view(zk: &crate::engine::zk::service::ZkService, c: &ZkClientView) -> bool {
    c.holding && zk.tree.is_live(c.conn.session) && c.node.is_some_and(|n| zk.tree.node(n).alive)
}

/// How many clients hold the lock in the service's view, without allocating.
pub fn holder_count(world: &World) -> usize {
    let Some(zk) = world.actors.iter().find_map(|a| a.as_zk()) else {
        return 0;
    };
    world
        .actors
        .iter()
        .filter_map(|a| a.zk_client())
        .filter(|c| holds_in_service_view(zk, c))
        .count()
}

/// The clients holding the lock in the service's view: holding, session live, node present.
pub fn service_holders(world: &World) -> Vec<ActorId> {
    let Some(zk) = world.actors.iter().find_map(|a| a.as_zk()) else {
        return Vec::new();
    };
    world
        .actors
        .iter()
        .enumerate()
        .filter_map(|(i, a)| {
            let c = a.zk_client()?;
            holds_in_service_view(zk, &c).then_some(ActorId(i as u8))
        })
        .collect()
}

/// Whether the resource has ever accepted a token smaller than the one before it.
pub fn tokens_went_backwards(world: &World, resource: ActorId) -> bool {
    world
        .actor(resource)
        .as_resource()
        .is_some_and(|r| r.went_backwards)
}

/// Which of the first `n` clients (at most 32) wait for something that can never happen, as a
/// bit set: a node that is gone (or a watch that cannot fire) with no notification on its way and
/// no reconnect that could re-arm it, or a node whose owner is itself stuck, or a cycle of such
/// waits.
pub fn stuck_clients(world: &World, service: ActorId, n: usize) -> u32 {
    assert!(n <= 32, "at most 32 clients");
    let Some(zk) = world.actor(service).as_zk() else {
        return 0;
    };
    let bit = |c: usize| 1u32 << c;
    let mut waiting = 0u32;
    let mut directly = 0u32;
    let mut waits_on = [usize::MAX; 32];
    for (c, actor) in world.actors[..n].iter().enumerate() {
        let Some(client) = actor.zk_client() else {
            continue;
        };
        let Some(target) = client.waiting else {
            continue;
        };
        waiting |= bit(c);
        let id = ActorId(c as u8);
        // A client that will reconnect re-arms its watches; one whose session is gone will
        // learn it; a notification on its way will wake it.
        if client.conn.state != ConnState::Connected
            || !zk.tree.is_live(client.conn.session)
            || world.status(id).crashed
            || world
                .in_flight(service, id)
                .any(|m| matches!(m, ActorMsg::ZkWatch { target: t, .. } if *t == target))
        {
            continue;
        }
        if !zk.tree.can_fire(client.conn.session, target) {
            directly |= bit(c);
            continue;
        }
        // The node whose deletion this client needs: the one it watches, or, for a children
        // watch, the first child (only its going can make the watcher first).
        let needed = match target {
            Watched::Node(node) => Some(node),
            Watched::Children(dir) => zk.tree.first_child(dir).filter(|f| client.node != Some(*f)),
        };
        if let Some(node) = needed
            && let Some(owner) = zk.tree.node(node).owner.map(|s| zk.owner(s).0 as usize)
            && owner < n
        {
            // A node its owner gave up on and left behind is deleted by nobody while the
            // owner's session lives: the wait cannot end.
            if world.actors[owner]
                .zk_client()
                .is_some_and(|o| o.abandoned == Some(node))
            {
                directly |= bit(c);
                continue;
            }
            // Waiting on a node whose owner is itself waiting: follow the chain below. Waiting
            // on one's own forgotten node (a blind retry) is a chain of one that loops.
            waits_on[c] = owner;
        }
    }
    if waiting == 0 {
        return 0;
    }
    let mut stuck = directly;
    for c in 0..n {
        let mut seen = 0u32;
        let mut cur = c;
        loop {
            if stuck & bit(cur) != 0 || seen & bit(cur) != 0 {
                stuck |= bit(c);
                break;
            }
            seen |= bit(cur);
            match waits_on[cur] {
                next if next < n && (waiting | stuck) & bit(next) != 0 => cur = next,
                _ => break,
            }
        }
    }
    stuck
}

/// A watched target in a few words, for invariant details.
pub fn watched_label(zk: &ZkService, w: Watched) -> String {
    match w {
        Watched::Node(n) => format!("node {}", zk.tree.node(n).seq),
        Watched::Children(_) => "the children".into(),
    }
}

/// The version of the data node the service reports on, if there is one.
pub fn data_version(world: &World) -> Option<i32> {
    let zk = world.actors.iter().find_map(|a| a.as_zk())?;
    zk.reported_data.map(|n| zk.tree.node(n).version)
}

/// The `setData` on the reported data node that delivering channel `i`'s head brings to the
/// service: the writer, and the version it last read.
pub fn data_write_at(world: &World, i: usize) -> Option<(ActorId, Option<i32>)> {
    let ch = &world.channels[i];
    let zk = world.actor(ch.to).as_zk()?;
    match ch.queue.first().map(|m| &m.msg) {
        Some(ActorMsg::ZkRequest {
            op: crate::engine::msg::ZkOp::SetData { node, .. },
            ..
        }) if zk.reported_data == Some(*node) => {
            let read = world.actor(ch.from).as_lock()?.data.read.map(|r| r.0);
            Some((ch.from, read))
        }
        _ => None,
    }
}

/// Whether an applied `setData` lost someone else's update: the version it replaced is newer
/// than the one its writer read, and another client wrote it.
pub fn lost_update(
    writer: ActorId,
    read: Option<i32>,
    replaced_version: i32,
    replaced_by: Option<ActorId>,
) -> bool {
    read.is_some_and(|r| replaced_version > r) && replaced_by.is_some_and(|b| b != writer)
}

/// A grant whose token is smaller than an earlier grant's: the check the timed run makes on
/// every grant the service agrees with. `earlier` are the tokens of the other clients granted
/// before.
pub fn grant_went_backwards(token: u64, mut earlier: impl Iterator<Item = u64>) -> bool {
    earlier.any(|t| token < t)
}
