//! `locklab explore` as a user runs it: the report, the JSON fields, a saved counterexample that
//! `sim run` replays, and bad input refused with status 2 naming the limit.

use crate::common::{locklab, stdout};
use std::process::Output;

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn a_broken_preset_reports_its_shortest_counterexample() {
    let o = locklab(&["explore", "watch-race-broken", "--faults", "0"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("3 clients, one acquisition each, up to 0 faults"),
        "{out}"
    );
    assert!(
        out.contains("The whole bounded space was explored"),
        "{out}"
    );
    assert!(out.contains("✗ nobody stuck (nobody_stuck) fails"), "{out}");
    assert!(
        out.contains("Replayed as a timed run: B waits forever"),
        "{out}"
    );
}

#[test]
fn the_report_counts_a_counterexample_as_the_screen_does_and_groups_big_numbers() {
    let out = stdout(&locklab(&["explore", "lost-create-blind"]));
    let fails = out
        .lines()
        .position(|l| l.contains("✗ nobody stuck"))
        .expect("a counterexample");
    // The numbered schedule under the finding is every step of it.
    let numbered = out
        .lines()
        .skip(fails + 1)
        .take_while(|l| l.trim_start().starts_with(|c: char| c.is_ascii_digit()))
        .count();
    let line = out.lines().nth(fails).unwrap_or_default();
    assert!(
        line.contains(&format!("choices ({numbered} steps in all)")),
        "{numbered} numbered steps under «{line}»"
    );
    // "35,295 states generated": no count of four digits or more without its commas.
    let numbers = out.lines().nth(2).unwrap_or_default();
    assert!(numbers.contains(" states generated"), "{out}");
    let bare = numbers
        .split(|c: char| !c.is_ascii_digit() && c != ',' && c != '.')
        .filter(|n| !n.contains('.') && !n.contains(','))
        .any(|n| n.len() > 3);
    assert!(!bare, "{numbers}");
    assert!(numbers.contains(','), "{numbers}");
}

#[test]
fn json_carries_the_numbers_and_each_counterexample_s_trace() {
    let o = locklab(&["explore", "lost-create-blind", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["schema_version"], 1);
    assert_eq!(v["complete"], true);
    assert_eq!(v["bounds"]["fault_kinds"][0], "drop_create_response");
    for key in ["states", "distinct_states", "max_depth", "elapsed_ms"] {
        assert!(v[key].is_u64(), "{key}");
    }
    let first = &v["violations"][0];
    assert_eq!(first["invariant"], "nobody_stuck");
    assert!(first["steps"].as_u64().unwrap() > 0);
    // The same trace JSON as `locklab sim`: parameters, then the trace.
    assert_eq!(first["trace"]["family"], "abc");
    assert_eq!(first["trace"]["schema_version"], 3);
    assert!(first["trace"]["params"]["schedule"].is_array());
    let failed = first["trace"]["invariants"]
        .as_array()
        .unwrap()
        .iter()
        .any(|i| i["name"] == "nobody_stuck" && i["held"] == false);
    assert!(failed);
}

#[test]
fn a_saved_counterexample_is_a_scenario_sim_run_replays() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("story.toml");
    let p = path.to_str().unwrap();
    let o = locklab(&["explore", "gc-pause-no-fencing", "--save", p]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("saved"), "{}", stderr(&o));
    let o = locklab(&["sim", "run", p, "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["metrics"]["violations"][0], "tokens_non_decreasing");
    let o = locklab(&["export", p, "--format", "txt", "-o", "-"]);
    assert!(o.status.success(), "{}", stderr(&o));
}

#[test]
fn nothing_to_save_from_a_clean_search() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("none.toml");
    let o = locklab(&["explore", "watch-race", "--save", path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("Nothing to save"), "{}", stderr(&o));
    assert!(!path.exists());
}

#[test]
fn bad_input_exits_2_naming_the_limit() {
    for (args, says) in [
        (vec!["explore", "chain", "--faults", "9"], "0 to 4"),
        (vec!["explore", "chain", "--depth", "0"], "1 to 200"),
        (
            vec!["explore", "chain", "--max-states", "99999999"],
            "1 to 8000000",
        ),
        (vec!["explore", "herd-50"], "no fault to place"),
        (vec!["explore", "no-such-preset"], "unknown preset"),
    ] {
        let o = locklab(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(stderr(&o).contains(says), "{args:?}: {}", stderr(&o));
    }
}

#[test]
fn a_search_cut_short_never_claims_no_violation() {
    let o = locklab(&["explore", "chain", "--max-states", "100"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("stopped at the 100-state limit (--max-states)"),
        "{out}"
    );
    assert!(!out.contains("No invariant fails"), "{out}");
}
