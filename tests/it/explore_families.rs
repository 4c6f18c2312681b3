//! The explorer on every family but A/B/C: it keeps the clock and places the scenario's fault
//! on every actor it can strike, at every instant something happens. Each broken preset gives a
//! shortest counterexample whose timed run fails the invariant named, and each correct twin
//! holds in the whole bounded space. The expected instants come from the protocols and the
//! presets' own worked examples, not from the explorer.

use std::sync::atomic::AtomicBool;

use locklab::engine::time::Millis;
use locklab::engine::trace::invariant;
use locklab::explore::families::search::{Limits, Outcome, explore};

use crate::common::{locklab as run_cli, stdout};

fn preset_text(name: &str) -> String {
    let path = format!(
        "{}/assets/scenarios/{name}.toml",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(path).unwrap()
}

/// The preset's file with `line` added to its `[params]`.
fn with_param(name: &str, line: &str) -> String {
    preset_text(name).replacen("[params]\n", &format!("[params]\n{line}\n"), 1)
}

fn limits(threads: usize) -> Limits {
    Limits {
        faults: 1,
        max_runs: 1_000_000,
        threads,
    }
}

fn search(name: &str, text: &str) -> Outcome {
    let o = explore(name, text, limits(2), &AtomicBool::new(false)).unwrap();
    assert!(
        o.complete && !o.cancelled,
        "{name}: {} of {}",
        o.runs,
        o.space
    );
    o
}

/// The shortest counterexample must break `inv` first at `at`, and its saved scenario, run on
/// its own, must fail the same invariant at the same instant.
fn breaks(
    o: &Outcome,
    inv: locklab::engine::trace::Invariant,
    at: Millis,
) -> (Option<u32>, Option<Millis>) {
    let s = o
        .violations
        .first()
        .unwrap_or_else(|| panic!("{}: no counterexample", o.name));
    assert_eq!(s.invariant, inv, "{}", o.name);
    assert_eq!(s.first_ms, at, "{}", o.name);
    let replay = locklab::engine::run(&s.params);
    let report = replay.invariant(inv).expect("checked");
    assert_eq!(report.first_violation_ms(), Some(at), "{}", o.name);
    let saved = o.saved().expect("a file to save");
    let again = locklab::scenario::parse("saved", "saved", &saved).unwrap();
    assert_eq!(
        locklab::engine::run(&again.params)
            .invariant(inv)
            .unwrap()
            .first_violation_ms(),
        Some(at),
        "the saved file replays it"
    );
    (s.placement.map(|p| p.target), s.placement.map(|p| p.at_ms))
}

fn holds(o: &Outcome) {
    assert!(
        o.violations.is_empty(),
        "{}: {:?}",
        o.name,
        o.violations
            .first()
            .map(|s| (s.invariant, s.first_ms, s.placement))
    );
    assert!(!o.checks.is_empty());
}

#[test]
fn a_reader_passing_a_waiting_writer_is_found_without_any_fault() {
    // roles rrwrrrrrrr, one client a second: C (the writer) waits from 2 s; D asks at 3 s and,
    // reading only the first writer's version (even: merely waiting), reads. Create, read the
    // children, read 43's version: three round trips of 2 × 10 ms, so D holds at 3.06 s.
    let o = search("rwlock-starved", &preset_text("rwlock-starved"));
    assert_eq!(
        o.targets, 0,
        "the preset plans no fault: its run is the one story"
    );
    assert_eq!(
        breaks(&o, invariant::NO_READER_PASSES_WRITER, 3_060),
        (None, None)
    );
    holds(&search("rwlock-fair", &preset_text("rwlock-fair")));
}

#[test]
fn an_unconditional_submit_after_a_pause_is_found_and_the_conditional_one_holds() {
    // The earliest A can pause is at 0 s. Its 20 s pause outlives its 4 s session, B takes
    // over and finishes; A wakes at 20 s and submits at once, arriving one 10 ms delay later:
    // the row's epoch goes back from 82 to 81 at 20.01 s.
    let o = search(
        "election-unconditional",
        &preset_text("election-unconditional"),
    );
    assert_eq!(
        breaks(&o, invariant::EPOCHS_NON_DECREASING, 20_010),
        (Some(0), Some(0))
    );
    holds(&search("election-epochs", &preset_text("election-epochs")));
}

#[test]
fn a_node_restart_that_loses_the_key_is_found_and_fsync_closes_it() {
    // A's SET reaches N1 one 10 ms delay after the start; N1 crashing right then loses the key
    // it never synced. A's attempt ends at 0.12 s (120 ms, N3 and N5 each costing a 30 ms
    // timeout) believing it holds N1, N2 and N4, of which only N2 and N4 still hold its key.
    let o = search("redlock-restart", &preset_text("redlock-restart"));
    assert_eq!(o.targets, 5, "any of the five nodes may crash");
    assert_eq!(
        breaks(&o, invariant::HOLDER_HAS_MAJORITY, 120),
        (Some(0), Some(10))
    );
    // The preset's own story (two believers from 1.6 s) is among the failures.
    assert!(
        o.violations
            .iter()
            .any(|s| s.invariant == invariant::ONE_HOLDER)
    );
    holds(&search(
        "redlock-fsync",
        &with_param("redlock-restart", "fsync = true"),
    ));
}

#[test]
fn a_restart_within_one_millisecond_reissues_ids_and_waiting_on_start_does_not() {
    // G1 issues 995|7|0 and 995|7|1 in its first millisecond; crashing and restarting within
    // it, the new process starts the sequence at 0 again: a duplicate at 0 ms.
    let o = search("snowflake-restart", &preset_text("snowflake-restart"));
    assert_eq!(breaks(&o, invariant::UNIQUE_IDS, 0), (Some(0), Some(0)));
    holds(&search(
        "snowflake-wait",
        &with_param("snowflake-restart", "wait_on_start = true"),
    ));
}

#[test]
fn a_cancel_between_the_check_and_the_call_is_found_once_the_network_takes_time() {
    // With no network delay A's check of the row and its outside call happen in one instant:
    // no cancel can fall between them, and the preset holds wherever the cancel comes.
    holds(&search("task-cancel", &preset_text("task-cancel")));
    // With 20 ms each way there is a gap: a cancel requested after A's check has been
    // answered but before its call lands, and the effect lands after the request.
    let o = search(
        "task-cancel-slow",
        &with_param("task-cancel", "delay = 0.02"),
    );
    let s = o.violations.first().expect("a counterexample");
    assert_eq!(s.invariant, invariant::NO_EFFECT_AFTER_CANCEL);
    let cancel = s.placement.expect("the cancel was placed").at_ms;
    assert!(
        cancel > 11_000 && cancel < s.first_ms,
        "{cancel} {}",
        s.first_ms
    );
    let at = s.first_ms;
    breaks(&o, invariant::NO_EFFECT_AFTER_CANCEL, at);
    // Without the check, the cancel can come any time after the claim at 1 s.
    let o = search(
        "task-cancel-blind",
        &preset_text("task-cancel").replace("check_cancel = true", "check_cancel = false"),
    );
    assert_eq!(o.violations[0].invariant, invariant::NO_EFFECT_AFTER_CANCEL);
}

#[test]
fn a_crashed_permit_holder_never_lets_a_fifth_in() {
    // A crashed holder keeps its node until its session expires, and only then does the next
    // client get the permit: wherever the crash falls, at most three hold.
    let o = search("semaphore-expiry", &preset_text("semaphore-expiry"));
    assert_eq!(o.targets, 4);
    holds(&o);
}

#[test]
fn the_frozen_holder_breaks_without_fencing_and_holds_with_it() {
    let o = search("frozen-no-fencing", &preset_text("frozen-no-fencing"));
    assert_eq!(o.violations[0].invariant, invariant::TOKENS_NON_DECREASING);
    holds(&search("frozen-fenced", &preset_text("frozen-fenced")));
}

#[test]
fn an_etcd_holder_paused_past_its_lease_writes_stale_data_and_the_guards_stop_it() {
    // The preset's own story, A paused at 1.5 s for 10 s, has its first stale write land at
    // 12.05 s; the shortest one can be no later. Nor can it be earlier than B's hold: A's
    // lease, refreshed at 30 ms, expires at 6.03 s, the leader's 500 ms revoke loop deletes
    // A's key at 6.5 s and B, watching it, holds at 6.53 s.
    let o = search("etcd-frozen-unfenced", &preset_text("etcd-frozen-unfenced"));
    assert_eq!(o.targets, 2, "either client may pause");
    let s = o.violations.first().expect("a counterexample");
    assert_eq!(s.invariant, invariant::NO_STALE_WRITE_ACCEPTED);
    assert!(s.first_ms > 6_530 && s.first_ms <= 12_050, "{}", s.first_ms);
    let at = s.first_ms;
    assert_eq!(
        breaks(&o, invariant::NO_STALE_WRITE_ACCEPTED, at).0,
        Some(0)
    );
    // A Txn that compares the lock key's create revision refuses every stale write, wherever
    // the pause falls; the correct lock plans no fault and its one run holds.
    holds(&search("etcd-txn-guard", &preset_text("etcd-txn-guard")));
    let o = search("etcd-lock", &preset_text("etcd-lock"));
    assert_eq!(o.targets, 0);
    holds(&o);
    // The command searches etcd too, and says which invariant its counterexample breaks.
    let o = run_cli(&["explore", "etcd-frozen-unfenced", "--json"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(
        (v["family"].as_str(), v["clock"].as_str()),
        (Some("etcd"), Some("kept"))
    );
    let stale = v["invariants"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["name"] == "no_stale_write_accepted")
        .unwrap();
    assert_eq!(stale["held"], false);
    assert_eq!(stale["counterexample"]["target"], "A");
}

#[test]
fn the_result_is_the_same_on_one_thread_and_on_four() {
    let text = preset_text("redlock-restart");
    let one = explore("r", &text, limits(1), &AtomicBool::new(false)).unwrap();
    let four = explore("r", &text, limits(4), &AtomicBool::new(false)).unwrap();
    let key = |o: &Outcome| {
        o.violations
            .iter()
            .map(|s| (s.invariant, s.first_ms, s.steps, s.placement))
            .collect::<Vec<_>>()
    };
    assert_eq!(key(&one), key(&four));
    assert_eq!(
        (one.runs, one.witnesses.clone()),
        (four.runs, four.witnesses.clone())
    );
}

#[test]
fn a_run_limit_stops_the_search_incomplete_and_a_stop_flag_cancels_it() {
    let text = preset_text("redlock-restart");
    let o = explore(
        "r",
        &text,
        Limits {
            max_runs: 10,
            ..limits(1)
        },
        &AtomicBool::new(false),
    )
    .unwrap();
    assert_eq!(o.runs, 10);
    assert!(!o.complete && !o.cancelled);
    let o = explore("r", &text, limits(1), &AtomicBool::new(true)).unwrap();
    assert!(o.cancelled && !o.complete && o.runs == 0);
}

#[test]
fn the_command_prints_saves_and_replays_a_family_counterexample() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("ce.toml");
    let o = run_cli(&[
        "explore",
        "snowflake-restart",
        "--save",
        path.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = stdout(&o);
    assert!(out.contains("clock kept"), "{out}");
    assert!(out.contains("✗ IDs are unique (unique_ids)"), "{out}");
    assert!(out.contains("The fault strikes G1 at 0 s."), "{out}");
    let o = run_cli(&["sim", "run", path.to_str().unwrap(), "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let unique = v["invariants"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["name"] == "unique_ids")
        .unwrap();
    assert_eq!(unique["held"], false);
    let o = run_cli(&["explore", "election-epochs", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["clock"], "kept");
    assert_eq!(v["complete"], true);
    assert!(
        v["invariants"]
            .as_array()
            .unwrap()
            .iter()
            .all(|i| i["held"] == true)
    );
}
