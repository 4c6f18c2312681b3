//! Redlock across five independent Redis nodes: every story of the presets with its own
//! numbers, the instructor scripts' answers, properties over random timings and faults, and the
//! command line.

use crate::common::locklab;
use locklab::engine::families::redlock;
use locklab::engine::params::{Params, RedlockParams, ReleaseHow};
use locklab::engine::trace::redlock::RedlockEvent;
use locklab::engine::trace::{EventKind, Judgement, Trace, invariant};
use locklab::i18n::Lang;
use locklab::scenario;
use rand::{RngExt, SeedableRng, rngs::Xoshiro256PlusPlus};

fn params(name: &str) -> RedlockParams {
    match &scenario::find(name)
        .unwrap_or_else(|| panic!("{name} ships"))
        .params
    {
        Params::Redlock(p) => p.clone(),
        other => panic!("{name} is not a Redlock preset: {other:?}"),
    }
}

fn run(p: &RedlockParams) -> Trace {
    redlock::run(p)
}

fn first_failure(t: &Trace, name: locklab::engine::trace::Invariant) -> Option<u64> {
    t.invariant(name).unwrap().first_violation_ms()
}

fn redlock_events<'a>(t: &'a Trace, who: &str) -> impl Iterator<Item = (u64, &'a RedlockEvent)> {
    let id = t.actor_named(who).unwrap();
    t.events.iter().filter_map(move |e| match &e.kind {
        EventKind::Redlock(ev) if e.actor == id => Some((e.at_ms, ev)),
        _ => None,
    })
}

#[test]
fn a_node_restarting_without_its_key_lets_a_second_client_win_a_majority() {
    let t = run(&params("redlock-restart"));
    let m = redlock::metrics(&t).unwrap();
    // The worked example: OK from N1, N2, N4, timeouts from N3, N5, 120 ms elapsed.
    let a = &m.acquisitions[0];
    assert_eq!(
        (a.client.as_str(), a.ok_nodes.join(" ").as_str()),
        ("A", "N1 N2 N4")
    );
    assert_eq!(
        (a.ttl_ms, a.elapsed_ms, a.drift_ms, a.validity_ms),
        (10_000, 120, 102, 9_778)
    );
    assert_eq!((a.acquired_ms, a.valid_until_ms), (120, 9_898));
    let timeouts: Vec<u64> = redlock_events(&t, "A")
        .filter(|(_, e)| matches!(e, RedlockEvent::SetTimedOut { .. }))
        .map(|(at, _)| at)
        .collect();
    assert_eq!(timeouts, [70, 120], "30 ms each for N3 and N5");
    // N4 comes back at 1.2 s without A's key.
    let recovered = redlock_events(&t, "N4")
        .find_map(|(at, e)| match e {
            RedlockEvent::NodeRecovered { lost, .. } => Some((at, *lost)),
            _ => None,
        })
        .unwrap();
    assert_eq!(recovered, (1_200, t.actor_named("A")));
    let b = &m.acquisitions[1];
    assert_eq!(
        (b.client.as_str(), b.ok_nodes.join(" ").as_str()),
        ("B", "N3 N4 N5")
    );
    assert_eq!((b.acquired_ms, b.validity_ms), (1_600, 9_798));
    assert_eq!(m.max_holders, 2);
    assert_eq!(
        m.max_holders_nodes_view, 1,
        "the nodes never hold two majorities"
    );
    assert_eq!(
        m.two_holders_ms, 1_540,
        "from 1.6 s until A releases at 3.14 s"
    );
    assert_eq!(first_failure(&t, invariant::ONE_HOLDER), Some(1_600));
    assert_eq!(
        first_failure(&t, invariant::HOLDER_HAS_MAJORITY),
        Some(1_000),
        "A's majority is gone the moment N4 crashes with an unsynced key"
    );
    let w = &t.writes[0];
    assert_eq!((t.name(w.writer), w.at_ms), ("A", 3_130));
    assert_eq!(w.judgement, Judgement::StaleAccepted);
    assert_eq!(m.stale_writes_accepted, 1);

    // Synced keys: N4 comes back with A's key and B waits for A's release.
    let mut p = params("redlock-restart");
    p.fsync = true;
    let t = run(&p);
    let m = redlock::metrics(&t).unwrap();
    assert_eq!(m.max_holders, 1);
    assert_eq!(m.acquisitions[1].acquired_ms, 3_400);
    assert_eq!(m.failed_attempts, 3);
    assert!(t.all_invariants_hold(), "{:?}", m.violations);
}

#[test]
fn a_clock_stepped_forward_on_one_node_does_the_same() {
    let t = run(&params("redlock-clock-jump"));
    let m = redlock::metrics(&t).unwrap();
    let n4: Vec<(u64, &RedlockEvent)> = redlock_events(&t, "N4").collect();
    assert!(n4.contains(&(1_000, &RedlockEvent::ClockJumped { by_ms: 10_000 })));
    let a = t.actor_named("A").unwrap();
    assert!(n4.contains(&(1_000, &RedlockEvent::KeyExpired { owner: a })));
    assert_eq!(m.acquisitions[0].validity_ms, 9_778);
    assert_eq!(m.acquisitions[1].ok_nodes, ["N3", "N4", "N5"]);
    assert_eq!(m.acquisitions[1].acquired_ms, 1_600);
    assert_eq!(m.max_holders, 2);
    assert_eq!(m.two_holders_ms, 1_540);
    assert_eq!(first_failure(&t, invariant::ONE_HOLDER), Some(1_600));
    assert_eq!(
        first_failure(&t, invariant::HOLDER_HAS_MAJORITY),
        Some(1_000)
    );
    // Without the jump, B cannot get a majority until A releases.
    let mut p = params("redlock-clock-jump");
    p.jump_node = 0;
    let steady = run(&p);
    assert!(steady.all_invariants_hold());
    assert_eq!(redlock::metrics(&steady).unwrap().max_holders, 1);
}

#[test]
fn a_pause_past_the_validity_gives_a_stale_write_nothing_can_refuse() {
    let t = run(&params("redlock-gc-pause"));
    let m = redlock::metrics(&t).unwrap();
    assert_eq!(m.validity_ms, Some(9_798));
    assert_eq!(m.acquisitions[0].valid_until_ms, 9_898);
    // A's validity ran out while it was frozen; it only wakes at 11 s.
    let over = redlock_events(&t, "A")
        .find_map(|(at, e)| match e {
            RedlockEvent::ValidityOver { since_ms } => Some((at, *since_ms)),
            _ => None,
        })
        .unwrap();
    assert_eq!(over, (11_000, 9_898));
    let b = &m.acquisitions[1];
    assert_eq!((b.client.as_str(), b.acquired_ms), ("B", 10_600));
    assert_eq!(
        m.failed_attempts, 15,
        "B tried every 0.6 s from 1.5 s to 9.9 s"
    );
    let writes: Vec<(&str, u64, Judgement)> = t
        .writes
        .iter()
        .map(|w| (t.name(w.writer), w.at_ms, w.judgement))
        .collect();
    assert_eq!(
        writes,
        [
            ("A", 13_110, Judgement::StaleAccepted),
            ("B", 13_610, Judgement::Fresh),
        ]
    );
    assert_eq!(m.stale_writes_accepted, 1);
    assert_eq!(m.max_holders, 1, "A's validity ended before B acquired");
    assert_eq!(
        first_failure(&t, invariant::NO_STALE_WRITE_ACCEPTED),
        Some(13_110)
    );
    assert!(t.invariant(invariant::ONE_HOLDER).unwrap().held);
    assert_eq!(m.final_value.as_deref(), Some("B"));
}

#[test]
fn a_naive_del_removes_someone_elses_lock_and_the_script_does_not() {
    let t = run(&params("redlock-naive-del"));
    let m = redlock::metrics(&t).unwrap();
    let a = t.actor_named("A").unwrap();
    let deletes: Vec<(u64, bool)> = t
        .events
        .iter()
        .filter_map(|e| match e.kind {
            EventKind::Redlock(RedlockEvent::KeyDeleted { owner, by, .. }) if owner != by => {
                Some((e.at_ms, owner == a))
            }
            _ => None,
        })
        .collect();
    // B's cleanup after its failed attempt deletes A's five keys; A's release deletes B's.
    assert_eq!(deletes.len(), 10);
    assert!(deletes[..5].iter().all(|&(at, of_a)| at == 1_610 && of_a));
    assert!(deletes[5..].iter().all(|&(at, of_a)| at == 3_130 && !of_a));
    assert_eq!(m.foreign_deletes, 10);
    assert_eq!(m.acquisitions[1].acquired_ms, 2_200);
    assert_eq!(
        m.two_holders_ms, 920,
        "from 2.2 s until A releases at 3.12 s"
    );
    assert_eq!(
        first_failure(&t, invariant::RELEASES_OWN_KEY_ONLY),
        Some(1_610)
    );
    assert_eq!(
        locklab::scenario::answers::holders_at(&t, 2_200, Lang::En),
        "A, B"
    );

    let mut p = params("redlock-naive-del");
    p.release = ReleaseHow::CompareAndDelete;
    let t = run(&p);
    let m = redlock::metrics(&t).unwrap();
    assert_eq!((m.foreign_deletes, m.max_holders), (0, 1));
    assert_eq!(m.acquisitions[1].acquired_ms, 3_400);
    assert!(t.all_invariants_hold(), "{:?}", m.violations);
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
        script_answers("redlock-restart"),
        ["9778 ms", "N1 A, N2 A, N3 -, N4 -, N5 -", "A, B", "2", "1"]
    );
    assert_eq!(
        script_answers("redlock-clock-jump"),
        [
            "N1 A, N2 A, N3 down, N4 A, N5 down",
            "N1 A, N2 A, N3 -, N4 -, N5 -",
            "A, B",
            "2"
        ]
    );
    // N4 synced A's key before answering, so it is back with it and B never wins a majority.
    assert_eq!(
        script_answers("redlock-restart-fsync"),
        ["N1 A, N2 A, N3 -, N4 A, N5 -", "1"]
    );
    assert_eq!(
        script_answers("redlock-gc-pause"),
        ["9798 ms", "B", "1", "B"]
    );
    assert_eq!(
        script_answers("redlock-naive-del"),
        [
            "N1 A, N2 A, N3 A, N4 A, N5 A",
            "N1 -, N2 -, N3 -, N4 -, N5 -",
            "A, B",
            "10",
            "1"
        ]
    );
}

fn random_params(rng: &mut Xoshiro256PlusPlus) -> RedlockParams {
    let nodes = rng.random_range(3..8u32);
    let ttl_ms = rng.random_range(2_000..20_000u64);
    let delay_ms = rng.random_range(0..40u64);
    let mut down: Vec<u32> = (1..=nodes).filter(|_| rng.random_bool(0.2)).collect();
    down.truncate((nodes / 2) as usize);
    RedlockParams {
        nodes,
        clients: rng.random_range(2..5),
        ttl_ms,
        delay_ms,
        timeout_ms: rng.random_range(5..80),
        drift_pct: rng.random_range(0..3),
        start_gap_ms: rng.random_range(0..3_000),
        retry_ms: rng.random_range(50..1_000),
        // The work fits well inside the validity: the timing assumption Redlock makes.
        work_ms: rng.random_range(0..ttl_ms / 2),
        duration_ms: 30_000,
        release: ReleaseHow::CompareAndDelete,
        fsync: true,
        down,
        down_until_ms: rng.random_range(0..3_000),
        crash_node: rng.random_range(0..=nodes),
        crash_at_ms: rng.random_range(0..6_000),
        restart_after_ms: rng.random_range(0..3_000),
        jump_node: 0,
        jump_at_ms: 1_000,
        jump_by_ms: 0,
        pause_client: None,
        pause_at_ms: 0,
        pause_len_ms: 0,
        seed: rng.random_range(0..1_000),
    }
}

const CHECKS: [locklab::engine::trace::Invariant; 4] = [
    invariant::ONE_HOLDER,
    invariant::HOLDER_HAS_MAJORITY,
    invariant::NO_STALE_WRITE_ACCEPTED,
    invariant::RELEASES_OWN_KEY_ONLY,
];

#[test]
fn with_synced_keys_steady_clocks_no_pauses_and_compare_and_delete_every_check_holds() {
    for seed in 0..400 {
        let p = random_params(&mut Xoshiro256PlusPlus::seed_from_u64(seed));
        let t = run(&p);
        for name in CHECKS {
            let inv = t.invariant(name).unwrap();
            assert!(inv.held, "seed {seed}: {name}: {:?}\n{p:?}", inv.detail);
        }
        assert!(t == run(&p), "seed {seed}: deterministic");
    }
}

#[test]
fn each_broken_assumption_breaks_a_check_for_some_input() {
    type Break = (
        locklab::engine::trace::Invariant,
        fn(&mut RedlockParams, &mut Xoshiro256PlusPlus),
    );
    let breaks: [Break; 4] = [
        (invariant::ONE_HOLDER, |p, _| p.fsync = false),
        (invariant::ONE_HOLDER, |p, rng| {
            p.jump_node = rng.random_range(1..=p.nodes);
            p.jump_at_ms = rng.random_range(0..6_000);
            p.jump_by_ms = rng.random_range(1_000..30_000);
        }),
        (invariant::NO_STALE_WRITE_ACCEPTED, |p, rng| {
            p.pause_client = Some(0);
            p.pause_at_ms = rng.random_range(0..3_000);
            p.pause_len_ms = rng.random_range(1_000..25_000);
        }),
        (invariant::RELEASES_OWN_KEY_ONLY, |p, _| {
            p.release = ReleaseHow::NaiveDel
        }),
    ];
    for (i, (name, apply)) in breaks.iter().enumerate() {
        let found = (0..400).find(|&seed| {
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
            let mut p = random_params(&mut rng);
            apply(&mut p, &mut rng);
            !run(&p).invariant(*name).unwrap().held
        });
        assert!(found.is_some(), "break {i} never failed {name}");
    }
}

#[test]
fn the_command_line_prints_the_metrics_and_refuses_bad_values_with_status_2() {
    let o = locklab(&["sim", "redlock", "--preset", "redlock-restart", "--json"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["family"], "redlock");
    assert_eq!(v["metrics"]["max_holders"], 2);
    assert_eq!(v["metrics"]["validity_ms"], 9_778);
    assert_eq!(v["metrics"]["stale_writes_accepted"], 1);
    assert_eq!(v["invariants"][0]["name"], "one_holder");
    assert_eq!(v["invariants"][0]["first_ms"], 1_600);

    // Parameters after the switches, and `--json` after the parameters, both work.
    let o = locklab(&["sim", "redlock", "--ttl", "5000", "--delay", "0", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["metrics"]["validity_ms"], 5_000 - 52);

    for (args, needles) in [
        (
            vec!["sim", "redlock", "--ttl", "5"],
            vec!["--ttl", "10 to 60000 ms"],
        ),
        (
            vec!["sim", "redlock", "--down", "3,x"],
            vec!["--down", "node numbers"],
        ),
        (
            vec!["sim", "redlock", "--crash-node", "6"],
            vec!["--crash-node", "5 nodes"],
        ),
        (
            vec!["sim", "redlock", "--release", "del"],
            vec!["--release", "compare_and_delete, naive_del"],
        ),
        (
            vec!["sim", "redlock", "--colour", "1"],
            vec!["--colour", "--ttl"],
        ),
    ] {
        let o = locklab(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        for n in needles {
            assert!(err.contains(n), "{args:?}: {err}");
        }
    }

    let dir = std::env::temp_dir().join(format!("locklab-redlock-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("mine.toml");
    std::fs::write(
        &file,
        "family = \"redlock\"\n[about]\nzh = \"x\"\nen = \"x\"\n[params]\nnodes = 3\njump_node = 4\n",
    )
    .unwrap();
    let o = locklab(&["sim", "run", file.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("mine.toml:7:13: `jump_node`"), "{err}");
    assert!(err.contains("there are 3 nodes"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
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
    let presets = scenario::builtin();
    model::all_variants(q, presets, 10_000)
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
    // Validity = TTL − (3 round trips + 2 timeouts) − (1% of the TTL + 2 ms).
    for (d, x) in model_answers("redis-locks.model-redlock-validity") {
        let (ttl, delay) = (d["ttl"], d["delay"]);
        assert_eq!(x, ttl - (6.0 * delay + 60.0) - (ttl / 100.0 + 2.0), "{d:?}");
    }
    // B's SET reaches N4 70 ms into each attempt; the first one after N4 has lost A's key wins,
    // B holds 100 ms into that attempt, and both hold until A's release at 3.14 s.
    let overlap = |attempts: [f64; 3], n4_free: f64| {
        attempts
            .into_iter()
            .find(|a| a + 70.0 >= n4_free)
            .map_or(0.0, |a| 3_140.0 - (a + 100.0))
    };
    // With N3 and N5 down, a failed attempt takes 110 ms; N4 comes back without A's key.
    for (d, x) in model_answers("redis-locks.model-redlock-restart-overlap") {
        let back = 1_000.0 + d["restart_after"];
        assert_eq!(x, overlap([1_500.0, 2_110.0, 2_720.0], back), "{d:?}");
    }
    // N4 stored A's key at 0.08 s, so by its stepped clock the key runs out `jump_by` early.
    for (d, x) in model_answers("redis-locks.model-redlock-jump-overlap") {
        let gone = 10_080.0 - d["jump_by"];
        assert_eq!(x, overlap([1_500.0, 2_100.0, 2_700.0], gone), "{d:?}");
    }
    for (d, x) in model_answers("redis-locks.model-redlock-naive-del") {
        assert_eq!(x, 2.0 * d["nodes"], "{d:?}");
    }
}

#[test]
fn nodes_down_from_the_start_do_not_answer_even_with_no_network_delay() {
    // N3 and N4 are down before A's first SET reaches them: A gets OK from N1 and N2 at once,
    // waits out the 30 ms timeout twice (N3, N4), and gets OK from N5 at 60 ms. The same as with
    // a 1 ms delay, apart from the round trips.
    let p = RedlockParams {
        delay_ms: 0,
        down: vec![3, 4],
        down_until_ms: 3_000,
        ..RedlockParams::default()
    };
    let t = run(&p);
    let a = &redlock::metrics(&t).unwrap().acquisitions[0];
    assert_eq!(
        (a.client.as_str(), a.ok_nodes.join(" ").as_str()),
        ("A", "N1 N2 N5")
    );
    assert_eq!((a.acquired_ms, a.elapsed_ms), (60, 60));
    let timeouts: Vec<u64> = redlock_events(&t, "A")
        .filter(|(_, e)| matches!(e, RedlockEvent::SetTimedOut { .. }))
        .map(|(at, _)| at)
        .collect();
    assert_eq!(timeouts, [30, 60]);
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(300))]

    /// A node that is down from the start does nothing until it restarts, whatever the delay
    /// (no delay included).
    #[test]
    fn a_node_down_from_the_start_is_silent_until_it_restarts(
        seed in 0u64..100_000,
        delay_ms in proptest::prop_oneof![proptest::strategy::Just(0u64), 0u64..40],
    ) {
        let mut p = random_params(&mut Xoshiro256PlusPlus::seed_from_u64(seed));
        p.delay_ms = delay_ms;
        p.down.push(1);
        p.down.sort_unstable();
        p.down.dedup();
        p.down_until_ms = p.down_until_ms.max(1);
        // A second restart of the same node would bring it back early.
        if p.down.contains(&p.crash_node) {
            p.crash_node = 0;
        }
        let t = run(&p);
        for &d in &p.down {
            let node = t.actor_named(&format!("N{d}")).unwrap();
            let early: Vec<_> = t
                .events
                .iter()
                .filter(|e| e.actor == node && e.at_ms < p.down_until_ms)
                .filter(|e| e.kind != EventKind::Crashed)
                .collect();
            proptest::prop_assert!(early.is_empty(), "N{}: {:?}\n{:?}", d, early, p);
            let answered = t.messages.iter().any(|m| m.from == node && m.sent_ms < p.down_until_ms);
            proptest::prop_assert!(!answered, "N{} answered while down\n{:?}", d, p);
        }
    }
}
