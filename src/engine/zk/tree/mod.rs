//! The coordination service's data: lock directories, their ephemeral sequential children,
//! sessions and one-shot watches, with ZooKeeper's transaction ids.
//!
//! * Every change is a transaction with the next zxid (a standalone server: epoch 0, so zxids are
//!   small numbers that only grow). A node records the zxid that created it (`czxid`) and last
//!   changed it (`mzxid`) and its data `version`.
//! * A sequential child's number is its directory's `cversion` at the moment of creation, and
//!   `cversion` grows by one on every child created (not deleted: ZooKeeper's server bumps it
//!   only in `createNode`, so a deletion uses up no number; a real 3.8 server agrees). It is a signed
//!   32-bit integer: after 2147483647 it wraps to -2147483648 and the name carries a minus sign.
//! * Watches are one-shot and fire in the order they were registered: a watch on a node (fires
//!   when it is deleted or its data changes) and a watch on a directory's children. A watch set by
//!   `exists` on a missing node would fire on its creation; names are never reused, so it never
//!   fires. A notification names the target and what happened, never the new state.
//! * Deleted nodes stay as tombstones so a notification or a trace can still name them.

use serde::Serialize;
use smallvec::SmallVec;

use crate::engine::time::Millis;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct NodeId(pub u32);

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct DirId(pub u8);

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct SessionId(pub u32);

/// What a watch is set on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(tag = "on", content = "id", rename_all = "snake_case")]
pub enum Watched {
    /// A node's path: fires when the node is deleted or its data changes.
    Node(NodeId),
    /// A directory's list of children: fires when a child is created or deleted.
    Children(DirId),
}

/// What a fired watch reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum WatchEvent {
    NodeDeleted,
    NodeDataChanged,
    NodeChildrenChanged,
}

/// A one-shot watch firing: `session` is told that `event` happened at `target`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Fired {
    pub session: SessionId,
    pub target: Watched,
    pub event: WatchEvent,
}

/// The role a lock node plays in its recipe, written into its name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Tag {
    Lock,
    Read,
    Write,
    /// A semaphore's lease.
    Lease,
    /// A candidate in a leader election.
    Candidate,
    /// A persistent node holding a value (such as the election's epoch).
    Value,
}

impl Tag {
    pub fn prefix(self) -> &'static str {
        match self {
            Tag::Lock => "lock-",
            Tag::Read => "read-",
            Tag::Write => "write-",
            Tag::Lease => "lease-",
            Tag::Candidate => "n_",
            Tag::Value => "value-",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Node {
    pub dir: DirId,
    pub tag: Tag,
    /// The creating request's GUID, written into the name so a client can find its own node.
    pub guid: u32,
    pub seq: i32,
    pub owner: Option<SessionId>,
    pub czxid: u64,
    pub mzxid: u64,
    pub version: i32,
    /// The node's data, a number in this model.
    pub data: u64,
    pub alive: bool,
    watchers: SmallVec<[SessionId; 2]>,
}

impl Node {
    /// The node's name as ZooKeeper would show it: `0a1b2c3d-lock-0000000017`.
    pub fn name(&self) -> String {
        format!("{:08x}-{}{:010}", self.guid, self.tag.prefix(), self.seq)
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Dir {
    pub path: &'static str,
    pub cversion: i32,
    /// The zxid of the last change to the list of children.
    pub pzxid: u64,
    /// Live children in creation order.
    pub children: SmallVec<[NodeId; 4]>,
    child_watchers: SmallVec<[SessionId; 2]>,
    /// A container node: the service deletes it once it is empty after having had a child.
    pub container: bool,
    /// Whether the directory exists (a deleted container is re-created by the next create).
    pub exists: bool,
    had_child: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Session {
    pub timeout_ms: Millis,
    pub live: bool,
    /// Whether it ended by the client's own close rather than by expiry.
    pub closed: bool,
    pub ephemerals: SmallVec<[NodeId; 2]>,
    pub watches: SmallVec<[Watched; 2]>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum TreeError {
    #[error("no node")]
    NoNode,
    #[error("the version does not match")]
    BadVersion,
    #[error("the session has expired")]
    SessionExpired,
}

/// The whole service state: one linearizable tree.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Tree {
    pub zxid: u64,
    /// Bumped on every change, watches included, so an observer can skip unchanged states.
    pub changes: crate::engine::world::Bookkeeping<u64>,
    pub dirs: Vec<Dir>,
    pub nodes: Vec<Node>,
    pub sessions: Vec<Session>,
}

impl Tree {
    /// A tree whose last transaction was `zxid`.
    pub fn new(zxid: u64) -> Self {
        Self {
            zxid,
            changes: Default::default(),
            dirs: Vec::new(),
            nodes: Vec::new(),
            sessions: Vec::new(),
        }
    }

    fn next_zxid(&mut self) -> u64 {
        self.changes.0 += 1;
        self.zxid += 1;
        self.zxid
    }

    /// Creates a persistent directory whose first sequential child gets `first_sequence`.
    pub fn add_dir(&mut self, path: &'static str, first_sequence: i32) -> DirId {
        let pzxid = self.next_zxid();
        self.dirs.push(Dir {
            path,
            cversion: first_sequence,
            pzxid,
            children: SmallVec::new(),
            child_watchers: SmallVec::new(),
            container: false,
            exists: true,
            had_child: false,
        });
        DirId((self.dirs.len() - 1) as u8)
    }

    pub fn make_container(&mut self, dir: DirId) {
        self.dirs[dir.0 as usize].container = true;
    }

    /// Deletes `dir` if it is a container that is empty and has had a child, as ZooKeeper's
    /// container manager does. Its children watches fire. Returns whether it was deleted.
    pub fn reap_container(&mut self, dir: DirId, fired: &mut Vec<Fired>) -> bool {
        let d = &self.dirs[dir.0 as usize];
        if !(d.container && d.exists && d.had_child && d.children.is_empty()) {
            return false;
        }
        let zxid = self.next_zxid();
        let d = &mut self.dirs[dir.0 as usize];
        d.exists = false;
        d.pzxid = zxid;
        for session in std::mem::take(&mut d.child_watchers) {
            self.forget(session, Watched::Children(dir));
            fired.push(Fired {
                session,
                target: Watched::Children(dir),
                event: WatchEvent::NodeDeleted,
            });
        }
        true
    }

    pub fn open_session(&mut self, timeout_ms: Millis) -> SessionId {
        self.next_zxid();
        self.sessions.push(Session {
            timeout_ms,
            live: true,
            closed: false,
            ephemerals: SmallVec::new(),
            watches: SmallVec::new(),
        });
        SessionId((self.sessions.len() - 1) as u32)
    }

    pub fn session(&self, id: SessionId) -> &Session {
        &self.sessions[id.0 as usize]
    }

    pub fn is_live(&self, id: SessionId) -> bool {
        self.session(id).live
    }

    pub fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id.0 as usize]
    }

    pub fn dir(&self, id: DirId) -> &Dir {
        &self.dirs[id.0 as usize]
    }

    /// The live children of a directory ordered by sequence number, as a recipe sorts them.
    pub fn sorted_children(&self, dir: DirId) -> Vec<NodeId> {
        let mut v = self.dir(dir).children.to_vec();
        v.sort_by_key(|n| self.node(*n).seq);
        v
    }

    /// Creates an ephemeral sequential node for `session`. Fires the directory's children watches.
    pub fn create(
        &mut self,
        session: SessionId,
        dir: DirId,
        tag: Tag,
        guid: u32,
        fired: &mut Vec<Fired>,
    ) -> Result<NodeId, TreeError> {
        if !self.is_live(session) {
            return Err(TreeError::SessionExpired);
        }
        if !self.dirs[dir.0 as usize].exists {
            // Created again as its parent's container, as a recipe's "create parents" does: a
            // new node whose counter starts at 0.
            let zxid = self.next_zxid();
            let d = &mut self.dirs[dir.0 as usize];
            d.exists = true;
            d.cversion = 0;
            d.pzxid = zxid;
            d.had_child = false;
        }
        let zxid = self.next_zxid();
        let d = &mut self.dirs[dir.0 as usize];
        d.had_child = true;
        let seq = d.cversion;
        d.cversion = seq.wrapping_add(1);
        d.pzxid = zxid;
        let id = NodeId(self.nodes.len() as u32);
        d.children.push(id);
        self.nodes.push(Node {
            dir,
            tag,
            guid,
            seq,
            owner: Some(session),
            czxid: zxid,
            mzxid: zxid,
            version: 0,
            data: 0,
            alive: true,
            watchers: SmallVec::new(),
        });
        self.sessions[session.0 as usize].ephemerals.push(id);
        self.fire_children(dir, fired);
        Ok(id)
    }

    /// Deletes a node if `version` matches (-1 matches any). Fires its watches and the directory's.
    pub fn delete(
        &mut self,
        id: NodeId,
        version: i32,
        fired: &mut Vec<Fired>,
    ) -> Result<(), TreeError> {
        let node = self.node(id);
        if !node.alive {
            return Err(TreeError::NoNode);
        }
        if version != -1 && version != node.version {
            return Err(TreeError::BadVersion);
        }
        if let Some(owner) = node.owner {
            self.sessions[owner.0 as usize]
                .ephemerals
                .retain(|n| *n != id);
        }
        let zxid = self.next_zxid();
        self.remove(id, zxid, fired);
        Ok(())
    }

    /// Removes a node in transaction `zxid`.
    fn remove(&mut self, id: NodeId, zxid: u64, fired: &mut Vec<Fired>) {
        let node = &mut self.nodes[id.0 as usize];
        node.alive = false;
        let dir = node.dir;
        let watchers = std::mem::take(&mut node.watchers);
        for session in watchers {
            self.forget(session, Watched::Node(id));
            fired.push(Fired {
                session,
                target: Watched::Node(id),
                event: WatchEvent::NodeDeleted,
            });
        }
        let d = &mut self.dirs[dir.0 as usize];
        if let Some(i) = d.children.iter().position(|n| *n == id) {
            d.children.remove(i);
        }
        // A delete changes the children (pzxid) but not cversion: ZooKeeper's DataTree bumps
        // cversion only when a child is created, so a deletion uses up no sequence number.
        d.pzxid = zxid;
        self.fire_children(dir, fired);
    }

    fn fire_children(&mut self, dir: DirId, fired: &mut Vec<Fired>) {
        let watchers = std::mem::take(&mut self.dirs[dir.0 as usize].child_watchers);
        for session in watchers {
            self.forget(session, Watched::Children(dir));
            fired.push(Fired {
                session,
                target: Watched::Children(dir),
                event: WatchEvent::NodeChildrenChanged,
            });
        }
    }

    /// `setData(node, data, version)`: bumps the version and fires the node's watches. A version
    /// of -1 skips the check, which is exactly how a stale writer bypasses it.
    pub fn set_data(
        &mut self,
        id: NodeId,
        version: i32,
        data: u64,
        fired: &mut Vec<Fired>,
    ) -> Result<i32, TreeError> {
        let node = self.node(id);
        if !node.alive {
            return Err(TreeError::NoNode);
        }
        if version != -1 && version != node.version {
            return Err(TreeError::BadVersion);
        }
        let zxid = self.next_zxid();
        let node = &mut self.nodes[id.0 as usize];
        node.version += 1;
        node.mzxid = zxid;
        node.data = data;
        let v = node.version;
        for session in std::mem::take(&mut node.watchers) {
            self.forget(session, Watched::Node(id));
            fired.push(Fired {
                session,
                target: Watched::Node(id),
                event: WatchEvent::NodeDataChanged,
            });
        }
        Ok(v)
    }

    /// Creates a persistent node with a value, outside any lock directory (set up before a run;
    /// it is never listed as a child and never deleted).
    pub fn add_value(&mut self, data: u64, version: i32) -> NodeId {
        let zxid = self.next_zxid();
        let id = NodeId(self.nodes.len() as u32);
        self.nodes.push(Node {
            dir: DirId(u8::MAX),
            tag: Tag::Value,
            guid: 0,
            seq: 0,
            owner: None,
            czxid: zxid,
            mzxid: zxid,
            version,
            data,
            alive: true,
            watchers: SmallVec::new(),
        });
        id
    }

    /// Ends a session (expired by the service, or closed by its client) in one transaction:
    /// deletes exactly its ephemeral nodes, firing their watches, and drops its own watches.
    pub fn end_session(
        &mut self,
        id: SessionId,
        closed: bool,
        fired: &mut Vec<Fired>,
    ) -> Vec<NodeId> {
        if !self.is_live(id) {
            return Vec::new();
        }
        // closeSession is one transaction, however many ephemeral nodes it deletes.
        let zxid = self.next_zxid();
        let s = &mut self.sessions[id.0 as usize];
        s.live = false;
        s.closed = closed;
        let owned = std::mem::take(&mut s.ephemerals);
        for target in std::mem::take(&mut s.watches) {
            match target {
                Watched::Node(n) => self.nodes[n.0 as usize].watchers.retain(|w| *w != id),
                Watched::Children(d) => self.dirs[d.0 as usize].child_watchers.retain(|w| *w != id),
            }
        }
        let mut deleted = Vec::new();
        for node in owned {
            if self.node(node).alive {
                self.remove(node, zxid, fired);
                deleted.push(node);
            }
        }
        deleted
    }

    /// Every live ephemeral node whose owner session is over (the service never leaves one).
    pub fn orphans(&self) -> impl Iterator<Item = NodeId> + '_ {
        self.nodes
            .iter()
            .enumerate()
            .filter(|(_, n)| n.alive && n.owner.is_some_and(|s| !self.is_live(s)))
            .map(|(i, _)| NodeId(i as u32))
    }

    /// The first child by sequence number, without sorting the whole list.
    pub fn first_child(&self, dir: DirId) -> Option<NodeId> {
        self.dir(dir)
            .children
            .iter()
            .copied()
            .min_by_key(|n| self.node(*n).seq)
    }
}

mod watches;

#[cfg(test)]
mod tests;
