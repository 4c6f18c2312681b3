//! Comparing two runs, as a view needs it: where they first part. This is about two traces,
//! not about the protocol, so it lives with the views; every fact it compares is recorded.

use crate::engine::time::Millis;
use crate::engine::trace::{Event, EventKind, Trace};

/// Where two runs part: the first event that differs (by index, the same in both) and the
/// instant it happens in each run (`None` where that run has no such event).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Parting {
    pub index: usize,
    pub at_a: Option<Millis>,
    pub at_b: Option<Millis>,
}

impl Parting {
    /// The earlier of the two instants, for marking both lane sets.
    pub fn at(&self) -> Millis {
        match (self.at_a, self.at_b) {
            (Some(a), Some(b)) => a.min(b),
            (Some(t), None) | (None, Some(t)) => t,
            (None, None) => 0,
        }
    }
}

/// Whether two events are the same happening. A write's arrival records whether the resource
/// checks tokens; that setting is what a compare flips, so only the write and its outcome count.
fn same(a: Option<&Event>, b: Option<&Event>) -> bool {
    match (a, b) {
        (Some(x), Some(y)) => match (&x.kind, &y.kind) {
            (
                EventKind::WriteArrived {
                    writer: w1,
                    token: t1,
                    accepted: a1,
                    last_seen_before: l1,
                    ..
                },
                EventKind::WriteArrived {
                    writer: w2,
                    token: t2,
                    accepted: a2,
                    last_seen_before: l2,
                    ..
                },
            ) => x.at_ms == y.at_ms && x.actor == y.actor && (w1, t1, a1, l1) == (w2, t2, a2, l2),
            _ => x == y,
        },
        (None, None) => true,
        _ => false,
    }
}

/// The first event at which `a` and `b` differ, or `None` when every event is the same.
pub fn first_difference(a: &Trace, b: &Trace) -> Option<Parting> {
    let n = a.events.len().max(b.events.len());
    (0..n)
        .find(|&i| !same(a.events.get(i), b.events.get(i)))
        .map(|index| Parting {
            index,
            at_a: a.events.get(index).map(|e| e.at_ms),
            at_b: b.events.get(index).map(|e| e.at_ms),
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::params::{AbcParams, FrozenParams, Params, WatchMode};

    #[test]
    fn identical_runs_never_part_and_a_flip_that_matters_does() {
        let a = crate::engine::run(&Params::Frozen(FrozenParams::default()));
        assert_eq!(first_difference(&a, &a.clone()), None);
        let b = crate::engine::run(&Params::Frozen(FrozenParams {
            fencing: false,
            ..FrozenParams::default()
        }));
        let p = first_difference(&a, &b).expect("fencing changes A's late write");
        assert_ne!(a.events.get(p.index), b.events.get(p.index));
        // Both runs share everything up to A's write at the resource.
        let write = a
            .writes
            .iter()
            .find(|w| w.writer == a.actor_named("A").unwrap());
        assert_eq!(p.at_a, write.map(|w| w.at_ms));
    }

    #[test]
    fn the_chain_and_the_herd_part_at_the_first_watch() {
        let chain = AbcParams::default();
        let herd = AbcParams {
            watch: WatchMode::Children,
            ..AbcParams::default()
        };
        let (a, b) = (
            crate::engine::run(&Params::Abc(chain)),
            crate::engine::run(&Params::Abc(herd)),
        );
        let p = first_difference(&a, &b).expect("the recipes differ");
        assert!(p.at() < a.end_ms);
    }
}
