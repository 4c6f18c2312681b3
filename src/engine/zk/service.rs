//! The coordination service as an actor: it applies each session's requests in order, answers
//! on the session's connection, sends watch events after the reply that caused them, and
//! expires sessions it has not heard from.
//!
//! Session timeouts are negotiated as a server with `tick_ms` would: clamped to 2 to 20 ticks.
//! Expiry is checked on tick boundaries, as ZooKeeper's session tracker does: every request a
//! session sends (pings and reconnects included) moves its deadline to the first boundary after
//! `arrival + timeout`, and the tracker expires a bucket when the server's clock reaches it.
//! ZooKeeper's boundaries are multiples of tickTime on the server's own elapsed clock, not on
//! the run's: `tick_phase_ms` is where the first one falls after the run starts.

use super::tree::{DirId, Fired, NodeId, SessionId, Tree, TreeError, Watched};
use crate::engine::msg::{ActorMsg, ChildName, Stat, Timer, ZkOp, ZkResult};
use crate::engine::time::Millis;
use crate::engine::trace::EventKind;
use crate::engine::trace::data::DataOutcome;
use crate::engine::world::{ActorId, Cx};

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ZkService {
    pub tree: Tree,
    pub tick_ms: Millis,
    /// Tick boundaries fall at `tick_phase_ms + k * tick_ms` (always less than one tick).
    pub tick_phase_ms: Millis,
    /// The client actor each session belongs to.
    pub owners: Vec<ActorId>,
    /// How often the container manager looks for empty container directories.
    pub container_check_ms: Option<Millis>,
    /// A data node whose every `setData` the service reports in the trace, with its outcome.
    pub reported_data: Option<NodeId>,
}

/// The session timeout a server with this tick grants for a requested one.
pub fn negotiate(requested_ms: Millis, tick_ms: Millis) -> Millis {
    requested_ms.clamp(2 * tick_ms, 20 * tick_ms)
}

/// The first tick boundary strictly after `t`, boundaries falling at `phase + k * tick`
/// (`phase < tick`): a deadline exactly on a boundary waits for the next one, as
/// `(t / tick + 1) * tick` does on the server's clock.
pub fn next_boundary(t: Millis, tick: Millis, phase: Millis) -> Millis {
    let shifted = t + tick - phase;
    (shifted / tick + 1) * tick + phase - tick
}

impl ZkService {
    /// A service whose tick boundaries fall at `tick_phase_ms + k * tick_ms`; a phase of a
    /// tick or more is the same grid as its remainder.
    pub fn new(tree: Tree, tick_ms: Millis, tick_phase_ms: Millis) -> Self {
        let tick_ms = tick_ms.max(1);
        Self {
            tree,
            tick_ms,
            tick_phase_ms: tick_phase_ms % tick_ms,
            owners: Vec::new(),
            container_check_ms: None,
            reported_data: None,
        }
    }

    /// Opens a session for `client` before the run; returns it and the timeout granted.
    pub fn open_session(&mut self, client: ActorId, requested_ms: Millis) -> (SessionId, Millis) {
        let granted = negotiate(requested_ms, self.tick_ms);
        let id = self.tree.open_session(granted);
        self.owners.push(client);
        (id, granted)
    }

    /// When a session heard from at `now` expires: the next tick boundary after its timeout
    /// (ZooKeeper's `ExpiryQueue.roundToNextInterval(now + timeout)`).
    pub fn expiry_after(&self, session: SessionId, now: Millis) -> Millis {
        next_boundary(
            now + self.tree.session(session).timeout_ms,
            self.tick_ms,
            self.tick_phase_ms,
        )
    }

    pub fn owner(&self, session: SessionId) -> ActorId {
        self.owners[session.0 as usize]
    }

    pub fn on_start(&mut self, cx: &mut Cx) {
        for i in 0..self.tree.sessions.len() {
            let s = SessionId(i as u32);
            let at = self.expiry_after(s, cx.now);
            cx.set_timer_at(Timer::SessionExpiry(s), at);
        }
        if let Some(every) = self.container_check_ms {
            cx.set_timer(Timer::ContainerCheck, every);
        }
    }

    /// Deletes every empty container directory, as ZooKeeper's container manager does on its
    /// periodic check.
    fn check_containers(&mut self, cx: &mut Cx) {
        let mut fired = Vec::new();
        for i in 0..self.tree.dirs.len() {
            let dir = crate::engine::zk::tree::DirId(i as u8);
            if self.tree.reap_container(dir, &mut fired) {
                cx.event(EventKind::DirDeleted { dir });
            }
        }
        self.notify(&fired, cx);
        if let Some(every) = self.container_check_ms {
            cx.set_timer(Timer::ContainerCheck, every);
        }
    }

    pub fn on_timer(&mut self, timer: Timer, cx: &mut Cx) {
        if timer == Timer::ContainerCheck {
            self.check_containers(cx);
            return;
        }
        let Timer::SessionExpiry(s) = timer else {
            return;
        };
        if !self.tree.is_live(s) {
            return;
        }
        let mut fired = Vec::new();
        let nodes_deleted = self.tree.end_session(s, false, &mut fired);
        cx.event(EventKind::SessionExpired {
            session: s,
            owner: self.owner(s),
            nodes_deleted: nodes_deleted.clone(),
        });
        self.report_deletions(&nodes_deleted, &fired, cx);
        self.notify(&fired, cx);
    }

    pub fn on_msg(&mut self, from: ActorId, msg: ActorMsg, cx: &mut Cx) {
        let ActorMsg::ZkRequest { session, xid, op } = msg else {
            return;
        };
        if let ZkOp::NewSession { requested_ms } = op {
            self.new_session(from, xid, requested_ms, cx);
            return;
        }
        if !self.tree.is_live(session) {
            self.reply(from, xid, ZkResult::SessionExpired, cx);
            return;
        }
        let at = self.expiry_after(session, cx.now);
        cx.set_timer_at(Timer::SessionExpiry(session), at);
        let mut fired = Vec::new();
        let result = match op {
            ZkOp::Create { dir, tag, guid } => {
                if !self.tree.dir(dir).exists {
                    cx.event(EventKind::DirCreated { dir });
                }
                match self.tree.create(session, dir, tag, guid, &mut fired) {
                    Ok(node) => {
                        cx.event(EventKind::NodeCreated { node, owner: from });
                        ZkResult::Created {
                            node,
                            czxid: self.tree.node(node).czxid,
                        }
                    }
                    Err(_) => ZkResult::SessionExpired,
                }
            }
            ZkOp::GetChildren { dir, watch } => self.children(session, dir, watch),
            ZkOp::Exists { node, watch } => self.exists(session, node, watch),
            ZkOp::Delete { node, version } => match self.tree.delete(node, version, &mut fired) {
                Ok(()) => {
                    self.report_deletions(&[node], &fired, cx);
                    ZkResult::Done
                }
                Err(TreeError::BadVersion) => ZkResult::BadVersion,
                Err(_) => ZkResult::NoNode,
            },
            ZkOp::GetData { node, watch } => self.get_data(session, node, watch),
            ZkOp::SetData {
                node,
                version,
                data,
            } => self.set_data(from, node, version, data, &mut fired, cx),
            ZkOp::Ping => ZkResult::Pong,
            // Answered above, before the session check.
            ZkOp::NewSession { .. } => return,
            ZkOp::Connect { last_zxid, watches } => {
                // The reply goes first; the watches it re-arms fire right after it.
                self.reply(from, xid, ZkResult::Connected, cx);
                self.tree
                    .set_watches(session, last_zxid, &watches, &mut fired);
                self.notify(&fired, cx);
                return;
            }
            ZkOp::Close => self.close(session, &mut fired, cx),
        };
        self.reply(from, xid, result, cx);
        self.notify(&fired, cx);
    }

    /// Opens a session for `from` with the timeout it asked for, clamped, and tells it so.
    fn new_session(&mut self, from: ActorId, xid: u32, requested_ms: Millis, cx: &mut Cx) {
        let (session, timeout_ms) = self.open_session(from, requested_ms);
        let at = self.expiry_after(session, cx.now);
        cx.set_timer_at(Timer::SessionExpiry(session), at);
        self.reply(
            from,
            xid,
            ZkResult::SessionOpened {
                session,
                timeout_ms,
            },
            cx,
        );
    }

    /// Lists `dir`'s children, setting a children watch first when asked.
    fn children(&mut self, session: SessionId, dir: DirId, watch: bool) -> ZkResult {
        if watch {
            self.tree.watch(session, Watched::Children(dir));
        }
        ZkResult::Children {
            children: self
                .tree
                .dir(dir)
                .children
                .iter()
                .map(|&node| {
                    let n = self.tree.node(node);
                    ChildName {
                        node,
                        tag: n.tag,
                        guid: n.guid,
                        seq: n.seq,
                    }
                })
                .collect(),
        }
    }

    /// Whether `node` exists, with its stat; a watch is set either way when asked.
    fn exists(&mut self, session: SessionId, node: NodeId, watch: bool) -> ZkResult {
        if watch {
            self.tree.watch(session, Watched::Node(node));
        }
        let n = self.tree.node(node);
        ZkResult::Exists {
            stat: n.alive.then_some(Stat {
                czxid: n.czxid,
                version: n.version,
            }),
        }
    }

    /// `node`'s data and version, setting a watch when asked and the node exists.
    fn get_data(&mut self, session: SessionId, node: NodeId, watch: bool) -> ZkResult {
        let n = self.tree.node(node);
        if n.alive {
            let (value, version) = (n.data, n.version);
            if watch {
                self.tree.watch(session, Watched::Node(node));
            }
            ZkResult::Data { value, version }
        } else {
            // getData on a missing node sets no watch.
            ZkResult::NoNode
        }
    }

    /// Replaces `node`'s data when `version` matches, and reports the outcome in the trace when
    /// `node` is the run's data node.
    fn set_data(
        &mut self,
        from: ActorId,
        node: NodeId,
        version: i32,
        data: u64,
        fired: &mut Vec<Fired>,
        cx: &mut Cx,
    ) -> ZkResult {
        let result = match self.tree.set_data(node, version, data, fired) {
            Ok(version) => ZkResult::Set { version },
            Err(TreeError::BadVersion) => ZkResult::BadVersion,
            Err(_) => ZkResult::NoNode,
        };
        if self.reported_data == Some(node) {
            let n = self.tree.node(node);
            cx.event(EventKind::DataSet {
                writer: from,
                expected: version,
                outcome: match result {
                    ZkResult::Set { version } => DataOutcome::Set { version },
                    _ => DataOutcome::BadVersion { current: n.version },
                },
                value: n.data,
            });
        }
        result
    }

    /// Ends `session` at its client's request: its ephemeral nodes go at once.
    fn close(&mut self, session: SessionId, fired: &mut Vec<Fired>, cx: &mut Cx) -> ZkResult {
        let nodes_deleted = self.tree.end_session(session, true, fired);
        cx.cancel(Timer::SessionExpiry(session));
        cx.event(EventKind::SessionClosed {
            session,
            nodes_deleted: nodes_deleted.clone(),
        });
        self.report_deletions(&nodes_deleted, fired, cx);
        ZkResult::Done
    }

    fn reply(&self, to: ActorId, xid: u32, result: ZkResult, cx: &mut Cx) {
        cx.send(
            to,
            ActorMsg::ZkReply {
                xid,
                zxid: self.tree.zxid,
                result,
            },
        );
    }

    fn report_deletions(
        &self,
        nodes: &[crate::engine::zk::tree::NodeId],
        fired: &[Fired],
        cx: &mut Cx,
    ) {
        for &node in nodes {
            let notified = fired
                .iter()
                .filter(|f| matches!(f.target, Watched::Node(n) if n == node))
                .map(|f| self.owner(f.session))
                .collect();
            cx.event(EventKind::NodeDeleted { node, notified });
        }
    }

    /// Sends each fired watch to its session's client, in the order they fired.
    fn notify(&self, fired: &[Fired], cx: &mut Cx) {
        for f in fired {
            cx.send(
                self.owner(f.session),
                ActorMsg::ZkWatch {
                    event: f.event,
                    target: f.target,
                    zxid: self.tree.zxid,
                },
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timeouts_are_clamped_to_two_and_twenty_ticks() {
        assert_eq!(negotiate(1_000, 2_000), 4_000);
        assert_eq!(negotiate(10_000, 2_000), 10_000);
        assert_eq!(negotiate(60_000, 2_000), 40_000);
        assert_eq!(negotiate(1_500, 500), 1_500);
    }

    #[test]
    fn expiry_lands_on_the_tick_after_the_timeout() {
        let mut s = ZkService::new(Tree::new(0), 2_000, 0);
        let (id, granted) = s.open_session(ActorId(0), 4_000);
        assert_eq!(granted, 4_000);
        assert_eq!(s.expiry_after(id, 0), 6_000);
        assert_eq!(s.expiry_after(id, 1_333), 6_000);
        assert_eq!(s.expiry_after(id, 2_500), 8_000);
    }

    #[test]
    fn a_phase_moves_every_boundary_by_the_same_amount() {
        // Boundaries at 0.3, 2.3, 4.3 s, ...: last heard at 0.03 s with a 4 s timeout, the
        // deadline 4.03 s rounds up to 4.3 s, not to 6 s.
        let mut s = ZkService::new(Tree::new(0), 2_000, 300);
        let (id, _) = s.open_session(ActorId(0), 4_000);
        assert_eq!(s.expiry_after(id, 30), 4_300);
        // A deadline on a boundary waits for the next one, as on the server.
        assert_eq!(s.expiry_after(id, 300), 6_300);
        assert_eq!(s.expiry_after(id, 299), 4_300);
        // A phase of a tick or more is the same grid.
        assert_eq!(
            ZkService::new(Tree::new(0), 2_000, 2_300).tick_phase_ms,
            300
        );
    }

    /// Over ticks, phases and instants: the boundary is on the grid, strictly after `t`, and
    /// no boundary lies between `t` and it (ZooKeeper's rounding, on a shifted clock).
    #[test]
    fn the_next_boundary_is_the_first_grid_point_after_the_instant() {
        for tick in [1, 7, 50, 1_000, 2_000] {
            for phase in [0, 1, tick / 3, tick - 1] {
                for t in (0..5 * tick).step_by((tick / 7).max(1) as usize) {
                    let b = next_boundary(t, tick, phase);
                    assert_eq!(
                        (b + tick - phase) % tick,
                        0,
                        "tick {tick} phase {phase} t {t}"
                    );
                    assert!(
                        b > t && b - t <= tick,
                        "tick {tick} phase {phase} t {t}: {b}"
                    );
                    // The server's formula, on a clock that reads t - phase + tick.
                    let server = ((t + tick - phase) / tick + 1) * tick;
                    assert_eq!(b, server + phase - tick);
                }
            }
        }
    }
}
