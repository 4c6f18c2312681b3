//! Engine benchmarks: one frozen-holder run, every preset of the families that run as a World of
//! actors (A/B/C, read-write lock, semaphore, Redlock, Snowflake), cloning and hashing one A/B/C
//! state, and the herd at N = 1,000 and N = 10,000 with k = N. Targets are in
//! docs/src/development/performance.md.

use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use locklab::engine::params::{FrozenParams, HerdParams, Params};
use locklab::engine::trace::Family;

fn frozen(c: &mut Criterion) {
    let params = Params::Frozen(FrozenParams::default());
    c.bench_function("frozen/default", |b| {
        b.iter(|| locklab::engine::run(std::hint::black_box(&params)))
    });
}

/// Every shipped preset of the families that run as a World of actors, one group per family.
fn presets(c: &mut Criterion) {
    for family in [
        Family::Abc,
        Family::Rwlock,
        Family::Semaphore,
        Family::Election,
        Family::Tasks,
        Family::Redlock,
        Family::Snowflake,
    ] {
        let mut group = c.benchmark_group(family.name());
        for p in locklab::scenario::builtin()
            .iter()
            .filter(|p| p.family == family)
        {
            group.bench_function(&p.name, |b| {
                b.iter(|| locklab::engine::run(std::hint::black_box(&p.params)))
            });
        }
        group.finish();
    }
}

/// What the explorer will do millions of times: clone a mid-run A/B/C state and hash it (with
/// the fast, non-cryptographic hasher the explorer uses for its visited set).
fn state(c: &mut Criterion) {
    use std::hash::{Hash, Hasher};
    let p = locklab::scenario::find("lost-create").expect("ships");
    let Params::Abc(params) = &p.params else {
        panic!("an abc preset")
    };
    let (mut world, _) = locklab::engine::families::abc::build(params);
    world.start(&mut None);
    let mut choices = Vec::new();
    // Step into the middle of the run, where channels and the tree hold the most.
    for _ in 0..12 {
        world.choices(&mut choices);
        let Some(&c) = choices.first() else { break };
        let (t, _, _) = world.key(c);
        world.apply(c, t, &mut None);
    }
    c.bench_function("abc/state_clone_hash", |b| {
        b.iter(|| {
            let copy = std::hint::black_box(&world).clone();
            let mut h = rustc_hash::FxHasher::default();
            copy.hash(&mut h);
            h.finish()
        })
    });
}

fn herd(c: &mut Criterion) {
    let mut group = c.benchmark_group("herd");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(10));
    for n in [1_000u32, 10_000] {
        let params = Params::Herd(HerdParams {
            waiters: n,
            fanout: n,
            ..HerdParams::default()
        });
        group.bench_function(format!("n{n}_k{n}"), |b| {
            b.iter(|| locklab::engine::run(std::hint::black_box(&params)))
        });
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(3));
    targets = frozen, presets, state, herd
}
criterion_main!(benches);
