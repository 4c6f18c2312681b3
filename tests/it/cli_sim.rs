//! `locklab sim` as a user runs it: output, JSON shape, and clear errors with status 2.

use crate::common::{locklab, stdout};
use std::process::Output;

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn frozen_json_carries_schema_trace_spans_and_metrics() {
    let o = locklab(&["sim", "frozen", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["schema_version"], 3);
    assert_eq!(v["family"], "frozen");
    assert_eq!(v["metrics"]["verdict"], "stale_write_rejected");
    assert_eq!(v["metrics"]["lease_expiry"], 19.0);
    assert_eq!(v["metrics"]["danger_window"], 19.0);
    assert!(v["metrics"]["holder_write_accepted"] == false);
    assert!(v["events"].as_array().unwrap().len() > 10);
    assert_eq!(v["lanes"].as_array().unwrap().len(), 4);
    assert_eq!(v["params"]["ttl_ms"], 10_000);
    // The typed trace: messages, writes with their judgement, the danger window, named checks.
    assert_eq!(v["windows"][0]["kind"], "danger");
    assert_eq!(v["windows"][0]["from_ms"], 19_000);
    assert_eq!(v["windows"][0]["to_ms"], 38_000);
    let writes = v["writes"].as_array().unwrap();
    assert_eq!(writes.last().unwrap()["judgement"], "stale_rejected");
    assert!(
        v["messages"]
            .as_array()
            .unwrap()
            .iter()
            .any(|m| m["msg"]["kind"] == "keepalive")
    );
    assert_eq!(v["lanes"][0]["spans"][0]["state"]["state"], "holding");
    assert!(
        v["invariants"]
            .as_array()
            .unwrap()
            .iter()
            .any(|i| i["check"] == "sometimes")
    );
}

#[test]
fn frozen_options_change_the_run() {
    let o = locklab(&["sim", "frozen", "--fencing", "off", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["metrics"]["verdict"], "corruption");
    assert_eq!(v["metrics"]["final_value"], "A");
    let o = locklab(&["sim", "frozen", "--pause-len", "5", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["metrics"]["verdict"], "no_incident");
    assert!(v["metrics"]["lease_expiry"].is_null());
}

#[test]
fn the_text_report_fits_100_columns() {
    for args in [
        vec!["sim", "frozen"],
        vec!["sim", "abc", "--preset", "gc-pause-fencing"],
        vec!["sim", "herd", "--waiters", "200", "--fanout", "200"],
        vec!["sim", "list"],
        vec!["--lang", "zh", "sim", "frozen"],
    ] {
        let o = locklab(&args);
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
        for line in stdout(&o).lines() {
            assert!(locklab::text::width(line) <= 100, "{args:?}: {line}");
        }
    }
    let text = stdout(&locklab(&["sim", "frozen"]));
    assert!(text.contains("max(0, 38 - 19) = 19 s"), "{text}");
    assert!(text.contains("stale write rejected"));
    // Chinese prints no raw metric keys.
    let zh = stdout(&locklab(&["--lang", "zh", "sim", "frozen"]));
    for key in [
        "lease_expiry",
        "stale_write_rejected",
        "holder_write_arrival",
        "danger_window",
    ] {
        assert!(!zh.contains(key), "{key} in {zh}");
    }
}

#[test]
fn herd_json_counts_match_the_closed_form() {
    let o = locklab(&["sim", "herd", "--waiters", "50", "--fanout", "50", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["metrics"]["total_notifications"], 1275);
    assert_eq!(v["metrics"]["rows"].as_array().unwrap().len(), 50);
    assert_eq!(v["metrics"]["rows"][0]["woken"], 50);
}

#[test]
fn abc_preset_json_reports_its_metrics() {
    let o = locklab(&["sim", "abc", "--preset", "lost-create-blind", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["preset"], "lost-create-blind");
    assert_eq!(v["metrics"]["duplicate_nodes"], 1);
    assert_eq!(v["metrics"]["stuck_clients"], serde_json::json!(["B", "C"]));
}

#[test]
fn bad_values_exit_2_naming_the_option_and_range() {
    for (args, needles) in [
        (
            vec!["sim", "frozen", "--ttl", "45"],
            vec!["--ttl", "1 to 30 s"],
        ),
        (
            vec!["sim", "frozen", "--pause-len", "ten"],
            vec!["--pause-len", "0 to 30 s"],
        ),
        (
            vec!["sim", "herd", "--waiters", "10", "--fanout", "11"],
            vec!["--fanout", "1 to 10"],
        ),
        (
            vec!["sim", "herd", "--waiters", "0", "--fanout", "1"],
            vec!["--waiters", "1 to 10000"],
        ),
        (
            vec!["sim", "abc", "--preset", "nope"],
            vec!["nope", "known presets", "chain", "watch-race"],
        ),
    ] {
        let o = locklab(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = stderr(&o);
        for n in needles {
            assert!(err.contains(n), "{args:?}: {err}");
        }
        assert!(
            !err.contains("panicked") && !err.contains("backtrace"),
            "{err}"
        );
    }
}

#[test]
fn a_malformed_scenario_file_names_file_line_column_and_key() {
    let dir = std::env::temp_dir().join(format!("locklab-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("mine.toml");
    std::fs::write(
        &file,
        "family = \"frozen\"\n[about]\nzh = \"x\"\nen = \"x\"\n[params]\nkeepalive = 99\n",
    )
    .unwrap();
    let o = locklab(&["sim", "run", file.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(err.contains("mine.toml:6:13"), "{err}");
    assert!(
        err.contains("keepalive") && err.contains("0.5 to 30 s"),
        "{err}"
    );

    std::fs::write(
        &file,
        "family = \"frozen\"\n[about]\nzh = \"x\"\nen = \"x\"\n[params]\nttl = 5\n",
    )
    .unwrap();
    let o = locklab(&["sim", "run", file.to_str().unwrap(), "--json"]);
    assert!(o.status.success());
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["params"]["ttl_ms"], 5_000);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn list_shows_every_preset_with_its_purpose() {
    let out = stdout(&locklab(&["sim", "list"]));
    for name in [
        "frozen-fenced",
        "chain",
        "herd",
        "watch-race-broken",
        "lost-create-blind",
        "herd-50",
    ] {
        assert!(
            out.lines().any(|l| l.starts_with(name)),
            "{name} missing:\n{out}"
        );
    }
    let zh = stdout(&locklab(&["--lang", "zh", "sim", "list"]));
    assert!(zh.contains("栅栏令牌"), "{zh}");
}

#[test]
fn list_starts_every_purpose_in_one_column() {
    let out = stdout(&locklab(&["sim", "list"]));
    // Where the third word (after the name and the family) starts on a preset's first line.
    let purpose_at = |l: &str| {
        let b = l.as_bytes();
        (0..b.len())
            .filter(|&i| b[i] != b' ' && (i == 0 || b[i - 1] == b' '))
            .nth(2)
    };
    let starts: Vec<Option<usize>> = out
        .lines()
        .filter(|l| !l.starts_with(' '))
        .map(purpose_at)
        .collect();
    for f in ["election", "semaphore", "snowflake", "abc"] {
        assert!(
            out.lines().any(|l| l.split_whitespace().nth(1) == Some(f)),
            "no {f} preset:\n{out}"
        );
    }
    assert!(
        starts.windows(2).all(|w| w[0] == w[1]),
        "purposes start in columns {starts:?}:\n{out}"
    );
    // A purpose's second line starts under its first.
    let indent = out
        .lines()
        .find(|l| l.starts_with(' '))
        .map(|l| l.len() - l.trim_start().len());
    assert_eq!(indent, starts[0], "{out}");
}
