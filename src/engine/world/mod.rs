//! The World: one owner for the clock, the actors, their channels and timers, the faults and
//! the only random number generator.
//!
//! A World is a state that can be cloned, compared and hashed, with a list of enabled choices
//! (deliver the head of a channel, fire a timer, apply a fault) that can be applied one at a
//! time. A timed run (see [`run`]) is one schedule of those choices: always the earliest by
//! (time, phase, order of scheduling). An explorer can take any other.
//!
//! Channels are FIFO per (sender, receiver) pair, which for a ZooKeeper client is its session's
//! connection: replies and watch events arrive in the order the service sent them. A frozen
//! actor's messages and timers wait, in order, until it wakes. A cut link holds what is on it
//! (TCP keeps retransmitting) and delivers it in order when the link comes back, unless the
//! connection is torn down first: then everything in flight on it, both ways, is lost, and so
//! is anything the service still sends on the old connection.

mod channel;
mod choice;
mod cx;
mod rng;
pub mod run;
pub mod schedule;
pub mod step;

use serde::Serialize;

pub use channel::{Channel, InFlight};
pub use choice::{Choice, Delivered, FaultAction};
pub use cx::{Cx, Effect};
pub use rng::{Bookkeeping, Rng};

use super::actors::Actor;
use super::msg::{ActorMsg, Clock, Timer};
use super::time::Millis;
use super::trace::record::Recorder;
use super::trace::{EventKind, Fate};

/// The order in which things due at the same instant happen.
///
/// Services settle their own state first (expiries, then releases, then heartbeats, then other
/// requests), then clients hear about it, then clients act (planned work before a pause that
/// starts at the same instant, waking before a heartbeat tick), then the protected resource
/// applies writes. Within a phase, things happen in the order they were scheduled.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// A lease or session reaches its deadline.
    Expiry = 0,
    /// A release, node deletion or session close reaches the service.
    Release = 1,
    /// A keepalive or heartbeat reaches the service.
    Keepalive = 2,
    /// Any other request reaches the service (acquire, create, read, watch, reconnect).
    Request = 3,
    /// A reply or notification reaches a client.
    Deliver = 4,
    /// A client's own timer for work it planned (critical section done, write due, retry).
    Work = 5,
    /// A client freezes (GC pause), crashes, or its network link is cut.
    Freeze = 6,
    /// A client wakes from a pause or its link comes back.
    Wake = 7,
    /// A client library's heartbeat, read-timeout and reconnect timers.
    Tick = 8,
    /// A write reaches the protected resource.
    Write = 9,
}

/// An actor's place in the World.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct ActorId(pub u8);

/// What the World knows of an actor's health. Faults compose: a freeze inside a freeze keeps
/// the actor frozen until the outer one ends, and the same for cut links.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Status {
    pub frozen: u8,
    pub cut: u8,
    pub crashed: bool,
}

impl Status {
    pub fn is_frozen(&self) -> bool {
        self.frozen > 0
    }
    pub fn is_cut(&self) -> bool {
        self.cut > 0
    }
}

/// An armed timer.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Armed {
    pub owner: ActorId,
    pub timer: Timer,
    pub due: Millis,
    pub clock: Clock,
    /// For an own-time timer of a frozen actor: how long it still has to run once it wakes.
    pub left: Option<Millis>,
    seq: Bookkeeping<u64>,
}

/// The whole simulated system.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct World {
    pub now: Millis,
    pub actors: Vec<Actor>,
    pub status: Vec<Status>,
    pub channels: Vec<Channel>,
    pub timers: Vec<Armed>,
    pub rng: Rng,
    /// One-way network delay.
    pub delay_ms: Millis,
    /// For each actor, the service actor its connection is a link to (faults on links apply
    /// only there: the protected resource stays reachable).
    pub links: Vec<Option<ActorId>>,
    /// For each linked client, which connection it is on (bumped at every teardown).
    pub conn_epoch: Vec<u16>,
    /// For each linked client, the connection the service last heard it on: what the service
    /// sends goes there.
    pub service_epoch: Vec<u16>,
    seq: Bookkeeping<u64>,
    next_msg: Bookkeeping<u32>,
    effects: Bookkeeping<Vec<Effect>>,
    /// The actor the last step handed something to (or faulted), for observers that redraw
    /// only what can have changed.
    pub touched: Bookkeeping<Option<ActorId>>,
}

impl World {
    pub fn new(actors: Vec<Actor>, delay_ms: Millis, seed: u64) -> Self {
        let n = actors.len();
        Self {
            now: 0,
            actors,
            status: vec![Status::default(); n],
            channels: Vec::new(),
            timers: Vec::new(),
            rng: Rng::new(seed),
            delay_ms,
            links: vec![None; n],
            conn_epoch: vec![0; n],
            service_epoch: vec![0; n],
            seq: Bookkeeping(0),
            next_msg: Bookkeeping(0),
            effects: Bookkeeping(Vec::new()),
            touched: Bookkeeping(None),
        }
    }

    /// Declares that `client`'s messages to and from `service` travel over a link that can be
    /// cut or reset.
    pub fn link(&mut self, client: ActorId, service: ActorId) {
        self.links[client.0 as usize] = Some(service);
    }

    pub fn actor(&self, id: ActorId) -> &Actor {
        &self.actors[id.0 as usize]
    }

    pub fn status(&self, id: ActorId) -> Status {
        self.status[id.0 as usize]
    }

    fn bump(&mut self) -> u64 {
        self.seq.0 += 1;
        self.seq.0
    }

    /// Lets every actor arm its first timers and send its first messages.
    pub fn start(&mut self, rec: &mut Option<&mut Recorder>) {
        // An actor down from the start begins at its restart instead.
        for i in 0..self.actors.len() {
            if self.status[i].crashed {
                continue;
            }
            self.dispatch(ActorId(i as u8), 0, rec, |a, cx| a.on_start(cx));
        }
    }

    /// Every choice enabled in this state.
    pub fn choices(&self, out: &mut Vec<Choice>) {
        out.clear();
        for (i, ch) in self.channels.iter().enumerate() {
            if !ch.queue.is_empty() && self.can_act(ch.to) && !self.link_down(ch.from, ch.to) {
                out.push(Choice::Deliver(i));
            }
        }
        for (i, t) in self.timers.iter().enumerate() {
            if self.can_act(t.owner) || t.timer.of_machine() {
                out.push(Choice::Fire(i));
            }
        }
    }

    /// Whether an actor processes anything now.
    pub fn can_act(&self, id: ActorId) -> bool {
        let s = self.status(id);
        !s.is_frozen() && !s.crashed
    }

    /// The earliest enabled choice in timed order, found in one pass without allocating.
    pub fn next_timed(&self) -> Option<((Millis, Phase, u64), Choice)> {
        let mut best: Option<((Millis, Phase, u64), Choice)> = None;
        let mut consider = |k: (Millis, Phase, u64), c: Choice| {
            if best.is_none_or(|(b, _)| k < b) {
                best = Some((k, c));
            }
        };
        for (i, ch) in self.channels.iter().enumerate() {
            if let Some(head) = ch.queue.first()
                && self.can_act(ch.to)
                && !self.link_down(ch.from, ch.to)
            {
                consider((head.due, head.msg.phase(), head.seq.0), Choice::Deliver(i));
            }
        }
        for (i, t) in self.timers.iter().enumerate() {
            if self.can_act(t.owner) || t.timer.of_machine() {
                consider((t.due, t.timer.phase(), t.seq.0), Choice::Fire(i));
            }
        }
        best
    }

    /// The timed order of a choice: (when, phase, order scheduled).
    pub fn key(&self, c: Choice) -> (Millis, Phase, u64) {
        match c {
            Choice::Deliver(i) => {
                let head = self.channels[i].queue.first().expect("enabled");
                (head.due, head.msg.phase(), head.seq.0)
            }
            Choice::Fire(i) => {
                let t = &self.timers[i];
                (t.due, t.timer.phase(), t.seq.0)
            }
            Choice::Fault(f) => (self.now, f.phase(), 0),
        }
    }

    /// Applies one choice at time `now` (never earlier than the World's clock). Returns the
    /// message delivered, if the choice delivered one.
    pub fn apply(
        &mut self,
        choice: Choice,
        now: Millis,
        rec: &mut Option<&mut Recorder>,
    ) -> Option<Delivered> {
        self.now = self.now.max(now);
        match choice {
            Choice::Deliver(i) => {
                let ch = &mut self.channels[i];
                assert!(!ch.queue.is_empty(), "an enabled delivery");
                let m = ch.queue.remove(0);
                let (from, to) = (ch.from, ch.to);
                let client = if self.links[to.0 as usize] == Some(from) {
                    Some(to)
                } else {
                    None
                };
                if client.is_some_and(|c| m.epoch != self.conn_epoch[c.0 as usize]) {
                    // Sent on a connection the client has already given up on.
                    if let Some(r) = rec.as_deref_mut() {
                        r.message_fate(m.id.0, Fate::Dropped, None);
                    }
                    return None;
                }
                if self.links[from.0 as usize] == Some(to) {
                    self.service_epoch[from.0 as usize] = m.epoch;
                }
                if let Some(r) = rec.as_deref_mut() {
                    r.message_fate(m.id.0, Fate::Delivered, Some(self.now));
                }
                let msg = m.msg.clone();
                let now = self.now;
                self.dispatch(to, now, rec, |a, cx| a.on_msg(from, m.msg, cx));
                Some(Delivered { from, to, msg })
            }
            Choice::Fire(i) => {
                let t = self.timers.remove(i);
                self.dispatch(t.owner, t.due, rec, |a, cx| a.on_timer(t.timer, cx));
                None
            }
            Choice::Fault(f) => {
                self.fault(f, rec);
                None
            }
        }
    }

    fn fault(&mut self, f: FaultAction, rec: &mut Option<&mut Recorder>) {
        let a = f.actor();
        self.touched.0 = Some(a);
        let now = self.now;
        let log = |rec: &mut Option<&mut Recorder>, kind: EventKind| {
            if let Some(r) = rec.as_deref_mut() {
                r.event(now, a, kind);
            }
        };
        let s = &mut self.status[a.0 as usize];
        if let FaultAction::Restart(_) = f {
            if s.crashed {
                s.crashed = false;
                log(rec, EventKind::Restarted);
                self.dispatch(a, now, rec, |actor, cx| actor.on_restart(cx));
            }
            return;
        }
        if s.crashed {
            return;
        }
        match f {
            FaultAction::Freeze(_) => {
                s.frozen += 1;
                if s.frozen == 1 {
                    log(rec, EventKind::Froze);
                    for t in self.timers.iter_mut().filter(|t| t.owner == a) {
                        if t.clock == Clock::Own {
                            t.left = Some(t.due.saturating_sub(now));
                        }
                    }
                }
            }
            FaultAction::Thaw(_) => {
                s.frozen = s.frozen.saturating_sub(1);
                if s.frozen == 0 {
                    log(rec, EventKind::Woke);
                    for t in self.timers.iter_mut().filter(|t| t.owner == a) {
                        if let Some(left) = t.left.take() {
                            t.due = now + left;
                        }
                    }
                }
            }
            FaultAction::Cut(_) => {
                s.cut += 1;
                if s.cut == 1 {
                    log(rec, EventKind::LinkCut);
                }
            }
            FaultAction::Restore(_) => {
                s.cut = s.cut.saturating_sub(1);
                if s.cut == 0 {
                    log(rec, EventKind::LinkRestored);
                }
            }
            FaultAction::Reset(_) => {
                log(rec, EventKind::ConnectionReset);
                self.teardown(a, rec);
                self.dispatch(a, now, rec, |actor, cx| actor.on_connection_reset(cx));
            }
            FaultAction::Crash(_) => {
                s.crashed = true;
                log(rec, EventKind::Crashed);
                self.actors[a.0 as usize].on_crash();
                self.timers.retain(|t| t.owner != a || t.timer.of_machine());
                for ch in self.channels.iter_mut().filter(|c| c.to == a) {
                    for m in ch.queue.drain(..) {
                        if let Some(r) = rec.as_deref_mut() {
                            r.message_fate(m.id.0, Fate::Dropped, None);
                        }
                    }
                }
            }
            FaultAction::ReleaseNow(_) => {
                self.dispatch(a, now, rec, |actor, cx| actor.on_release_now(cx));
            }
            FaultAction::Restart(_) => {}
        }
    }

    /// Ends `client`'s current connection: everything in flight on it, both ways, is lost.
    fn teardown(&mut self, client: ActorId, rec: &mut Option<&mut Recorder>) {
        let Some(service) = self.links[client.0 as usize] else {
            return;
        };
        self.conn_epoch[client.0 as usize] = self.conn_epoch[client.0 as usize].wrapping_add(1);
        for ch in self.channels.iter_mut().filter(|c| {
            (c.from == client && c.to == service) || (c.from == service && c.to == client)
        }) {
            for m in ch.queue.drain(..) {
                if let Some(r) = rec.as_deref_mut() {
                    r.message_fate(m.id.0, Fate::Dropped, None);
                }
            }
        }
    }

    /// Whether the link between these two actors is cut right now.
    fn link_down(&self, from: ActorId, to: ActorId) -> bool {
        let cut =
            |c: ActorId, s: ActorId| self.links[c.0 as usize] == Some(s) && self.status(c).is_cut();
        cut(from, to) || cut(to, from)
    }

    /// Runs one handler of one actor and carries out the effects it returns.
    fn dispatch(
        &mut self,
        id: ActorId,
        due: Millis,
        rec: &mut Option<&mut Recorder>,
        f: impl FnOnce(&mut Actor, &mut Cx),
    ) {
        self.touched.0 = Some(id);
        let mut effects = std::mem::take(&mut self.effects.0);
        {
            let mut cx = Cx::new(
                self.now,
                due,
                id,
                &mut effects,
                &mut self.rng,
                rec.is_some(),
            );
            f(&mut self.actors[id.0 as usize], &mut cx);
        }
        for e in effects.drain(..) {
            self.carry_out(id, e, rec);
        }
        // Handlers never nest, so the buffer can be handed back for the next one.
        self.effects.0 = effects;
    }

    fn carry_out(&mut self, me: ActorId, e: Effect, rec: &mut Option<&mut Recorder>) {
        let now = self.now;
        match e {
            Effect::Send { to, msg, after } => {
                let id = self.next_msg.0;
                self.next_msg.0 += 1;
                let lost = self.status(to).crashed;
                if let Some(r) = rec.as_deref_mut() {
                    r.message_sent(id, now, me, to, &msg);
                    if lost {
                        r.message_fate(id, Fate::Dropped, None);
                    }
                }
                if lost {
                    return;
                }
                let seq = self.bump();
                let due = now + self.delay_ms + after;
                let epoch = if self.links[me.0 as usize] == Some(to) {
                    self.conn_epoch[me.0 as usize]
                } else if self.links[to.0 as usize] == Some(me) {
                    self.service_epoch[to.0 as usize]
                } else {
                    0
                };
                let ch = self.channel(me, to);
                self.channels[ch].queue.push(InFlight {
                    msg,
                    due,
                    epoch,
                    seq: Bookkeeping(seq),
                    id: Bookkeeping(id),
                });
            }
            Effect::SetTimer { timer, at, clock } => {
                self.timers.retain(|t| !(t.owner == me && t.timer == timer));
                let seq = self.bump();
                let frozen = self.status(me).is_frozen() && clock == Clock::Own;
                // Kept in (owner, timer) order, not arming order: ties in time are broken by
                // `seq`, so the position means nothing, and two states with the same timers
                // armed compare equal however they got there.
                let at_index = self
                    .timers
                    .partition_point(|t| (t.owner, t.timer) < (me, timer));
                self.timers.insert(
                    at_index,
                    Armed {
                        owner: me,
                        timer,
                        due: at,
                        clock,
                        left: frozen.then(|| at.saturating_sub(now)),
                        seq: Bookkeeping(seq),
                    },
                );
            }
            Effect::Teardown => self.teardown(me, rec),
            Effect::Cancel(timer) => self.timers.retain(|t| !(t.owner == me && t.timer == timer)),
            Effect::Event(kind) => {
                if let Some(r) = rec.as_deref_mut() {
                    r.event(now, me, kind);
                }
            }
        }
    }

    fn channel(&mut self, from: ActorId, to: ActorId) -> usize {
        if let Some(i) = self
            .channels
            .iter()
            .position(|c| c.from == from && c.to == to)
        {
            return i;
        }
        // In (from, to) order, so the position says nothing about who sent first.
        let i = self
            .channels
            .partition_point(|c| (c.from, c.to) < (from, to));
        self.channels.insert(i, Channel::new(from, to));
        i
    }

    /// Whether anything is on its way to `to` from `from`.
    pub fn in_flight(&self, from: ActorId, to: ActorId) -> impl Iterator<Item = &ActorMsg> {
        self.channels
            .iter()
            .filter(move |c| c.from == from && c.to == to)
            .flat_map(|c| c.queue.iter().map(|m| &m.msg))
    }
}
