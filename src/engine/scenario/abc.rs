//! The A/B/C queue: three clients run the ZooKeeper lock recipe on one lock directory.
//!
//! A, B and C create ephemeral sequential nodes under `/lock` in that order and receive 17, 18
//! and 19. Each client is an explicit state machine whose recipe variants (what it watches, how
//! it recovers a lost create, how it registers its watch, what it does when disconnected or when
//! its session is lost) are options, so one scenario can show the right way and the broken way.
//! A holder writes once to the protected resource with its node's sequence number as the fencing
//! token, then releases by deleting its node and closing its session.

use rand::{Rng, SeedableRng, rngs::Xoshiro256PlusPlus};

use crate::engine::coord::{
    Coord, CreateMode, NodeId, Notification, SessionId, WatchKind, sequence_after,
};
use crate::engine::params::{
    AbcParams, Fault, OnDisconnect, OnLoss, Recovery, Registration, WatchMode,
};
use crate::engine::queue::{EventQueue, Phase};
use crate::engine::resource::Resource;
use crate::engine::time::Millis;
use crate::engine::trace::{
    AbcMetrics, Event, EventKind, Family, InvariantReport, LaneRecorder, Metrics, State, Trace,
    invariant,
};

/// The part of every lock node's name that all contenders share; the sequence follows it.
const MARKER: &str = "lock-";
const NAMES: [&str; 3] = ["A", "B", "C"];
const SERVICE: &str = "service";
const RESOURCE: &str = "resource";

/// A client's place in the recipe.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Step {
    Idle,
    Creating,
    CreateUnknown,
    Reading,
    /// Waiting for a notification about `target` (a node, or the directory in herd mode).
    Waiting,
    Held,
    Released,
    Lost,
    Crashed,
}

/// Why a client asked for the children list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ReadPurpose {
    Acquire,
    Recover,
    Revalidate,
}

#[derive(Debug, Clone)]
enum Ev {
    Start(usize),
    // client -> service
    CreateArrives {
        client: usize,
        guid: String,
        request: u32,
    },
    ChildrenArrives {
        client: usize,
        watch: bool,
        purpose: ReadPurpose,
    },
    ExistsArrives {
        client: usize,
        node: NodeId,
    },
    DeleteArrives {
        client: usize,
        node: NodeId,
    },
    PingArrives {
        client: usize,
    },
    SessionCheck {
        client: usize,
        generation: u64,
    },
    // service -> client
    CreateOk {
        client: usize,
        node: NodeId,
        request: u32,
    },
    CreateTimeout {
        client: usize,
        request: u32,
    },
    Children {
        client: usize,
        nodes: Vec<NodeId>,
        purpose: ReadPurpose,
    },
    ExistsResult {
        client: usize,
        node: NodeId,
        exists: bool,
    },
    Notify {
        client: usize,
        note: Notification,
    },
    ExpiredReply {
        client: usize,
    },
    // client timers and faults
    WriteDue {
        client: usize,
    },
    ReleaseDue {
        client: usize,
    },
    PingTick {
        client: usize,
    },
    FreezeStart {
        client: usize,
        until: Millis,
    },
    FreezeEnd {
        client: usize,
    },
    DisconnectStart {
        client: usize,
        until: Millis,
    },
    Reconnect {
        client: usize,
    },
    CrashAt {
        client: usize,
    },
    // resource
    WriteArrives {
        client: usize,
        token: u64,
    },
}

impl Ev {
    /// The client an event is handled by, for events a frozen client must postpone.
    fn client_side(&self) -> Option<usize> {
        match self {
            Ev::CreateOk { client, .. }
            | Ev::CreateTimeout { client, .. }
            | Ev::Children { client, .. }
            | Ev::ExistsResult { client, .. }
            | Ev::Notify { client, .. }
            | Ev::ExpiredReply { client }
            | Ev::WriteDue { client }
            | Ev::ReleaseDue { client }
            | Ev::PingTick { client }
            | Ev::Reconnect { client }
            | Ev::DisconnectStart { client, .. } => Some(*client),
            _ => None,
        }
    }

    /// The client a message from the service is addressed to.
    fn addressed_client(&self) -> Option<usize> {
        match self {
            Ev::CreateOk { client, .. }
            | Ev::Children { client, .. }
            | Ev::ExistsResult { client, .. }
            | Ev::Notify { client, .. }
            | Ev::ExpiredReply { client } => Some(*client),
            _ => None,
        }
    }
}

#[derive(Debug, Clone)]
struct Client {
    name: &'static str,
    session: SessionId,
    step: Step,
    guid: String,
    request: u32,
    node: Option<NodeId>,
    /// What the client waits on: a node, or the lock directory in herd mode.
    target: Option<NodeId>,
    frozen_until: Option<Millis>,
    disconnected_until: Option<Millis>,
    suspended: bool,
    knows_expired: bool,
    write_pending: bool,
    release_pending: bool,
    wrote: bool,
    token: u64,
    pending_notifications: u32,
    stuck_since: Option<Millis>,
    expired_by_service: bool,
    lane: usize,
}

struct World {
    p: AbcParams,
    /// The run's only source of randomness: the GUIDs in node names.
    rng: Xoshiro256PlusPlus,
    now: Millis,
    queue: EventQueue<Ev>,
    coord: Coord,
    dir: NodeId,
    clients: Vec<Client>,
    resource: Resource,
    events: Vec<Event>,
    lanes: LaneRecorder,
    service_lane: usize,
    resource_lane: usize,
    /// Nodes created for a request whose client forgot it (blind retry).
    forgotten: Vec<(usize, NodeId)>,
    wakeups_per_release: Vec<u32>,
    max_holders: u32,
    stale_accepted: u32,
    stale_rejected: u32,
    one_holder: InvariantReport,
    tokens: InvariantReport,
    no_orphan: InvariantReport,
    nobody_stuck: InvariantReport,
    drop_create_for: Vec<usize>,
    delete_between: Vec<(usize, usize)>,
}

/// Runs the A/B/C queue.
pub fn run(p: &AbcParams) -> Trace {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(p.seed);
    let mut coord = Coord::new();
    let mut notes = Vec::new();
    let dir = coord
        .create_with_start(
            None,
            "/lock",
            "",
            CreateMode::PERSISTENT,
            p.first_sequence,
            &mut notes,
        )
        .expect("the root exists");
    let mut lanes = LaneRecorder::default();
    let clients = NAMES
        .iter()
        .map(|&name| {
            let session = coord.open_session(0, p.session_timeout_ms);
            Client {
                name,
                session,
                step: Step::Idle,
                guid: format!("{:08x}", rng.next_u32()),
                request: 0,
                node: None,
                target: None,
                frozen_until: None,
                disconnected_until: None,
                suspended: false,
                knows_expired: false,
                write_pending: false,
                release_pending: false,
                wrote: false,
                token: 0,
                pending_notifications: 0,
                stuck_since: None,
                expired_by_service: false,
                lane: lanes.add(name, 0, State::Idle, None),
            }
        })
        .collect();
    let service_lane = lanes.add(SERVICE, 0, State::Queue, Some(String::new()));
    let resource_lane = lanes.add(RESOURCE, 0, State::Empty, None);
    let mut w = World {
        p: p.clone(),
        rng,
        now: 0,
        queue: EventQueue::new(),
        coord,
        dir,
        clients,
        resource: Resource::new(p.fencing),
        events: Vec::new(),
        lanes,
        service_lane,
        resource_lane,
        forgotten: Vec::new(),
        wakeups_per_release: Vec::new(),
        max_holders: 0,
        stale_accepted: 0,
        stale_rejected: 0,
        one_holder: InvariantReport::ok(invariant::ONE_HOLDER),
        tokens: InvariantReport::ok(invariant::TOKENS_NON_DECREASING),
        no_orphan: InvariantReport::ok(invariant::NO_ORPHAN_NODE),
        nobody_stuck: InvariantReport::ok(invariant::NOBODY_STUCK),
        drop_create_for: Vec::new(),
        delete_between: Vec::new(),
    };
    for i in 0..NAMES.len() {
        let session = w.clients[i].session;
        w.log(
            i,
            EventKind::SessionOpened {
                session: session.0,
                timeout_ms: p.session_timeout_ms,
            },
        );
        w.schedule(
            p.session_timeout_ms,
            Phase::Expiry,
            Ev::SessionCheck {
                client: i,
                generation: 0,
            },
        );
        w.schedule(p.start_gap_ms * i as u64, Phase::Work, Ev::Start(i));
        w.schedule(w.ping_interval(), Phase::Tick, Ev::PingTick { client: i });
    }
    for fault in &p.faults {
        w.schedule_fault(fault);
    }
    while let Some((at, _, ev)) = w.queue.pop() {
        w.now = at;
        if let Some(c) = ev.client_side()
            && let Some(until) = w.clients[c].frozen_until.filter(|u| *u > at)
        {
            // A frozen process does nothing: what was due runs when it wakes, right after the
            // wake-up itself and in the order it fell due.
            w.queue.push(until, Phase::Wake, ev);
            continue;
        }
        if let Some(c) = ev.addressed_client()
            && let Some(until) = w.clients[c].disconnected_until.filter(|u| *u > at)
        {
            // Replies and notifications reach a cut-off client only once it reconnects.
            w.queue.push(until, Phase::Wake, ev);
            continue;
        }
        w.handle(ev);
        w.check_invariants();
    }
    w.now = w.p.duration_ms;
    w.events.push(Event {
        at_ms: w.now,
        actor: SERVICE.into(),
        kind: EventKind::RunEnded,
    });
    w.finish()
}

fn client_index(name: &str) -> Option<usize> {
    NAMES.iter().position(|n| n.eq_ignore_ascii_case(name))
}

impl World {
    fn schedule(&mut self, at: Millis, phase: Phase, ev: Ev) {
        if at <= self.p.duration_ms {
            self.queue.push(at, phase, ev);
        }
    }

    fn send(&mut self, phase: Phase, ev: Ev) {
        let at = self.now + self.p.delay_ms;
        self.schedule(at, phase, ev);
    }

    fn ping_interval(&self) -> Millis {
        (self.p.session_timeout_ms / 3).max(1)
    }

    fn log(&mut self, client: usize, kind: EventKind) {
        let actor = self.clients[client].name.to_string();
        self.events.push(Event {
            at_ms: self.now,
            actor,
            kind,
        });
    }

    fn log_as(&mut self, actor: &str, kind: EventKind) {
        self.events.push(Event {
            at_ms: self.now,
            actor: actor.into(),
            kind,
        });
    }

    fn schedule_fault(&mut self, fault: &Fault) {
        let Some(c) = client_index(fault.client()) else {
            return;
        };
        match fault {
            Fault::Freeze { at_ms, len_ms, .. } => {
                let until = at_ms + len_ms;
                self.schedule(*at_ms, Phase::Freeze, Ev::FreezeStart { client: c, until });
                self.schedule(until, Phase::Wake, Ev::FreezeEnd { client: c });
            }
            Fault::Disconnect { at_ms, len_ms, .. } => {
                let until = at_ms + len_ms;
                self.schedule(
                    *at_ms,
                    Phase::Freeze,
                    Ev::DisconnectStart { client: c, until },
                );
                self.schedule(until, Phase::Wake, Ev::Reconnect { client: c });
            }
            Fault::Crash { at_ms, .. } => {
                self.schedule(*at_ms, Phase::Freeze, Ev::CrashAt { client: c })
            }
            Fault::DropCreateResponse { .. } => self.drop_create_for.push(c),
            Fault::DeleteBetween { owner, .. } => {
                if let Some(o) = client_index(owner) {
                    self.delete_between.push((o, c));
                }
            }
        }
    }

    /// Moves a client to a recipe step and redraws its lane.
    fn set_step(&mut self, c: usize, step: Step) {
        self.clients[c].step = step;
        self.redraw_lane(c);
    }

    fn redraw_lane(&mut self, c: usize) {
        let client = &self.clients[c];
        let frozen = client.frozen_until.is_some_and(|u| u > self.now);
        let (state, note) = match client.step {
            _ if client.stuck_since.is_some() => (State::Stuck, self.target_label(c)),
            Step::Held if frozen => (State::FrozenHolding, None),
            _ if frozen => (State::Frozen, None),
            Step::Held if client.suspended => (State::Suspended, None),
            Step::Idle => (State::Idle, None),
            Step::Creating => (State::Creating, None),
            Step::CreateUnknown => (State::CreateUnknown, None),
            Step::Reading => (State::Reading, None),
            Step::Waiting => (State::Waiting, self.target_label(c)),
            Step::Held => (State::Held, client.node.map(|n| self.seq_label(n))),
            Step::Released => (State::Released, None),
            Step::Lost => (State::Lost, None),
            Step::Crashed => (State::Crashed, None),
        };
        let lane = self.clients[c].lane;
        self.lanes.set(lane, self.now, state, note);
    }

    fn seq_label(&self, node: NodeId) -> String {
        let name = &self.coord.node(node).name;
        sequence_after(name, MARKER).map_or_else(|| name.clone(), |s| s.to_string())
    }

    fn target_label(&self, c: usize) -> Option<String> {
        let target = self.clients[c].target?;
        Some(if target == self.dir {
            "children".into()
        } else {
            self.seq_label(target)
        })
    }

    fn redraw_service(&mut self) {
        let children = self.sorted_children();
        let note = children
            .iter()
            .map(|&n| format!("{}{}", self.seq_label(n), self.owner_name(n).unwrap_or("?")))
            .collect::<Vec<_>>()
            .join(" ");
        self.lanes
            .set(self.service_lane, self.now, State::Queue, Some(note));
    }

    fn owner_of(&self, node: NodeId) -> Option<usize> {
        let owner = self.coord.node(node).ephemeral_owner?;
        self.clients.iter().position(|c| c.session == owner)
    }

    fn owner_name(&self, node: NodeId) -> Option<&'static str> {
        self.owner_of(node).map(|c| self.clients[c].name)
    }

    /// The lock directory's children ordered by sequence number, as the recipe reads them.
    fn sorted_children(&self) -> Vec<NodeId> {
        let mut nodes: Vec<NodeId> = if self.coord.node(self.dir).alive {
            self.coord.children(self.dir)
        } else {
            Vec::new()
        };
        nodes.sort_by_key(|n| sequence_after(&self.coord.node(*n).name, MARKER));
        nodes
    }

    /// Sends notifications on their way; returns how many reach a waiting client (a wake-up).
    fn deliver_notes(&mut self, notes: Vec<Notification>) -> u32 {
        let mut wakeups = 0;
        for note in notes {
            if let Some(c) = self.clients.iter().position(|c| c.session == note.session) {
                if self.clients[c].step == Step::Waiting {
                    wakeups += 1;
                }
                self.clients[c].pending_notifications += 1;
                self.send(Phase::Deliver, Ev::Notify { client: c, note });
            }
        }
        wakeups
    }

    /// Deletes a node at the service and counts the wake-ups it caused.
    fn delete_node(&mut self, node: NodeId) {
        let mut notes = Vec::new();
        if self.coord.delete(node, &mut notes).is_ok() {
            let notified: Vec<String> = notes
                .iter()
                .filter_map(|n| self.clients.iter().find(|c| c.session == n.session))
                .map(|c| c.name.to_string())
                .collect();
            let name = self.coord.node(node).name.clone();
            self.log_as(
                SERVICE,
                EventKind::NodeDeleted {
                    node: name,
                    notified,
                },
            );
            let woke = self.deliver_notes(notes);
            if woke > 0 {
                self.wakeups_per_release.push(woke);
            }
            self.redraw_service();
        }
    }

    fn handle(&mut self, ev: Ev) {
        match ev {
            Ev::Start(c) => self.start(c),
            Ev::CreateArrives {
                client,
                guid,
                request,
            } => self.service_create(client, &guid, request),
            Ev::ChildrenArrives {
                client,
                watch,
                purpose,
            } => self.service_children(client, watch, purpose),
            Ev::ExistsArrives { client, node } => self.service_exists(client, node),
            Ev::DeleteArrives { client, node } => self.service_delete(client, node),
            Ev::PingArrives { client } => self.service_ping(client),
            Ev::SessionCheck { client, generation } => {
                self.service_session_check(client, generation)
            }
            Ev::CreateOk {
                client,
                node,
                request,
            } => self.on_create_ok(client, node, request),
            Ev::CreateTimeout { client, request } => self.on_create_timeout(client, request),
            Ev::Children {
                client,
                nodes,
                purpose,
            } => self.on_children(client, nodes, purpose),
            Ev::ExistsResult {
                client,
                node,
                exists,
            } => self.on_exists(client, node, exists),
            Ev::Notify { client, note } => self.on_notify(client, note),
            Ev::ExpiredReply { client } => self.on_learned_expired(client),
            Ev::WriteDue { client } => self.on_write_due(client),
            Ev::ReleaseDue { client } => self.on_release_due(client),
            Ev::PingTick { client } => self.on_ping_tick(client),
            Ev::FreezeStart { client, until } => {
                self.clients[client].frozen_until = Some(until);
                self.log(client, EventKind::Froze { until_ms: until });
                self.redraw_lane(client);
            }
            Ev::FreezeEnd { client } => {
                self.clients[client].frozen_until = None;
                self.log(client, EventKind::Woke);
                self.redraw_lane(client);
            }
            Ev::DisconnectStart { client, until } => self.on_disconnect(client, until),
            Ev::Reconnect { client } => self.on_reconnect(client),
            Ev::CrashAt { client } => {
                self.log(client, EventKind::Crashed);
                self.set_step(client, Step::Crashed);
            }
            Ev::WriteArrives { client, token } => self.resource_write(client, token),
        }
    }

    fn alive(&self, c: usize) -> bool {
        !matches!(
            self.clients[c].step,
            Step::Crashed | Step::Released | Step::Lost
        )
    }

    fn connected(&self, c: usize) -> bool {
        self.clients[c].disconnected_until.is_none()
    }

    // --- the recipe ---

    fn start(&mut self, c: usize) {
        if self.clients[c].step != Step::Idle {
            return;
        }
        self.send_create(c);
    }

    fn send_create(&mut self, c: usize) {
        let client = &mut self.clients[c];
        client.request += 1;
        let (guid, request) = (client.guid.clone(), client.request);
        self.log(c, EventKind::CreateSent { guid: guid.clone() });
        self.set_step(c, Step::Creating);
        self.send(
            Phase::Request,
            Ev::CreateArrives {
                client: c,
                guid,
                request,
            },
        );
        let timeout = self.now + self.p.request_timeout_ms;
        self.schedule(
            timeout,
            Phase::Work,
            Ev::CreateTimeout { client: c, request },
        );
    }

    fn send_read(&mut self, c: usize, purpose: ReadPurpose) {
        let watch = self.p.watch == WatchMode::Children && purpose != ReadPurpose::Recover;
        if !matches!(self.clients[c].step, Step::Held | Step::CreateUnknown) {
            self.set_step(c, Step::Reading);
        }
        self.send(
            Phase::Request,
            Ev::ChildrenArrives {
                client: c,
                watch,
                purpose,
            },
        );
    }

    fn on_create_ok(&mut self, c: usize, node: NodeId, request: u32) {
        if self.clients[c].request != request || self.clients[c].step != Step::Creating {
            return;
        }
        self.clients[c].node = Some(node);
        self.send_read(c, ReadPurpose::Acquire);
    }

    fn on_create_timeout(&mut self, c: usize, request: u32) {
        let client = &self.clients[c];
        if client.request != request || client.step != Step::Creating {
            return;
        }
        self.log(c, EventKind::CreateOutcomeUnknown);
        self.set_step(c, Step::CreateUnknown);
        match self.p.recovery {
            Recovery::Guid => self.send_read(c, ReadPurpose::Recover),
            Recovery::Blind => {
                // The first attempt's node, if the service made one, is now nobody's.
                let owned: Vec<NodeId> = self.coord.owned_by(self.clients[c].session).to_vec();
                for node in owned {
                    if !self.forgotten.iter().any(|(_, n)| *n == node) {
                        self.forgotten.push((c, node));
                    }
                }
                let fresh = format!("{:08x}", self.rng.next_u32());
                self.clients[c].guid = fresh;
                self.send_create(c);
            }
        }
    }

    fn on_children(&mut self, c: usize, nodes: Vec<NodeId>, purpose: ReadPurpose) {
        if !self.alive(c) {
            return;
        }
        let mut nodes = nodes;
        nodes.sort_by_key(|n| sequence_after(&self.coord.node(*n).name, MARKER));
        let names: Vec<String> = nodes
            .iter()
            .map(|n| self.coord.node(*n).name.clone())
            .collect();
        if purpose == ReadPurpose::Recover {
            let guid = self.clients[c].guid.clone();
            let mine: Vec<NodeId> = nodes
                .iter()
                .copied()
                .filter(|n| self.coord.node(*n).name.starts_with(&guid))
                .collect();
            let Some((&keep, extras)) = mine.split_first() else {
                self.send_create(c);
                return;
            };
            self.clients[c].node = Some(keep);
            let name = self.coord.node(keep).name.clone();
            self.log(c, EventKind::RecoveredNode { node: name });
            for &extra in extras {
                let name = self.coord.node(extra).name.clone();
                self.log(c, EventKind::DuplicateDeleted { node: name });
                self.send(
                    Phase::Release,
                    Ev::DeleteArrives {
                        client: c,
                        node: extra,
                    },
                );
            }
            self.set_step(c, Step::Reading);
            self.send_read(c, ReadPurpose::Acquire);
            return;
        }
        let mine_name = self.clients[c]
            .node
            .map(|n| self.coord.node(n).name.clone());
        self.log(
            c,
            EventKind::ChildrenRead {
                children: names,
                mine: mine_name,
            },
        );
        let Some(mine) = self.clients[c].node else {
            return;
        };
        let Some(idx) = nodes.iter().position(|n| *n == mine) else {
            // Our node is gone: the session that owned it must have expired.
            self.lose(c);
            return;
        };
        if purpose == ReadPurpose::Revalidate {
            let still_first = idx == 0;
            self.log(c, EventKind::Revalidated { still_first });
            self.clients[c].suspended = false;
            if still_first {
                self.redraw_lane(c);
                self.resume_side_effects(c);
                return;
            }
        }
        if idx == 0 {
            self.acquire(c, mine);
            return;
        }
        match self.p.watch {
            WatchMode::Children => {
                // The read registered a children watch in the same step.
                self.clients[c].target = Some(self.dir);
                self.log(c, EventKind::WatchChildren);
                self.set_step(c, Step::Waiting);
            }
            WatchMode::Predecessor | WatchMode::Ahead(_) => {
                let k = match self.p.watch {
                    WatchMode::Ahead(k) => k.max(1) as usize,
                    _ => 1,
                };
                let target = nodes[idx.saturating_sub(k)];
                self.clients[c].target = Some(target);
                self.send(
                    Phase::Request,
                    Ev::ExistsArrives {
                        client: c,
                        node: target,
                    },
                );
            }
        }
    }

    fn on_exists(&mut self, c: usize, node: NodeId, exists: bool) {
        if !self.alive(c) || self.clients[c].step != Step::Reading {
            return;
        }
        let name = self.coord.node(node).name.clone();
        self.log(
            c,
            EventKind::ExistsChecked {
                node: name.clone(),
                exists,
                watch: true,
            },
        );
        if exists || self.p.registration == Registration::TwoStep {
            // The broken two-step recipe trusts the list it read before and waits regardless.
            self.clients[c].target = Some(node);
            self.log(c, EventKind::Waiting { on: name });
            self.set_step(c, Step::Waiting);
        } else {
            self.send_read(c, ReadPurpose::Acquire);
        }
    }

    fn on_notify(&mut self, c: usize, note: Notification) {
        let client = &mut self.clients[c];
        client.pending_notifications = client.pending_notifications.saturating_sub(1);
        if !self.alive(c) {
            return;
        }
        let path = self.coord.path(note.node).to_string();
        self.log(c, EventKind::Notified { path: path.clone() });
        if self.clients[c].step == Step::Waiting && self.clients[c].target == Some(note.node) {
            // A wake-up is not a grant: read again and decide.
            self.log(c, EventKind::WokeUp { path });
            self.clients[c].target = None;
            self.send_read(c, ReadPurpose::Acquire);
        }
    }

    fn acquire(&mut self, c: usize, node: NodeId) {
        let token = sequence_after(&self.coord.node(node).name, MARKER)
            .unwrap_or(0)
            .max(0) as u64;
        let name = self.coord.node(node).name.clone();
        self.clients[c].token = token;
        self.clients[c].target = None;
        self.log(c, EventKind::Acquired { node: name, token });
        self.set_step(c, Step::Held);
        self.schedule(
            self.now + self.p.write_after_ms,
            Phase::Work,
            Ev::WriteDue { client: c },
        );
        self.schedule(
            self.now + self.p.hold_ms,
            Phase::Work,
            Ev::ReleaseDue { client: c },
        );
    }

    fn side_effects_paused(&self, c: usize) -> bool {
        self.clients[c].suspended
    }

    fn on_write_due(&mut self, c: usize) {
        let client = &self.clients[c];
        if client.wrote || matches!(client.step, Step::Crashed | Step::Released) {
            return;
        }
        if client.knows_expired && self.p.on_loss == OnLoss::Stop {
            return;
        }
        if self.side_effects_paused(c) {
            self.clients[c].write_pending = true;
            self.log(c, EventKind::WriteDeferred);
            return;
        }
        let token = client.token;
        self.clients[c].wrote = true;
        self.clients[c].write_pending = false;
        let value = self.clients[c].name.to_string();
        self.log(c, EventKind::WriteSent { value, token });
        self.send(Phase::Write, Ev::WriteArrives { client: c, token });
    }

    fn on_release_due(&mut self, c: usize) {
        if self.clients[c].step != Step::Held {
            return;
        }
        // A delete cannot reach the service over a cut connection: it waits for the reconnect.
        if self.side_effects_paused(c) || self.clients[c].write_pending || !self.connected(c) {
            self.clients[c].release_pending = true;
            return;
        }
        if let Some(node) = self.clients[c].node {
            let name = self.coord.node(node).name.clone();
            self.log(c, EventKind::ReleaseSent { node: name });
            self.send(Phase::Release, Ev::DeleteArrives { client: c, node });
        }
        self.set_step(c, Step::Released);
    }

    fn resume_side_effects(&mut self, c: usize) {
        if self.clients[c].write_pending {
            self.clients[c].write_pending = false;
            self.on_write_due(c);
        }
        if self.clients[c].release_pending {
            self.clients[c].release_pending = false;
            self.on_release_due(c);
        }
    }

    fn on_ping_tick(&mut self, c: usize) {
        if matches!(self.clients[c].step, Step::Crashed | Step::Released) {
            return;
        }
        if self.clients[c].knows_expired {
            return;
        }
        let next = self.now + self.ping_interval();
        self.schedule(next, Phase::Tick, Ev::PingTick { client: c });
        if self.connected(c) {
            self.send(Phase::Keepalive, Ev::PingArrives { client: c });
        }
    }

    fn on_disconnect(&mut self, c: usize, until: Millis) {
        self.clients[c].disconnected_until = Some(until);
        self.log(c, EventKind::Disconnected { until_ms: until });
        if self.clients[c].step == Step::Held && self.p.on_disconnect == OnDisconnect::Suspend {
            self.clients[c].suspended = true;
            self.log(c, EventKind::Suspended);
        }
        self.redraw_lane(c);
    }

    fn on_reconnect(&mut self, c: usize) {
        self.clients[c].disconnected_until = None;
        if self.clients[c].step == Step::Crashed {
            return;
        }
        if !self.coord.is_live(self.clients[c].session) {
            self.on_learned_expired(c);
            return;
        }
        self.log(c, EventKind::Reconnected);
        self.coord.heartbeat(self.clients[c].session, self.now);
        self.arm_session_check(c);
        if self.clients[c].step == Step::Held && self.clients[c].suspended {
            self.send_read(c, ReadPurpose::Revalidate);
        } else if self.clients[c].release_pending {
            self.resume_side_effects(c);
        }
    }

    fn on_learned_expired(&mut self, c: usize) {
        if self.clients[c].knows_expired || self.clients[c].step == Step::Crashed {
            return;
        }
        self.clients[c].knows_expired = true;
        self.log(c, EventKind::LearnedSessionExpired);
        self.lose(c);
    }

    fn lose(&mut self, c: usize) {
        if matches!(self.clients[c].step, Step::Released | Step::Crashed) {
            return;
        }
        self.clients[c].suspended = false;
        self.clients[c].target = None;
        self.set_step(c, Step::Lost);
        if self.p.on_loss == OnLoss::CarryOn && self.clients[c].write_pending {
            self.clients[c].write_pending = false;
            self.on_write_due(c);
        }
    }

    // --- the service ---

    fn service_create(&mut self, c: usize, guid: &str, request: u32) {
        let session = self.clients[c].session;
        let mut notes = Vec::new();
        let path = format!("/lock/{guid}-{MARKER}");
        let Ok(node) = self.coord.create(
            Some(session),
            &path,
            guid,
            CreateMode::EPHEMERAL_SEQUENTIAL,
            &mut notes,
        ) else {
            return;
        };
        let name = self.coord.node(node).name.clone();
        self.log_as(
            SERVICE,
            EventKind::NodeCreated {
                node: name.clone(),
                owner: self.clients[c].name.into(),
            },
        );
        self.deliver_notes(notes);
        self.redraw_service();
        if let Some(i) = self.drop_create_for.iter().position(|x| *x == c) {
            self.drop_create_for.swap_remove(i);
            self.log_as(SERVICE, EventKind::CreateResponseLost { node: name });
            return;
        }
        self.send(
            Phase::Deliver,
            Ev::CreateOk {
                client: c,
                node,
                request,
            },
        );
    }

    fn service_children(&mut self, c: usize, watch: bool, purpose: ReadPurpose) {
        let session = self.clients[c].session;
        if !self.coord.is_live(session) {
            self.send(Phase::Deliver, Ev::ExpiredReply { client: c });
            return;
        }
        let Ok(_) = self.coord.get_children(self.dir, watch.then_some(session)) else {
            return;
        };
        let nodes = self.sorted_children();
        self.send(
            Phase::Deliver,
            Ev::Children {
                client: c,
                nodes: nodes.clone(),
                purpose,
            },
        );
        // The scheduled coincidence of the watch race: the node ahead disappears right after the
        // read, before the reader's next request arrives.
        if let Some(i) = self.delete_between.iter().position(|(_, r)| *r == c) {
            let owner = self.delete_between[i].0;
            if let Some(node) = self.clients[owner].node.filter(|n| nodes.contains(n))
                && Some(node) != self.clients[c].node
            {
                self.delete_between.swap_remove(i);
                let name = self.coord.node(node).name.clone();
                let between = format!("{}: read / watch", self.clients[c].name);
                self.log_as(
                    SERVICE,
                    EventKind::FaultDeletedNode {
                        node: name,
                        between,
                    },
                );
                // The owner finishes and releases at exactly this instant.
                if self.clients[owner].step == Step::Held {
                    self.set_step(owner, Step::Released);
                }
                self.delete_node(node);
                self.close_session(owner);
            }
        }
    }

    fn service_exists(&mut self, c: usize, node: NodeId) {
        let session = self.clients[c].session;
        if !self.coord.is_live(session) {
            self.send(Phase::Deliver, Ev::ExpiredReply { client: c });
            return;
        }
        let path = self.coord.path(node).to_string();
        let exists = self.coord.exists(&path, Some(session)).is_some();
        self.send(
            Phase::Deliver,
            Ev::ExistsResult {
                client: c,
                node,
                exists,
            },
        );
    }

    fn service_delete(&mut self, c: usize, node: NodeId) {
        let owner_session = self.coord.node(node).ephemeral_owner;
        if owner_session != Some(self.clients[c].session) || !self.coord.node(node).alive {
            if self.clients[c].step == Step::Released {
                self.log_as(SERVICE, EventKind::ReleaseIgnored);
            }
            return;
        }
        self.delete_node(node);
        if self.clients[c].step == Step::Released {
            self.close_session(c);
        }
    }

    /// A released client closes its session, which deletes any node it still owns.
    fn close_session(&mut self, c: usize) {
        let (deleted, notes) = self.coord.expire_session(self.clients[c].session);
        if !deleted.is_empty() {
            let names = deleted
                .iter()
                .map(|n| self.coord.node(*n).name.clone())
                .collect();
            self.log_as(
                SERVICE,
                EventKind::SessionExpired {
                    session: self.clients[c].session.0,
                    nodes_deleted: names,
                },
            );
            let woke = self.deliver_notes(notes);
            if woke > 0 {
                self.wakeups_per_release.push(woke);
            }
            self.redraw_service();
        }
    }

    fn service_ping(&mut self, c: usize) {
        let session = self.clients[c].session;
        if self.coord.heartbeat(session, self.now) {
            self.arm_session_check(c);
        } else {
            self.send(Phase::Deliver, Ev::ExpiredReply { client: c });
        }
    }

    fn arm_session_check(&mut self, c: usize) {
        let s = self.coord.session(self.clients[c].session);
        let (at, generation) = (s.deadline_ms(), s.generation);
        self.schedule(
            at,
            Phase::Expiry,
            Ev::SessionCheck {
                client: c,
                generation,
            },
        );
    }

    fn service_session_check(&mut self, c: usize, generation: u64) {
        let s = self.coord.session(self.clients[c].session);
        if s.generation != generation || !self.coord.is_live(s.id) || self.now < s.deadline_ms() {
            return;
        }
        let id = s.id;
        self.clients[c].expired_by_service = true;
        let (deleted, notes) = self.coord.expire_session(id);
        let names: Vec<String> = deleted
            .iter()
            .map(|n| self.coord.node(*n).name.clone())
            .collect();
        self.log_as(
            SERVICE,
            EventKind::SessionExpired {
                session: id.0,
                nodes_deleted: names,
            },
        );
        let woke = self.deliver_notes(notes);
        if woke > 0 {
            self.wakeups_per_release.push(woke);
        }
        self.redraw_service();
    }

    // --- the resource ---

    fn resource_write(&mut self, c: usize, token: u64) {
        let name = self.clients[c].name;
        let (accepted, event) = self.resource.apply(
            self.now,
            name,
            name,
            token,
            &mut self.tokens,
            (&mut self.lanes, self.resource_lane),
        );
        self.log_as(RESOURCE, event);
        let stale = !self.is_service_holder(c);
        if stale {
            if accepted {
                self.stale_accepted += 1;
            } else {
                self.stale_rejected += 1;
            }
        }
    }

    /// A write is stale when the service had already taken the writer's lock away by expiring
    /// its session: the writer no longer owns a node, whatever it believes.
    fn is_service_holder(&self, c: usize) -> bool {
        !self.clients[c].expired_by_service
    }

    // --- invariants ---

    fn check_invariants(&mut self) {
        let holders = (0..self.clients.len())
            .filter(|&c| {
                let client = &self.clients[c];
                client.step == Step::Held
                    && self.coord.is_live(client.session)
                    && client.node.is_some_and(|n| self.coord.node(n).alive)
            })
            .count() as u32;
        self.max_holders = self.max_holders.max(holders);
        if holders > 1 {
            self.one_holder
                .fail(self.now, format!("{holders} clients hold the lock"));
        }
        if let Some(&orphan) = self.coord.orphans().first() {
            let name = self.coord.node(orphan).name.clone();
            self.no_orphan
                .fail(self.now, format!("{name} outlived its session"));
        }
        self.mark_stuck();
    }

    /// Finds clients that wait for something that can never happen: a node that is gone with no
    /// notification on its way, or a node whose owner is itself stuck (including a cycle).
    fn mark_stuck(&mut self) {
        let n = self.clients.len();
        // waits_on[c] = Some(owner) when c waits on a live node owned by another client.
        let mut directly = vec![false; n];
        let mut waits_on: Vec<Option<usize>> = vec![None; n];
        for c in 0..n {
            let client = &self.clients[c];
            if client.step != Step::Waiting || client.pending_notifications > 0 {
                continue;
            }
            if !self.coord.is_live(client.session) {
                continue;
            }
            let Some(target) = client.target else {
                continue;
            };
            if target == self.dir {
                if !self
                    .coord
                    .has_watch(client.session, target, WatchKind::Children)
                {
                    directly[c] = true;
                }
                continue;
            }
            let node = self.coord.node(target);
            if !node.alive
                || !self
                    .coord
                    .has_watch(client.session, target, WatchKind::Data)
            {
                directly[c] = !node.alive;
                continue;
            }
            waits_on[c] = self
                .owner_of(target)
                .filter(|o| *o != c || self.is_forgotten(target));
        }
        let mut stuck = directly.clone();
        for c in 0..n {
            // Follow the chain of waits; a chain that ends stuck or loops is stuck.
            let mut seen = vec![false; n];
            let mut cur = c;
            loop {
                if stuck[cur] {
                    stuck[c] = true;
                    break;
                }
                if seen[cur] {
                    stuck[c] = true;
                    break;
                }
                seen[cur] = true;
                match waits_on[cur] {
                    Some(next) if self.clients[next].step == Step::Waiting || stuck[next] => {
                        cur = next
                    }
                    _ => break,
                }
            }
        }
        for (c, &is_stuck) in stuck.iter().enumerate() {
            if is_stuck && self.clients[c].stuck_since.is_none() {
                self.clients[c].stuck_since = Some(self.now);
                let on = self.target_label(c).unwrap_or_default();
                self.log(
                    c,
                    EventKind::Stuck {
                        waiting_on: on.clone(),
                    },
                );
                let name = self.clients[c].name;
                self.nobody_stuck
                    .fail(self.now, format!("{name} waits forever on {on}"));
                self.redraw_lane(c);
            }
        }
    }

    fn is_forgotten(&self, node: NodeId) -> bool {
        self.forgotten.iter().any(|(_, n)| *n == node)
    }

    fn finish(self) -> Trace {
        let duplicate_nodes = self
            .forgotten
            .iter()
            .filter(|(c, node)| Some(*node) != self.clients[*c].node)
            .count() as u32;
        let stuck_clients = self
            .clients
            .iter()
            .filter(|c| c.stuck_since.is_some())
            .map(|c| c.name.to_string())
            .collect();
        let invariants = vec![
            self.one_holder,
            self.tokens,
            self.no_orphan,
            self.nobody_stuck,
        ];
        let violations = invariants
            .iter()
            .filter(|i| !i.held)
            .map(|i| i.name.to_string())
            .collect();
        Trace {
            schema_version: crate::engine::trace::SCHEMA_VERSION,
            family: Family::Abc,
            end_ms: self.p.duration_ms,
            events: self.events,
            lanes: self.lanes.finish(self.p.duration_ms),
            metrics: Metrics::Abc(AbcMetrics {
                wakeups_per_release: self.wakeups_per_release,
                max_holders: self.max_holders,
                stuck_clients,
                duplicate_nodes,
                stale_writes_accepted: self.stale_accepted,
                stale_writes_rejected: self.stale_rejected,
                violations,
            }),
            invariants,
        }
    }
}

/// The A/B/C metrics of a trace, if it is one.
pub fn metrics(trace: &Trace) -> Option<&AbcMetrics> {
    match &trace.metrics {
        Metrics::Abc(m) => Some(m),
        _ => None,
    }
}
