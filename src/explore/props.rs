//! What the explorer checks: the "always" invariants on every state it reaches, and the
//! "sometimes" properties it looks for a witness of. Each is a pure function of one explored
//! state, so the search and the cross-check model evaluate exactly the same thing.

use crate::engine::actors::lock_client::Step;
use crate::engine::families::abc::{NAMES, RESOURCE, SERVICE};
use crate::engine::invariants;
use crate::engine::msg::ActorMsg;
use crate::engine::params::{AbcParams, DataWrite};
use crate::engine::trace::{Invariant, invariant};
use crate::engine::world::{ActorId, Choice, World};

/// One state of the search: the World (with its clock left at zero), how many faults may still
/// be injected, and a few marks of what has happened on the way here.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Node {
    pub world: World,
    pub faults_left: u8,
    /// Bits 0 to 2: client A, B or C has held the lock. Bit 3: a stale write was refused.
    /// Bit 4: a grant the service agreed with had a smaller token than an earlier one. Bit 5: an
    /// applied `setData` lost someone else's update. Bits 8 to 10: client A, B or C was granted
    /// the lock with the service agreeing.
    pub marks: u16,
    /// The client whose `setData` made the data node's current version (with a data node).
    pub data_setter: Option<u8>,
}

pub const STALE_REJECTED: u16 = 1 << 3;
pub const GRANT_WENT_BACK: u16 = 1 << 4;
pub const LOST_UPDATE: u16 = 1 << 5;
const AGREED: u16 = 1 << 8;

/// A property the explorer checks, by name, with its check on one explored state: for an
/// "always", whether it holds; for a "sometimes", whether the state shows it.
#[derive(Debug, Clone, Copy)]
pub struct Property {
    pub name: Invariant,
    pub check: fn(&Node) -> bool,
}

impl Property {
    /// What `node` says of it.
    pub fn on(&self, node: &Node) -> bool {
        (self.check)(node)
    }
}

/// Every invariant the explorer can check, in the order reports list them.
pub const ALWAYS: [Property; 5] = [
    Property {
        name: invariant::ONE_HOLDER,
        check: |n| invariants::holder_count(&n.world) <= 1,
    },
    Property {
        name: invariant::TOKENS_NON_DECREASING,
        check: |n| {
            !invariants::tokens_went_backwards(&n.world, RESOURCE) && n.marks & GRANT_WENT_BACK == 0
        },
    },
    Property {
        name: invariant::NO_ORPHAN_NODE,
        check: |n| {
            n.world
                .actor(SERVICE)
                .as_zk()
                .is_none_or(|zk| zk.tree.orphans().next().is_none())
        },
    },
    Property {
        name: invariant::NOBODY_STUCK,
        check: |n| invariants::stuck_clients(&n.world, SERVICE, NAMES.len()) == 0,
    },
    Property {
        name: invariant::NO_LOST_UPDATE,
        check: |n| n.marks & LOST_UPDATE == 0,
    },
];

/// The invariants checked for a scenario: those its timed run checks (`no_lost_update` only
/// when holders update a data node).
pub fn always_for(params: &AbcParams) -> Vec<Property> {
    ALWAYS
        .into_iter()
        .filter(|p| p.name != invariant::NO_LOST_UPDATE || params.data_write != DataWrite::Off)
        .collect()
}

/// The properties a witness is looked for.
pub const SOMETIMES: [Property; 2] = [
    Property {
        name: invariant::EVERYONE_HELD,
        check: |n| {
            let all_held = (1u16 << NAMES.len()) - 1;
            n.marks & all_held == all_held
        },
    },
    Property {
        name: invariant::STALE_WRITE_REJECTED,
        check: |n| n.marks & STALE_REJECTED != 0,
    },
];

/// Whether `name` is one of the explorer's "always" invariants.
pub fn is_always(name: Invariant) -> bool {
    ALWAYS.iter().any(|p| p.name == name)
}

fn holding(world: &World, c: usize) -> Option<u64> {
    world.actors[c]
        .as_lock()
        .filter(|l| l.step == Step::Holding)
        .map(|l| l.token)
}

/// The marks of `world`, reached from `before` (with `marks`) in one step; `stale_refused`
/// tells whether a stale write was refused on the way, `lost` whether an update was lost.
pub fn marks(
    before: Option<&World>,
    world: &World,
    marks: u16,
    stale_refused: bool,
    lost: bool,
) -> u16 {
    let mut m = marks;
    let agreed = invariants::service_holders(world);
    for c in 0..NAMES.len() {
        let Some(token) = holding(world, c) else {
            continue;
        };
        m |= 1 << c;
        let new = before.is_none_or(|b| holding(b, c).is_none());
        if new && agreed.contains(&ActorId(c as u8)) {
            let earlier = (0..NAMES.len())
                .filter(|&d| d != c && marks & (AGREED << d) != 0)
                .filter_map(|d| world.actors[d].as_lock().map(|l| l.token));
            if invariants::grant_went_backwards(token, earlier) {
                m |= GRANT_WENT_BACK;
            }
            m |= AGREED << c;
        }
    }
    if stale_refused {
        m |= STALE_REJECTED;
    }
    if lost {
        m |= LOST_UPDATE;
    }
    m
}

/// Follows the data node through the steps of one choice: who set its current version, and
/// whether a write lost someone else's update. Call [`DataWatch::before`] before each step and
/// [`DataWatch::settle`] once after the last.
#[derive(Debug, Clone, Copy, Default)]
pub struct DataWatch {
    pub setter: Option<u8>,
    pub lost: bool,
    /// A `setData` just delivered: writer, its read, and the version before it.
    pending: Option<(ActorId, Option<i32>, i32)>,
}

impl DataWatch {
    pub fn new(setter: Option<u8>) -> Self {
        Self {
            setter,
            ..Self::default()
        }
    }

    pub fn before(&mut self, world: &World, c: Choice) {
        self.settle(world);
        if let (Choice::Deliver(i), Some(version)) = (c, invariants::data_version(world))
            && let Some((writer, read)) = invariants::data_write_at(world, i)
        {
            self.pending = Some((writer, read, version));
        }
    }

    /// Judges the `setData` delivered last, now that `world` shows whether it was applied.
    pub fn settle(&mut self, world: &World) {
        let Some((writer, read, version)) = self.pending.take() else {
            return;
        };
        if invariants::data_version(world).is_some_and(|v| v > version) {
            let by = self.setter.map(ActorId);
            self.lost |= invariants::lost_update(writer, read, version, by);
            self.setter = Some(writer.0);
        }
    }
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
    let Some(ActorMsg::Write { token }) = ch.queue.first().map(|m| &m.msg) else {
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
