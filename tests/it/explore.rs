//! The explorer: every broken variant yields a counterexample whose timed replay really fails
//! the named invariant, and whose scenario file replays the same; the correct recipe is clean
//! within its bounds; the same input gives the same answer; a search cut short says so.

use locklab::engine::Params;
use locklab::engine::trace::Check;
use locklab::explore::report::{Finding, Outcome};
use locklab::explore::variants::{self, Variant};
use locklab::explore::{Bounds, Search, counterexample, save};
use locklab::i18n::Lang;

fn bounds(v: &Variant) -> Bounds {
    Bounds {
        depth: 60,
        max_states: 2_000_000,
        ..Bounds::new(v.faults, v.kinds)
    }
}

fn explore(v: &Variant) -> Outcome {
    let mut s = Search::new(&v.params, bounds(v));
    s.run(u64::MAX);
    Outcome::new(v.name, &v.params, &s, false)
}

fn failed(f: &Finding, name: locklab::engine::trace::Invariant) -> bool {
    f.trace
        .invariant(name)
        .is_some_and(|i| i.check == Check::Always && !i.held)
}

#[test]
fn every_broken_variant_has_a_counterexample_that_fails_when_replayed_in_time() {
    for v in variants::all().iter().filter(|v| v.breaks.is_some()) {
        let name = v.breaks.unwrap();
        let out = explore(v);
        assert!(out.complete, "{}: the bounded space is small", v.name);
        let f = out
            .violations
            .iter()
            .find(|f| f.property == name)
            .unwrap_or_else(|| panic!("{}: no counterexample for {name}", v.name));
        assert!(failed(f, name), "{}: the timed replay holds {name}", v.name);
        assert!(f.replay_agrees());
        // The schedule is the whole story: every step applied, none skipped.
        assert!(f.schedule.len() >= f.steps, "{}", v.name);
        assert_eq!(
            locklab::engine::families::abc::check_schedule(&f.params),
            Ok(()),
            "{}",
            v.name
        );
        // Saved as a scenario file, it loads and replays as exactly the same run.
        let text = save::scenario(v.name, f);
        let preset = locklab::scenario::parse("saved", "saved.toml", &text)
            .unwrap_or_else(|e| panic!("{}: {e}\n{text}", v.name));
        let Params::Abc(p) = &preset.params else {
            panic!("an abc scenario")
        };
        assert_eq!(p, &f.params, "{}", v.name);
        assert_eq!(locklab::engine::run(&preset.params), f.trace, "{}", v.name);
    }
}

#[test]
fn the_correct_recipe_and_the_herd_hold_within_their_bounds() {
    for v in variants::all().iter().filter(|v| v.breaks.is_none()) {
        let out = explore(v);
        assert!(out.complete, "{}", v.name);
        assert!(
            out.violations.is_empty(),
            "{}: {:?}",
            v.name,
            out.violations
                .iter()
                .map(|f| (f.property, &f.schedule))
                .collect::<Vec<_>>()
        );
        let text = out.text(Lang::En);
        assert!(
            text.contains("No invariant fails within the bounds (3 clients"),
            "{text}"
        );
        // It did something: every client got the lock on some path.
        assert!(
            out.witnesses[0]
                .1
                .as_ref()
                .is_some_and(Finding::replay_agrees)
        );
    }
}

#[test]
fn the_same_input_gives_the_same_counterexample() {
    let v = &variants::all()[1];
    let (a, b) = (explore(v), explore(v));
    assert_eq!(a.progress.distinct, b.progress.distinct);
    assert_eq!(a.progress.states, b.progress.states);
    // Everything but how long the search took.
    let story = |o: &Outcome| {
        o.violations
            .iter()
            .map(|f| (f.property, f.steps, f.schedule.clone(), f.trace.clone()))
            .collect::<Vec<_>>()
    };
    assert!(
        story(&a) == story(&b),
        "the two searches found different stories"
    );
    assert!(!story(&a).is_empty());
}

#[test]
fn a_search_cut_short_says_it_is_incomplete_and_claims_nothing() {
    let v = variants::all()
        .into_iter()
        .find(|v| v.name == "correct")
        .unwrap();
    let mut s = Search::new(
        &v.params,
        Bounds {
            max_states: 500,
            ..bounds(&v)
        },
    );
    s.run(u64::MAX);
    let out = Outcome::new("correct", &v.params, &s, false);
    assert!(!out.complete);
    assert!(out.progress.distinct <= 500);
    for lang in [Lang::En, Lang::Zh] {
        let text = out.text(lang);
        // The limit, and the flag that sets it.
        let limit = lang.pick(
            "500 个状态的上限（--max-states）",
            "the 500-state limit (--max-states)",
        );
        assert!(text.contains(limit), "{text}");
        assert!(!text.contains("No invariant fails"), "{text}");
        assert!(!text.contains("界内没有不变量被打破"), "{text}");
    }
}

#[test]
fn a_shallow_bound_is_reported_as_cutting_paths() {
    let v = &variants::all()[0];
    let mut s = Search::new(
        &v.params,
        Bounds {
            depth: 3,
            ..bounds(v)
        },
    );
    s.run(u64::MAX);
    assert!(s.complete() && s.depth_limited);
    assert_eq!(s.progress.max_depth, 3);
    assert!(s.violations.is_empty(), "no story breaks it in 3 steps");
}

#[test]
fn a_pause_is_told_as_a_freeze_over_the_client_s_idle_time() {
    let v = variants::all()
        .into_iter()
        .find(|v| v.name == "no_fencing")
        .unwrap();
    let out = explore(&v);
    let f = &out.violations[0];
    let freeze = f.schedule.iter().position(|s| s.starts_with("freeze "));
    let thaw = f.schedule.iter().position(|s| s.starts_with("thaw "));
    let (Some(freeze), Some(thaw)) = (freeze, thaw) else {
        panic!("{:?}", f.schedule)
    };
    assert!(
        thaw > freeze + 2,
        "others act while it is frozen: {:?}",
        f.schedule
    );
    // The replay shows the holder frozen while it believes it holds.
    assert!(
        f.trace
            .lanes
            .iter()
            .any(|l| l.spans.iter().any(|s| matches!(
                s.state,
                locklab::engine::trace::SpanState::Frozen {
                    believes_holding: true
                }
            )))
    );
}

#[test]
fn the_same_schedule_under_the_correct_recipe_holds() {
    for v in variants::all().iter().filter(|v| v.breaks.is_some()) {
        let out = explore(v);
        let f = &out.violations[0];
        let fixed = counterexample::correct_recipe(&f.params);
        let trace = counterexample::trace(&fixed);
        assert!(
            trace.all_invariants_hold(),
            "{}: {:?}",
            v.name,
            trace.invariants
        );
    }
}

/// Searches a shipped preset as `locklab explore PRESET` does, until `name` first fails: breadth
/// first, so that first counterexample is a shortest one.
fn first_failure(preset: &str, name: locklab::engine::trace::Invariant) -> Finding {
    let Params::Abc(p) = &locklab::scenario::find(preset).unwrap().params else {
        panic!("an abc preset")
    };
    let params = locklab::explore::search_params(p);
    let mut s = Search::new(
        &params,
        Bounds::new(
            locklab::explore::DEFAULT_FAULTS,
            locklab::explore::kinds_for(p),
        ),
    );
    assert!(
        s.checks.iter().any(|p| p.name == name),
        "{preset}: {name} is checked"
    );
    while !s.violations.iter().any(|f| f.property == name) {
        assert!(!s.run(5_000), "{preset}: the whole space holds {name}");
    }
    let f = s.violations.iter().find(|f| f.property == name).unwrap();
    Finding::new(&params, s.bounds.faults, f)
}

/// The counterexample replays as a timed run that fails `name`, and so does its scenario file.
fn replays_and_fails(f: &Finding, name: locklab::engine::trace::Invariant) {
    assert!(failed(f, name), "the timed replay holds {name}");
    assert!(f.replay_agrees());
    let text = save::scenario("found", f);
    let preset = locklab::scenario::parse("saved", "saved.toml", &text).unwrap();
    let t = locklab::engine::run(&preset.params);
    assert!(
        t.invariant(name).is_some_and(|i| !i.held),
        "the saved file holds {name}"
    );
}

#[test]
fn an_unconditional_set_data_loses_an_update_the_explorer_finds() {
    // The timed preset fails no_lost_update: a holder frozen past its session's expiry writes
    // with version -1 over its successor's update.
    let f = first_failure(
        "setdata-any-version",
        locklab::engine::trace::invariant::NO_LOST_UPDATE,
    );
    assert!(
        f.schedule.iter().any(|s| s.starts_with("freeze ")),
        "{:?}",
        f.schedule
    );
    replays_and_fails(&f, locklab::engine::trace::invariant::NO_LOST_UPDATE);
}

#[test]
fn a_recreated_lock_directory_sends_sequence_tokens_back_and_the_explorer_finds_it() {
    // The container check deletes the empty directory, B's create brings it back at sequence
    // 0, and B holds with token 0 after A's 17.
    let f = first_failure(
        "lock-dir-recreated",
        locklab::engine::trace::invariant::TOKENS_NON_DECREASING,
    );
    assert!(
        f.schedule.iter().any(|s| s == "service container_check"),
        "{:?}",
        f.schedule
    );
    replays_and_fails(&f, locklab::engine::trace::invariant::TOKENS_NON_DECREASING);
}

#[test]
fn the_bounds_line_names_the_fault_kinds_left_out() {
    use locklab::engine::world::step::FaultKind;
    let text = locklab::i18n::explore::bounds(1, &[FaultKind::Freeze], 60, Lang::En);
    assert_eq!(
        text,
        "3 clients, one acquisition each, up to 1 fault (freeze; not disconnect, crash, lost \
         response, delete between read and watch), depth 60"
    );
    let all = locklab::i18n::explore::bounds(1, &FaultKind::ALL, 60, Lang::En);
    assert!(!all.contains("not "), "{all}");
}
