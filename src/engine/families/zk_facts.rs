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
