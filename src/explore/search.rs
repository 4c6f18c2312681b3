//! Breadth-first search over every interleaving, with a visited set, so the first state found
//! to break an invariant is reached by a shortest sequence of choices.
//!
//! States are remembered by a 64-bit fingerprint of the whole state (as TLC and stateright do):
//! two distinct states sharing one is possible in principle and vanishingly unlikely at these
//! sizes (about n²/2⁶⁵ for n states). Each state keeps the choice and the parent it was first
//! reached by, so a path is read back by walking up. The search runs in slices ([`Search::run`]),
//! so a screen can draw between them and stop whenever it likes.

use std::collections::VecDeque;
use std::hash::{Hash, Hasher};

use rustc_hash::{FxHashSet, FxHasher};

use super::props::{self, DataWatch, Node, SOMETIMES};
use crate::engine::params::AbcParams;
use crate::engine::world::step::{FaultKinds, costs};
use crate::engine::world::{Choice, World};

/// The bounds of one search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bounds {
    /// How many faults may be injected on one path.
    pub faults: u8,
    /// Which kinds of fault.
    pub kinds: FaultKinds,
    /// States this many choices from the start are not expanded.
    pub depth: u32,
    /// The search stops (incomplete) once it has this many distinct states.
    pub max_states: u64,
}

/// A property's first sighting: a violation of an "always", a witness of a "sometimes".
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    pub property: &'static str,
    /// The choices from the start, in order.
    pub path: Vec<Choice>,
    /// How long into the search it was found.
    pub after_ms: u64,
}

/// Where a search stands.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Progress {
    /// States generated, repeats included.
    pub states: u64,
    pub distinct: u64,
    /// The deepest state reached.
    pub max_depth: u32,
    /// States waiting to be expanded.
    pub frontier: usize,
    pub elapsed_ms: u64,
}

pub struct Search {
    pub bounds: Bounds,
    /// The invariants checked on every state, in the order reports list them.
    pub checks: Vec<&'static str>,
    visited: FxHashSet<u64>,
    /// For each distinct state by number: its parent's number and the choice that led here.
    parents: Vec<(u32, Choice)>,
    queue: VecDeque<(u32, u32, Node)>,
    pub progress: Progress,
    /// Violations, in the order found (shortest first for each invariant).
    pub violations: Vec<Found>,
    /// Witnesses of the sometimes-properties, by index in [`SOMETIMES`].
    pub witnesses: [Option<Found>; SOMETIMES.len()],
    /// Some state at the depth bound still had choices left.
    pub depth_limited: bool,
    /// Stopped by `max_states` before the bounded space was explored.
    pub cut_short: bool,
    started: std::time::Instant,
    spent_ms: u64,
    choices: Vec<Choice>,
}

fn fingerprint(n: &Node) -> u64 {
    let mut h = FxHasher::default();
    n.hash(&mut h);
    h.finish()
}

/// The explorer's first state for a set of parameters: every actor started, the clock at zero.
pub fn initial(params: &AbcParams, faults: u8) -> Node {
    let (mut world, _) = crate::engine::families::abc::build(params);
    world.start(&mut None);
    world.settle_untimed();
    let marks = props::marks(None, &world, 0, false, false);
    Node {
        world,
        faults_left: faults,
        marks,
        data_setter: None,
    }
}

/// Every choice explored from a node, in a fixed order: deliveries, timers, then faults.
pub fn successors_of(node: &Node, kinds: FaultKinds, out: &mut Vec<Choice>) {
    node.world.untimed_choices(out);
    node.world.fault_choices(kinds, node.faults_left, out);
}

/// The node a choice leads to: the choice, then the requests it sent arriving (see
/// [`World::step_untimed`]); `trail` receives every step taken with the state before it.
pub fn next(node: &Node, c: Choice, mut trail: Option<&mut Vec<(World, Choice)>>) -> Node {
    let mut world = node.world.clone();
    let mut stale_refused = false;
    let mut data = DataWatch::new(node.data_setter);
    world.step_untimed(c, &mut |w: &World, c| {
        stale_refused |= props::stale_write_refused(w, c);
        data.before(w, c);
        if let Some(t) = trail.as_deref_mut() {
            t.push((w.clone(), c));
        }
    });
    data.settle(&world);
    let faults_left = match c {
        Choice::Fault(f) if costs(f) => node.faults_left.saturating_sub(1),
        _ => node.faults_left,
    };
    let marks = props::marks(
        Some(&node.world),
        &world,
        node.marks,
        stale_refused,
        data.lost,
    );
    Node {
        world,
        faults_left,
        marks,
        data_setter: data.setter,
    }
}

impl Search {
    pub fn new(params: &AbcParams, bounds: Bounds) -> Self {
        let root = initial(params, bounds.faults);
        let mut s = Self {
            bounds,
            checks: props::always_for(params),
            visited: FxHashSet::default(),
            parents: Vec::new(),
            queue: VecDeque::new(),
            progress: Progress::default(),
            violations: Vec::new(),
            witnesses: Default::default(),
            depth_limited: false,
            cut_short: false,
            started: std::time::Instant::now(),
            spent_ms: 0,
            choices: Vec::new(),
        };
        s.visited.insert(fingerprint(&root));
        s.parents.push((u32::MAX, Choice::Fire(usize::MAX)));
        s.progress.states = 1;
        s.progress.distinct = 1;
        s.check(0, &root);
        s.queue.push_back((0, 0, root));
        s
    }

    /// Whether there is nothing more to do.
    pub fn done(&self) -> bool {
        self.queue.is_empty() || self.cut_short
    }

    /// Whether the whole bounded space was explored.
    pub fn complete(&self) -> bool {
        self.queue.is_empty() && !self.cut_short
    }

    /// Expands up to `budget` states; returns whether the search is done.
    pub fn run(&mut self, budget: u64) -> bool {
        self.started = std::time::Instant::now();
        let mut expanded = 0;
        while expanded < budget && !self.done() {
            let Some((id, depth, node)) = self.queue.pop_front() else {
                break;
            };
            expanded += 1;
            self.expand(id, depth, &node);
        }
        self.spent_ms += self.started.elapsed().as_millis() as u64;
        self.progress.elapsed_ms = self.spent_ms;
        self.progress.frontier = self.queue.len();
        self.done()
    }

    fn expand(&mut self, id: u32, depth: u32, node: &Node) {
        let mut choices = std::mem::take(&mut self.choices);
        successors_of(node, self.bounds.kinds, &mut choices);
        if depth >= self.bounds.depth {
            self.depth_limited |= !choices.is_empty();
            self.choices = choices;
            return;
        }
        for &c in &choices {
            let child = next(node, c, None);
            self.progress.states += 1;
            if !self.visited.insert(fingerprint(&child)) {
                continue;
            }
            if self.progress.distinct >= self.bounds.max_states {
                self.cut_short = true;
                break;
            }
            let child_id = self.parents.len() as u32;
            self.parents.push((id, c));
            self.progress.distinct += 1;
            self.progress.max_depth = self.progress.max_depth.max(depth + 1);
            self.check(child_id, &child);
            self.queue.push_back((child_id, depth + 1, child));
        }
        self.choices = choices;
    }

    /// Records the first violation of each invariant and the first witness of each property.
    fn check(&mut self, id: u32, node: &Node) {
        for i in 0..self.checks.len() {
            let name = self.checks[i];
            if !props::holds(name, node) && !self.violations.iter().any(|f| f.property == name) {
                let found = self.found(name, id);
                self.violations.push(found);
            }
        }
        for (i, name) in SOMETIMES.iter().enumerate() {
            if self.witnesses[i].is_none() && props::seen(i, node) {
                self.witnesses[i] = Some(self.found(name, id));
            }
        }
    }

    fn found(&self, property: &'static str, id: u32) -> Found {
        Found {
            property,
            path: self.path(id),
            after_ms: self.spent_ms + self.started.elapsed().as_millis() as u64,
        }
    }

    /// The choices that first reached state `id`, from the start.
    fn path(&self, mut id: u32) -> Vec<Choice> {
        let mut out = Vec::new();
        while id != 0 {
            let (parent, c) = self.parents[id as usize];
            out.push(c);
            id = parent;
        }
        out.reverse();
        out
    }
}

/// Replays a path from the explorer's first state: every step taken, with the state it was
/// taken in (the requests that arrive at once included), for naming them.
pub fn replay(params: &AbcParams, faults: u8, path: &[Choice]) -> Vec<(World, Choice)> {
    let (mut world, _) = crate::engine::families::abc::build(params);
    world.start(&mut None);
    let mut out = Vec::with_capacity(path.len() * 2);
    world.deliver_requests(&mut |w: &mut World, c| {
        out.push((w.clone(), c));
        let now = w.now;
        w.apply(c, now, &mut None);
    });
    let mut node = Node {
        world,
        faults_left: faults,
        marks: 0,
        data_setter: None,
    };
    for &c in path {
        node = next(&node, c, Some(&mut out));
    }
    out
}
