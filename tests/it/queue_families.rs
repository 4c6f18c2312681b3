//! Read-write locks and semaphores on the ZooKeeper queue: the worked examples with their own
//! numbers, and properties over random timings and faults.

use locklab::engine::families::queue;
use locklab::engine::params::{
    Fault, Params, QueueCommon, ReadRule, RwLockParams, SemaphoreParams, Want,
};
use locklab::engine::trace::event::Admission;
use locklab::engine::trace::{EventKind, Share, SpanState, Trace, invariant};
use locklab::scenario;
use rand::{RngExt, SeedableRng, rngs::Xoshiro256PlusPlus};

fn run(name: &str) -> Trace {
    let p = scenario::find(name).unwrap_or_else(|| panic!("preset {name} ships"));
    locklab::engine::run(&p.params)
}

fn first_at(t: &Trace, who: &str, f: impl Fn(&EventKind) -> bool) -> u64 {
    let id = t.actor_named(who).unwrap();
    t.events
        .iter()
        .find(|e| e.actor == id && f(&e.kind))
        .unwrap_or_else(|| panic!("{who} has no such event"))
        .at_ms
}

fn held(t: &Trace, name: locklab::engine::trace::Invariant) -> bool {
    t.invariant(name).is_some_and(|i| i.held)
}

#[test]
fn readers_16_and_17_share_writer_18_waits_and_reader_19_waits_for_the_writer() {
    let t = run("rwlock-fair");
    let m = queue::metrics(&t).unwrap();
    let seqs: Vec<(i32, &str)> = t.nodes.iter().map(|n| (n.seq, t.name(n.owner))).collect();
    assert_eq!(seqs, [(16, "A"), (17, "B"), (18, "C"), (19, "D")]);
    assert_eq!(m.grant_order, ["A", "B", "C", "D"]);
    assert_eq!(m.max_concurrent_readers, 2, "16 and 17 read together");
    assert_eq!(
        locklab::scenario::answers::holders_at(&t, 140, locklab::i18n::Lang::En),
        "A, B"
    );
    // The writer holds only once both readers are gone, and alone.
    let a_out = first_at(&t, "A", |k| matches!(k, EventKind::ReleaseSent { .. }));
    let b_out = first_at(&t, "B", |k| matches!(k, EventKind::ReleaseSent { .. }));
    let c_in = first_at(&t, "C", |k| matches!(k, EventKind::Acquired { .. }));
    assert!(c_in > a_out.max(b_out));
    assert!(held(&t, invariant::WRITER_ALONE));
    // Reader 19 waits for writer 18, although it is a reader.
    let c_out = first_at(&t, "C", |k| matches!(k, EventKind::ReleaseSent { .. }));
    let d_in = first_at(&t, "D", |k| matches!(k, EventKind::Admitted { .. }));
    assert!(d_in > c_out);
    assert_eq!(m.writer_wait_ms, Some(2_980));
    assert!(held(&t, invariant::READERS_SHARED) && held(&t, invariant::WRITER_HELD));
}

#[test]
fn readers_that_skip_a_waiting_writer_starve_it_while_they_keep_coming() {
    let t = run("rwlock-starved");
    let m = queue::metrics(&t).unwrap();
    assert_eq!(
        m.grant_order.last().map(String::as_str),
        Some("C"),
        "the writer goes last"
    );
    assert_eq!(m.writer_wait_ms, Some(9_640));
    let d = t.actor_named("D").unwrap();
    let c_node = t.nodes.iter().find(|n| t.name(n.owner) == "C").unwrap().id;
    assert!(t.events.iter().any(|e| e.actor == d
        && matches!(e.kind, EventKind::Admitted { how: Admission::Read { skipped: Some(w) }, .. } if w == c_node)));
    // Favouring readers is unfair, not unsafe: the writer still holds alone.
    assert!(held(&t, invariant::WRITER_ALONE));
    // The fair lock serves the same arrivals with a short wait.
    let Params::Rwlock(mut p) = scenario::find("rwlock-starved").unwrap().params.clone() else {
        panic!()
    };
    p.read_rule = ReadRule::Fair;
    let fair = queue::run_rwlock(&p);
    let fm = queue::metrics(&fair).unwrap();
    assert_eq!(fm.writer_wait_ms, Some(1_580));
    assert_eq!(fm.grant_order[2], "C");
}

#[test]
fn a_permit_is_freed_when_its_holders_session_expires() {
    let t = run("semaphore-expiry");
    let m = queue::metrics(&t).unwrap();
    assert_eq!(
        locklab::scenario::answers::holders_at(&t, 340, locklab::i18n::Lang::En),
        "A, B, C"
    );
    let seqs: Vec<i32> = t.nodes.iter().map(|n| n.seq).collect();
    assert_eq!(seqs, [30, 31, 32, 33]);
    let expired = t
        .events
        .iter()
        .find(|e| matches!(e.kind, EventKind::SessionExpired { .. }))
        .unwrap();
    // B crashed at 1 s; last heard at 0.12 s; 0.12 + 4 = 4.12 s rounds up to the 6 s tick.
    assert_eq!(expired.at_ms, 6_000);
    let d = t.actor_named("D").unwrap();
    let admitted = t
        .events
        .iter()
        .find(|e| e.actor == d && matches!(e.kind, EventKind::Admitted { .. }))
        .unwrap();
    assert!(admitted.at_ms > expired.at_ms);
    assert!(matches!(
        admitted.kind,
        EventKind::Admitted {
            how: Admission::Permit {
                place: 3,
                permits: 3
            },
            ..
        }
    ));
    assert_eq!(m.max_holders, 3);
    assert!(held(&t, invariant::WITHIN_PERMITS));
}

#[test]
fn lowering_the_permit_count_does_not_evict_the_holders_inside() {
    let t = run("semaphore-lowered");
    let inv = t.invariant(invariant::WITHIN_PERMITS).unwrap();
    assert_eq!(
        inv.first_violation_ms(),
        Some(2_500),
        "three inside, two permits"
    );
    assert!(
        t.events
            .iter()
            .any(|e| e.at_ms == 2_500 && e.kind == EventKind::PermitsLowered { permits: 2 })
    );
    // Clients that come later count with the new number.
    let d_in = first_at(&t, "D", |k| matches!(k, EventKind::Admitted { .. }));
    assert!(matches!(
        t.events
            .iter()
            .find(|e| e.at_ms == d_in && matches!(e.kind, EventKind::Admitted { .. }))
            .unwrap()
            .kind,
        EventKind::Admitted {
            how: Admission::Permit { permits: 2, .. },
            ..
        }
    ));
}

fn random_common(rng: &mut Xoshiro256PlusPlus, clients: usize) -> QueueCommon {
    let mut faults = Vec::new();
    for _ in 0..rng.random_range(0..3) {
        let client =
            ["A", "B", "C", "D", "E", "F"][rng.random_range(0..clients.min(6))].to_string();
        let at_ms = rng.random_range(0..6_000);
        let len_ms = rng.random_range(1..9_000);
        faults.push(match rng.random_range(0..3) {
            0 => Fault::Freeze {
                client,
                at_ms,
                len_ms,
            },
            1 => Fault::Disconnect {
                client,
                at_ms,
                len_ms,
            },
            _ => Fault::Crash { client, at_ms },
        });
    }
    let tick_ms = [500, 1_000, 2_000][rng.random_range(0..3)];
    QueueCommon {
        hold_ms: rng.random_range(100..4_000),
        start_gap_ms: rng.random_range(0..1_500),
        session_timeout_ms: [2_000, 4_000, 6_000][rng.random_range(0..3)],
        tick_ms,
        // Anywhere on the server's clock: the grid need not start with the run.
        tick_phase_ms: rng.random_range(0..tick_ms),
        delay_ms: rng.random_range(0..30),
        duration_ms: 30_000,
        first_sequence: 41,
        seed: rng.random_range(0..1_000),
        faults,
    }
}

#[test]
fn both_read_write_locks_keep_writers_alone_and_nobody_stuck_under_random_schedules() {
    for seed in 0..300 {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let n = rng.random_range(2..7);
        let wants = (0..n)
            .map(|_| {
                if rng.random_bool(0.4) {
                    Want::Write
                } else {
                    Want::Read
                }
            })
            .collect();
        for rule in [ReadRule::Fair, ReadRule::SkipWaitingWriters] {
            let p = RwLockParams {
                wants: Vec::clone(&wants),
                read_rule: rule,
                common: random_common(&mut Xoshiro256PlusPlus::seed_from_u64(seed), n),
            };
            let t = queue::run_rwlock(&p);
            for name in [
                invariant::WRITER_ALONE,
                invariant::NO_ORPHAN_NODE,
                invariant::NOBODY_STUCK,
            ] {
                let inv = t.invariant(name).unwrap();
                assert!(
                    inv.held,
                    "seed {seed} {rule:?}: {name} failed: {:?}\n{p:?}",
                    inv.detail
                );
            }
            assert!(t == queue::run_rwlock(&p), "seed {seed}: deterministic");
        }
    }
}

#[test]
fn a_semaphore_stays_within_its_permits_unless_the_count_is_lowered() {
    let mut broke = None;
    for seed in 0..300 {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let clients = rng.random_range(2..8);
        let permits = rng.random_range(1..4);
        let mut p = SemaphoreParams {
            clients,
            permits,
            lower_at_ms: None,
            lower_to: 0,
            common: random_common(&mut rng, clients as usize),
        };
        let t = queue::run_semaphore(&p);
        let inv = t.invariant(invariant::WITHIN_PERMITS).unwrap();
        assert!(inv.held, "seed {seed}: {:?}", inv.detail);
        p.lower_at_ms = Some(rng.random_range(0..6_000));
        p.lower_to = 1;
        let lowered = queue::run_semaphore(&p);
        if !lowered.invariant(invariant::WITHIN_PERMITS).unwrap().held {
            broke.get_or_insert(seed);
        }
    }
    assert!(
        broke.is_some(),
        "some schedule has more holders than the lowered count"
    );
}

#[test]
fn the_outcome_line_counts_readers_only_for_the_read_write_lock() {
    use locklab::export::svg::family_lines;
    use locklab::i18n::Lang;
    let line = |name: &str| {
        let p = scenario::find(name).expect("preset");
        family_lines(&locklab::engine::run(&p.params), Lang::En).join("\n")
    };
    let rw = line("rwlock-fair");
    assert!(rw.contains("most readers at once 2"), "{rw}");
    for name in ["semaphore-expiry", "semaphore-lowered"] {
        let sem = line(name);
        assert!(sem.contains("most holders at once"), "{sem}");
        assert!(!sem.contains("readers"), "{sem}");
    }
}

/// The service lane's state at `at_ms`: who holds through the lock directory, how, and how many
/// nodes queue behind them.
fn service_at(t: &Trace, at_ms: u64) -> (Vec<String>, Share, u8) {
    let lane = t
        .lanes
        .iter()
        .find(|l| t.role(l.actor) == Some(locklab::engine::trace::Role::Coordinator))
        .expect("a service lane");
    match lane.span_at(at_ms).map(|s| s.state) {
        Some(SpanState::Queue {
            holders,
            share,
            waiting,
        }) => (
            holders.iter().map(|h| t.name(h).to_string()).collect(),
            share,
            waiting,
        ),
        other => panic!("not a queue at {at_ms}: {other:?}"),
    }
}

#[test]
fn the_service_lane_names_both_readers_then_the_writer_alone() {
    // R16 and R17 read together (from 0.14 s); by 0.36 s W18 and R19 queue behind them; then
    // W18 writes alone.
    let t = run("rwlock-fair");
    assert_eq!(service_at(&t, 140).0, ["A", "B"]);
    assert_eq!(
        service_at(&t, 360),
        (vec!["A".into(), "B".into()], Share::Read, 2)
    );
    assert_eq!(
        service_at(&t, 3_180),
        (vec!["C".into()], Share::Exclusive, 1)
    );
    let label = |at| {
        let span = t
            .lanes
            .iter()
            .find(|l| t.role(l.actor) == Some(locklab::engine::trace::Role::Coordinator))
            .and_then(|l| l.span_at(at))
            .unwrap()
            .state;
        locklab::i18n::sim::state_label(span, &t, locklab::i18n::Lang::En)
    };
    assert_eq!(label(360), "A, B read, 2 queued");
    assert_eq!(label(3_180), "C holds, 1 queued");
}

#[test]
fn while_readers_starve_the_writer_the_service_lane_names_the_readers_not_the_writer() {
    // A client every second, each reader holding 2.5 s: at 10 s, I (from 8 s) and J (from 9 s)
    // read, and C, the writer that came at 2 s, still waits.
    let t = run("rwlock-starved");
    let (holders, share, _) = service_at(&t, 10_000);
    assert_eq!(holders, ["I", "J"]);
    assert_eq!(share, Share::Read);
    assert_eq!(
        locklab::scenario::answers::holders_at(&t, 10_000, locklab::i18n::Lang::En),
        "I, J"
    );
}

#[test]
fn the_service_lane_names_every_permit_holder() {
    // Three permits: 30, 31 and 32 hold, 33 waits.
    let t = run("semaphore-expiry");
    assert_eq!(
        service_at(&t, 340),
        (vec!["A".into(), "B".into(), "C".into()], Share::Permits, 1)
    );
}

#[test]
fn a_writer_that_would_start_after_the_run_has_not_waited() {
    // Roles r, r, w 7 s apart: C would start at 14 s, after the 12 s run, and never asks.
    let p = RwLockParams {
        wants: vec![Want::Read, Want::Read, Want::Write],
        common: QueueCommon {
            start_gap_ms: 7_000,
            duration_ms: 12_000,
            ..QueueCommon::default()
        },
        ..RwLockParams::default()
    };
    let t = locklab::engine::run(&Params::Rwlock(p));
    let m = queue::metrics(&t).unwrap();
    assert_eq!(m.writer_wait_ms, None);
    assert!(m.starved_writers.is_empty(), "{:?}", m.starved_writers);
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(300))]

    /// A writer's wait starts when it asks: no wait is longer than the run left after the first
    /// writer that asked, there is none when no writer asked, and only writers that asked can
    /// starve.
    #[test]
    fn a_writers_wait_is_counted_from_its_own_request(
        seed in 0u64..100_000,
        roles in proptest::collection::vec(proptest::bool::ANY, 2..6),
        gap in 0u64..10_000,
        duration in 1_000u64..30_000,
    ) {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut common = random_common(&mut rng, roles.len());
        common.start_gap_ms = gap;
        common.duration_ms = duration;
        let wants: Vec<Want> = roles.iter().map(|&w| if w { Want::Write } else { Want::Read }).collect();
        let p = RwLockParams { wants: wants.clone(), common, ..RwLockParams::default() };
        let t = locklab::engine::run(&Params::Rwlock(p.clone()));
        let m = queue::metrics(&t).unwrap();
        let asked: Vec<(String, u64)> = wants
            .iter()
            .enumerate()
            .filter(|(_, w)| **w == Want::Write)
            .filter_map(|(i, _)| {
                let name = ["A", "B", "C", "D", "E", "F"][i];
                let id = t.actor_named(name).unwrap();
                t.events
                    .iter()
                    .find(|e| e.actor == id && matches!(e.kind, EventKind::CreateSent { .. }))
                    .map(|e| (name.to_string(), e.at_ms))
            })
            .collect();
        let first = asked.iter().map(|a| a.1).min();
        match (m.writer_wait_ms, first) {
            (None, None) => {}
            (Some(w), Some(first)) => proptest::prop_assert!(w <= duration - first, "{} ms: {:?}", w, p),
            (w, f) => proptest::prop_assert!(false, "wait {:?}, first request {:?}: {:?}", w, f, p),
        }
        for s in &m.starved_writers {
            proptest::prop_assert!(asked.iter().any(|a| &a.0 == s), "{} never asked: {:?}", s, p);
        }
    }
}
