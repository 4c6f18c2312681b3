//! What the explorer checks: the "always" invariants on every state it reaches, and the
//! "sometimes" properties it looks for a witness of. Each is a pure function of one explored
//! state, so the search and the cross-check model evaluate exactly the same thing.

use crate::engine::actors::lock_client::Step;
use crate::engine::families::abc::{NAMES, RESOURCE, SERVICE};
use crate::engine::invariants;
use crate::engine::msg::Msg;
use crate::engine::trace::invariant;
use crate::engine::world::{Choice, World};

/// One state of the search: the World (with its clock left at zero), how many faults may still
/// be injected, and a few marks of what has happened on the way here.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Node {
    pub world: World,
    pub faults_left: u8,
    /// Bits 0 to 2: client A, B or C has held the lock. Bit 3: a stale write was refused.
    pub marks: u8,
}

pub const STALE_REJECTED: u8 = 1 << 3;

/// The invariants that must hold in every state, in the order reports list them.
pub const ALWAYS: [&str; 4] = invariant::ALWAYS;

/// The properties a witness is looked for.
pub const SOMETIMES: [&str; 2] = [invariant::EVERYONE_HELD, invariant::STALE_WRITE_REJECTED];

/// Whether always-invariant `i` of [`ALWAYS`] holds in `world`.
pub fn holds(i: usize, world: &World) -> bool {
    match i {
        0 => invariants::holder_count(world) <= 1,
        1 => !invariants::tokens_went_backwards(world, RESOURCE),
        2 => world
            .actor(SERVICE)
            .as_zk()
            .is_none_or(|zk| zk.tree.orphans().next().is_none()),
        _ => invariants::stuck_clients(world, SERVICE, NAMES.len()) == 0,
    }
}

/// Whether sometimes-property `i` of [`SOMETIMES`] is seen in `node`.
pub fn seen(i: usize, node: &Node) -> bool {
    let all_held = (1u8 << NAMES.len()) - 1;
    match i {
        0 => node.marks & all_held == all_held,
        _ => node.marks & STALE_REJECTED != 0,
    }
}

/// The marks of a state reached with `marks` before, `stale_refused` telling whether a stale
/// write was refused on the way.
pub fn marks(world: &World, marks: u8, stale_refused: bool) -> u8 {
    let mut m = marks;
    for c in 0..NAMES.len() {
        if world.actors[c]
            .as_lock()
            .is_some_and(|l| l.step == Step::Holding)
        {
            m |= 1 << c;
        }
    }
    if stale_refused {
        m |= STALE_REJECTED;
    }
    m
}

/// Whether this choice delivers a write the resource will refuse, from a writer whose session
/// the service had already expired (as the timed run judges a stale write).
pub fn stale_write_refused(world: &World, choice: Choice) -> bool {
    let Choice::Deliver(i) = choice else {
        return false;
    };
    let ch = &world.channels[i];
    if ch.to != RESOURCE {
        return false;
    }
    let Some(Msg::Write { token }) = ch.queue.first().map(|m| &m.msg) else {
        return false;
    };
    let (Some(res), Some(zk), Some(writer)) = (
        world.actor(RESOURCE).as_resource(),
        world.actor(SERVICE).as_zk(),
        world.actor(ch.from).as_lock(),
    ) else {
        return false;
    };
    let s = zk.tree.session(writer.conn.session);
    res.fencing && *token < res.last_seen_token && !s.live && !s.closed
}
