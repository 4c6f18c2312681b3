//! Turns what a live read-write lock or semaphore run recorded into a [`Trace`] with the
//! model's metrics and checks: the grant order, who held at once in the service's view (a
//! granted client whose node is still there), the writer's wait, and the invariants.

use crate::engine::actors::queue_client::Role;
use crate::engine::families::queue_checks::QueueChecks;
use crate::engine::params::QUEUE_NAMES;
use crate::engine::time::Millis;
use crate::engine::trace::lane::LaneRecorder;
use crate::engine::trace::{
    ActorInfo, ActorSet, Child, Event, EventKind, Family, Metrics, NodeInfo, QueueMetrics,
    Role as ActorRole, ServiceSnapshot, Share, SpanState, Trace, invariant,
};
use crate::engine::world::ActorId;

use super::record::Inner;

/// One grant, in the service's view: from the grant until its node is deleted.
#[derive(Debug, Clone, Copy)]
struct Held {
    who: usize,
    from: Millis,
    until: Millis,
}

fn grants(events: &[Event], nodes: &[NodeInfo], end: Millis) -> Vec<Held> {
    events
        .iter()
        .filter_map(|e| match e.kind {
            EventKind::Acquired { node, .. } | EventKind::Admitted { node, .. } => Some(Held {
                who: e.actor.0 as usize,
                from: e.at_ms,
                until: nodes
                    .iter()
                    .find(|n| n.id == node)
                    .and_then(|n| n.deleted_ms)
                    .unwrap_or(end),
            }),
            _ => None,
        })
        .collect()
}

fn holding_at(held: &[Held], t: Millis) -> Vec<usize> {
    let mut v: Vec<usize> = held
        .iter()
        .filter(|h| h.from <= t && t < h.until)
        .map(|h| h.who)
        .collect();
    v.sort_unstable();
    v
}

/// What the run was: its family, each client's role, and the permit count at an instant.
pub struct Shape<'a> {
    pub family: Family,
    pub roles: &'a [Role],
    pub permits_at: &'a dyn Fn(Millis) -> u32,
    /// Instants the configured permit count changes (checked there too).
    pub changes: Vec<Millis>,
}

pub(super) fn finish(mut g: Inner, end: Millis, shape: &Shape) -> Trace {
    let n = shape.roles.len();
    let service = ActorId(n as u8);
    for node in &mut g.nodes {
        if node.created_ms == Millis::MAX {
            // Named but never seen at the service before it went.
            node.created_ms = node.deleted_ms.unwrap_or(end);
        }
        if node.deleted_ms.is_some_and(|d| d > end) {
            node.deleted_ms = None;
        }
    }
    g.rec.events.sort_by_key(|e| e.at_ms);
    g.rec.events.retain(|e| e.at_ms <= end);
    let events = &g.rec.events;
    let held = grants(events, &g.nodes, end);
    // One rule with the model's: the engine's queue checks, fed what the live run saw.
    let mut tally = QueueChecks::new(shape.family, n, false);
    // Who holds changes only at a grant or a deletion, and the permit count at its changes.
    let mut instants: Vec<Millis> = held.iter().flat_map(|h| [h.from, h.until]).collect();
    instants.extend(shape.changes.iter().copied().filter(|&t| t <= end));
    instants.sort_unstable();
    instants.dedup();
    for &t in &instants {
        let holders: Vec<(usize, Role)> = holding_at(&held, t)
            .into_iter()
            .map(|h| (h, shape.roles[h]))
            .collect();
        let permits = (shape.family == Family::Semaphore).then(|| (shape.permits_at)(t));
        tally.holding(t, &holders, permits);
        if shape.family == Family::Rwlock {
            // The nodes in the directory at `t`, held or queued, in the service's view.
            let (mut holding, mut waiting) = (Vec::new(), Vec::new());
            for x in g
                .nodes
                .iter()
                .filter(|x| x.created_ms <= t && x.deleted_ms.is_none_or(|d| d > t))
            {
                let who = x.owner.0 as usize;
                let entry = (who, shape.roles[who], x.seq);
                if holders.iter().any(|(h, _)| *h == who) {
                    holding.push(entry);
                } else {
                    waiting.push(entry);
                }
            }
            tally.passing(t, &holding, &waiting);
        }
    }
    for h in &held {
        tally.granted(h.from, h.who, shape.roles[h.who]);
    }
    if let Some(e) = events
        .iter()
        .find(|e| matches!(e.kind, EventKind::WokeUp { .. }))
    {
        tally.woken(e.at_ms, e.actor.0 as usize);
    }
    // A node left at the end whose owner's session had ended would be an orphan.
    if let Some(o) = g.nodes.iter().find(|x| {
        x.deleted_ms.is_none() && g.ended.get(x.owner.0 as usize).copied().unwrap_or(false)
    }) {
        let name = o.name.clone();
        tally.check(invariant::NO_ORPHAN_NODE, end, || {
            format!("{name} outlived its session")
        });
    }
    let of = |i: usize, kind: &dyn Fn(&EventKind) -> bool| {
        events
            .iter()
            .find(|e| e.actor.0 as usize == i && kind(&e.kind))
            .map(|e| e.at_ms)
    };
    let (writer_wait, starved) = tally.writer_wait(
        shape.roles,
        |i| of(i, &|k| matches!(k, EventKind::CreateSent { .. })),
        |i| of(i, &|k| *k == EventKind::Crashed),
        end,
    );
    let violations = tally.violations();
    let (lanes, service_log) = service_side(g.lanes, &g.nodes, &held, &instants, shape, end);
    g.rec.event(end, service, EventKind::RunEnded);
    let windows = crate::engine::families::zk_facts::link_windows(&g.rec, n, end);
    let moments = crate::engine::families::moments::moments(&g.rec, &[], &tally.checks);
    let mut actors: Vec<ActorInfo> = (0..n)
        .map(|i| ActorInfo {
            id: ActorId(i as u8),
            name: QUEUE_NAMES[i].to_string(),
            role: ActorRole::Client,
        })
        .collect();
    actors.push(ActorInfo {
        id: service,
        name: "service".into(),
        role: ActorRole::Coordinator,
    });
    Trace {
        schema_version: crate::engine::trace::SCHEMA_VERSION,
        family: shape.family,
        end_ms: end,
        actors,
        nodes: g.nodes,
        events: g.rec.events,
        messages: g.rec.messages,
        lanes,
        service: service_log,
        writes: Vec::new(),
        windows,
        moments,
        metrics: Metrics::Queue(QueueMetrics {
            grant_order: tally.grant_order,
            max_concurrent_readers: tally.max_readers,
            max_holders: tally.max_holders,
            writer_wait_ms: writer_wait,
            grants_before_writer: tally.grants_before_writer,
            starved_writers: starved,
            // A live run cannot know that a wait will never end; it reports none.
            stuck_clients: Vec::new(),
            violations,
        }),
        invariants: tally.checks,
    }
}

/// The service's lane (holders, share, nodes queued) and its children at each change.
fn service_side(
    mut lanes: LaneRecorder,
    nodes: &[NodeInfo],
    held: &[Held],
    instants: &[Millis],
    shape: &Shape,
    end: Millis,
) -> (Vec<crate::engine::trace::Lane>, Vec<ServiceSnapshot>) {
    let n = shape.roles.len();
    let mut changes: Vec<Millis> = nodes
        .iter()
        .flat_map(|x| [Some(x.created_ms), x.deleted_ms])
        .flatten()
        .chain(instants.iter().copied())
        .filter(|&t| t <= end)
        .collect();
    changes.sort_unstable();
    changes.dedup();
    let mut snapshots: Vec<ServiceSnapshot> = Vec::new();
    for t in changes {
        let mut children: Vec<Child> = nodes
            .iter()
            .filter(|x| x.created_ms <= t && x.deleted_ms.is_none_or(|d| d > t))
            .map(|x| Child {
                node: x.id,
                owner: x.owner,
                seq: x.seq,
            })
            .collect();
        children.sort_by_key(|c| c.seq);
        let holders: ActorSet = holding_at(held, t)
            .into_iter()
            .map(|h| ActorId(h as u8))
            .collect();
        let share = match holders.first().map(|h| shape.roles[h.0 as usize]) {
            Some(Role::Reader(_)) => Share::Read,
            Some(Role::Permit(_)) => Share::Permits,
            Some(Role::Writer) | None => Share::Exclusive,
        };
        let waiting = children.len().saturating_sub(holders.len()) as u8;
        lanes.set(
            n,
            t,
            SpanState::Queue {
                holders,
                share,
                waiting,
            },
        );
        if snapshots.last().is_none_or(|s| s.children != children) {
            snapshots.push(ServiceSnapshot {
                at_ms: t,
                children,
                watches: Vec::new(),
            });
        }
    }
    (lanes.finish(end), snapshots)
}
