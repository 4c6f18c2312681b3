//! Snowflake-style IDs: the bit layout, every story of the presets with its own IDs, the
//! instructor scripts' answers, properties over random load and faults, and the command line.

use crate::common::locklab;
use locklab::engine::families::snowflake;
use locklab::engine::params::{Layout, OnExhaustion, OnRollback, Params, SnowflakeParams};
use locklab::engine::trace::snowflake::{IdEvent, SnowflakeMetrics};
use locklab::engine::trace::{EventKind, Trace, invariant};
use locklab::i18n::Lang;
use locklab::scenario;
use rand::{RngExt, SeedableRng, rngs::Xoshiro256PlusPlus};

fn params(name: &str) -> SnowflakeParams {
    match &scenario::find(name)
        .unwrap_or_else(|| panic!("{name} ships"))
        .params
    {
        Params::Snowflake(p) => p.clone(),
        other => panic!("{name} is not a Snowflake preset: {other:?}"),
    }
}

fn run(p: &SnowflakeParams) -> (Trace, SnowflakeMetrics) {
    let t = snowflake::run(p);
    let m = snowflake::metrics(&t).unwrap().clone();
    (t, m)
}

/// The (generator, time, worker, sequence) of every ID issued at `at`, duplicates marked.
fn ids_at(t: &Trace, m: &SnowflakeMetrics, at: u64) -> Vec<(String, u64, u32, u32, bool)> {
    m.ids
        .iter()
        .filter(|r| r.at_ms == at)
        .map(|r| {
            let g = t.name(r.generator).to_string();
            (g, r.time, r.worker, r.sequence, r.duplicate)
        })
        .collect()
}

fn g1(time: u64, seq: u32, dup: bool) -> (String, u64, u32, u32, bool) {
    ("G1".into(), time, 7, seq, dup)
}

#[test]
fn the_default_layout_packs_the_lessons_numbers() {
    let l = Layout::default();
    assert_eq!(l.encode(123_456_789, 37, 5), 517_815_304_081_413);
    assert_eq!(l.encode(1000, 7, 0), 4_194_332_672);
    assert_eq!(l.encode(999, 7, 0), 4_190_138_368);
    let (_, m) = run(&SnowflakeParams::default());
    assert_eq!((m.layout.ids_per_ms, m.layout.workers), (4_096, 1_024));
    assert_eq!((m.layout.years * 10.0).round() / 10.0, 69.7);
    // Every ID in the trace decodes to the fields recorded beside it.
    for r in &m.ids {
        assert_eq!(l.decode(r.id), (r.time, r.worker, r.sequence));
    }
}

#[test]
fn a_restart_within_the_same_millisecond_reissues_its_sequence() {
    let (t, m) = run(&params("snowflake-restart"));
    assert_eq!(
        ids_at(&t, &m, 5),
        [
            g1(1000, 0, false),
            g1(1000, 1, false),
            g1(1000, 0, true),
            g1(1000, 1, true)
        ]
    );
    assert_eq!((m.ids_issued, m.duplicate_ids), (26, 2));
    let c = &m.collisions[0];
    assert_eq!((c.id, c.first_at_ms, c.again_at_ms), (4_194_332_672, 5, 5));
    assert_eq!(
        t.invariant(invariant::UNIQUE_IDS)
            .unwrap()
            .first_violation_ms(),
        Some(5)
    );
    let mut p = params("snowflake-restart");
    p.wait_on_start = true;
    let (t, m) = run(&p);
    assert_eq!(m.duplicate_ids, 0);
    assert_eq!(m.max_wait_ms, 1);
    assert_eq!(
        ids_at(&t, &m, 6),
        (0..4).map(|s| g1(1001, s, false)).collect::<Vec<_>>()
    );
    assert!(t.all_invariants_hold());
    // A restart a millisecond later finds a new millisecond: nothing repeats.
    let mut p = params("snowflake-restart");
    p.restart_after_ms = 1;
    assert_eq!(run(&p).1.duplicate_ids, 0);
}

#[test]
fn a_clock_stepped_back_repeats_ids_unless_the_generator_waits_or_refuses() {
    let (t, m) = run(&params("snowflake-rollback"));
    assert_eq!(ids_at(&t, &m, 6), [g1(999, 0, true), g1(999, 1, true)]);
    assert_eq!(ids_at(&t, &m, 7), [g1(1000, 0, true), g1(1000, 1, true)]);
    assert_eq!(m.duplicate_ids, 4);
    assert_eq!(
        t.invariant(invariant::IDS_INCREASE)
            .unwrap()
            .first_violation_ms(),
        Some(6)
    );
    let stepped = t.events.iter().find_map(|e| match e.kind {
        EventKind::Snowflake(IdEvent::ClockSteppedBack {
            by_ms,
            reads,
            last_used,
        }) => Some((e.at_ms, by_ms, reads, last_used)),
        _ => None,
    });
    assert_eq!(stepped, Some((6, 2, 999, Some(1000))));

    let mut p = params("snowflake-rollback");
    p.on_rollback = OnRollback::Wait;
    let (t, m) = run(&p);
    assert!(ids_at(&t, &m, 6).is_empty());
    assert_eq!(
        ids_at(&t, &m, 7),
        (2..6).map(|s| g1(1000, s, false)).collect::<Vec<_>>()
    );
    assert_eq!((m.duplicate_ids, m.max_wait_ms, m.waited), (0, 1, 2));

    p.on_rollback = OnRollback::Refuse;
    let (t, m) = run(&p);
    assert_eq!((m.duplicate_ids, m.refused, m.ids_issued), (0, 2, 22));
    assert!(t.all_invariants_hold());
}

#[test]
fn two_processes_with_one_worker_id_issue_the_same_ids_unless_the_id_is_leased() {
    let (t, m) = run(&params("snowflake-same-worker"));
    assert_eq!(m.ids_issued, 48);
    assert_eq!(m.duplicate_ids, 24, "every ID of G2's is one of G1's");
    assert!(m.collisions.iter().all(|c| t.name(c.first) == "G1"
        && t.name(c.again) == "G2"
        && c.first_at_ms == c.again_at_ms));

    let mut p = params("snowflake-same-worker");
    p.worker_leases = true;
    let (t, m) = run(&p);
    assert_eq!((m.duplicate_ids, m.ids_issued, m.refused), (0, 24, 24));
    assert_eq!(
        m.max_wait_ms, 2,
        "a round trip to the registry at 1 ms each way"
    );
    let denied = t.events.iter().any(|e| {
        matches!(
            e.kind,
            EventKind::Snowflake(IdEvent::WorkerDenied { worker: 7, .. })
        ) && t.name(e.actor) == "registry"
    });
    assert!(denied);
    assert!(t.all_invariants_hold());
}

#[test]
fn a_sequence_used_up_within_one_millisecond_wraps_into_duplicates_or_waits() {
    let (t, m) = run(&params("snowflake-exhaustion"));
    let mut at_5: Vec<_> = (0..4).map(|s| g1(1000, s, false)).collect();
    at_5.extend([g1(1000, 0, true), g1(1000, 1, true)]);
    assert_eq!(ids_at(&t, &m, 5), at_5);
    assert_eq!(m.duplicate_ids, 2);

    let mut p = params("snowflake-exhaustion");
    p.on_exhaustion = OnExhaustion::Wait;
    let (t, m) = run(&p);
    assert_eq!(ids_at(&t, &m, 5).len(), 4);
    assert_eq!(
        ids_at(&t, &m, 6),
        (0..3).map(|s| g1(1001, s, false)).collect::<Vec<_>>()
    );
    assert_eq!((m.duplicate_ids, m.max_wait_ms, m.waited), (0, 1, 2));
}

#[test]
fn five_thousand_requests_in_one_millisecond_leave_904_for_the_next() {
    // The lesson's figure: sequences 0 to 4,095 in the first millisecond, the rest wait.
    let p = SnowflakeParams {
        rate: 0,
        burst: 5_000,
        burst_at_ms: 0,
        duration_ms: 3,
        ..SnowflakeParams::default()
    };
    let (_, m) = run(&p);
    assert_eq!(m.ids.iter().filter(|r| r.at_ms == 0).count(), 4_096);
    assert_eq!(m.waited, 904);
    assert_eq!((m.max_wait_ms, m.duplicate_ids), (1, 0));
}

#[test]
fn waiting_out_the_start_does_not_cover_a_clock_stepped_back_before_the_crash() {
    // The defence assumes the restarted clock is past everything used: a rollback before the
    // crash breaks that assumption.
    let p = SnowflakeParams {
        wait_on_start: true,
        on_rollback: OnRollback::Wait,
        rollback_ms: 3,
        rollback_at_ms: 6,
        crash_generator: 1,
        crash_at_ms: 7,
        restart_after_ms: 0,
        ..SnowflakeParams::default()
    };
    let (_, m) = run(&p);
    assert!(m.duplicate_ids > 0);
    assert_eq!((m.collisions[0].time, m.collisions[0].sequence), (1000, 0));
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
        script_answers("snowflake-restart"),
        [
            "G1 999|7|0, G1 999|7|1",
            "G1 1000|7|0, G1 1000|7|1, G1 1000|7|0 (duplicate), G1 1000|7|1 (duplicate)",
            "2",
            "G1 1001|7|0, G1 1001|7|1, G1 1001|7|2, G1 1001|7|3",
            "1 ms",
        ]
    );
    assert_eq!(
        script_answers("snowflake-rollback"),
        [
            "G1 1000|7|0, G1 1000|7|1",
            "G1 999|7|0 (duplicate), G1 999|7|1 (duplicate)",
            "4",
            "G1 1000|7|2, G1 1000|7|3, G1 1000|7|4, G1 1000|7|5",
            "22",
        ]
    );
    assert_eq!(
        script_answers("snowflake-same-worker"),
        [
            "G1 995|7|0, G1 995|7|1, G2 995|7|0 (duplicate), G2 995|7|1 (duplicate)",
            "24",
            "G1 997|7|0, G1 997|7|1, G1 997|7|2, G1 997|7|3, G1 997|7|4, G1 997|7|5",
            "2 ms",
        ]
    );
    assert_eq!(
        script_answers("snowflake-exhaustion"),
        [
            "G1 999|7|0",
            "G1 1000|7|0, G1 1000|7|1, G1 1000|7|2, G1 1000|7|3, G1 1000|7|0 (duplicate), G1 1000|7|1 (duplicate)",
            "2",
            "G1 1001|7|0, G1 1001|7|1, G1 1001|7|2",
            "1 ms",
        ]
    );
}

/// Random load and one fault at a time: a restart or a rollback (never both, see above).
fn random_params(rng: &mut Xoshiro256PlusPlus) -> SnowflakeParams {
    let n = rng.random_range(1..5);
    let workers = (0..n).map(|_| rng.random_range(0..3)).collect();
    let sequence_bits = rng.random_range(1..6);
    let mut p = SnowflakeParams {
        workers,
        layout: Layout {
            time_bits: 41,
            worker_bits: 10,
            sequence_bits,
        },
        rate: rng.random_range(0..12),
        burst: rng.random_range(0..40),
        burst_at_ms: rng.random_range(0..20),
        duration_ms: rng.random_range(5..30),
        delay_ms: rng.random_range(0..4),
        ..SnowflakeParams::default()
    };
    if rng.random_bool(0.5) {
        p.crash_generator = rng.random_range(1..=n as u32);
        p.crash_at_ms = rng.random_range(0..20);
        p.restart_after_ms = rng.random_range(0..3);
    } else {
        p.rollback_ms = rng.random_range(1..10);
        p.rollback_at_ms = rng.random_range(0..20);
        p.rollback_generator = rng.random_range(1..=n as u32);
    }
    p
}

fn defended(mut p: SnowflakeParams, refuse: bool) -> SnowflakeParams {
    p.wait_on_start = true;
    p.on_rollback = if refuse {
        OnRollback::Refuse
    } else {
        OnRollback::Wait
    };
    p.on_exhaustion = OnExhaustion::Wait;
    p.worker_leases = true;
    p
}

#[test]
fn with_every_defence_on_no_id_repeats_and_each_generators_ids_increase() {
    for seed in 0..400 {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let p = defended(random_params(&mut rng), rng.random_bool(0.5));
        let (t, m) = run(&p);
        for name in [invariant::UNIQUE_IDS, invariant::IDS_INCREASE] {
            let inv = t.invariant(name).unwrap();
            assert!(inv.held, "seed {seed}: {name}: {:?}\n{p:?}", inv.detail);
        }
        assert_eq!(m.duplicate_ids, 0);
        assert!(t == run(&p).0, "seed {seed}: deterministic");
    }
}

#[test]
fn each_defence_switched_off_lets_some_input_repeat_an_id() {
    type Off = fn(&mut SnowflakeParams);
    let offs: [(&str, Off); 4] = [
        ("start wait", |p| p.wait_on_start = false),
        ("rollback", |p| p.on_rollback = OnRollback::Ignore),
        ("exhaustion", |p| p.on_exhaustion = OnExhaustion::Wrap),
        ("leases", |p| p.worker_leases = false),
    ];
    for (what, off) in offs {
        let found = (0..400).find(|&seed| {
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
            let mut p = defended(random_params(&mut rng), false);
            off(&mut p);
            run(&p).1.duplicate_ids > 0
        });
        assert!(found.is_some(), "without {what} nothing ever repeated");
    }
}

#[test]
fn the_command_line_prints_the_ids_and_refuses_bad_layouts_with_status_2() {
    let o = locklab(&[
        "sim",
        "snowflake",
        "--preset",
        "snowflake-rollback",
        "--json",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["family"], "snowflake");
    assert_eq!(v["metrics"]["duplicate_ids"], 4);
    assert_eq!(v["metrics"]["ids_issued"], 24);
    assert_eq!(v["metrics"]["max_wait_ms"], 0);
    assert_eq!(v["metrics"]["ids"][10]["time"], 1000);
    assert_eq!(v["metrics"]["collisions"][0]["id"], 4_190_138_368u64);
    assert_eq!(v["invariants"][0]["name"], "unique_ids");

    let o = locklab(&[
        "sim",
        "snowflake",
        "--rollback",
        "2",
        "--on-rollback",
        "wait",
    ]);
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("max_wait_ms            1 ms"), "{text}");
    assert!(
        text.contains("6 ms  G1's clock is stepped back 2 ms"),
        "{text}"
    );
    assert!(
        text.lines().all(|l| locklab::text::width(l) <= 100),
        "{text}"
    );

    for (args, needles) in [
        (
            vec!["sim", "snowflake", "--sequence-bits", "13"],
            vec!["--sequence-bits", "no sign bit"],
        ),
        (
            vec!["sim", "snowflake", "--workers", "7,2000"],
            vec!["--workers", "2000", "10 bits"],
        ),
        (
            vec!["sim", "snowflake", "--rate", "-1"],
            vec!["--rate", "0 to 100"],
        ),
        (
            vec!["sim", "snowflake", "--on-rollback", "panic"],
            vec!["--on-rollback", "ignore, refuse, wait"],
        ),
    ] {
        let o = locklab(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        for n in needles {
            assert!(err.contains(n), "{args:?}: {err}");
        }
    }
}

/// Every variant of a shipped model question, with the engine's number for it.
fn model_answers(id: &str) -> Vec<(std::collections::BTreeMap<String, f64>, f64)> {
    use locklab::content::{deck, model};
    let decks: Vec<deck::DeckFile> = deck::load_all(&locklab::source::Source::Embedded)
        .unwrap()
        .into_iter()
        .map(|d| d.unwrap())
        .collect();
    let q = decks
        .iter()
        .flat_map(|d| &d.deck.questions)
        .find(|q| q.id.get_ref() == id)
        .unwrap_or_else(|| panic!("no question {id}"));
    model::all_variants(q, scenario::builtin(), 10_000)
        .unwrap()
        .expect("a small grid")
        .into_iter()
        .map(|v| match model::answer(q, &v).unwrap() {
            model::ModelAnswer::Number(x) => (v.drawn, x),
            other => panic!("{id}: {other:?}"),
        })
        .collect()
}

#[test]
fn the_model_questions_explanations_give_the_engines_numbers() {
    for (d, x) in model_answers("distributed-ids.model-restart-duplicates") {
        let expected = if d["restart_after"] == 0.0 {
            d["rate"]
        } else {
            0.0
        };
        assert_eq!(x, expected, "{d:?}");
    }
    for (d, x) in model_answers("distributed-ids.model-rollback-wait") {
        assert_eq!(x, d["rollback"] - 1.0, "{d:?}");
    }
    for (d, x) in model_answers("distributed-ids.model-exhaustion-wait") {
        let per_ms = 2f64.powf(d["sequence_bits"]);
        assert_eq!(x, (d["burst"] / per_ms).floor(), "{d:?}");
    }
    for (d, x) in model_answers("distributed-ids.model-same-worker") {
        assert_eq!(x, d["rate"] * d["duration"], "{d:?}");
    }
    for (d, x) in model_answers("distributed-ids.model-time-bits-years") {
        let years = 2f64.powf(d["time_bits"]) / (1000.0 * 60.0 * 60.0 * 24.0 * 365.2425);
        assert_eq!(x, (years * 10.0).round() / 10.0, "{d:?}");
    }
}
