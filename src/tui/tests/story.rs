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

#[test]
fn compare_marks_where_the_runs_part_on_both_runs_axes_and_lanes() {
    use crate::tui::theme::Mark;
    for size in [(140, 42), (200, 60)] {
        let mut a = app(ScreenId::Frozen, LANGS[0], size);
        super::press(&mut a, super::key('c'));
        super::press(&mut a, super::key('v'));
        let lanes = a.frozen.runs.trace.lanes.len();
        let s = screen(&a);
        let glyph = Mark::Differs.glyph();
        // The lanes' rows and axes start with a label or the axis unit, then the track.
        let track = crate::tui::widgets::lanes::LABEL_COLS as usize;
        let marked_rows = s
            .lines()
            .filter(|l| {
                let cols: Vec<char> = l.chars().collect();
                cols.len() > track && cols[track..].contains(&glyph) && !l.contains("(marked")
            })
            .count();
        // The axis and one row of every lane of both runs (the second run shares the axis),
        // but the resource's: there A's write is judged at that very instant, and its ✗ or ✓
        // is the mark that shows where the runs part.
        assert!(
            marked_rows > 2 * (lanes - 1),
            "{size:?}: {marked_rows} rows carry {glyph}, fewer than {}:\n{s}",
            2 * (lanes - 1) + 1
        );
        // A write's judgement at the same instant stays visible over the mark.
        assert!(s.contains("✗#1"), "{size:?}: {s}");
    }
}

#[test]
fn a_story_told_across_the_whole_axis_opens_on_the_whole_run() {
    // rwlock-fair: R16 and R17 read from 0.04 s, W18 writes from 3.18 s, R19 reads from 6.22 s
    // to 9.22 s of a 12 s run. The hand-over at about 3.1 s is three moments close together,
    // but the story is the grant order across the axis, so nothing of it may be zoomed away.
    let mut a = app(ScreenId::Home, LANGS[0], (140, 42));
    a.open_family(crate::engine::trace::Family::Rwlock, Some("rwlock-fair"));
    let f = a.family.as_ref().expect("the family lab opens");
    let end = f.runs.trace.end_ms;
    assert_eq!(f.view.tl.window(end), (0, end));
}
