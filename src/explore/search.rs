//! Breadth-first search over every interleaving, level by level, so the first state found to
//! break an invariant is reached by a shortest sequence of choices.
//!
//! States are remembered only by a 64-bit fingerprint of the whole state (as TLC and stateright
//! do): two distinct states sharing one is possible in principle and unlikely at these sizes
//! (about n²/2⁶⁵ for n states: one in 600,000 for eight million). Each state
//! keeps its parent's number and the position of the choice that led here among the parent's
//! choices (6 bytes), so a path is rebuilt by replaying those positions from the first state.
//! Only the states of the level being expanded and of the next one are kept whole.
//!
//! A level is expanded in batches: the states of a batch are stepped on every thread at once,
//! then their children are taken in the batch's order, so the states numbered, the first
//! violation found and every count are the same whatever the thread count. The search runs in
//! slices ([`Search::run`]) so a screen can draw between them and stop whenever it likes; it
//! stops by itself, incomplete, at its state or memory limit (see [`super::memory`]).

use std::collections::VecDeque;
use std::hash::{Hash, Hasher};
use std::time::Instant;

use rustc_hash::{FxHashSet, FxHasher};

use super::memory;
use super::props::{self, DataWatch, Node, Property, SOMETIMES};
use crate::engine::params::AbcParams;
use crate::engine::trace::Invariant;
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
    /// The search stops (incomplete) before the process's heap grows past this many bytes.
    pub max_memory: u64,
    /// Threads stepping states (at least one).
    pub threads: usize,
}

impl Bounds {
    /// The command line's defaults for a budget of faults of some kinds.
    pub fn new(faults: u8, kinds: FaultKinds) -> Self {
        Self {
            faults,
            kinds,
            depth: super::DEFAULT_DEPTH,
            max_states: super::DEFAULT_MAX_STATES,
            max_memory: memory::DEFAULT_MAX_MEMORY,
            threads: all_threads(),
        }
    }
}

/// Every core the process may run on.
pub fn all_threads() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}

/// Why a search stopped before its bounded space was explored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    /// It had `max_states` distinct states.
    States,
    /// Its memory reached `max_memory` (or the process's own limit).
    Memory,
}

/// A property's first sighting: a violation of an "always", a witness of a "sometimes".
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    pub property: Invariant,
    /// The choices from the start, in order.
    pub path: Vec<Choice>,
    /// How long into the search it was found.
    pub after_ms: u64,
}

/// Where a search stands.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SearchProgress {
    /// States generated, repeats included.
    pub states: u64,
    pub distinct: u64,
    /// The deepest state reached.
    pub max_depth: u32,
    /// States waiting to be expanded.
    pub frontier: usize,
    pub elapsed_ms: u64,
    /// The most heap in use at any look (the search's tables, frontier and batch included).
    pub memory_bytes: u64,
}

/// The most states stepped per batch: enough to keep every thread busy, few enough that the
/// children of one batch (kept whole until merged) stay a few tens of megabytes. Near the
/// memory limit batches shrink so that one never takes more than half the room left.
const BATCH: usize = 1024;

/// A state a batch reached, before it is known to be new.
struct Child {
    parent: u32,
    /// The position of its choice among the parent's choices.
    via: u16,
    fingerprint: u64,
    /// Bit i: `checks[i]` fails here; bit 8 + i: sometimes-property i is seen here.
    verdict: u16,
    node: Node,
}

/// What stepping one batch gave: its children in order, and whether a state at the depth bound
/// still had choices.
#[derive(Default)]
struct Stepped {
    children: Vec<Child>,
    depth_limited: bool,
    generated: u64,
}

pub struct Search {
    pub bounds: Bounds,
    /// The invariants checked on every state, in the order reports list them.
    pub checks: Vec<Property>,
    root: Node,
    visited: FxHashSet<u64>,
    /// For each distinct state by number: its parent's number and its choice's position.
    parent: Vec<u32>,
    via: Vec<u16>,
    /// The level being expanded (numbered states, whole), and the one it is making.
    level: VecDeque<(u32, Node)>,
    next_level: Vec<(u32, Node)>,
    /// How many choices from the start the states of `level` are.
    depth: u32,
    pub progress: SearchProgress,
    /// Violations, in the order found (shortest first for each invariant).
    pub violations: Vec<Found>,
    /// Witnesses of the sometimes-properties, by index in [`SOMETIMES`].
    pub witnesses: [Option<Found>; SOMETIMES.len()],
    /// Some state at the depth bound still had choices left.
    pub depth_limited: bool,
    /// Why it stopped before the bounded space was explored, if it did.
    pub stopped: Option<Stop>,
    /// The memory limit kept: `max_memory`, lowered under a process limit.
    pub memory_limit: u64,
    /// The heap one stepped state's children took in the last batch, when the heap is counted.
    batch_bytes_per_state: u64,
    started: Instant,
    spent_ms: u64,
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
        let checks = props::always_for(params);
        let verdict = verdict_of(&checks, &root);
        let mut s = Self {
            bounds,
            checks,
            root: root.clone(),
            visited: FxHashSet::default(),
            parent: vec![u32::MAX],
            via: vec![0],
            level: VecDeque::new(),
            next_level: Vec::new(),
            depth: 0,
            progress: SearchProgress::default(),
            violations: Vec::new(),
            witnesses: Default::default(),
            depth_limited: false,
            stopped: None,
            memory_limit: memory::ceiling(bounds.max_memory),
            batch_bytes_per_state: 0,
            started: Instant::now(),
            spent_ms: 0,
        };
        s.visited.insert(fingerprint(&root));
        s.progress.states = 1;
        s.progress.distinct = 1;
        s.record(0, verdict);
        s.level.push_back((0, root));
        s
    }

    /// Whether there is nothing more to do.
    pub fn done(&self) -> bool {
        self.stopped.is_some() || (self.level.is_empty() && self.next_level.is_empty())
    }

    /// Whether the whole bounded space was explored.
    pub fn complete(&self) -> bool {
        self.done() && self.stopped.is_none()
    }

    /// Expands up to `budget` states; returns whether the search is done.
    pub fn run(&mut self, budget: u64) -> bool {
        self.started = Instant::now();
        let mut left = budget;
        while left > 0 && !self.done() {
            if self.level.is_empty() {
                self.level = VecDeque::from(std::mem::take(&mut self.next_level));
                self.depth += 1;
                continue;
            }
            let n = (left.min(self.batch_size() as u64) as usize).min(self.level.len());
            left -= n as u64;
            self.expand_batch(n);
        }
        self.spent_ms += self.started.elapsed().as_millis() as u64;
        self.progress.elapsed_ms = self.spent_ms;
        self.progress.frontier = self.level.len() + self.next_level.len();
        self.look_at_memory();
        self.done()
    }

    /// How many states the next batch steps: [`BATCH`], or fewer when the children of that
    /// many would take more than half the memory left.
    fn batch_size(&self) -> usize {
        let left = self.memory_limit.saturating_sub(self.memory_in_use());
        let fits = (left / 2) / self.batch_bytes_per_state.max(1);
        (fits as usize).clamp(1, BATCH)
    }

    /// The heap in use now, kept as the peak; whether it is within the limit.
    fn look_at_memory(&mut self) -> bool {
        let now = self.memory_in_use();
        self.progress.memory_bytes = self.progress.memory_bytes.max(now);
        now < self.memory_limit
    }

    /// The bytes the visited set and the parent links take per distinct state (the frontier
    /// aside), from their capacities.
    pub fn table_bytes(&self) -> u64 {
        let buckets = (self.visited.capacity() * 8 / 7).next_power_of_two() as u64;
        let set = buckets * (std::mem::size_of::<u64>() as u64 + 1);
        let links = self.parent.capacity() * 4 + self.via.capacity() * 2;
        set + links as u64
    }

    fn memory_in_use(&self) -> u64 {
        // Without the counting allocator (a test, a bench), the tables and the frontier's
        // own slots are all that is known.
        memory::heap_bytes().unwrap_or_else(|| {
            let slot = std::mem::size_of::<(u32, Node)>();
            self.table_bytes()
                + ((self.level.capacity() + self.next_level.capacity()) * slot) as u64
        })
    }

    fn expand_batch(&mut self, n: usize) {
        let before = memory::heap_bytes();
        let batch: Vec<(u32, Node)> = self.level.drain(..n).collect();
        let at_bound = self.depth >= self.bounds.depth;
        let threads = self.bounds.threads.clamp(1, n.max(1));
        let stepped = if threads == 1 {
            step_all(&batch, self.bounds.kinds, at_bound, &self.checks)
        } else {
            let per = n.div_ceil(threads);
            let (kinds, checks) = (self.bounds.kinds, &self.checks);
            std::thread::scope(|scope| {
                let parts: Vec<_> = batch
                    .chunks(per)
                    .map(|part| scope.spawn(move || step_all(part, kinds, at_bound, checks)))
                    .collect();
                let mut all = Stepped::default();
                for part in parts {
                    let p = part.join().expect("a search thread panicked");
                    all.children.extend(p.children);
                    all.depth_limited |= p.depth_limited;
                    all.generated += p.generated;
                }
                all
            })
        };
        drop(batch);
        if let (Some(b), Some(a)) = (before, memory::heap_bytes()) {
            self.batch_bytes_per_state = a.saturating_sub(b) / n as u64;
        }
        self.depth_limited |= stepped.depth_limited;
        if !self.look_at_memory() || !self.make_room(stepped.children.len()) {
            self.stopped = Some(Stop::Memory);
            return;
        }
        self.progress.states += stepped.generated;
        for child in stepped.children {
            if !self.visited.insert(child.fingerprint) {
                continue;
            }
            if self.progress.distinct >= self.bounds.max_states {
                self.stopped = Some(Stop::States);
                return;
            }
            let id = self.parent.len() as u32;
            self.parent.push(child.parent);
            self.via.push(child.via);
            self.progress.distinct += 1;
            self.progress.max_depth = self.progress.max_depth.max(self.depth + 1);
            self.record(id, child.verdict);
            self.next_level.push((id, child.node));
        }
        if !self.look_at_memory() {
            self.stopped = Some(Stop::Memory);
        }
    }

    /// Reserves room for `n` more states in every table, without growing past the memory
    /// limit (a table doubling needs its old and new halves at once).
    fn make_room(&mut self, n: usize) -> bool {
        let grows = self.visited.len() + n > self.visited.capacity();
        let growth = if grows { self.table_bytes() * 2 } else { 0 };
        self.memory_in_use() + growth < self.memory_limit
            && self.visited.try_reserve(n).is_ok()
            && self.parent.try_reserve(n).is_ok()
            && self.via.try_reserve(n).is_ok()
            && self.next_level.try_reserve(n).is_ok()
    }

    /// Records the first violation of each invariant and the first witness of each property
    /// that state `id` shows.
    fn record(&mut self, id: u32, verdict: u16) {
        if verdict == 0 {
            return;
        }
        for i in 0..self.checks.len() {
            let name = self.checks[i].name;
            if verdict & (1 << i) != 0 && !self.violations.iter().any(|f| f.property == name) {
                let found = self.found(name, id);
                self.violations.push(found);
            }
        }
        for (i, p) in SOMETIMES.iter().enumerate() {
            if verdict & (1 << (8 + i)) != 0 && self.witnesses[i].is_none() {
                self.witnesses[i] = Some(self.found(p.name, id));
            }
        }
    }

    fn found(&self, property: Invariant, id: u32) -> Found {
        Found {
            property,
            path: self.path(id),
            after_ms: self.spent_ms + self.started.elapsed().as_millis() as u64,
        }
    }

    /// The choices that first reached state `id`, from the start: the positions kept, replayed.
    fn path(&self, mut id: u32) -> Vec<Choice> {
        let mut positions = Vec::new();
        while id != 0 {
            positions.push(self.via[id as usize]);
            id = self.parent[id as usize];
        }
        let mut node = self.root.clone();
        let mut choices = Vec::new();
        let mut out = Vec::with_capacity(positions.len());
        for &p in positions.iter().rev() {
            successors_of(&node, self.bounds.kinds, &mut choices);
            let c = choices[usize::from(p)];
            out.push(c);
            node = next(&node, c, None);
        }
        out
    }
}

/// What a state shows: bit i, `checks[i]` fails; bit 8 + i, sometimes-property i is seen.
fn verdict_of(checks: &[Property], node: &Node) -> u16 {
    let failing = checks
        .iter()
        .enumerate()
        .filter(|(_, p)| !p.on(node))
        .fold(0u16, |v, (i, _)| v | 1 << i);
    SOMETIMES
        .iter()
        .enumerate()
        .filter(|(_, p)| p.on(node))
        .fold(failing, |v, (i, _)| v | 1 << (8 + i))
}

/// Steps every state of a batch part: its children in order, each with its fingerprint and
/// verdict (or, at the depth bound, only whether it had choices).
fn step_all(
    part: &[(u32, Node)],
    kinds: FaultKinds,
    at_bound: bool,
    checks: &[Property],
) -> Stepped {
    let mut out = Stepped::default();
    let mut choices = Vec::new();
    for (id, node) in part {
        successors_of(node, kinds, &mut choices);
        if at_bound {
            out.depth_limited |= !choices.is_empty();
            continue;
        }
        out.generated += choices.len() as u64;
        for (via, &c) in choices.iter().enumerate() {
            let child = next(node, c, None);
            out.children.push(Child {
                parent: *id,
                via: via as u16,
                fingerprint: fingerprint(&child),
                verdict: verdict_of(checks, &child),
                node: child,
            });
        }
    }
    out
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
