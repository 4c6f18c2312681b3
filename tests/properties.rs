//! Property tests: safety invariants and determinism over random parameters and fault schedules.

use locklab::engine::params::{AbcParams, Fault, FrozenParams, Params};
use locklab::engine::trace::invariant;
use proptest::prelude::*;

fn frozen_params() -> impl Strategy<Value = FrozenParams> {
    (
        1_000u64..=30_000,
        500u64..=30_000,
        0u64..=40_000,
        0u64..=30_000,
        0u64..=5_000,
        any::<bool>(),
    )
        .prop_map(|(ttl, ka, ps, pl, d, stop)| FrozenParams {
            ttl_ms: ttl,
            keepalive_ms: ka,
            pause_start_ms: ps,
            pause_len_ms: pl,
            delay_ms: d,
            fencing: true,
            stop_on_loss: stop,
        })
}

fn fault() -> impl Strategy<Value = Fault> {
    let client = prop::sample::select(vec!["A", "B", "C"]).prop_map(String::from);
    prop_oneof![
        (client.clone(), 0u64..10_000, 1u64..9_000).prop_map(|(client, at_ms, len_ms)| {
            Fault::Freeze {
                client,
                at_ms,
                len_ms,
            }
        }),
        (client.clone(), 0u64..10_000, 1u64..9_000).prop_map(|(client, at_ms, len_ms)| {
            Fault::Disconnect {
                client,
                at_ms,
                len_ms,
            }
        }),
        (client.clone(), 0u64..10_000).prop_map(|(client, at_ms)| Fault::Crash { client, at_ms }),
        client.prop_map(|client| Fault::DropCreateResponse { client }),
    ]
}

fn abc_params() -> impl Strategy<Value = AbcParams> {
    (
        prop::collection::vec(fault(), 0..4),
        0u64..50,
        any::<u64>(),
        500u64..6_000,
    )
        .prop_map(|(faults, delay, seed, timeout)| AbcParams {
            faults,
            delay_ms: delay,
            seed,
            session_timeout_ms: timeout,
            duration_ms: 30_000,
            ..AbcParams::default()
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn frozen_holder_is_safe_with_fencing_and_deterministic(p in frozen_params()) {
        let params = Params::Frozen(p);
        let t = locklab::engine::run(&params);
        for inv in &t.invariants {
            prop_assert!(inv.held, "{} failed: {:?}", inv.name, inv.detail);
        }
        let again = locklab::engine::run(&params);
        prop_assert_eq!(
            serde_json::to_string(&t).unwrap(),
            serde_json::to_string(&again).unwrap()
        );
    }

    #[test]
    fn the_correct_recipe_survives_random_faults(p in abc_params()) {
        let params = Params::Abc(p);
        let t = locklab::engine::run(&params);
        for name in [invariant::ONE_HOLDER, invariant::TOKENS_NON_DECREASING, invariant::NO_ORPHAN_NODE, invariant::NOBODY_STUCK] {
            let inv = t.invariants.iter().find(|i| i.name == name).unwrap();
            prop_assert!(inv.held, "{} failed at {:?}: {:?}", name, inv.first_violation_ms, inv.detail);
        }
        let again = locklab::engine::run(&params);
        prop_assert_eq!(
            serde_json::to_string(&t).unwrap(),
            serde_json::to_string(&again).unwrap()
        );
    }
}
