//! The service's tick grid has a phase: boundaries at `tick_phase + k * tick`. Every family on
//! the ZooKeeper service expires sessions on that grid, set from a scenario file or a `sim` flag.
//! Expected instants come from ZooKeeper's rule: a session last heard at `t` with timeout `T`
//! expires at the first boundary strictly after `t + T`.

use locklab::engine::params::Params;
use locklab::engine::trace::{EventKind, Trace};

fn expiry(t: &Trace) -> u64 {
    t.events
        .iter()
        .find(|e| matches!(e.kind, EventKind::SessionExpired { .. }))
        .map(|e| e.at_ms)
        .expect("a session expires")
}

fn preset_with(name: &str, key: &str, secs: f64) -> Trace {
    let p = locklab::scenario::find(name).expect("a shipped preset");
    let Params::Abc(mut a) = p.params.clone() else {
        panic!("{name} is an A/B/C preset")
    };
    a.set(key, secs).expect("in range");
    locklab::engine::run(&Params::Abc(a))
}

#[test]
fn holder_expires_lands_on_the_boundary_its_phase_puts_after_the_deadline() {
    // A's last heartbeat reaches the service at 1.343 s; 1.343 + 4 = 5.343 s.
    assert_eq!(
        expiry(&preset_with("holder-expires", "tick_phase", 0.0)),
        6_000
    );
    // Boundaries at 1.4, 3.4, 5.4 s: the first after 5.343 s is 5.4 s.
    assert_eq!(
        expiry(&preset_with("holder-expires", "tick_phase", 1.4)),
        5_400
    );
    // Boundaries at 0.5, 2.5, 4.5, 6.5 s.
    assert_eq!(
        expiry(&preset_with("holder-expires", "tick_phase", 0.5)),
        6_500
    );
    // A phase of a whole tick or more is the same grid as its remainder.
    assert_eq!(
        expiry(&preset_with("holder-expires", "tick_phase", 3.4)),
        5_400
    );
}

#[test]
fn the_frozen_holder_expires_as_soon_as_its_grid_allows() {
    // gc-pause-fencing: A last heard at 0.03 s, deadline 4.03 s; with boundaries at 0.1 + 2k s
    // the expiry is 4.1 s, two seconds before the grid anchored at 0 would have it.
    let t = preset_with("gc-pause-fencing", "tick_phase", 0.1);
    assert_eq!(expiry(&t), 4_100);
    let b = t.actor_named("B").expect("B");
    let granted = t
        .events
        .iter()
        .find(|e| e.actor == b && matches!(e.kind, EventKind::Acquired { .. }))
        .map(|e| e.at_ms)
        .expect("B holds");
    // The notification, B's read and its answer: three one-way delays of 10 ms.
    assert_eq!(granted, 4_130);
}

fn sim_json(args: &[&str]) -> serde_json::Value {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_locklab"))
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .expect("locklab runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("JSON")
}

fn json_expiry(v: &serde_json::Value) -> u64 {
    v["events"]
        .as_array()
        .expect("events")
        .iter()
        .find(|e| e["kind"] == "session_expired")
        .and_then(|e| e["at_ms"].as_u64())
        .unwrap_or_else(|| panic!("a session expires: {v}"))
}

#[test]
fn a_queue_family_takes_the_phase_as_a_sim_flag() {
    // semaphore-expiry: B last heard at 0.12 s, deadline 4.12 s.
    let base = ["sim", "semaphore", "--preset", "semaphore-expiry", "--json"];
    assert_eq!(json_expiry(&sim_json(&base)), 6_000);
    let mut moved = base.to_vec();
    moved.extend(["--tick-phase", "0.2"]);
    assert_eq!(json_expiry(&sim_json(&moved)), 4_200);
}

#[test]
fn sim_abc_takes_the_phase_as_a_flag_and_refuses_one_out_of_range() {
    let v = sim_json(&[
        "sim",
        "abc",
        "--preset",
        "holder-expires",
        "--tick-phase",
        "1.4",
        "--json",
    ]);
    assert_eq!(json_expiry(&v), 5_400);
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_locklab"))
        .args([
            "sim",
            "abc",
            "--preset",
            "holder-expires",
            "--tick-phase",
            "11",
        ])
        .output()
        .expect("locklab runs");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("tick-phase") || err.contains("tick_phase"),
        "{err}"
    );
}
