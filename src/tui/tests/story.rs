//! Lab screens open on the window that tells their story, not on a whole run where a race of a
//! few tenths of a second is two columns wide.

use super::lab::abc_on;
use super::{LANGS, app, screen};
use crate::engine::trace::MomentKind;
use crate::tui::app::ScreenId;

#[test]
fn watch_race_opens_with_the_race_filling_at_least_half_the_lanes() {
    for lang in LANGS {
        let mut a = app(ScreenId::Home, lang, (140, 42));
        abc_on(&mut a, "watch-race");
        let trace = &a.abc.runs.trace;
        // The race, as the engine records it: from A's grant to the next client's grant, with
        // A's release and B's stale read of the children between them.
        let grants: Vec<_> = trace
            .moments
            .iter()
            .filter_map(|m| match m.kind {
                MomentKind::Grant { actor } => Some((m.at_ms, actor)),
                _ => None,
            })
            .collect();
        let (start, first) = grants[0];
        let (end, _) = *grants
            .iter()
            .find(|(_, who)| *who != first)
            .expect("a second client is granted the lock");
        let (from, to) = a.abc.view.tl.window(trace.end_ms);
        assert!(
            from <= start && end <= to,
            "{lang:?}: the race {start}..{end} ms is not inside the window {from}..{to}"
        );
        assert!(
            (end - start) * 2 >= to - from,
            "{lang:?}: the race {start}..{end} ms fills less than half of {from}..{to}"
        );
        // The axis reads in the race's own scale: tenths of a second, not whole seconds only.
        let s = screen(&a);
        let axis = s.lines().find(|l| l.contains('╵')).expect("an axis");
        assert!(axis.contains("0.1"), "{lang:?}: {axis}");
    }
}

#[test]
fn a_run_whose_moments_are_spread_out_opens_on_the_whole_run() {
    // The frozen holder's defaults: expiry at 19 s, the stale write at 38 s of a 40 s run.
    let a = app(ScreenId::Frozen, LANGS[0], (140, 42));
    let end = a.frozen.runs.trace.end_ms;
    assert_eq!(a.frozen.view.tl.window(end), (0, end));
}
