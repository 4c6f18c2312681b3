//! A holder paused past its session timeout writes the data node the lock protects: with
//! `setData` version -1 its write wipes out its successor's update; with the version it read it
//! gets BadVersion. The worked example with its exact numbers, the scripts' answers, the live
//! lab's refusal, and a property over random timings and faults.

use locklab::engine::families::abc;
use locklab::engine::params::{AbcParams, DataWrite, Fault, Params};
use locklab::engine::trace::data::{DataFacts, DataOutcome};
use locklab::engine::trace::{AbcMetrics, EventKind, Trace, invariant};
use locklab::i18n::Lang;
use locklab::scenario;
use proptest::prelude::*;

fn params(name: &str) -> AbcParams {
    match &scenario::find(name)
        .unwrap_or_else(|| panic!("preset {name} ships"))
        .params
    {
        Params::Abc(p) => p.clone(),
        _ => panic!("{name} is an A/B/C preset"),
    }
}

fn run(p: &AbcParams) -> (Trace, AbcMetrics) {
    let t = abc::run(p);
    let m = abc::metrics(&t).expect("an abc trace").clone();
    (t, m)
}

fn data(m: &AbcMetrics) -> &DataFacts {
    m.data.as_ref().expect("the run has a data node")
}

/// (writer, expected version, outcome, instant) for every setData the service judged.
fn writes(t: &Trace, d: &DataFacts) -> Vec<(String, i32, DataOutcome, u64)> {
    d.writes
        .iter()
        .map(|w| (t.name(w.writer).to_string(), w.expected, w.outcome, w.at_ms))
        .collect()
}

fn reads(t: &Trace, d: &DataFacts) -> Vec<(String, i32, u64)> {
    d.reads
        .iter()
        .map(|r| (t.name(r.reader).to_string(), r.version, r.at_ms))
        .collect()
}

fn set(version: i32) -> DataOutcome {
    DataOutcome::Set { version }
}

#[test]
fn version_minus_one_lets_the_paused_holder_wipe_out_bs_update() {
    let (t, m) = run(&params("setdata-any-version"));
    let d = data(&m);
    assert_eq!(
        (d.path, d.initial_version, d.initial_value),
        ("/counter", 8, 8)
    );
    assert_eq!(
        reads(&t, d),
        [
            ("A".into(), 8, 60),
            ("B".into(), 8, 6_050),
            ("C".into(), 10, 10_090)
        ]
    );
    assert_eq!(
        writes(&t, d),
        [
            ("B".into(), -1, set(9), 8_040),
            ("A".into(), -1, set(10), 9_050),
            ("C".into(), -1, set(11), 12_080)
        ]
    );
    // A's write replaced B's version 9 with a counter computed from version 8.
    assert_eq!(d.writes[1].read_version, Some(8));
    assert_eq!(
        d.writes[1].overwrote,
        Some((t.actor_named("B").unwrap(), 9))
    );
    assert_eq!(d.writes[1].value, 9);
    assert_eq!((d.final_version, d.final_value), (11, 10));
    assert_eq!(m.lost_updates, Some(1));
    let lost = t.invariant(invariant::NO_LOST_UPDATE).expect("checked");
    assert!(!lost.held);
    assert_eq!(lost.first_ms, Some(9_050));
    assert!(m.violations.contains(&invariant::NO_LOST_UPDATE));
    // The write is a stale holder's, sent on a session opened after the lock's had expired.
    assert!(
        t.invariant(invariant::STALE_WRITE_ARRIVED)
            .is_some_and(|i| i.held)
    );
    let a = t.actor_named("A").unwrap();
    let expired = t
        .events
        .iter()
        .find(|e| matches!(e.kind, EventKind::SessionExpired { owner, .. } if owner == a))
        .expect("A's session expires");
    assert_eq!(expired.at_ms, 6_000);
    let reopened: Vec<u64> = t
        .events
        .iter()
        .filter(|e| e.actor == a && matches!(e.kind, EventKind::SessionOpened { .. }))
        .map(|e| e.at_ms)
        .collect();
    assert_eq!(reopened, [0, 9_040]);
    // The lock itself never had two holders: the data node is what went wrong.
    assert_eq!(m.max_holders, 1);
}

#[test]
fn the_version_it_read_gets_the_paused_holder_bad_version_and_it_stops() {
    let (t, m) = run(&params("setdata-conditional"));
    let d = data(&m);
    assert_eq!(
        writes(&t, d),
        [
            ("B".into(), 8, set(9), 8_040),
            ("A".into(), 8, DataOutcome::BadVersion { current: 9 }, 9_050),
            ("C".into(), 9, set(10), 12_080)
        ]
    );
    assert_eq!(
        reads(&t, d),
        [
            ("A".into(), 8, 60),
            ("B".into(), 8, 6_050),
            ("A".into(), 9, 9_080),
            ("C".into(), 9, 10_090)
        ]
    );
    let a = t.actor_named("A").unwrap();
    assert!(
        t.events
            .iter()
            .any(|e| e.actor == a && e.kind == EventKind::DataWriteRefused && e.at_ms == 9_060)
    );
    // After the refusal A sends nothing more to the data node.
    let a_sends = t
        .events
        .iter()
        .filter(|e| e.actor == a && matches!(e.kind, EventKind::DataWriteSent { .. }))
        .count();
    assert_eq!(a_sends, 1);
    assert_eq!((d.final_version, d.final_value), (10, 10));
    assert_eq!(m.lost_updates, Some(0));
    assert!(t.all_invariants_hold(), "{:?}", m.violations);
}

#[test]
fn the_initial_version_is_a_parameter() {
    let mut p = params("setdata-conditional");
    p.data_version = 41;
    let (t, m) = run(&p);
    let d = data(&m);
    assert_eq!(
        writes(&t, d),
        [
            ("B".into(), 41, set(42), 8_040),
            (
                "A".into(),
                41,
                DataOutcome::BadVersion { current: 42 },
                9_050
            ),
            ("C".into(), 42, set(43), 12_080)
        ]
    );
}

#[test]
fn without_a_data_node_nothing_changes() {
    let p = AbcParams::default();
    let (t, m) = run(&p);
    assert_eq!((m.lost_updates, m.data.as_ref()), (None, None));
    assert!(t.invariant(invariant::NO_LOST_UPDATE).is_none());
    let json = serde_json::to_value(&m).unwrap();
    assert!(json.get("lost_updates").is_none() && json.get("data").is_none());
}

/// Every step's question, answered by the engine for that step's run, in English.
fn script_answers(name: &str) -> Vec<String> {
    let p = scenario::find(name).unwrap();
    p.script
        .iter()
        .filter_map(|s| {
            let q = s.question.as_ref()?;
            let t = locklab::engine::run(&s.params);
            let at = s.at_ms.unwrap_or(t.end_ms);
            Some(locklab::scenario::answers::answer(q.ask, &t, at, Lang::En))
        })
        .collect()
}

#[test]
fn the_scripts_questions_have_the_answers_their_captions_give() {
    assert_eq!(
        script_answers("setdata-any-version"),
        [
            "B (node 18)",
            "version 9, counter 9",
            "version 10, counter 9",
            "1",
            "version 9, counter 9"
        ]
    );
    assert_eq!(
        script_answers("setdata-conditional"),
        ["version 9, counter 9", "version 9, counter 9", "0", "1"]
    );
}

#[test]
fn the_json_report_carries_the_metric_and_the_writes() {
    let (_, m) = run(&params("setdata-any-version"));
    let json = serde_json::to_value(&m).unwrap();
    assert_eq!(json["lost_updates"], 1);
    assert_eq!(json["data"]["writes"][1]["expected"], -1);
    assert_eq!(json["data"]["writes"][1]["outcome"]["version"], 10);
}

#[test]
fn the_text_and_svg_exports_show_the_data_node_writes() {
    let p = scenario::find("setdata-any-version").unwrap();
    let t = locklab::engine::run(&p.params);
    let text = locklab::export::text::report(&p.name, None, &p.params, &t, Lang::En);
    assert!(text.contains("lost_updates           1"), "{text}");
    assert!(text.contains("A setData(-1) -> v10, counter 9"), "{text}");
    assert!(text.contains("wipes out B's v9"), "{text}");
    let svg = locklab::export::svg::render(&p.name, "", &t, None, Lang::En);
    assert!(svg.contains("A setData(-1) -&gt; v10, counter 9"), "{svg}");
    let zh = locklab::export::text::report(&p.name, None, &p.params, &t, Lang::Zh);
    assert!(zh.contains("A setData(-1) → v10，计数 9"), "{zh}");
}

#[cfg(feature = "live")]
#[test]
fn the_live_lab_refuses_data_node_presets_by_name() {
    for name in ["setdata-any-version", "setdata-conditional"] {
        let p = params(name);
        let reason = locklab::live::unsupported(&p).expect("refused");
        assert!(reason.contains("data_write"), "{reason}");
    }
    assert!(locklab::live::unsupported(&AbcParams::default()).is_none());
}

/// Random timings and a random pause of one holder, from one seed.
fn case(seed: u64, mode: DataWrite) -> AbcParams {
    use rand::{RngExt, SeedableRng, rngs::Xoshiro256PlusPlus};
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut p = AbcParams {
        data_write: mode,
        delay_ms: rng.random_range(0..40),
        session_timeout_ms: [1_000, 2_000, 4_000][rng.random_range(0..3)],
        tick_ms: [250, 500, 1_000, 2_000][rng.random_range(0..4)],
        hold_ms: rng.random_range(100..5_000),
        write_after_ms: rng.random_range(0..4_000),
        start_gap_ms: rng.random_range(0..300),
        duration_ms: 20_000,
        seed,
        ..AbcParams::default()
    };
    for _ in 0..rng.random_range(0..3) {
        let client = ["A", "B", "C"][rng.random_range(0..3)].to_string();
        let at_ms = rng.random_range(0..6_000);
        p.faults.push(match rng.random_range(0..3) {
            0 | 1 => Fault::Freeze {
                client,
                at_ms,
                len_ms: rng.random_range(100..10_000),
            },
            _ => Fault::Disconnect {
                client,
                at_ms,
                len_ms: rng.random_range(100..8_000),
            },
        });
    }
    p
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn a_conditional_update_never_loses_one(seed in any::<u64>()) {
        let p = case(seed, DataWrite::Conditional);
        let (t, m) = run(&p);
        prop_assert_eq!(m.lost_updates, Some(0), "seed {}", seed);
        prop_assert!(t.invariant(invariant::NO_LOST_UPDATE).is_some_and(|i| i.held), "seed {}", seed);
        // Every applied write was made against the version its writer read.
        for w in &data(&m).writes {
            if let DataOutcome::Set { version } = w.outcome {
                prop_assert_eq!(w.read_version, Some(version - 1), "seed {}", seed);
            }
        }
    }
}

#[test]
fn an_unconditional_update_loses_one_for_some_input_the_conditional_does_not() {
    let seed = (0..500u64)
        .find(|&s| run(&case(s, DataWrite::Unconditional)).1.lost_updates > Some(0))
        .expect("some schedule loses an update with version -1");
    let (t, _) = run(&case(seed, DataWrite::Unconditional));
    assert!(
        !t.invariant(invariant::NO_LOST_UPDATE).unwrap().held,
        "seed {seed}"
    );
    let (_, m) = run(&case(seed, DataWrite::Conditional));
    assert_eq!(m.lost_updates, Some(0), "seed {seed}");
}

#[test]
fn the_same_input_gives_the_same_trace() {
    let p = params("setdata-any-version");
    assert_eq!(abc::run(&p), abc::run(&p));
}

/// The queue families' scenario files refuse the A/B/C-only faults with the file, line, column
/// and key, and exit 2, instead of accepting a fault that would do nothing.
#[test]
fn rwlock_and_semaphore_files_refuse_faults_they_cannot_act_out() {
    let dir = tempfile::tempdir().unwrap();
    for (family, params) in [
        ("semaphore", "clients = 4\npermits = 3"),
        ("rwlock", "roles = \"rrwr\""),
    ] {
        for (kind, fields) in [
            ("give_up", "client = \"B\"\nat = 1"),
            ("drop_create_response", "client = \"B\""),
            ("delete_between", "owner = \"A\"\nreader = \"B\""),
        ] {
            let text = format!(
                "family = \"{family}\"\n\n[about]\nzh = \"x\"\nen = \"x\"\n\n[params]\n{params}\n\n[[faults]]\nkind = \"{kind}\"\n{fields}\n"
            );
            let path = dir.path().join(format!("{family}-{kind}.toml"));
            std::fs::write(&path, &text).unwrap();
            let out = std::process::Command::new(env!("CARGO_BIN_EXE_locklab"))
                .args(["sim", "run"])
                .arg(&path)
                .output()
                .unwrap();
            let err = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{family} {kind}: {err}");
            // `kind = "..."` is on the line after `[[faults]]`; its value starts at column 8.
            let line = text.lines().position(|l| l.starts_with("kind")).unwrap() + 1;
            let place = format!(
                "{}:{line}:8: `kind`: `{kind}` is an A/B/C fault",
                path.display()
            );
            assert!(err.contains(&place), "{family} {kind}: {err}");
        }
    }
}

#[test]
fn the_text_export_shows_the_refused_write_in_both_languages() {
    let p = scenario::find("setdata-conditional").unwrap();
    let t = locklab::engine::run(&p.params);
    let en = locklab::export::text::report(&p.name, None, &p.params, &t, Lang::En);
    assert!(
        en.contains("9.05 s  A setData(8) -> BadVersion, node at v9"),
        "{en}"
    );
    let zh = locklab::export::text::report(&p.name, None, &p.params, &t, Lang::Zh);
    assert!(
        zh.contains("A setData(8) → BadVersion，节点已是 v9"),
        "{zh}"
    );
}
