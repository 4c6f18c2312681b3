//! Explorer benchmarks (figures in docs/src/explore.md):
//!
//! * the correct recipe's bounded space with 3 clients and 2 faults of every kind, explored
//!   once, completely, with its time and the peak memory of the process;
//! * distinct states per second on one core, locklab's explorer and the same model written for
//!   stateright (`tests/it/support/stateright_abc.rs`) side by side, on the same state space;
//! * how long the shortest counterexample of each broken variant takes to find.

use std::time::{Duration, Instant};

use criterion::{Criterion, Throughput};
use locklab::explore::variants::{self, Variant};
use locklab::explore::{Bounds, Search};
use stateright::{Checker, Model};

#[path = "../tests/it/support/stateright_abc.rs"]
mod model;

/// The bench measures memory itself (no counting allocator here), so no memory limit applies.
fn bounds(v: &Variant, faults: u8, threads: usize) -> Bounds {
    Bounds {
        depth: 200,
        max_states: locklab::explore::MAX_STATES,
        max_memory: locklab::explore::memory::MAX_MAX_MEMORY,
        threads,
        ..Bounds::new(faults, v.kinds)
    }
}

fn variant(name: &str) -> Variant {
    variants::all()
        .into_iter()
        .find(|v| v.name == name)
        .expect("a variant")
}

/// The peak resident memory of this process so far, from the kernel.
fn peak_rss_mb() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024)
}

/// Run first, while the process is fresh, so its peak memory is the search's own (one
/// thread); then again on two threads, for the speedup.
fn correct_recipe_two_faults() {
    let v = variant("correct");
    let mut one = 0.0;
    for threads in [1, 2] {
        let start = Instant::now();
        let mut s = Search::new(&v.params, bounds(&v, 2, threads));
        s.run(u64::MAX);
        let took = start.elapsed().as_secs_f64();
        if threads == 1 {
            one = took;
        }
        println!(
            "explore/correct_3_clients_2_faults/{threads}_threads: complete {}, {} distinct \
             states ({} generated), depth {}, {took:.2} s ({:.2}x one thread), {} distinct \
             states/s, visited set and parent links {} bytes per distinct state, peak memory \
             {} MB, violations {}",
            s.complete(),
            s.progress.distinct,
            s.progress.states,
            s.progress.max_depth,
            one / took,
            (s.progress.distinct as f64 / took) as u64,
            s.table_bytes() / s.progress.distinct.max(1),
            peak_rss_mb().map_or_else(|| "?".into(), |m| m.to_string()),
            s.violations.len()
        );
    }
}

fn throughput(c: &mut Criterion) {
    let v = variant("correct");
    let mut probe = Search::new(&v.params, bounds(&v, 1, 1));
    probe.run(u64::MAX);
    let mut group = c.benchmark_group("explore/correct_1_fault");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(20))
        .throughput(Throughput::Elements(probe.progress.distinct));
    group.bench_function("locklab", |b| {
        b.iter(|| {
            let mut s = Search::new(&v.params, bounds(&v, 1, 1));
            s.run(u64::MAX);
            assert_eq!(s.progress.distinct, probe.progress.distinct);
        })
    });
    group.bench_function("stateright", |b| {
        b.iter(|| {
            let m = model::Abc {
                params: v.params.clone(),
                kinds: v.kinds,
                faults: 1,
            };
            let checker = m.checker().threads(1).spawn_bfs().join();
            assert_eq!(checker.unique_state_count() as u64, probe.progress.distinct);
        })
    });
    group.finish();
}

fn first_counterexample(c: &mut Criterion) {
    let mut group = c.benchmark_group("explore/first_counterexample");
    group.sample_size(10);
    for v in variants::all().into_iter().filter(|v| v.breaks.is_some()) {
        let name = v.breaks.expect("broken");
        group.bench_function(v.name, |b| {
            b.iter(|| {
                let mut s = Search::new(&v.params, bounds(&v, v.faults, 1));
                while !s.violations.iter().any(|f| f.property == name) && !s.run(64) {}
                assert!(s.violations.iter().any(|f| f.property == name));
            })
        });
    }
    group.finish();
}

/// Whether the command line's filter (`cargo bench --bench explore -- FILTER`) takes `name`:
/// the 2-fault search takes minutes and most of the machine's memory, so a filtered run that
/// leaves it out skips it.
fn wanted(name: &str) -> bool {
    let filters: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    filters.is_empty() || filters.iter().any(|f| name.contains(f.as_str()))
}

fn main() {
    if wanted("explore/correct_3_clients_2_faults") {
        correct_recipe_two_faults();
    }
    let mut c = Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .configure_from_args();
    throughput(&mut c);
    first_counterexample(&mut c);
    c.final_summary();
}
