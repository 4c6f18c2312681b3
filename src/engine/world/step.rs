//! The stepping interface an explorer uses: which choices a state offers once the clock is
//! taken away, and which faults a budget still allows.
//!
//! An explorer does not advance the clock: every enabled choice may happen next, in any order.
//! Left like that, timers would let things happen that no real system does (a healthy client's
//! session expiring, a read timeout on a link that works), and heartbeats would loop forever.
//! So the timers are abstracted as follows, and the timed replay of a schedule follows the same
//! rules once its schedule ends:
//!
//! * **Heartbeats** (`Ping`) never fire: a client that can reach the service keeps its session.
//! * **Session expiry** fires only while the session's client cannot heartbeat: it is frozen
//!   or crashed, or its link is cut and it has noticed. A client notices silence after two
//!   thirds of the session timeout, so a cut client always learns of the cut before the
//!   service can expire its session; after that any length of silence is possible.
//! * **Read timeout** (the client notices silence) fires only while its link is cut.
//! * **Reconnect** fires only while the client is reconnecting and its last attempt can no
//!   longer be answered: nothing is on its way between it and the service.
//! * **Planned work** (start, write due, release due) may fire at any moment, since work takes
//!   as long as it takes, but one actor's planned work happens in the order it is due (a holder
//!   writes before it releases).
//! * **Requests arrive at once**: a message to an actor that is not a linked client (the
//!   service, the resource) is delivered in the step that sent it, unless its link is cut (it
//!   then waits, in order, until the link is back). A request's time on the wire is folded into
//!   the order of its sender's steps, which already range over every interleaving; replies and
//!   notifications to clients stay in flight for any number of steps, which is where a lock
//!   recipe's races live. See [`World::deliver_requests`].
//! * **Clients start in order** (A, then B, then C). This is a symmetry reduction, not a
//!   restriction: the clients run the same recipe and differ only in their names and GUIDs
//!   (which matter only for being equal or not), so any run in which they start in another order
//!   is the same story with the names swapped, and every checked property treats clients alike.
//! * Other deliveries are free: any channel's head may arrive next (per-channel FIFO is kept).
//!
//! Faults are taken as one step each, where time would only add orderings that lead to the
//! same states (see [`World::step_untimed`]):
//!
//! * **Freeze** is a pause long enough for the session to expire: the client freezes, the
//!   service expires its session, the client thaws, none the wiser. A shorter pause changes
//!   nothing a clockless search can see (the client simply takes no step for a while), and any
//!   step the client would take while frozen can as well be taken later.
//! * **Crash** ends the process and, in the same step, its session: whatever others do between
//!   the crash and the expiry can as well be done before the crash.
//! * A fault only hits a client that has started and not yet finished with the service.
//! * **A cut is noticed at once**: the link goes silent and, in the same step, the client's read
//!   timeout fires (if it was connected). What a client does in the blind window between is
//!   either not on the link (a write to the resource, which can as well come first) or a
//!   request held on the link, which the notice then throws away like a request never sent.
//! * **A cut ends only when something waits on the link.** Ending it earlier is the same as
//!   never cutting (the client heard nothing it could not as well have heard later, and a
//!   request it sends can as well be sent later), with one fault less to spend.

use super::{ActorId, Choice, FaultAction, World};
use crate::engine::actors::lock_client::Step;
use crate::engine::msg::Timer;
use crate::engine::world::Phase;
use crate::engine::zk::client::ConnState;

/// A kind of fault a scenario may inject, named as scenario files name them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FaultKind {
    /// A GC pause: freeze, and later thaw.
    Freeze,
    /// A silent network cut: cut, and later restore.
    Disconnect,
    Crash,
    /// The connection breaks while a response is on its way (`drop_create_response`).
    LostResponse,
    /// A holder releases early, e.g. between another client's read and its watch
    /// (`delete_between`).
    ReleaseEarly,
}

impl FaultKind {
    pub const ALL: [FaultKind; 5] = [
        FaultKind::Freeze,
        FaultKind::Disconnect,
        FaultKind::Crash,
        FaultKind::LostResponse,
        FaultKind::ReleaseEarly,
    ];

    /// The name scenario files use for this kind.
    pub fn name(self) -> &'static str {
        match self {
            FaultKind::Freeze => "freeze",
            FaultKind::Disconnect => "disconnect",
            FaultKind::Crash => "crash",
            FaultKind::LostResponse => "drop_create_response",
            FaultKind::ReleaseEarly => "delete_between",
        }
    }

    pub fn parse(name: &str) -> Option<FaultKind> {
        FaultKind::ALL.into_iter().find(|k| k.name() == name)
    }

    fn bit(self) -> u8 {
        1 << self as u8
    }
}

/// A set of fault kinds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct FaultKinds(u8);

impl FaultKinds {
    pub fn all() -> Self {
        FaultKind::ALL.into_iter().collect()
    }

    pub fn contains(self, k: FaultKind) -> bool {
        self.0 & k.bit() != 0
    }

    pub fn insert(&mut self, k: FaultKind) {
        self.0 |= k.bit();
    }

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    pub fn iter(self) -> impl Iterator<Item = FaultKind> {
        FaultKind::ALL
            .into_iter()
            .filter(move |k| self.contains(*k))
    }
}

impl FromIterator<FaultKind> for FaultKinds {
    fn from_iter<I: IntoIterator<Item = FaultKind>>(iter: I) -> Self {
        let mut s = FaultKinds::default();
        for k in iter {
            s.insert(k);
        }
        s
    }
}

/// Whether applying this fault spends one unit of a budget. Ending a fault (thaw, restore, restart) is
/// free: it is the other half of the freeze or cut that was paid for.
pub fn costs(f: FaultAction) -> bool {
    !matches!(
        f,
        FaultAction::Thaw(_) | FaultAction::Restore(_) | FaultAction::Restart(_)
    )
}

/// The kind a fault action belongs to.
pub fn kind_of(f: FaultAction) -> FaultKind {
    match f {
        FaultAction::Freeze(_) | FaultAction::Thaw(_) => FaultKind::Freeze,
        FaultAction::Cut(_) | FaultAction::Restore(_) => FaultKind::Disconnect,
        FaultAction::Crash(_) | FaultAction::Restart(_) => FaultKind::Crash,
        FaultAction::Reset(_) => FaultKind::LostResponse,
        FaultAction::ReleaseNow(_) => FaultKind::ReleaseEarly,
    }
}

impl World {
    /// Takes one step of a clockless search: the choice (a fault as described in the module
    /// notes), then every request it sent arriving. `seen` is shown each step taken with the
    /// state it is taken in (to replay it as a timed run, or to notice what it does).
    pub fn step_untimed(&mut self, c: Choice, seen: &mut impl FnMut(&World, Choice)) {
        let mut take = |w: &mut World, c: Choice| {
            seen(w, c);
            let now = w.now;
            w.apply(c, now, &mut None);
        };
        take(self, c);
        match c {
            Choice::Fault(FaultAction::Freeze(a)) => {
                if let Some(i) = self.expiry_of(a) {
                    take(self, Choice::Fire(i));
                }
                take(self, Choice::Fault(FaultAction::Thaw(a)));
            }
            Choice::Fault(FaultAction::Crash(a)) => {
                if let Some(i) = self.expiry_of(a) {
                    take(self, Choice::Fire(i));
                }
            }
            Choice::Fault(FaultAction::Cut(a)) => {
                let read_timeout = self
                    .timers
                    .iter()
                    .position(|t| t.owner == a && t.timer == Timer::ReadTimeout);
                if let Some(i) = read_timeout {
                    take(self, Choice::Fire(i));
                }
            }
            _ => {}
        }
        self.deliver_requests(&mut take);
    }

    /// Whether anything waits on a client's link, either way.
    fn held_on_link(&self, client: ActorId) -> bool {
        self.links[client.0 as usize].is_some_and(|service| {
            self.in_flight(client, service).next().is_some()
                || self.in_flight(service, client).next().is_some()
        })
    }

    /// The armed session-expiry timer of a linked client's session, if any.
    pub fn expiry_of(&self, client: ActorId) -> Option<usize> {
        let service = self.links[client.0 as usize]?;
        let zk = self.actor(service).as_zk()?;
        self.timers.iter().position(|t| {
            t.owner == service
                && matches!(t.timer, Timer::SessionExpiry(s) if zk.owner(s) == client)
        })
    }

    /// Delivers every request that can arrive now (see the module notes), in channel order,
    /// until none is left; `take` applies each.
    pub fn deliver_requests(&mut self, take: &mut impl FnMut(&mut World, Choice)) {
        loop {
            let next = self.channels.iter().position(|ch| {
                !ch.queue.is_empty()
                    && self.can_act(ch.to)
                    && !self.link_down(ch.from, ch.to)
                    && (self.links[ch.to.0 as usize].is_none() || self.ignored(ch))
            });
            let Some(i) = next else {
                return;
            };
            take(self, Choice::Deliver(i));
        }
    }

    /// Whether the head of a channel to a client would be ignored on arrival: it travels on a
    /// connection the client has given up, or the client has closed its session or learned it
    /// expired. Such a message is dropped the moment it arrives, like a request is delivered:
    /// when it does so changes nothing.
    fn ignored(&self, ch: &super::Channel) -> bool {
        let Some(head) = ch.queue.first() else {
            return false;
        };
        let c = ch.to.0 as usize;
        self.links[c] == Some(ch.from)
            && (head.epoch != self.conn_epoch[c]
                || self.actors[c].as_lock().is_some_and(|l| {
                    matches!(l.conn.state, ConnState::Closed | ConnState::Expired)
                }))
    }

    /// Delivers the requests a clockless search's first state has on their way.
    pub fn settle_untimed(&mut self) {
        self.deliver_requests(&mut |w: &mut World, c| {
            let now = w.now;
            w.apply(c, now, &mut None);
        });
    }

    /// The choices this state offers without a clock (see the module notes), faults aside.
    pub fn untimed_choices(&self, out: &mut Vec<Choice>) {
        self.choices(out);
        out.retain(|c| match *c {
            // Requests (and messages a client ignores) are delivered as they are sent; only
            // those held by a cut link wait, and those are not enabled.
            Choice::Deliver(i) => {
                let ch = &self.channels[i];
                self.links[ch.to.0 as usize].is_some() && !self.ignored(ch)
            }
            Choice::Fire(i) => self.may_fire(i),
            Choice::Fault(_) => false,
        });
    }

    /// Whether armed timer `i` may fire when time is abstracted.
    pub fn may_fire(&self, i: usize) -> bool {
        let t = &self.timers[i];
        let owner = t.owner;
        match t.timer {
            Timer::Ping => false,
            Timer::Start => !self
                .timers
                .iter()
                .any(|u| u.timer == Timer::Start && u.owner < owner),
            Timer::ReadTimeout => self.status(owner).is_cut(),
            Timer::Reconnect => {
                let Some(client) = self.actor(owner).as_lock() else {
                    return true;
                };
                let service = client.conn.service;
                client.conn.state == ConnState::Reconnecting
                    && self.in_flight(owner, service).next().is_none()
                    && self.in_flight(service, owner).next().is_none()
            }
            Timer::SessionExpiry(s) => {
                let Some(zk) = self.actor(owner).as_zk() else {
                    return true;
                };
                let client = zk.owner(s);
                let st = self.status(client);
                let noticed = self
                    .actor(client)
                    .as_lock()
                    .is_none_or(|c| c.conn.state != ConnState::Connected);
                st.crashed || st.is_frozen() || (st.is_cut() && noticed)
            }
            other if other.phase() == Phase::Work => {
                // One actor's planned work happens in the order it is due.
                !self.timers.iter().any(|u| {
                    u.owner == owner
                        && u.timer != other
                        && u.timer.phase() == Phase::Work
                        && (u.due, u.timer) < (t.due, other)
                })
            }
            _ => true,
        }
    }

    /// The faults a budget allows in this state, on the linked clients, in a fixed order.
    /// `left` is how many more faults may be injected; ending a freeze or a cut is always
    /// allowed.
    pub fn fault_choices(&self, kinds: FaultKinds, left: u8, out: &mut Vec<Choice>) {
        for i in 0..self.actors.len() {
            if self.links[i].is_none() {
                continue;
            }
            let id = ActorId(i as u8);
            let st = self.status(id);
            if st.crashed {
                continue;
            }
            if st.is_frozen() {
                out.push(Choice::Fault(FaultAction::Thaw(id)));
            }
            if st.is_cut() && self.held_on_link(id) {
                out.push(Choice::Fault(FaultAction::Restore(id)));
            }
            if left == 0 {
                continue;
            }
            let client = self.actor(id).as_lock();
            // Only a client between its start and its release with the service.
            let involved = client.is_none_or(|c| {
                c.step != Step::Idle
                    && !matches!(c.conn.state, ConnState::Closed | ConnState::Expired)
            });
            if !involved {
                continue;
            }
            let can_expire = self.expiry_of(id).is_some();
            for k in kinds.iter() {
                let f = match k {
                    FaultKind::Freeze if !st.is_frozen() && can_expire => FaultAction::Freeze(id),
                    FaultKind::Disconnect if !st.is_cut() => FaultAction::Cut(id),
                    FaultKind::Crash => FaultAction::Crash(id),
                    FaultKind::LostResponse
                        if client.is_some_and(|c| {
                            c.conn.state == ConnState::Connected
                                && self.in_flight(c.conn.service, id).next().is_some()
                        }) =>
                    {
                        FaultAction::Reset(id)
                    }
                    FaultKind::ReleaseEarly
                        if !st.is_frozen() && client.is_some_and(|c| c.step == Step::Holding) =>
                    {
                        FaultAction::ReleaseNow(id)
                    }
                    _ => continue,
                };
                out.push(Choice::Fault(f));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::families::abc;
    use crate::engine::params::AbcParams;
    use crate::engine::zk::tree::SessionId;

    fn started() -> World {
        let (mut w, _) = abc::build(&AbcParams::default());
        w.start(&mut None);
        w
    }

    fn timer(w: &World, owner: ActorId, timer: Timer) -> usize {
        w.timers
            .iter()
            .position(|t| t.owner == owner && t.timer == timer)
            .expect("armed")
    }

    fn offered(w: &World, c: Choice) -> bool {
        let mut out = Vec::new();
        w.untimed_choices(&mut out);
        out.contains(&c)
    }

    #[test]
    fn heartbeats_never_fire_and_a_healthy_session_never_expires() {
        let w = started();
        let a = ActorId(0);
        for i in [
            timer(&w, a, Timer::Ping),
            timer(&w, a, Timer::ReadTimeout),
            timer(&w, abc::SERVICE, Timer::SessionExpiry(SessionId(0))),
        ] {
            assert!(!offered(&w, Choice::Fire(i)), "{:?}", w.timers[i].timer);
        }
        assert!(offered(&w, Choice::Fire(timer(&w, a, Timer::Start))));
        // B starts only after A: the clients are interchangeable.
        let b = ActorId(1);
        assert!(!offered(&w, Choice::Fire(timer(&w, b, Timer::Start))));
    }

    #[test]
    fn a_cut_client_notices_before_its_session_can_expire() {
        let mut w = started();
        w.apply(Choice::Fault(FaultAction::Cut(ActorId(0))), 0, &mut None);
        let expiry = |w: &World| timer(w, abc::SERVICE, Timer::SessionExpiry(SessionId(0)));
        let read = timer(&w, ActorId(0), Timer::ReadTimeout);
        assert!(offered(&w, Choice::Fire(read)));
        assert!(!offered(&w, Choice::Fire(expiry(&w))));
        w.apply(Choice::Fire(read), 0, &mut None);
        assert!(offered(&w, Choice::Fire(expiry(&w))));
    }

    #[test]
    fn the_budget_decides_which_faults_are_offered() {
        let mut w = started();
        let start = timer(&w, ActorId(0), Timer::Start);
        w.step_untimed(Choice::Fire(start), &mut |_, _| {});
        let mut out = Vec::new();
        w.fault_choices(FaultKinds::all(), 0, &mut out);
        assert!(out.is_empty(), "{out:?}");
        let kinds: FaultKinds = [FaultKind::Disconnect].into_iter().collect();
        w.fault_choices(kinds, 1, &mut out);
        assert_eq!(
            out,
            [Choice::Fault(FaultAction::Cut(ActorId(0)))],
            "only A has started"
        );
        w.apply(out[0], 0, &mut None);
        out.clear();
        w.fault_choices(kinds, 0, &mut out);
        assert_eq!(out, [Choice::Fault(FaultAction::Restore(ActorId(0)))]);
        assert!(!costs(FaultAction::Restore(ActorId(0))) && costs(FaultAction::Crash(ActorId(0))));
    }

    #[test]
    fn a_freeze_is_a_pause_long_enough_for_the_session_to_expire() {
        let mut w = started();
        let start = timer(&w, ActorId(0), Timer::Start);
        w.step_untimed(Choice::Fire(start), &mut |_, _| {});
        let mut steps = Vec::new();
        w.step_untimed(
            Choice::Fault(FaultAction::Freeze(ActorId(0))),
            &mut |w, c| {
                steps.push(super::super::schedule::Scheduled::of(w, c).text(&abc::ACTOR_NAMES))
            },
        );
        assert_eq!(steps[..3], ["freeze A", "service expire A", "thaw A"]);
        let zk = w.actor(abc::SERVICE).as_zk().expect("service");
        assert!(!zk.tree.is_live(SessionId(0)) && !w.status(ActorId(0)).is_frozen());
    }
}
