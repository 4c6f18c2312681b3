//! The bounded A/B/C model written a second time, for stateright: its own enabled actions, its
//! own reading of the time abstraction and the fault budget (from the rules documented in
//! `engine::world::step`), its own properties. Only the World's own steps (`choices`,
//! `apply`) and the named invariants are shared: they are the system being checked, not the
//! checker. Used by `tests/it/explore_stateright.rs` and `benches/explore.rs`.
#![allow(dead_code)]

use stateright::{Model, Property};

use locklab::engine::actors::lock_client::Step;
use locklab::engine::families::abc::{self, NAMES, RESOURCE, SERVICE};
use locklab::engine::invariants;
use locklab::engine::msg::{ActorMsg, Timer};
use locklab::engine::params::AbcParams;
use locklab::engine::trace::invariant;
use locklab::engine::world::step::{FaultKind, FaultKinds};
use locklab::engine::world::{ActorId, Choice, FaultAction, Phase, World};
use locklab::engine::zk::client::ConnState;

pub struct Abc {
    pub params: AbcParams,
    pub kinds: FaultKinds,
    pub faults: u8,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct State {
    world: World,
    faults_left: u8,
    /// A, B, C have held (bits 0 to 2); a stale write was refused (bit 3); a grant the service
    /// agreed with had a smaller token than an earlier one (bit 4); an update was lost (bit 5);
    /// A, B, C were granted with the service agreeing (bits 8 to 10).
    marks: u16,
    /// Who applied the data node's current version.
    data_setter: Option<u8>,
}

const STALE: u16 = 8;
const BACKWARDS: u16 = 16;
const LOST: u16 = 32;
const AGREED: u16 = 256;

/// What the steps of one action did besides changing the World.
struct Seen {
    stale: bool,
    lost: bool,
    setter: Option<u8>,
}

fn linked(w: &World, a: ActorId) -> bool {
    w.links[a.0 as usize].is_some()
}

fn cut_between(w: &World, from: ActorId, to: ActorId) -> bool {
    let down = |c: ActorId, s: ActorId| w.links[c.0 as usize] == Some(s) && w.status(c).is_cut();
    down(from, to) || down(to, from)
}

fn lock(w: &World, a: ActorId) -> Option<&locklab::engine::actors::LockClient> {
    w.actor(a).as_lock()
}

/// A message the receiver takes in the same step it is sent: any request (to an actor that is
/// not a client), or a message to a client that the client would only throw away.
fn arrives_at_once(w: &World, i: usize) -> bool {
    let ch = &w.channels[i];
    let Some(head) = ch.queue.first() else {
        return false;
    };
    if !w.can_act(ch.to) || cut_between(w, ch.from, ch.to) {
        return false;
    }
    if !linked(w, ch.to) {
        return true;
    }
    let c = ch.to.0 as usize;
    let gone = lock(w, ch.to)
        .is_some_and(|l| matches!(l.conn.state, ConnState::Closed | ConnState::Expired));
    w.links[c] == Some(ch.from) && (head.epoch != w.conn_epoch[c] || gone)
}

/// Whether delivering channel `i`'s head is a stale write the resource refuses.
fn refused_stale_write(w: &World, i: usize) -> bool {
    let ch = &w.channels[i];
    let Some(ActorMsg::Write { token }) = ch.queue.first().map(|m| &m.msg) else {
        return false;
    };
    if ch.to != RESOURCE {
        return false;
    }
    let res = w.actor(RESOURCE).as_resource().expect("resource");
    let zk = abc::zk(w);
    let s = zk
        .tree
        .session(lock(w, ch.from).expect("client").conn.session);
    res.fencing && *token < res.last_seen_token && !s.live && !s.closed
}

fn apply(w: &mut World, c: Choice, seen: &mut Seen) {
    let mut write = None;
    if let Choice::Deliver(i) = c {
        seen.stale |= refused_stale_write(w, i);
        write = invariants::data_write_at(w, i).zip(invariants::data_version(w));
    }
    w.apply(c, 0, &mut None);
    // A setData that moved the version on was applied, over whatever version it found.
    if let Some(((writer, read), before)) = write
        && invariants::data_version(w).is_some_and(|v| v > before)
    {
        let by = seen.setter.map(ActorId);
        seen.lost |= invariants::lost_update(writer, read, before, by);
        seen.setter = Some(writer.0);
    }
}

fn settle(w: &mut World, seen: &mut Seen) {
    while let Some(i) = (0..w.channels.len()).find(|&i| arrives_at_once(w, i)) {
        apply(w, Choice::Deliver(i), seen);
    }
}

fn expiry_timer(w: &World, client: ActorId) -> Option<usize> {
    let zk = abc::zk(w);
    w.timers.iter().position(|t| {
        t.owner == SERVICE && matches!(t.timer, Timer::SessionExpiry(s) if zk.owner(s) == client)
    })
}

/// The time abstraction, read again from its documentation.
fn timer_enabled(w: &World, i: usize) -> bool {
    let t = &w.timers[i];
    let me = t.owner;
    match t.timer {
        Timer::Ping => false,
        Timer::ReadTimeout => w.status(me).is_cut(),
        Timer::Reconnect => {
            let l = lock(w, me).expect("a client's timer");
            l.conn.state == ConnState::Reconnecting
                && w.in_flight(me, SERVICE).count() == 0
                && w.in_flight(SERVICE, me).count() == 0
        }
        Timer::SessionExpiry(s) => {
            let c = abc::zk(w).owner(s);
            let st = w.status(c);
            let noticed = lock(w, c).is_some_and(|l| l.conn.state != ConnState::Connected);
            st.crashed || st.is_frozen() || (st.is_cut() && noticed)
        }
        Timer::Start => w
            .timers
            .iter()
            .all(|u| u.timer != Timer::Start || u.owner >= me),
        mine if mine.phase() == Phase::Work => w.timers.iter().all(|u| {
            u.owner != me
                || u.timer == mine
                || u.timer.phase() != Phase::Work
                || (u.due, u.timer) > (t.due, mine)
        }),
        _ => true,
    }
}

fn holding_token(w: &World, c: usize) -> Option<u64> {
    w.actors[c]
        .as_lock()
        .filter(|l| l.step == Step::Holding)
        .map(|l| l.token)
}

fn held_marks(w: &World) -> u16 {
    (0..NAMES.len())
        .filter(|&c| holding_token(w, c).is_some())
        .fold(0, |m, c| m | 1 << c)
}

/// The grants of this step the service agrees with, and whether one went below an earlier
/// grant's token.
fn grant_marks(before: Option<&World>, w: &World, marks: u16) -> u16 {
    let agreed = invariants::service_holders(w);
    let mut m = 0;
    for c in 0..NAMES.len() {
        let Some(token) = holding_token(w, c) else {
            continue;
        };
        let was = before.and_then(|b| holding_token(b, c));
        if was.is_some() || !agreed.contains(&ActorId(c as u8)) {
            continue;
        }
        let earlier = (0..NAMES.len())
            .filter(|&d| d != c && marks & (AGREED << d) != 0)
            .map(|d| lock(w, ActorId(d as u8)).expect("a client").token);
        if invariants::grant_went_backwards(token, earlier) {
            m |= BACKWARDS;
        }
        m |= AGREED << c;
    }
    m
}

impl Model for Abc {
    type State = State;
    type Action = Choice;

    fn init_states(&self) -> Vec<State> {
        let (mut world, _) = abc::build(&self.params);
        world.start(&mut None);
        let mut seen = Seen {
            stale: false,
            lost: false,
            setter: None,
        };
        settle(&mut world, &mut seen);
        let marks = held_marks(&world) | grant_marks(None, &world, 0);
        vec![State {
            world,
            faults_left: self.faults,
            marks,
            data_setter: seen.setter,
        }]
    }

    fn actions(&self, s: &State, out: &mut Vec<Choice>) {
        let w = &s.world;
        let mut enabled = Vec::new();
        w.choices(&mut enabled);
        for c in enabled {
            let keep = match c {
                Choice::Deliver(i) => !arrives_at_once(w, i),
                Choice::Fire(i) => timer_enabled(w, i),
                Choice::Fault(_) => false,
            };
            if keep {
                out.push(c);
            }
        }
        for a in (0..NAMES.len()).map(|i| ActorId(i as u8)) {
            let st = w.status(a);
            if st.crashed {
                continue;
            }
            if st.is_frozen() {
                out.push(Choice::Fault(FaultAction::Thaw(a)));
            }
            let waiting = w.in_flight(a, SERVICE).count() + w.in_flight(SERVICE, a).count();
            if st.is_cut() && waiting > 0 {
                out.push(Choice::Fault(FaultAction::Restore(a)));
            }
            let l = lock(w, a).expect("a client");
            let busy = l.step != Step::Idle
                && !matches!(l.conn.state, ConnState::Closed | ConnState::Expired);
            if s.faults_left == 0 || !busy {
                continue;
            }
            let ok = |k: FaultKind| self.kinds.contains(k);
            if ok(FaultKind::Freeze) && !st.is_frozen() && expiry_timer(w, a).is_some() {
                out.push(Choice::Fault(FaultAction::Freeze(a)));
            }
            if ok(FaultKind::Disconnect) && !st.is_cut() {
                out.push(Choice::Fault(FaultAction::Cut(a)));
            }
            if ok(FaultKind::Crash) {
                out.push(Choice::Fault(FaultAction::Crash(a)));
            }
            if ok(FaultKind::LostResponse)
                && l.conn.state == ConnState::Connected
                && w.in_flight(SERVICE, a).count() > 0
            {
                out.push(Choice::Fault(FaultAction::Reset(a)));
            }
            if ok(FaultKind::ReleaseEarly) && !st.is_frozen() && l.step == Step::Holding {
                out.push(Choice::Fault(FaultAction::ReleaseNow(a)));
            }
        }
    }

    fn next_state(&self, s: &State, c: Choice) -> Option<State> {
        let mut w = s.world.clone();
        let mut seen = Seen {
            stale: false,
            lost: false,
            setter: s.data_setter,
        };
        apply(&mut w, c, &mut seen);
        let mut left = s.faults_left;
        if let Choice::Fault(f) = c {
            match f {
                FaultAction::Thaw(_) | FaultAction::Restore(_) => {}
                _ => left -= 1,
            }
            match f {
                // A pause long enough for the session to expire.
                FaultAction::Freeze(a) => {
                    if let Some(i) = expiry_timer(&w, a) {
                        apply(&mut w, Choice::Fire(i), &mut seen);
                    }
                    apply(&mut w, Choice::Fault(FaultAction::Thaw(a)), &mut seen);
                }
                FaultAction::Crash(a) => {
                    if let Some(i) = expiry_timer(&w, a) {
                        apply(&mut w, Choice::Fire(i), &mut seen);
                    }
                }
                // Cut off, and noticed at once if it was connected.
                FaultAction::Cut(a) => {
                    let read = (0..w.timers.len()).find(|&i| {
                        w.timers[i].owner == a && w.timers[i].timer == Timer::ReadTimeout
                    });
                    if let Some(i) = read {
                        apply(&mut w, Choice::Fire(i), &mut seen);
                    }
                }
                _ => {}
            }
        }
        settle(&mut w, &mut seen);
        let mut marks = s.marks | held_marks(&w) | grant_marks(Some(&s.world), &w, s.marks);
        if seen.stale {
            marks |= STALE;
        }
        if seen.lost {
            marks |= LOST;
        }
        Some(State {
            world: w,
            faults_left: left,
            marks,
            data_setter: seen.setter,
        })
    }

    fn properties(&self) -> Vec<Property<Self>> {
        vec![
            Property::always(invariant::ONE_HOLDER.name(), |_, s: &State| {
                invariants::holder_count(&s.world) <= 1
            }),
            Property::always(invariant::TOKENS_NON_DECREASING.name(), |_, s: &State| {
                !invariants::tokens_went_backwards(&s.world, RESOURCE) && s.marks & BACKWARDS == 0
            }),
            Property::always(invariant::NO_ORPHAN_NODE.name(), |_, s: &State| {
                abc::zk(&s.world).tree.orphans().next().is_none()
            }),
            Property::always(invariant::NOBODY_STUCK.name(), |_, s: &State| {
                invariants::stuck_clients(&s.world, SERVICE, NAMES.len()) == 0
            }),
            Property::always(invariant::NO_LOST_UPDATE.name(), |_, s: &State| {
                s.marks & LOST == 0
            }),
            Property::sometimes(invariant::EVERYONE_HELD.name(), |_, s: &State| {
                s.marks & 7 == 7
            }),
            Property::sometimes(invariant::STALE_WRITE_REJECTED.name(), |_, s: &State| {
                s.marks & STALE != 0
            }),
        ]
    }
}
