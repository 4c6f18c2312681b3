//! Engine benchmarks: one frozen-holder run, every A/B/C preset, and the herd at N = 1,000 and
//! N = 10,000 with k = N. Targets are in the README.

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

fn abc(c: &mut Criterion) {
    let mut group = c.benchmark_group("abc");
    for p in locklab::preset::builtin()
        .iter()
        .filter(|p| p.family == Family::Abc)
    {
        group.bench_function(&p.name, |b| {
            b.iter(|| locklab::engine::run(std::hint::black_box(&p.params)))
        });
    }
    group.finish();
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
    targets = frozen, abc, herd
}
criterion_main!(benches);
