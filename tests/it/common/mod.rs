//! Helpers shared by the quiz and progress tests.

use locklab::content::deck::Question;
use locklab::content::model::Variant;
use locklab::engine::trace::{Metrics, SpanState, Trace, Verdict};
use locklab::quiz::select::Bank;
use locklab::source::Source;

pub fn bank() -> Bank {
    Bank::load(&Source::Embedded).expect("the embedded bank loads")
}

/// What the engine says for a model question, read straight off the trace's metrics, so the
/// quiz's own answer code is not what checks it.
#[derive(Debug, Clone, PartialEq)]
pub enum Expected {
    Number(f64),
    Verdict(Verdict),
    Bool(bool),
    Value(Option<String>),
}

pub fn engine_answer(q: &Question, v: &Variant) -> Option<Expected> {
    let ask = q.model.as_ref()?.ask.get_ref().clone();
    let trace = locklab::engine::run(&v.params);
    Some(match (&trace.metrics, ask.as_str()) {
        (Metrics::Frozen(m), "verdict") => Expected::Verdict(m.verdict),
        (Metrics::Frozen(m), "holder_write_accepted") => Expected::Bool(m.holder_write_accepted?),
        (Metrics::Frozen(m), "final_value") => Expected::Value(m.final_value.clone()),
        (Metrics::Frozen(m), "lease_expiry") => Expected::Number(m.lease_expiry?),
        (Metrics::Frozen(m), "successor_acquire") => Expected::Number(m.successor_acquire?),
        (Metrics::Frozen(m), "handover_delay") => Expected::Number(m.handover_delay?),
        (Metrics::Frozen(m), "holder_write_arrival") => Expected::Number(m.holder_write_arrival?),
        (Metrics::Frozen(m), "danger_window") => Expected::Number(m.danger_window),
        (Metrics::Herd(m), "total_notifications") => Expected::Number(m.total_notifications as f64),
        (Metrics::Herd(m), "wasted_wakeups") => Expected::Number(m.wasted_wakeups as f64),
        (Metrics::Herd(m), "total_time_ms") => Expected::Number(m.total_time_ms),
        (Metrics::Abc(m), "stale_writes_accepted") => {
            Expected::Number(f64::from(m.stale_writes_accepted))
        }
        (Metrics::Abc(m), "stale_writes_rejected") => {
            Expected::Number(f64::from(m.stale_writes_rejected))
        }
        (Metrics::Abc(m), "duplicate_nodes") => Expected::Number(f64::from(m.duplicate_nodes)),
        (Metrics::Abc(m), "max_holders") => Expected::Number(f64::from(m.max_holders)),
        (Metrics::Abc(m), "stuck_count") => Expected::Number(m.stuck_clients.len() as f64),
        (Metrics::Abc(_), "believed_holders") => Expected::Number(f64::from(believers(&trace))),
        (Metrics::Redlock(m), "validity_ms") => {
            Expected::Number(m.acquisitions.first()?.validity_ms as f64)
        }
        (Metrics::Redlock(m), "max_holders") => Expected::Number(f64::from(m.max_holders)),
        (Metrics::Redlock(m), "stale_writes_accepted") => {
            Expected::Number(f64::from(m.stale_writes_accepted))
        }
        (Metrics::Redlock(m), "foreign_deletes") => Expected::Number(f64::from(m.foreign_deletes)),
        (Metrics::Snowflake(m), "duplicate_ids") => Expected::Number(m.collisions.len() as f64),
        (Metrics::Snowflake(m), "max_wait_ms") => Expected::Number(m.max_wait_ms as f64),
        (Metrics::Snowflake(m), "years") => {
            Expected::Number((m.layout.years * 10.0).round() / 10.0)
        }
        (Metrics::Queue(m), "max_holders") => Expected::Number(f64::from(m.max_holders)),
        (Metrics::Queue(m), "max_concurrent_readers") => {
            Expected::Number(f64::from(m.max_concurrent_readers))
        }
        (Metrics::Queue(m), "writer_wait_ms") => Expected::Number(m.writer_wait_ms? as f64),
        (Metrics::Queue(m), "grants_before_writer") => {
            Expected::Number(f64::from(m.grants_before_writer?))
        }
        (Metrics::Election(m), "stale_submits_accepted") => {
            Expected::Number(f64::from(m.stale_submits_accepted))
        }
        (Metrics::Election(m), "stale_submits_rejected") => {
            Expected::Number(f64::from(m.stale_submits_rejected))
        }
        (Metrics::Election(m), "final_epoch") => Expected::Number(m.final_epoch as f64),
        (Metrics::Election(m), "final_version") => Expected::Number(m.final_version as f64),
        (Metrics::Tasks(m), "effects_applied") => Expected::Number(f64::from(m.effects_applied)),
        (Metrics::Tasks(m), "late_refused") => Expected::Number(f64::from(m.late_refused)),
        (Metrics::Tasks(m), "late_accepted") => Expected::Number(f64::from(m.late_accepted)),
        (Metrics::Tasks(m), "final_version") => Expected::Number(m.final_version as f64),
        (Metrics::Tasks(m), "final_attempt") => Expected::Number(f64::from(m.final_attempt)),
        (Metrics::Tasks(m), "tasks_waiting") => Expected::Number(f64::from(m.tasks_waiting)),
        (Metrics::Tasks(m), "max_believers") => Expected::Number(f64::from(m.max_believers)),
        _ => return None,
    })
}

/// The option letter plain mode shows for an expected non-numeric answer: verdicts in the
/// engine's `Verdict::ALL` order, then yes/no, then A's value / B's value / no value.
pub fn option_letter(e: &Expected) -> Option<char> {
    let i = match e {
        Expected::Number(_) => return None,
        Expected::Verdict(v) => Verdict::ALL.iter().position(|x| x == v)?,
        Expected::Bool(b) => usize::from(!*b),
        Expected::Value(v) => match v.as_deref() {
            Some("A") => 0,
            Some("B") => 1,
            None => 2,
            Some(_) => return None,
        },
    };
    Some(char::from(b'a' + i as u8))
}

/// The most lanes at one instant in a state that believes it holds the lock (the engine's one
/// definition, [`SpanState::believes_holding`]: holding, or frozen or suspended still believing
/// so), counted millisecond by millisecond: slow, but independent of the engine's sweep.
pub fn believers(trace: &Trace) -> u32 {
    let believing = SpanState::believes_holding;
    (0..trace.end_ms)
        .map(|t| {
            trace
                .lanes
                .iter()
                .filter(|l| {
                    l.spans
                        .iter()
                        .any(|s| believing(s.state) && s.start_ms <= t && t < s.end_ms)
                })
                .count() as u32
        })
        .max()
        .unwrap_or(0)
}

/// Runs the built binary in English with no language or data folder from the environment, so
/// what a test reads does not depend on the machine it runs on.
pub fn locklab(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_locklab"))
        .args(args)
        .env("LANG", "en_US.UTF-8")
        .env_remove("LC_ALL")
        .env_remove("LOCKLAB_DATA_DIR")
        .env("RUST_BACKTRACE", "1")
        .output()
        .expect("the binary runs")
}

/// What a run printed on standard output.
pub fn stdout(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}
