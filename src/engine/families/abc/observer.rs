//! What the A/B/C run records after every step: lanes, the lock directory, the nodes, writes,
//! wake-ups and the checks.

use super::data::{DataLog, lost_detail};
use super::facts::{duplicates, judge, lane_state, link_windows, snapshot};
use super::{NAMES, RESOURCE, SERVICE, actors, client, zk};
use crate::engine::actors::lock_client::{LockClient, Step};
use crate::engine::invariants;
use crate::engine::time::Millis;
use crate::engine::trace::Invariant;
use crate::engine::trace::data::DataOutcome;
use crate::engine::trace::lane::LaneRecorder;
use crate::engine::trace::record::Recorder;
use crate::engine::trace::{
    AbcMetrics, AbcTally, Event, EventKind, Family, InvariantReport, Judgement, Metrics, NodeInfo,
    ServiceSnapshot, Trace, WriteRecord, invariant,
};
use crate::engine::world::run::Observer;
use crate::engine::world::{ActorId, World};

/// Watches everything that matters after each step: lanes, the lock directory, the nodes,
/// writes, wake-ups and the invariants.
pub(super) struct AbcObserver {
    lanes: LaneRecorder,
    nodes: Vec<NodeInfo>,
    service: Vec<ServiceSnapshot>,
    writes: Vec<WriteRecord>,
    wakeups_per_release: Vec<u32>,
    max_holders: u32,
    checks: Vec<InvariantReport>,
    seen_events: usize,
    seen_messages: usize,
    stuck: Vec<bool>,
    /// Which clients have held the lock at least once.
    held: Vec<bool>,
    /// The tree's change count when the last snapshot was taken.
    snapshot_at: Option<u64>,
    /// The last holder's token, to catch a successor granted a smaller one.
    last_grant: Option<(ActorId, u64)>,
    /// The data node's reads and writes, when holders update one.
    data: Option<DataLog>,
}

impl AbcObserver {
    pub(super) fn new(world: &World) -> Self {
        let mut lanes = LaneRecorder::default();
        for i in 0..world.actors.len() {
            lanes.add(ActorId(i as u8), 0, lane_state(world, i, &[]));
        }
        Self {
            lanes,
            nodes: Vec::new(),
            service: Vec::new(),
            writes: Vec::new(),
            wakeups_per_release: Vec::new(),
            max_holders: 0,
            checks: super::checks(),
            seen_events: 0,
            seen_messages: 0,
            stuck: vec![false; NAMES.len()],
            held: vec![false; NAMES.len()],
            snapshot_at: None,
            last_grant: None,
            data: None,
        }
    }

    /// Records the data node's reads and writes, and checks that no update is lost.
    pub(super) fn track_data(&mut self, initial_version: i32, initial_value: u64) {
        self.data = Some(DataLog::new(initial_version, initial_value));
        self.checks
            .insert(4, InvariantReport::always(invariant::NO_LOST_UPDATE));
    }

    fn check(&mut self, name: Invariant, at: Millis, detail: impl FnOnce() -> String) {
        InvariantReport::record_named(&mut self.checks, name, at, detail);
    }

    pub(super) fn finish(self, world: &World, mut rec: Recorder, end: Millis) -> Trace {
        let clients: Vec<&LockClient> = (0..NAMES.len()).map(|c| client(world, c)).collect();
        let stuck_clients = (0..NAMES.len())
            .filter(|&c| self.stuck[c])
            .map(|c| NAMES[c].to_string())
            .collect();
        let duplicate_nodes = duplicates(&rec, &clients);
        let data = self.data.map(DataLog::finish);
        rec.event(end, SERVICE, EventKind::RunEnded);
        let windows = link_windows(&rec, end);
        let moments = crate::engine::families::moments::moments(&rec, &self.writes, &self.checks);
        let metrics = AbcMetrics::of_run(
            AbcTally {
                wakeups_per_release: self.wakeups_per_release,
                max_holders: self.max_holders,
                stuck_clients,
                duplicate_nodes,
            },
            &self.writes,
            &self.checks,
            data,
        );
        Trace {
            schema_version: crate::engine::trace::SCHEMA_VERSION,
            family: Family::Abc,
            end_ms: end,
            actors: actors(),
            nodes: self.nodes,
            events: rec.events,
            messages: rec.messages,
            lanes: self.lanes.finish(end),
            service: self.service,
            writes: self.writes,
            windows,
            moments,
            metrics: Metrics::Abc(metrics),
            invariants: self.checks,
        }
        .with_believed_holders()
    }
}

impl Observer for AbcObserver {
    fn observe(&mut self, world: &World, rec: &mut Recorder) {
        let deletions = self.note_events(world, rec);
        let woke = self.watch_events_to_waiters(world, rec);
        if deletions && woke > 0 {
            self.wakeups_per_release.push(woke);
        }
        self.check_state(world);
        self.note_stuck(world, rec);
        if self.held.iter().all(|h| *h) {
            self.check(invariant::EVERYONE_HELD, world.now, || {
                "every client held the lock".into()
            });
        }
        self.record_lanes_and_directory(world);
    }
}

impl AbcObserver {
    /// Takes in the facts carried by this step's events; true when a node was deleted.
    fn note_events(&mut self, world: &World, rec: &Recorder) -> bool {
        let zk = zk(world);
        let mut deletions = false;
        for e in &rec.events[self.seen_events..] {
            match &e.kind {
                EventKind::NodeCreated { .. } => {
                    super::super::zk_facts::note_node(zk, e, &mut self.nodes)
                }
                EventKind::NodeDeleted { .. } => {
                    deletions = true;
                    super::super::zk_facts::note_node(zk, e, &mut self.nodes);
                }
                EventKind::ReleaseSent { .. } => {
                    let who = e.actor;
                    self.check(invariant::HOLDER_RELEASED, e.at_ms, || {
                        format!("{} released", NAMES[who.0 as usize])
                    });
                }
                &EventKind::Acquired { token, .. } => {
                    self.note_acquired(world, e.actor, e.at_ms, token)
                }
                &EventKind::DataRead { version, value } => {
                    if let Some(d) = self.data.as_mut() {
                        d.read(e.at_ms, e.actor, version, value);
                    }
                }
                &EventKind::DataSet {
                    writer,
                    expected,
                    outcome,
                    value,
                } => self.note_data_set(world, e.at_ms, writer, expected, outcome, value),
                EventKind::WokeUp { .. } => {
                    let who = e.actor;
                    self.check(invariant::WAITER_WOKEN, e.at_ms, || {
                        format!("{} was woken", NAMES[who.0 as usize])
                    });
                }
                EventKind::WriteArrived { writer, .. } => {
                    self.note_write_arrived(world, e, *writer)
                }
                _ => {}
            }
        }
        self.seen_events = rec.events.len();
        deletions
    }

    /// A client acquired: marks it as having held, and checks its token against the last
    /// grant the service agreed with.
    fn note_acquired(&mut self, world: &World, who: ActorId, at: Millis, token: u64) {
        if let Some(h) = self.held.get_mut(who.0 as usize) {
            *h = true;
        }
        // Only a grant the service agrees with counts: a client acting on an old
        // reply after a pause believes it holds, and the fencing check is what
        // answers it.
        let granted = invariants::service_holders(world).contains(&who);
        if granted
            && let Some((before, t)) = self.last_grant
            && token < t
            && before != who
        {
            self.check(invariant::TOKENS_NON_DECREASING, at, || {
                format!(
                    "{} holds with token {token} after {}'s {t}",
                    NAMES[who.0 as usize], NAMES[before.0 as usize]
                )
            });
        }
        if granted {
            self.last_grant = Some((who, token));
        }
    }

    /// A `setData` reached the data node: logs it, and checks for a lost update and for a
    /// writer the service no longer counts as a holder.
    fn note_data_set(
        &mut self,
        world: &World,
        at: Millis,
        writer: ActorId,
        expected: i32,
        outcome: DataOutcome,
        value: u64,
    ) {
        let Some(d) = self.data.as_mut() else {
            return;
        };
        let w = d.write(at, writer, expected, outcome, value);
        if w.overwrote.is_some() {
            self.check(invariant::NO_LOST_UPDATE, at, || lost_detail(&w));
        }
        // A write from a client the service no longer counts as a holder.
        if !invariants::service_holders(world).contains(&writer) {
            self.check(invariant::STALE_WRITE_ARRIVED, at, || {
                format!("{}'s stale setData arrived", NAMES[writer.0 as usize])
            });
        }
    }

    /// A write reached the resource: judges and records it, and flags a stale one.
    fn note_write_arrived(&mut self, world: &World, e: &Event, writer: ActorId) {
        let Some(record) = judge(world, &self.writes, e.at_ms, &e.kind) else {
            return;
        };
        if matches!(
            record.judgement,
            Judgement::StaleAccepted | Judgement::StaleRejected | Judgement::Overwrote
        ) {
            self.check(invariant::STALE_WRITE_ARRIVED, e.at_ms, || {
                format!("{}'s stale write arrived", NAMES[writer.0 as usize])
            });
        }
        self.writes.push(record);
    }

    /// How many watch events this step sent to clients that were waiting.
    fn watch_events_to_waiters(&mut self, world: &World, rec: &Recorder) -> u32 {
        let mut woke = 0;
        for m in &rec.messages[self.seen_messages..] {
            if m.from == SERVICE
                && matches!(m.msg, crate::engine::msg::ActorMsg::ZkWatch { .. })
                && (m.to.0 as usize) < NAMES.len()
                && matches!(client(world, m.to.0 as usize).step, Step::Waiting(_))
            {
                woke += 1;
            }
        }
        self.seen_messages = rec.messages.len();
        woke
    }

    /// The always-checks, as pure functions of the state: one holder, tokens that never go
    /// down, no node outliving its session.
    fn check_state(&mut self, world: &World) {
        let now = world.now;
        let zk = zk(world);
        let holders = invariants::holder_count(world);
        self.max_holders = self.max_holders.max(holders as u32);
        if holders > 1 {
            let names: Vec<&str> = invariants::service_holders(world)
                .iter()
                .map(|c| NAMES[c.0 as usize])
                .collect();
            self.check(invariant::ONE_HOLDER, now, || {
                format!("{} hold the lock at once", names.join(" and "))
            });
        }
        if invariants::tokens_went_backwards(world, RESOURCE) {
            let last = self.writes.last().cloned();
            self.check(invariant::TOKENS_NON_DECREASING, now, || match last {
                Some(w) => format!(
                    "{}'s token {} was accepted after a larger one",
                    NAMES[w.writer.0 as usize], w.token
                ),
                None => "an accepted token went down".into(),
            });
        }
        if let Some(orphan) = zk.tree.orphans().next() {
            let name = zk.tree.node(orphan).name();
            self.check(invariant::NO_ORPHAN_NODE, now, || {
                format!("{name} outlived its session")
            });
        }
    }

    /// Records each client that starts or stops waiting forever, as an event and a check.
    fn note_stuck(&mut self, world: &World, rec: &mut Recorder) {
        let now = world.now;
        let stuck_bits = invariants::stuck_clients(world, SERVICE, NAMES.len());
        let stuck: Vec<bool> = (0..NAMES.len())
            .map(|c| stuck_bits & (1 << c) != 0)
            .collect();
        for (c, &is_stuck) in stuck.iter().enumerate() {
            if is_stuck != self.stuck[c] {
                let lock = client(world, c);
                if is_stuck {
                    let on = lock.watching().expect("a stuck client waits");
                    rec.event(now, ActorId(c as u8), EventKind::Stuck { on });
                    let label = crate::engine::invariants::watched_label(zk(world), on);
                    self.check(invariant::NOBODY_STUCK, now, || {
                        format!("{} waits forever on {label}", NAMES[c])
                    });
                } else {
                    rec.event(now, ActorId(c as u8), EventKind::Unstuck);
                }
            }
        }
        self.stuck = stuck;
        self.seen_events = rec.events.len();
    }

    /// Sets every lane, and keeps a snapshot of the lock directory when its children or
    /// watches changed.
    fn record_lanes_and_directory(&mut self, world: &World) {
        let now = world.now;
        for i in 0..world.actors.len() {
            self.lanes.set(i, now, lane_state(world, i, &self.stuck));
        }
        let changes = zk(world).tree.changes.0;
        if self.snapshot_at == Some(changes) {
            return;
        }
        self.snapshot_at = Some(changes);
        let snap = snapshot(world, now);
        if self
            .service
            .last()
            .is_none_or(|s| s.children != snap.children || s.watches != snap.watches)
        {
            if self.service.last().is_some_and(|s| s.at_ms == now) {
                self.service.pop();
            }
            self.service.push(snap);
        }
    }
}
