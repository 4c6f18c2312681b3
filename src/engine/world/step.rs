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
//! * **Session expiry** fires only while the session's client cannot heartbeat: it is frozen,
//!   crashed, or its link is cut. Then any length of silence is possible, so it may expire.
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
//! * Other deliveries are free: any channel's head may arrive next (per-channel FIFO is kept).

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

/// Whether applying this fault spends one unit of a budget. Ending a fault (thaw, restore) is
/// free: it is the other half of the freeze or cut that was paid for.
pub fn costs(f: FaultAction) -> bool {
    !matches!(f, FaultAction::Thaw(_) | FaultAction::Restore(_))
}

/// The kind a fault action belongs to.
pub fn kind_of(f: FaultAction) -> FaultKind {
    match f {
        FaultAction::Freeze(_) | FaultAction::Thaw(_) => FaultKind::Freeze,
        FaultAction::Cut(_) | FaultAction::Restore(_) => FaultKind::Disconnect,
        FaultAction::Crash(_) => FaultKind::Crash,
        FaultAction::Reset(_) => FaultKind::LostResponse,
        FaultAction::ReleaseNow(_) => FaultKind::ReleaseEarly,
    }
}

impl World {
    /// Delivers every request that can arrive now (see the module notes), in channel order,
    /// until none is left; `trail` receives each delivery with the state it was taken in.
    pub fn deliver_requests(&mut self, mut trail: Option<&mut Vec<(World, Choice)>>) {
        loop {
            let next = self.channels.iter().position(|ch| {
                !ch.queue.is_empty()
                    && self.links[ch.to.0 as usize].is_none()
                    && self.can_act(ch.to)
                    && !self.link_down(ch.from, ch.to)
            });
            let Some(i) = next else {
                return;
            };
            if let Some(t) = trail.as_deref_mut() {
                t.push((self.clone(), Choice::Deliver(i)));
            }
            let now = self.now;
            self.apply(Choice::Deliver(i), now, &mut None);
        }
    }

    /// The choices this state offers without a clock (see the module notes), faults aside.
    pub fn untimed_choices(&self, out: &mut Vec<Choice>) {
        self.choices(out);
        out.retain(|c| match *c {
            // Requests are delivered as they are sent; only those held by a cut link wait,
            // and those are not enabled.
            Choice::Deliver(i) => self.links[self.channels[i].to.0 as usize].is_some(),
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
                st.crashed || st.is_frozen() || st.is_cut()
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
            if st.is_cut() {
                out.push(Choice::Fault(FaultAction::Restore(id)));
            }
            if left == 0 {
                continue;
            }
            let client = self.actor(id).as_lock();
            for k in kinds.iter() {
                let f = match k {
                    FaultKind::Freeze if !st.is_frozen() => FaultAction::Freeze(id),
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

    fn started() -> World {
        let (mut w, _) = abc::build(&AbcParams::default());
        w.start(&mut None);
        w
    }

    fn timer_choice(w: &World, owner: ActorId, timer: Timer) -> Option<usize> {
        w.timers
            .iter()
            .position(|t| t.owner == owner && t.timer == timer)
    }

    #[test]
    fn heartbeats_never_fire_and_a_healthy_session_never_expires() {
        let w = started();
        let mut out = Vec::new();
        w.untimed_choices(&mut out);
        let a = ActorId(0);
        let ping = timer_choice(&w, a, Timer::Ping).expect("armed");
        let read = timer_choice(&w, a, Timer::ReadTimeout).expect("armed");
        let expiry = timer_choice(
            &w,
            abc::SERVICE,
            Timer::SessionExpiry(crate::engine::zk::tree::SessionId(0)),
        )
        .expect("armed");
        for i in [ping, read, expiry] {
            assert!(!out.contains(&Choice::Fire(i)), "{:?}", w.timers[i].timer);
        }
        assert!(out.contains(&Choice::Fire(
            timer_choice(&w, a, Timer::Start).expect("armed")
        )));
    }

    #[test]
    fn a_cut_lets_the_read_timeout_and_the_expiry_fire() {
        let mut w = started();
        w.apply(Choice::Fault(FaultAction::Cut(ActorId(0))), 0, &mut None);
        let mut out = Vec::new();
        w.untimed_choices(&mut out);
        let read = timer_choice(&w, ActorId(0), Timer::ReadTimeout).expect("armed");
        let expiry = timer_choice(
            &w,
            abc::SERVICE,
            Timer::SessionExpiry(crate::engine::zk::tree::SessionId(0)),
        )
        .expect("armed");
        assert!(out.contains(&Choice::Fire(read)) && out.contains(&Choice::Fire(expiry)));
    }

    #[test]
    fn the_budget_decides_which_faults_are_offered() {
        let mut w = started();
        let mut out = Vec::new();
        w.fault_choices(FaultKinds::all(), 0, &mut out);
        assert!(out.is_empty(), "{out:?}");
        let kinds: FaultKinds = [FaultKind::Freeze].into_iter().collect();
        w.fault_choices(kinds, 1, &mut out);
        assert_eq!(out.len(), 3, "one freeze per client: {out:?}");
        w.apply(Choice::Fault(FaultAction::Freeze(ActorId(1))), 0, &mut None);
        out.clear();
        w.fault_choices(kinds, 0, &mut out);
        assert_eq!(out, [Choice::Fault(FaultAction::Thaw(ActorId(1)))]);
        assert!(!costs(FaultAction::Thaw(ActorId(1))) && costs(FaultAction::Crash(ActorId(0))));
    }
}
