//! The coordination service, ZooKeeper-like: sessions, a node tree and one-shot watches.
//!
//! * Persistent parents hold ephemeral and/or sequential children. Each ephemeral node records
//!   the session that owns it; when a session expires, exactly that session's ephemeral nodes are
//!   deleted.
//! * The sequence counter belongs to the parent. A sequential child's name is its prefix followed
//!   by the counter as a 10-digit zero-padded decimal (`lock-0000000017`). The counter starts at 0
//!   unless the parent is created with another start, and is a signed 32-bit integer: after
//!   2147483647 it wraps to -2147483648, and the suffix then carries a minus sign
//!   (`lock--2147483648`), so ordering children by suffix breaks at the wrap.
//! * Watches are one-shot and of two kinds: on a node (fires when it is deleted or its data
//!   changes; registered on a missing path it fires when the path is created) and on a parent's
//!   children. `exists(path, watch)` checks and registers in one step. A notification names only
//!   the path and what happened, never the new state: a woken client must read again.
//!
//! The service returns notifications as data; the world that owns it delivers them with the
//! network delay. Nodes are never reused: a deleted node stays as a tombstone so a notification
//! can still name it.

use std::collections::BTreeMap;

use super::time::Millis;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct NodeId(pub u32);

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SessionId(pub u32);

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum WatchKind {
    /// On the node itself: deleted, data changed, or (on a missing path) created.
    Data,
    /// On the node's list of children.
    Children,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum WatchEvent {
    NodeCreated,
    NodeDeleted,
    NodeDataChanged,
    NodeChildrenChanged,
}

/// A one-shot watch firing: `session` is told that `event` happened at `node`'s path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Notification {
    pub session: SessionId,
    pub node: NodeId,
    pub event: WatchEvent,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Node {
    pub path: String,
    pub name: String,
    pub parent: Option<NodeId>,
    pub data: String,
    pub ephemeral_owner: Option<SessionId>,
    /// The sequence number, for sequential nodes.
    pub sequence: Option<i32>,
    pub alive: bool,
    children: BTreeMap<String, NodeId>,
    next_sequence: i32,
    data_watchers: Vec<SessionId>,
    child_watchers: Vec<SessionId>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SessionStatus {
    Live,
    Expired,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Session {
    pub id: SessionId,
    pub timeout_ms: Millis,
    pub last_heard_ms: Millis,
    pub status: SessionStatus,
    /// Bumped on every heartbeat, so an expiry check for an older one is recognised.
    pub generation: u64,
    ephemerals: Vec<NodeId>,
    watches: Vec<(NodeId, WatchKind)>,
}

impl Session {
    /// When the service will expire this session if it hears nothing more.
    pub fn deadline_ms(&self) -> Millis {
        self.last_heard_ms + self.timeout_ms
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum CoordError {
    #[error("no node at that path")]
    NoNode,
    #[error("the parent does not exist")]
    NoParent,
    #[error("a node already exists at that path")]
    NodeExists,
    #[error("the node has children")]
    NotEmpty,
    #[error("the session has expired")]
    SessionExpired,
    #[error("ephemeral nodes cannot have children")]
    EphemeralParent,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CreateMode {
    pub ephemeral: bool,
    pub sequential: bool,
}

impl CreateMode {
    pub const PERSISTENT: Self = Self {
        ephemeral: false,
        sequential: false,
    };
    pub const EPHEMERAL_SEQUENTIAL: Self = Self {
        ephemeral: true,
        sequential: true,
    };
}

/// The whole coordination service: one linearizable node tree.
#[derive(Debug, Clone)]
pub struct Coord {
    nodes: Vec<Node>,
    by_path: BTreeMap<String, NodeId>,
    sessions: Vec<Session>,
    /// Watches registered by `exists` on paths with no node: they fire on creation.
    creation_watches: BTreeMap<String, Vec<SessionId>>,
}

impl Default for Coord {
    fn default() -> Self {
        Self::new()
    }
}

impl Coord {
    /// A service holding only the root `/`.
    pub fn new() -> Self {
        let root = Node {
            path: "/".into(),
            name: String::new(),
            parent: None,
            data: String::new(),
            ephemeral_owner: None,
            sequence: None,
            alive: true,
            children: BTreeMap::new(),
            next_sequence: 0,
            data_watchers: Vec::new(),
            child_watchers: Vec::new(),
        };
        let mut by_path = BTreeMap::new();
        by_path.insert("/".to_string(), NodeId(0));
        Self {
            nodes: vec![root],
            by_path,
            sessions: Vec::new(),
            creation_watches: BTreeMap::new(),
        }
    }

    pub fn open_session(&mut self, now: Millis, timeout_ms: Millis) -> SessionId {
        let id = SessionId(self.sessions.len() as u32);
        self.sessions.push(Session {
            id,
            timeout_ms,
            last_heard_ms: now,
            status: SessionStatus::Live,
            generation: 0,
            ephemerals: Vec::new(),
            watches: Vec::new(),
        });
        id
    }

    pub fn session(&self, id: SessionId) -> &Session {
        &self.sessions[id.0 as usize]
    }

    pub fn sessions(&self) -> &[Session] {
        &self.sessions
    }

    pub fn is_live(&self, id: SessionId) -> bool {
        self.session(id).status == SessionStatus::Live
    }

    /// A heartbeat from the session's client; returns false if the session is already expired.
    pub fn heartbeat(&mut self, id: SessionId, now: Millis) -> bool {
        let s = &mut self.sessions[id.0 as usize];
        if s.status != SessionStatus::Live {
            return false;
        }
        s.last_heard_ms = now;
        s.generation += 1;
        true
    }

    /// Expires a session: deletes exactly its ephemeral nodes and drops its watches.
    /// Returns the deleted nodes and the notifications their deletion fired.
    pub fn expire_session(&mut self, id: SessionId) -> (Vec<NodeId>, Vec<Notification>) {
        let s = &mut self.sessions[id.0 as usize];
        if s.status != SessionStatus::Live {
            return (Vec::new(), Vec::new());
        }
        s.status = SessionStatus::Expired;
        let owned = std::mem::take(&mut s.ephemerals);
        for (node, kind) in std::mem::take(&mut s.watches) {
            let list = match kind {
                WatchKind::Data => &mut self.nodes[node.0 as usize].data_watchers,
                WatchKind::Children => &mut self.nodes[node.0 as usize].child_watchers,
            };
            list.retain(|w| *w != id);
        }
        for list in self.creation_watches.values_mut() {
            list.retain(|w| *w != id);
        }
        let mut deleted = Vec::new();
        let mut notes = Vec::new();
        for node in owned {
            if self.nodes[node.0 as usize].alive {
                self.remove(node, &mut notes);
                deleted.push(node);
            }
        }
        (deleted, notes)
    }

    pub fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id.0 as usize]
    }

    pub fn lookup(&self, path: &str) -> Option<NodeId> {
        self.by_path.get(path).copied()
    }

    pub fn path(&self, id: NodeId) -> &str {
        &self.nodes[id.0 as usize].path
    }

    /// Creates a node. For a sequential node `path` is the prefix and the counter is appended.
    pub fn create(
        &mut self,
        session: Option<SessionId>,
        path: &str,
        data: &str,
        mode: CreateMode,
        notes: &mut Vec<Notification>,
    ) -> Result<NodeId, CoordError> {
        self.create_with_start(session, path, data, mode, 0, notes)
    }

    /// Like [`Coord::create`], with the new node's own sequence counter starting at `start`.
    pub fn create_with_start(
        &mut self,
        session: Option<SessionId>,
        path: &str,
        data: &str,
        mode: CreateMode,
        start: i32,
        notes: &mut Vec<Notification>,
    ) -> Result<NodeId, CoordError> {
        let owner = match (mode.ephemeral, session) {
            (true, Some(s)) if self.is_live(s) => Some(s),
            (true, _) => return Err(CoordError::SessionExpired),
            (false, _) => None,
        };
        let (parent_path, leaf) = split(path);
        let parent = self.lookup(parent_path).ok_or(CoordError::NoParent)?;
        if self.node(parent).ephemeral_owner.is_some() {
            return Err(CoordError::EphemeralParent);
        }
        let (name, sequence) = if mode.sequential {
            let p = &mut self.nodes[parent.0 as usize];
            let seq = p.next_sequence;
            p.next_sequence = seq.wrapping_add(1);
            (format!("{leaf}{seq:010}"), Some(seq))
        } else {
            (leaf.to_string(), None)
        };
        let full = join(parent_path, &name);
        if self.by_path.contains_key(&full) {
            return Err(CoordError::NodeExists);
        }
        let id = NodeId(self.nodes.len() as u32);
        self.nodes.push(Node {
            path: full.clone(),
            name: name.clone(),
            parent: Some(parent),
            data: data.to_string(),
            ephemeral_owner: owner,
            sequence,
            alive: true,
            children: BTreeMap::new(),
            next_sequence: start,
            data_watchers: Vec::new(),
            child_watchers: Vec::new(),
        });
        self.nodes[parent.0 as usize].children.insert(name, id);
        if let Some(s) = owner {
            self.sessions[s.0 as usize].ephemerals.push(id);
        }
        if let Some(waiting) = self.creation_watches.remove(&full) {
            for session in waiting {
                self.forget_watch(session, id, WatchKind::Data);
                notes.push(Notification {
                    session,
                    node: id,
                    event: WatchEvent::NodeCreated,
                });
            }
        }
        self.fire_children(parent, notes);
        self.by_path.insert(full, id);
        Ok(id)
    }

    /// Deletes a childless node.
    pub fn delete(&mut self, id: NodeId, notes: &mut Vec<Notification>) -> Result<(), CoordError> {
        let node = &self.nodes[id.0 as usize];
        if !node.alive {
            return Err(CoordError::NoNode);
        }
        if !node.children.is_empty() {
            return Err(CoordError::NotEmpty);
        }
        if let Some(owner) = node.ephemeral_owner {
            self.sessions[owner.0 as usize]
                .ephemerals
                .retain(|n| *n != id);
        }
        self.remove(id, notes);
        Ok(())
    }

    fn remove(&mut self, id: NodeId, notes: &mut Vec<Notification>) {
        let node = &mut self.nodes[id.0 as usize];
        node.alive = false;
        let parent = node.parent;
        let name = node.name.clone();
        let watchers = std::mem::take(&mut node.data_watchers);
        self.by_path.remove(&self.nodes[id.0 as usize].path);
        for session in watchers {
            self.forget_watch(session, id, WatchKind::Data);
            notes.push(Notification {
                session,
                node: id,
                event: WatchEvent::NodeDeleted,
            });
        }
        if let Some(parent) = parent {
            self.nodes[parent.0 as usize].children.remove(&name);
            self.fire_children(parent, notes);
        }
    }

    fn fire_children(&mut self, parent: NodeId, notes: &mut Vec<Notification>) {
        let watchers = std::mem::take(&mut self.nodes[parent.0 as usize].child_watchers);
        for session in watchers {
            self.forget_watch(session, parent, WatchKind::Children);
            notes.push(Notification {
                session,
                node: parent,
                event: WatchEvent::NodeChildrenChanged,
            });
        }
    }

    /// Replaces a node's data, firing its data watches.
    pub fn set_data(
        &mut self,
        id: NodeId,
        data: &str,
        notes: &mut Vec<Notification>,
    ) -> Result<(), CoordError> {
        let node = &mut self.nodes[id.0 as usize];
        if !node.alive {
            return Err(CoordError::NoNode);
        }
        node.data = data.to_string();
        for session in std::mem::take(&mut node.data_watchers) {
            self.forget_watch(session, id, WatchKind::Data);
            notes.push(Notification {
                session,
                node: id,
                event: WatchEvent::NodeDataChanged,
            });
        }
        Ok(())
    }

    /// `exists(path, watch)`: checks and, if asked, registers a watch in the same step, so no
    /// change can slip in between. On a missing path the watch waits for its creation.
    pub fn exists(&mut self, path: &str, watch: Option<SessionId>) -> Option<NodeId> {
        let found = self.lookup(path);
        if let Some(session) = watch.filter(|s| self.is_live(*s)) {
            match found {
                Some(id) => self.watch(session, id, WatchKind::Data),
                None => {
                    let list = self.creation_watches.entry(path.to_string()).or_default();
                    if !list.contains(&session) {
                        list.push(session);
                    }
                }
            }
        }
        found
    }

    /// `getChildren(path, watch)`: the children's names (unordered in ZooKeeper; sorted by name
    /// here) and, if asked, a children watch registered in the same step.
    pub fn get_children(
        &mut self,
        parent: NodeId,
        watch: Option<SessionId>,
    ) -> Result<Vec<NodeId>, CoordError> {
        if !self.node(parent).alive {
            return Err(CoordError::NoNode);
        }
        if let Some(session) = watch.filter(|s| self.is_live(*s)) {
            self.watch(session, parent, WatchKind::Children);
        }
        Ok(self.node(parent).children.values().copied().collect())
    }

    /// The children of a node, sorted by name, read without registering a watch.
    pub fn children(&self, parent: NodeId) -> Vec<NodeId> {
        self.node(parent).children.values().copied().collect()
    }

    /// The child with the smallest name, without reading the whole list.
    pub fn first_child(&self, parent: NodeId) -> Option<NodeId> {
        self.node(parent).children.values().next().copied()
    }

    pub fn child_count(&self, parent: NodeId) -> usize {
        self.node(parent).children.len()
    }

    /// Registers a one-shot watch on an existing node (at most one per session, node and kind).
    pub fn watch(&mut self, session: SessionId, id: NodeId, kind: WatchKind) {
        let s = &mut self.sessions[session.0 as usize];
        if s.watches.contains(&(id, kind)) {
            return;
        }
        s.watches.push((id, kind));
        let node = &mut self.nodes[id.0 as usize];
        match kind {
            WatchKind::Data => node.data_watchers.push(session),
            WatchKind::Children => node.child_watchers.push(session),
        }
    }

    /// How many watches are registered on a node.
    pub fn watcher_count(&self, id: NodeId, kind: WatchKind) -> usize {
        let node = self.node(id);
        match kind {
            WatchKind::Data => node.data_watchers.len(),
            WatchKind::Children => node.child_watchers.len(),
        }
    }

    /// Whether `session` holds a watch on `id` that can still fire.
    pub fn has_watch(&self, session: SessionId, id: NodeId, kind: WatchKind) -> bool {
        self.session(session).watches.contains(&(id, kind))
    }

    fn forget_watch(&mut self, session: SessionId, id: NodeId, kind: WatchKind) {
        let watches = &mut self.sessions[session.0 as usize].watches;
        if let Some(i) = watches.iter().position(|w| *w == (id, kind)) {
            watches.swap_remove(i);
        }
    }

    /// The live nodes owned by a session.
    pub fn owned_by(&self, session: SessionId) -> &[NodeId] {
        &self.session(session).ephemerals
    }

    /// Every live ephemeral node whose owner session is not live (should never happen).
    pub fn orphans(&self) -> Vec<NodeId> {
        self.nodes
            .iter()
            .enumerate()
            .filter(|(_, n)| n.alive && n.ephemeral_owner.is_some_and(|s| !self.is_live(s)))
            .map(|(i, _)| NodeId(i as u32))
            .collect()
    }
}

fn split(path: &str) -> (&str, &str) {
    match path.rfind('/') {
        Some(0) => ("/", &path[1..]),
        Some(i) => (&path[..i], &path[i + 1..]),
        None => ("/", path),
    }
}

fn join(parent: &str, name: &str) -> String {
    if parent == "/" {
        format!("/{name}")
    } else {
        format!("{parent}/{name}")
    }
}

/// The sequence number of a sequential node's name, read after the last `marker` (the part of
/// the prefix every contender shares, such as `lock-`). Reading after a known marker keeps a
/// wrapped, negative counter (`lock--2147483648`) apart from a prefix that ends in a dash.
pub fn sequence_after(name: &str, marker: &str) -> Option<i64> {
    let at = name.rfind(marker)?;
    name[at + marker.len()..].parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Creates an ephemeral sequential node owned by `session` under `prefix`.
    fn ephemeral(
        c: &mut Coord,
        session: SessionId,
        prefix: &str,
        n: &mut Vec<Notification>,
    ) -> NodeId {
        c.create(
            Some(session),
            prefix,
            "",
            CreateMode::EPHEMERAL_SEQUENTIAL,
            n,
        )
        .unwrap()
    }

    fn lock_dir(c: &mut Coord, start: i32) -> NodeId {
        let mut notes = Vec::new();
        c.create_with_start(None, "/lock", "", CreateMode::PERSISTENT, start, &mut notes)
            .unwrap()
    }

    #[test]
    fn the_sequence_counter_belongs_to_the_parent() {
        let mut c = Coord::new();
        let s = c.open_session(0, 4_000);
        let mut n = Vec::new();
        let a = lock_dir(&mut c, 17);
        c.create(None, "/other", "", CreateMode::PERSISTENT, &mut n)
            .unwrap();
        let x = ephemeral(&mut c, s, "/lock/x-", &mut n);
        let y = ephemeral(&mut c, s, "/other/y-", &mut n);
        let z = ephemeral(&mut c, s, "/lock/z-", &mut n);
        assert_eq!(c.path(x), "/lock/x-0000000017");
        assert_eq!(
            c.path(y),
            "/other/y-0000000000",
            "another parent counts on its own"
        );
        assert_eq!(
            c.path(z),
            "/lock/z-0000000018",
            "the counter is per parent, not per prefix"
        );
        assert_eq!(c.child_count(a), 2);
        assert_eq!(sequence_after("guid-z-0000000018", "z-"), Some(18));
    }

    #[test]
    fn the_counter_is_signed_32_bit_and_wraps() {
        let mut c = Coord::new();
        let s = c.open_session(0, 4_000);
        lock_dir(&mut c, i32::MAX);
        let mut n = Vec::new();
        let last = ephemeral(&mut c, s, "/lock/l-", &mut n);
        let wrapped = ephemeral(&mut c, s, "/lock/l-", &mut n);
        assert_eq!(c.node(last).name, "l-2147483647");
        assert_eq!(c.node(wrapped).name, "l--2147483648");
        assert_eq!(sequence_after("l--2147483648", "l-"), Some(-2_147_483_648));
    }

    #[test]
    fn watches_fire_once() {
        let mut c = Coord::new();
        let owner = c.open_session(0, 4_000);
        let w = c.open_session(0, 4_000);
        let dir = lock_dir(&mut c, 0);
        let mut n = Vec::new();
        let a = ephemeral(&mut c, owner, "/lock/a-", &mut n);
        assert!(c.exists("/lock/a-0000000000", Some(w)).is_some());
        c.get_children(dir, Some(w)).unwrap();
        c.set_data(a, "x", &mut n).unwrap();
        assert_eq!(
            n,
            [Notification {
                session: w,
                node: a,
                event: WatchEvent::NodeDataChanged
            }]
        );
        n.clear();
        c.set_data(a, "y", &mut n).unwrap();
        assert!(n.is_empty(), "a data watch fires once");
        c.exists("/lock/a-0000000000", Some(w));
        c.delete(a, &mut n).unwrap();
        assert_eq!(
            n,
            [
                Notification {
                    session: w,
                    node: a,
                    event: WatchEvent::NodeDeleted
                },
                Notification {
                    session: w,
                    node: dir,
                    event: WatchEvent::NodeChildrenChanged
                },
            ]
        );
        n.clear();
        ephemeral(&mut c, owner, "/lock/b-", &mut n);
        assert!(n.is_empty(), "the children watch fired already");
    }

    #[test]
    fn exists_with_watch_checks_and_registers_in_one_step() {
        let mut c = Coord::new();
        let owner = c.open_session(0, 4_000);
        let w = c.open_session(0, 4_000);
        lock_dir(&mut c, 0);
        let mut n = Vec::new();
        let a = ephemeral(&mut c, owner, "/lock/a-", &mut n);
        assert_eq!(c.exists("/lock/a-0000000000", Some(w)), Some(a));
        assert!(c.has_watch(w, a, WatchKind::Data));
        c.delete(a, &mut n).unwrap();
        assert_eq!(n[0].event, WatchEvent::NodeDeleted);
        // On a missing path the answer says so at once; the watch would wait for a creation.
        assert_eq!(c.exists("/lock/a-0000000000", Some(w)), None);
        assert!(!c.has_watch(w, a, WatchKind::Data));
    }

    #[test]
    fn expiry_deletes_exactly_that_sessions_ephemeral_nodes() {
        let mut c = Coord::new();
        let s1 = c.open_session(0, 4_000);
        let s2 = c.open_session(0, 4_000);
        let dir = lock_dir(&mut c, 0);
        let mut n = Vec::new();
        let a = ephemeral(&mut c, s1, "/lock/a-", &mut n);
        let b = ephemeral(&mut c, s2, "/lock/b-", &mut n);
        let a2 = ephemeral(&mut c, s1, "/lock/a-", &mut n);
        c.exists(c.path(a).to_string().as_str(), Some(s2));
        let (deleted, notes) = c.expire_session(s1);
        assert_eq!(deleted, [a, a2]);
        assert!(notes.iter().any(|x| x.session == s2 && x.node == a));
        assert!(c.node(b).alive && !c.node(a).alive && !c.node(a2).alive);
        assert_eq!(c.get_children(dir, None).unwrap(), [b]);
        assert!(c.orphans().is_empty());
        assert_eq!(
            c.create(
                Some(s1),
                "/lock/a-",
                "",
                CreateMode::EPHEMERAL_SEQUENTIAL,
                &mut n
            ),
            Err(CoordError::SessionExpired)
        );
        assert!(!c.heartbeat(s1, 5_000));
    }
}
