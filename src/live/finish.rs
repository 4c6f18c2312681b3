//! Turns what a live A/B/C run recorded into a [`Trace`] with the model's metrics: wake-ups per
//! release, holders, stuck clients, duplicates and the write judgements.

use super::log::{Inner, Log};
use crate::engine::families::abc::{NAMES, actors};
use crate::engine::time::Millis;
use crate::engine::trace::{
    AbcMetrics, AbcTally, Event, EventKind, Family, Metrics, Trace, invariant,
};
use crate::engine::zk::tree::{NodeId, Watched};

/// Which deletion (an index into `events`) each notification is owed to: a node watch to its
/// node's deletion, a children watch to the change of the directory closest in time (the
/// service's changes and a client's notification reach locklab over different connections).
pub fn attribute(events: &[Event]) -> Vec<(usize, usize)> {
    let changes: Vec<(usize, Millis)> = events
        .iter()
        .enumerate()
        .filter(|(_, e)| {
            matches!(
                e.kind,
                EventKind::NodeCreated { .. } | EventKind::NodeDeleted { .. }
            )
        })
        .map(|(i, e)| (i, e.at_ms))
        .collect();
    let mut out = Vec::new();
    for (i, e) in events.iter().enumerate() {
        let EventKind::Notified { target, .. } = e.kind else {
            continue;
        };
        let cause = match target {
            Watched::Node(n) => events
                .iter()
                .position(|d| matches!(d.kind, EventKind::NodeDeleted { node, .. } if node == n)),
            Watched::Children(_) => changes
                .iter()
                .min_by_key(|(_, at)| at.abs_diff(e.at_ms))
                .map(|(j, _)| *j),
        };
        if let Some(j) = cause
            && matches!(events[j].kind, EventKind::NodeDeleted { .. })
        {
            out.push((i, j));
        }
    }
    out
}

/// How many waiting clients each release woke, in the order of the releases.
pub fn wakeups_per_release(events: &[Event]) -> Vec<u32> {
    let causes = attribute(events);
    let mut per: Vec<(usize, u32)> = Vec::new();
    for (i, e) in events.iter().enumerate() {
        if !matches!(e.kind, EventKind::WokeUp { .. }) {
            continue;
        }
        // The wake-up follows its notification from the same client.
        let Some(&(_, cause)) = causes
            .iter()
            .rev()
            .find(|(n, _)| *n < i && events[*n].actor == e.actor)
        else {
            continue;
        };
        match per.iter_mut().find(|(c, _)| *c == cause) {
            Some((_, n)) => *n += 1,
            None => per.push((cause, 1)),
        }
    }
    per.sort_by_key(|(c, _)| *c);
    per.into_iter().map(|(_, n)| n).collect()
}

/// Nodes a single request left behind: created for a client, neither its node at the end nor
/// deleted by it as an extra.
fn duplicates(events: &[Event], finals: &[Option<NodeId>]) -> u32 {
    let mut n = 0;
    for e in events {
        if let EventKind::NodeCreated { node, owner } = &e.kind {
            let Some(fin) = finals.get(owner.0 as usize) else {
                continue;
            };
            let cleaned = events.iter().any(|d| {
                d.actor == *owner && d.kind == EventKind::DuplicateDeleted { node: *node }
            });
            if *fin != Some(*node) && !cleaned {
                n += 1;
            }
        }
    }
    n
}

pub(super) fn abc(mut g: Inner, end: Millis, log: &Log) -> Trace {
    let service = log.service;
    // Who each deletion notified.
    let causes = attribute(&g.rec.events);
    for (n, d) in causes {
        let who = g.rec.events[n].actor;
        if let EventKind::NodeDeleted { notified, .. } = &mut g.rec.events[d].kind
            && !notified.contains(&who)
        {
            notified.push(who);
        }
    }
    for node in &mut g.nodes {
        if node.deleted_ms == Some(Millis::MAX) {
            // Named but never seen at the service.
            node.deleted_ms = Some(node.created_ms);
        }
    }
    let stuck_clients = (0..NAMES.len())
        .filter(|&c| g.stuck.get(c).copied().unwrap_or(false))
        .map(|c| NAMES[c].to_string())
        .collect();
    let finals: Vec<Option<NodeId>> = g.clients.iter().map(|c| c.node).collect();
    let duplicate_nodes = duplicates(&g.rec.events, &finals);
    // A child left at the end whose owner's session had ended would be an orphan.
    let orphan = g.nodes.iter().find(|n| {
        n.deleted_ms.is_none()
            && g.session_ended
                .get(n.owner.0 as usize)
                .copied()
                .unwrap_or(false)
    });
    if let Some(n) = orphan {
        let name = n.name.clone();
        if let Some(c) = g
            .checks
            .iter_mut()
            .find(|c| c.name == invariant::NO_ORPHAN_NODE)
        {
            c.record(end, || format!("{name} outlived its session"));
        }
    }
    g.rec.event(end, service, EventKind::RunEnded);
    let windows = crate::engine::families::zk_facts::link_windows(&g.rec, NAMES.len(), end);
    let moments = crate::engine::families::moments::moments(&g.rec, &g.writes, &g.checks);
    let tally = AbcTally {
        wakeups_per_release: wakeups_per_release(&g.rec.events),
        max_holders: g.max_holders,
        stuck_clients,
        duplicate_nodes,
    };
    // The live lab refuses data-node presets before a run (`unsupported`).
    let metrics = AbcMetrics::of_run(tally, &g.writes, &g.checks, None);
    Trace {
        schema_version: crate::engine::trace::SCHEMA_VERSION,
        family: Family::Abc,
        end_ms: end,
        actors: actors(),
        nodes: g.nodes,
        events: g.rec.events,
        messages: g.rec.messages,
        lanes: g.lanes.finish(end),
        service: g.service,
        writes: g.writes,
        windows,
        moments,
        metrics: Metrics::Abc(metrics),
        invariants: g.checks,
    }
    .with_believed_holders()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::world::ActorId;
    use crate::engine::zk::tree::{DirId, WatchEvent};

    fn ev(at: Millis, actor: u8, kind: EventKind) -> Event {
        Event {
            at_ms: at,
            actor: ActorId(actor),
            kind,
        }
    }

    #[test]
    fn children_wakeups_count_only_for_deletions() {
        let dir = Watched::Children(DirId(0));
        let notified = EventKind::Notified {
            target: dir,
            event: WatchEvent::NodeChildrenChanged,
        };
        let events = vec![
            ev(
                100,
                3,
                EventKind::NodeCreated {
                    node: NodeId(1),
                    owner: ActorId(1),
                },
            ),
            // A is notified of B's create: not a release.
            ev(101, 0, notified.clone()),
            ev(
                3000,
                3,
                EventKind::NodeDeleted {
                    node: NodeId(0),
                    notified: vec![],
                },
            ),
            ev(3001, 1, notified.clone()),
            ev(3001, 1, EventKind::WokeUp { target: dir }),
            // C's notification reached locklab before the deletion did.
            ev(2999, 2, notified),
            ev(3002, 2, EventKind::WokeUp { target: dir }),
        ];
        assert_eq!(wakeups_per_release(&events), vec![2]);
    }

    #[test]
    fn node_wakeups_belong_to_their_nodes_deletion() {
        let target = Watched::Node(NodeId(0));
        let events = vec![
            ev(
                5,
                1,
                EventKind::Notified {
                    target,
                    event: WatchEvent::NodeDeleted,
                },
            ),
            ev(5, 1, EventKind::WokeUp { target }),
            ev(
                6,
                3,
                EventKind::NodeDeleted {
                    node: NodeId(0),
                    notified: vec![],
                },
            ),
            ev(
                9,
                3,
                EventKind::NodeDeleted {
                    node: NodeId(1),
                    notified: vec![],
                },
            ),
        ];
        assert_eq!(wakeups_per_release(&events), vec![1]);
    }
}
