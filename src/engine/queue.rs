//! The event queue: every tie between simultaneous events resolves the same documented way.
//!
//! Events are ordered by time, then by [`Phase`], then by the order they were scheduled in.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::time::Millis;

/// The order in which events due at the same instant are handled.
///
/// Services settle their own state first (expiries, then releases, then renewals, then new
/// requests), then clients hear about it, then clients act (planned work before a pause that
/// starts at the same instant, waking before a keepalive tick), then the protected resource
/// applies writes. Within a phase, events run in the order they were scheduled.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Phase {
    /// A lease or session reaches its deadline.
    Expiry = 0,
    /// A release or node deletion reaches the service.
    Release = 1,
    /// A keepalive or heartbeat reaches the service.
    Keepalive = 2,
    /// Any other request reaches the service (acquire, create, read, watch).
    Request = 3,
    /// A response or notification reaches a client.
    Deliver = 4,
    /// A client's own timer for work it planned (critical section done, write due, retry).
    Work = 5,
    /// A client freezes (GC pause) or loses its connection.
    Freeze = 6,
    /// A client wakes from a pause or gets its connection back.
    Wake = 7,
    /// A client's periodic keepalive or heartbeat timer.
    Tick = 8,
    /// A write reaches the protected resource.
    Write = 9,
}

/// One queued event with its ordering key: (time, phase, insertion order).
type Entry<E> = Reverse<(Millis, Phase, u64, Slot<E>)>;

/// A min-queue of events keyed by (time, phase, insertion order).
#[derive(Debug, Clone)]
pub struct EventQueue<E> {
    heap: BinaryHeap<Entry<E>>,
    next_seq: u64,
}

/// Wraps the payload so that ordering never looks at it.
#[derive(Debug, Clone)]
struct Slot<E>(E);

impl<E> PartialEq for Slot<E> {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}
impl<E> Eq for Slot<E> {}
impl<E> PartialOrd for Slot<E> {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl<E> Ord for Slot<E> {
    fn cmp(&self, _: &Self) -> std::cmp::Ordering {
        std::cmp::Ordering::Equal
    }
}

impl<E> Default for EventQueue<E> {
    fn default() -> Self {
        Self {
            heap: BinaryHeap::new(),
            next_seq: 0,
        }
    }
}

impl<E> EventQueue<E> {
    pub fn new() -> Self {
        Self::default()
    }

    /// Schedules `event` at `at` in `phase`.
    pub fn push(&mut self, at: Millis, phase: Phase, event: E) {
        let seq = self.next_seq;
        self.next_seq += 1;
        self.heap.push(Reverse((at, phase, seq, Slot(event))));
    }

    /// Takes the earliest event, by the documented order.
    pub fn pop(&mut self) -> Option<(Millis, Phase, E)> {
        self.heap
            .pop()
            .map(|Reverse((at, phase, _, Slot(e)))| (at, phase, e))
    }

    pub fn is_empty(&self) -> bool {
        self.heap.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ties_resolve_by_phase_then_insertion_order() {
        let mut q = EventQueue::new();
        q.push(5, Phase::Request, "request-1");
        q.push(5, Phase::Expiry, "expiry");
        q.push(3, Phase::Write, "early-write");
        q.push(5, Phase::Request, "request-2");
        q.push(5, Phase::Release, "release");
        let order: Vec<_> = std::iter::from_fn(|| q.pop()).map(|(_, _, e)| e).collect();
        assert_eq!(
            order,
            ["early-write", "expiry", "release", "request-1", "request-2"]
        );
    }
}
