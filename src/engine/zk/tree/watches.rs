//! One-shot watches: registering them, asking whether one can still fire, and re-arming them on
//! reconnection (`setWatches`).

use super::{Fired, SessionId, Tree, WatchEvent, Watched};

impl Tree {
    /// Registers a one-shot watch (at most one per session and target). A watch on a missing
    /// node is kept on the session but can never fire, since names are never reused.
    pub fn watch(&mut self, session: SessionId, target: Watched) {
        if !self.is_live(session) {
            return;
        }
        let s = &mut self.sessions[session.0 as usize];
        if s.watches.contains(&target) {
            return;
        }
        s.watches.push(target);
        self.changes.0 += 1;
        match target {
            Watched::Node(id) => {
                if self.nodes[id.0 as usize].alive {
                    self.nodes[id.0 as usize].watchers.push(session);
                }
            }
            Watched::Children(dir) => self.dirs[dir.0 as usize].child_watchers.push(session),
        }
    }

    /// Whether `session` has a watch on `target` that can still fire.
    pub fn can_fire(&self, session: SessionId, target: Watched) -> bool {
        match target {
            Watched::Node(id) => self.node(id).alive && self.node(id).watchers.contains(&session),
            Watched::Children(dir) => self.dir(dir).child_watchers.contains(&session),
        }
    }

    pub(super) fn forget(&mut self, session: SessionId, target: Watched) {
        self.changes.0 += 1;
        let w = &mut self.sessions[session.0 as usize].watches;
        if let Some(i) = w.iter().position(|t| *t == target) {
            w.remove(i);
        }
    }

    /// Re-arms a reconnecting client's watches, ZooKeeper's `setWatches`: a watch whose target
    /// changed after `last_zxid` fires at once, the others are registered again.
    pub fn set_watches(
        &mut self,
        session: SessionId,
        last_zxid: u64,
        targets: &[Watched],
        fired: &mut Vec<Fired>,
    ) {
        for &target in targets {
            let event = match target {
                Watched::Node(id) if !self.node(id).alive => Some(WatchEvent::NodeDeleted),
                Watched::Node(id) if self.node(id).mzxid > last_zxid => {
                    Some(WatchEvent::NodeDataChanged)
                }
                Watched::Children(dir) if self.dir(dir).pzxid > last_zxid => {
                    Some(WatchEvent::NodeChildrenChanged)
                }
                _ => None,
            };
            match event {
                Some(event) => {
                    self.remove_watch(session, target);
                    fired.push(Fired {
                        session,
                        target,
                        event,
                    });
                }
                None => self.watch(session, target),
            }
        }
    }

    pub(super) fn remove_watch(&mut self, session: SessionId, target: Watched) {
        self.forget(session, target);
        match target {
            Watched::Node(id) => self.nodes[id.0 as usize].watchers.retain(|s| *s != session),
            Watched::Children(dir) => self.dirs[dir.0 as usize]
                .child_watchers
                .retain(|s| *s != session),
        }
    }
}
