//! The order of the claims of one scan instant. In the model the claims that fall due at the
//! same instant reach the table in worker order, A's first; live, each worker's thread wakes
//! when the machine lets it, and on a loaded machine a later worker's claim can overtake. Each
//! worker says which scan instant it is past (claimed, found nothing, or was busy), and a claim
//! that takes the first free row waits, for a bounded time, until every worker before it is past
//! the same instant.

use std::sync::{Condvar, Mutex};
use std::time::{Duration, Instant};

use crate::engine::time::Millis;

/// How long a claim waits for the workers before it; past that it goes anyway.
const PATIENCE: Duration = Duration::from_secs(2);

pub(super) struct Turns {
    /// Per worker, the last scan instant it is past.
    past: Mutex<Vec<Option<Millis>>>,
    moved: Condvar,
}

impl Turns {
    pub fn new(workers: u8) -> Self {
        Self {
            past: Mutex::new(vec![None; usize::from(workers)]),
            moved: Condvar::new(),
        }
    }

    /// Worker `i` is past the scan instant `at` (or, paused or finished, will claim nothing
    /// before it).
    pub fn pass(&self, i: u8, at: Millis) {
        let mut past = self.past.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(p) = past.get_mut(usize::from(i)) {
            *p = Some(p.map_or(at, |q| q.max(at)));
        }
        self.moved.notify_all();
    }

    /// Waits until every worker before `i` is past the scan instant `at`.
    pub fn wait(&self, i: u8, at: Millis) {
        let until = Instant::now() + PATIENCE;
        let mut past = self.past.lock().unwrap_or_else(|e| e.into_inner());
        loop {
            let ready = past[..usize::from(i).min(past.len())]
                .iter()
                .all(|p| p.is_some_and(|p| p >= at));
            let left = until.saturating_duration_since(Instant::now());
            if ready || left.is_zero() {
                return;
            }
            past = self
                .moved
                .wait_timeout(past, left)
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    #[test]
    fn a_claim_waits_for_the_workers_before_it_and_no_longer() {
        let turns = Arc::new(Turns::new(3));
        let order = Arc::new(Mutex::new(Vec::new()));
        let mut threads = Vec::new();
        // C and B are ready first; A comes last, yet the claims go A, B, C.
        for (i, delay) in [(2u8, 0u64), (1, 20), (0, 80)] {
            let (turns, order) = (turns.clone(), order.clone());
            threads.push(std::thread::spawn(move || {
                std::thread::sleep(Duration::from_millis(delay));
                turns.wait(i, 6_000);
                order.lock().unwrap().push(i);
                turns.pass(i, 6_000);
            }));
        }
        for t in threads {
            t.join().unwrap();
        }
        assert_eq!(*order.lock().unwrap(), [0, 1, 2]);
        // A worker already past a later instant does not hold anyone up.
        turns.pass(0, 9_000);
        let started = Instant::now();
        turns.wait(1, 7_000);
        assert!(started.elapsed() < PATIENCE);
    }
}
