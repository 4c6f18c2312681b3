//! Piecing the service's side together from what it told anyone: node ids from names, creates
//! and deletes (a delete nobody asked for is an expiry), the children view and its snapshots,
//! and the named checks they feed.

use super::*;
use crate::engine::trace::Invariant;

pub(super) fn check(g: &mut Inner, name: Invariant, at: Millis, detail: &str) {
    if let Some(c) = g.checks.iter_mut().find(|c| c.name == name) {
        c.record(at, || detail.to_string());
    }
}

/// Facts carried by a client's own events.
pub(super) fn note_event(g: &mut Inner, at: Millis, actor: ActorId, kind: &EventKind) {
    let name = |a: ActorId| ["A", "B", "C"].get(a.0 as usize).copied().unwrap_or("?");
    match kind {
        EventKind::ReleaseSent { .. } => {
            let d = format!("{} released", name(actor));
            check(g, invariant::HOLDER_RELEASED, at, &d);
        }
        EventKind::WokeUp { .. } => {
            let d = format!("{} was woken", name(actor));
            check(g, invariant::WAITER_WOKEN, at, &d);
        }
        EventKind::Acquired { .. } => {
            if let Some(h) = g.held.get_mut(actor.0 as usize) {
                *h = true;
            }
            if !g.held.is_empty() && g.held.iter().all(|h| *h) {
                check(
                    g,
                    invariant::EVERYONE_HELD,
                    at,
                    "every client held the lock",
                );
            }
        }
        _ => {}
    }
}

pub(super) fn node_id(g: &mut Inner, name: &str, at: Millis) -> NodeId {
    if let Some(n) = g.nodes.iter().find(|n| n.name == name) {
        return n.id;
    }
    let id = NodeId(g.nodes.len() as u32);
    let owner = guid_of(name)
        .and_then(|guid| g.guids.iter().find(|(x, _)| *x == guid).map(|(_, o)| *o))
        .unwrap_or(ActorId(u8::MAX));
    g.nodes.push(NodeInfo {
        id,
        name: name.to_string(),
        tag: Tag::Lock,
        seq: seq_of(name).unwrap_or(-1),
        czxid: 0,
        owner,
        created_ms: at,
        deleted_ms: None,
    });
    // Not yet known to exist: `created` dates it.
    g.nodes[id.0 as usize].deleted_ms = Some(Millis::MAX);
    id
}

pub(super) fn created(g: &mut Inner, log: &Log, id: NodeId, at: Millis) {
    let n = &mut g.nodes[id.0 as usize];
    if n.deleted_ms != Some(Millis::MAX) {
        return;
    }
    n.deleted_ms = None;
    n.created_ms = at;
    let owner = n.owner;
    g.rec
        .event(at, log.service, EventKind::NodeCreated { node: id, owner });
    refresh(g, log, at);
}

pub(super) fn deleted(g: &mut Inner, log: &Log, id: NodeId, at: Millis) {
    let n = &mut g.nodes[id.0 as usize];
    if n.deleted_ms.is_some() {
        if n.deleted_ms == Some(Millis::MAX) {
            // Never seen alive: it came and went between two looks.
            n.deleted_ms = Some(at);
            n.created_ms = at;
        }
        return;
    }
    n.deleted_ms = Some(at);
    let owner = n.owner;
    g.rec.event(
        at,
        log.service,
        EventKind::NodeDeleted {
            node: id,
            notified: Vec::new(),
        },
    );
    let c = owner.0 as usize;
    let asked = g.deleting.get(c).is_some_and(|d| d.contains(&id));
    if c < g.session_ended.len() && !asked && !g.session_ended[c] {
        // Deleted without its owner asking: the service ended the owner's session.
        g.session_ended[c] = true;
        let nodes_deleted = vec![id];
        g.rec.event(
            at,
            log.service,
            EventKind::SessionExpired {
                session: SessionId(c as u32),
                owner,
                nodes_deleted,
            },
        );
    }
    refresh(g, log, at);
}

/// Recomputes lanes, the lock directory and the checks after any change.
pub(super) fn refresh(g: &mut Inner, log: &Log, at: Millis) {
    let n = g.clients.len();
    let alive = |g: &Inner, node: Option<NodeId>| {
        node.is_some_and(|id| {
            g.nodes
                .get(id.0 as usize)
                .is_some_and(|x| x.deleted_ms.is_none())
        })
    };
    // Holders in the service's view: believes it holds, session live, node present.
    let holders: Vec<usize> = (0..n)
        .filter(|&c| {
            g.clients[c].believes_holding && !g.session_ended[c] && alive(g, g.clients[c].node)
        })
        .collect();
    g.max_holders = g.max_holders.max(holders.len() as u32);
    if holders.len() > 1 {
        let names: Vec<&str> = holders
            .iter()
            .map(|&c| ["A", "B", "C"].get(c).copied().unwrap_or("?"))
            .collect();
        let d = format!("{} hold the lock at once", names.join(" and "));
        check(g, invariant::ONE_HOLDER, at, &d);
    }
    // Who waits for something that can never happen.
    let waiters: Vec<Waiter> = (0..n)
        .map(|c| {
            let v = &g.clients[c];
            let target_owner = match v.waiting {
                Some(Watched::Node(id)) => g
                    .nodes
                    .get(id.0 as usize)
                    .map(|x| x.owner.0 as usize)
                    .filter(|&o| o < n),
                _ => None,
            };
            Waiter {
                waiting: v.waiting.is_some(),
                can_fire: v.can_fire,
                live: v.connected && !g.session_ended[c],
                waits_on: target_owner,
                abandoned: v.abandoned && !g.session_ended[c],
            }
        })
        .collect();
    let now_stuck = stuck::stuck(&waiters);
    for (c, &is_stuck) in now_stuck.iter().enumerate().take(n) {
        if is_stuck != g.stuck[c] {
            let id = ActorId(c as u8);
            if is_stuck {
                if let Some(on) = g.clients[c].waiting {
                    g.rec.event(at, id, EventKind::Stuck { on });
                    let d = format!(
                        "{} waits forever",
                        ["A", "B", "C"].get(c).copied().unwrap_or("?")
                    );
                    check(g, invariant::NOBODY_STUCK, at, &d);
                }
            } else {
                g.rec.event(at, id, EventKind::Unstuck);
            }
        }
    }
    g.stuck = now_stuck;
    for c in 0..n {
        let v = g.clients[c];
        let state = match (g.stuck[c], v.waiting) {
            (true, Some(w)) => SpanState::Stuck { watching: w },
            _ => v.state,
        };
        g.lanes.set(c, at, state);
    }
    snapshot(g, at);
    let children = live_children(g);
    let holder = children.first().map(|c| c.owner);
    let waiting = children.len().saturating_sub(1) as u8;
    g.lanes.set(
        log.service.0 as usize,
        at,
        SpanState::exclusive_queue(holder, waiting),
    );
}

fn live_children(g: &Inner) -> Vec<Child> {
    let mut v: Vec<Child> = g
        .nodes
        .iter()
        .filter(|n| n.deleted_ms.is_none())
        .map(|n| Child {
            node: n.id,
            owner: n.owner,
            seq: n.seq,
        })
        .collect();
    v.sort_by_key(|c| c.seq);
    v
}

pub(super) fn snapshot(g: &mut Inner, at: Millis) {
    let children = live_children(g);
    let watches = g.watches.clone();
    if g.service
        .last()
        .is_some_and(|s| s.children == children && s.watches == watches)
    {
        return;
    }
    if g.service.last().is_some_and(|s| s.at_ms == at) {
        g.service.pop();
    }
    g.service.push(ServiceSnapshot {
        at_ms: at,
        children,
        watches,
    });
}
