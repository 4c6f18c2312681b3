//! Comparing two runs, as a view needs it: where they first part. This is about two traces,
//! not about the protocol, so it lives with the views; every fact it compares is recorded.

use crate::engine::Params;
use crate::engine::time::Millis;
use crate::engine::trace::{Event, EventKind, Trace};

/// The runs a lab screen shows: its own trace and, while comparing, the same run with one
/// setting flipped, with where the two part. Every lab screen compares the same way, so the
/// bookkeeping lives here once; each screen only says what its flipped parameters are.
#[derive(Debug, Clone, PartialEq)]
pub struct Runs {
    /// The run on show, from the screen's own parameters.
    pub trace: Trace,
    /// The flipped twin, while comparing.
    pub other: Option<Trace>,
    /// Where the two compared runs part, if they do.
    pub parting: Option<Parting>,
}

impl Runs {
    /// One run, not comparing.
    pub fn new(trace: Trace) -> Self {
        Self {
            trace,
            other: None,
            parting: None,
        }
    }

    pub fn comparing(&self) -> bool {
        self.other.is_some()
    }

    /// Runs the engine again after a change; while comparing, runs the twin from `flipped`
    /// too (no flipped parameters end the compare).
    pub fn rerun(&mut self, params: &Params, flipped: Option<Params>) {
        self.trace = crate::engine::run(params);
        self.rerun_twin(flipped);
    }

    /// Runs only the twin again (the flip itself changed), while comparing.
    pub fn rerun_twin(&mut self, flipped: Option<Params>) {
        if self.comparing() {
            self.other = flipped.map(|p| crate::engine::run(&p));
        }
        self.refresh_parting();
    }

    /// Compare on (the twin from `flipped`, if there is one) or off.
    pub fn toggle_compare(&mut self, flipped: Option<Params>) {
        self.other = match (&self.other, flipped) {
            (None, Some(p)) => Some(crate::engine::run(&p)),
            _ => None,
        };
        self.refresh_parting();
    }

    /// Back to one run.
    pub fn stop_comparing(&mut self) {
        self.other = None;
        self.parting = None;
    }

    /// Both runs share one cursor, so the axis spans the longer of the two.
    pub fn end_ms(&self) -> Millis {
        self.other
            .as_ref()
            .map_or(self.trace.end_ms, |o| o.end_ms.max(self.trace.end_ms))
    }

    fn refresh_parting(&mut self) {
        self.parting = self
            .other
            .as_ref()
            .and_then(|o| first_difference(&self.trace, o));
    }
}

/// Where two runs part: the first event that differs (by index, the same in both) and the
/// instant it happens in each run (`None` where that run has no such event).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Parting {
    pub index: usize,
    pub at_a: Option<Millis>,
    pub at_b: Option<Millis>,
}

/// The note beside a compare: where the runs part once the shown part of the run has reached
/// it, else that this waits for the cursor; `same` words a compare whose runs never part, once
/// the whole run is shown. Until then the note tells nothing a learner is predicting.
pub fn part_words(
    parting: Option<Parting>,
    (shown_until, end): (Millis, Millis),
    same: impl FnOnce() -> String,
    lang: crate::i18n::Lang,
) -> String {
    use crate::engine::time::fmt_secs;
    use crate::i18n::lab::{Lab, lab};
    match parting {
        Some(p) if p.at() <= shown_until => lab(Lab::PartAt, lang)
            .replacen("{}", &fmt_secs(p.at()), 1)
            .replacen("{}", &(p.index + 1).to_string(), 1),
        None if shown_until >= end => same(),
        _ => lab(Lab::PartAhead, lang).to_string(),
    }
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

    #[test]
    fn runs_run_the_twin_only_while_comparing() {
        let on = Params::Frozen(FrozenParams::default());
        let off = Params::Frozen(FrozenParams {
            fencing: false,
            ..FrozenParams::default()
        });
        let mut runs = Runs::new(crate::engine::run(&on));
        runs.rerun(&on, Some(off.clone()));
        assert!(!runs.comparing(), "a rerun alone does not start a compare");
        runs.toggle_compare(None);
        assert!(!runs.comparing(), "nothing to compare with stays one run");
        runs.toggle_compare(Some(off.clone()));
        assert_eq!(runs.other, Some(crate::engine::run(&off)));
        assert_eq!(
            runs.parting,
            first_difference(&runs.trace, &crate::engine::run(&off))
        );
        assert!(runs.parting.is_some());
        runs.rerun(&on, None);
        assert!(!runs.comparing(), "no flipped run ends the compare");
        assert_eq!(runs.parting, None);
    }
}
