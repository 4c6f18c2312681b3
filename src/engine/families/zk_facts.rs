//! Facts every family on the coordination service records the same way: the lock directory's
//! children and watches, and the windows in which a client was cut off.

use crate::engine::time::Millis;
use crate::engine::trace::record::Recorder;
use crate::engine::trace::{Child, EventKind, ServiceSnapshot, WatchInfo, Window, WindowKind};
use crate::engine::world::ActorId;
use crate::engine::zk::service::ZkService;
use crate::engine::zk::tree::{DirId, SessionId};

/// The lock directory now: children in sequence order, and the watches that can still fire.
pub fn snapshot(zk: &ZkService, dir: DirId, service: ActorId, now: Millis) -> ServiceSnapshot {
    let children = zk
        .tree
        .sorted_children(dir)
        .into_iter()
        .map(|n| {
            let node = zk.tree.node(n);
            Child {
                node: n,
                owner: node.owner.map_or(service, |s| zk.owner(s)),
                seq: node.seq,
            }
        })
        .collect();
    let mut watches = Vec::new();
    for (i, s) in zk.tree.sessions.iter().enumerate() {
        let session = SessionId(i as u32);
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

/// Blind and disconnected windows from the link events.
pub fn link_windows(rec: &Recorder, clients: usize, end: Millis) -> Vec<Window> {
    let mut out = Vec::new();
    for c in 0..clients {
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

/// Keeps the table of lock nodes up to date from one event: a node created or deleted.
pub fn note_node(
    zk: &ZkService,
    e: &crate::engine::trace::Event,
    nodes: &mut Vec<crate::engine::trace::NodeInfo>,
) {
    match &e.kind {
        EventKind::NodeCreated { node, owner } => {
            let n = zk.tree.node(*node);
            nodes.push(crate::engine::trace::NodeInfo {
                id: *node,
                name: n.name(),
                tag: n.tag,
                seq: n.seq,
                czxid: n.czxid,
                owner: *owner,
                created_ms: e.at_ms,
                deleted_ms: None,
            });
        }
        EventKind::NodeDeleted { node, .. } => {
            if let Some(info) = nodes.iter_mut().find(|i| i.id == *node) {
                info.deleted_ms = Some(e.at_ms);
            }
        }
        _ => {}
    }
}

/// The lock nodes that exist before a run starts (created while setting the scene up).
pub fn nodes_at_start(zk: &ZkService) -> Vec<crate::engine::trace::NodeInfo> {
    zk.tree
        .nodes
        .iter()
        .enumerate()
        .filter(|(_, n)| n.alive && n.owner.is_some())
        .map(|(i, n)| crate::engine::trace::NodeInfo {
            id: crate::engine::zk::tree::NodeId(i as u32),
            name: n.name(),
            tag: n.tag,
            seq: n.seq,
            czxid: n.czxid,
            owner: n.owner.map_or(ActorId(0), |s| zk.owner(s)),
            created_ms: 0,
            deleted_ms: None,
        })
        .collect()
}
