//! Helpers shared by the quiz and progress tests.

use locklab::content::deck::Question;
use locklab::content::model::ModelDraw;
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

/// The engine's answer to a model question, read a different way from the quiz's: the metric
/// of the same name in the run's JSON (serde's field names, not the engine's table of names),
/// or, for the few questions that ask for something the metrics hold another way, worked out
/// here from the trace itself.
pub fn engine_answer(q: &Question, v: &ModelDraw) -> Option<Expected> {
    let ask = q.model.as_ref()?.ask.get_ref().clone();
    let trace = locklab::engine::run(&v.params);
    let json = serde_json::to_value(&trace.metrics).expect("metrics serialise");
    let number = |v: &serde_json::Value| v.as_f64().map(Expected::Number);
    Some(match (&trace.metrics, ask.as_str()) {
        (Metrics::Frozen(m), "verdict") => Expected::Verdict(m.verdict),
        (Metrics::Frozen(_), "holder_write_accepted") => {
            Expected::Bool(json["holder_write_accepted"].as_bool()?)
        }
        (Metrics::Frozen(_) | Metrics::Etcd(_), "final_value") => {
            Expected::Value(json["final_value"].as_str().map(str::to_string))
        }
        // Counted from the lanes, millisecond by millisecond.
        (Metrics::Abc(_), "believed_holders") => Expected::Number(f64::from(believers(&trace))),
        (Metrics::Abc(_), "believers_overlap_ms") => Expected::Number(overlap_ms(&trace) as f64),
        (Metrics::Abc(_), "successor_acquire") => Expected::Number(second_holder_at(&trace)?),
        (Metrics::Abc(_), "stuck_count") => {
            Expected::Number(json["stuck_clients"].as_array()?.len() as f64)
        }
        // The first acquisition's own validity.
        (Metrics::Redlock(_), "validity_ms") => {
            number(&json["acquisitions"].as_array()?.first()?["validity_ms"])?
        }
        // One per collision the generators' IDs show.
        (Metrics::Snowflake(_), "duplicate_ids") => {
            Expected::Number(json["collisions"].as_array()?.len() as f64)
        }
        (Metrics::Snowflake(_), "years") => {
            Expected::Number((json["layout"]["years"].as_f64()? * 10.0).round() / 10.0)
        }
        (_, key) => number(&json[key])?,
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
    believers_by_ms(trace).max().unwrap_or(0)
}

/// How many lanes believe they hold at each millisecond of the run.
fn believers_by_ms(trace: &Trace) -> impl Iterator<Item = u32> + '_ {
    let believing = SpanState::believes_holding;
    (0..trace.end_ms).map(move |t| {
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
}

/// The milliseconds in which two or more lanes believe they hold, counted one by one.
pub fn overlap_ms(trace: &Trace) -> u64 {
    believers_by_ms(trace).filter(|&n| n >= 2).count() as u64
}

/// When a second client first holds, in seconds: read from the lanes rather than the events.
pub fn second_holder_at(trace: &Trace) -> Option<f64> {
    let mut firsts: Vec<u64> = trace
        .lanes
        .iter()
        .filter_map(|l| l.spans.iter().find(|s| s.state.holds()).map(|s| s.start_ms))
        .collect();
    firsts.sort_unstable();
    firsts.get(1).map(|at| *at as f64 / 1000.0)
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

/// Every `.rs` file under `dir`, for the tests that read the source.
pub fn rust_files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// A scratch copy of the shipped content folders, removed when dropped (a failing test too).
pub struct ScratchContent(tempfile::TempDir);

impl ScratchContent {
    pub fn new(name: &str) -> ScratchContent {
        let dir = tempfile::Builder::new()
            .prefix(&format!("locklab-{name}-"))
            .tempdir()
            .unwrap();
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        for folder in ["content", "quizzes", "assets"] {
            copy_dir(&root.join(folder), &dir.path().join(folder));
        }
        ScratchContent(dir)
    }

    /// The copy as a content source.
    pub fn source(&self) -> Source {
        Source::Dir(self.0.path().to_path_buf())
    }
}

impl std::ops::Deref for ScratchContent {
    type Target = std::path::Path;
    fn deref(&self) -> &std::path::Path {
        self.0.path()
    }
}

fn copy_dir(from: &std::path::Path, to: &std::path::Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        let target = to.join(path.file_name().unwrap());
        if path.is_dir() {
            copy_dir(&path, &target);
        } else {
            std::fs::copy(&path, &target).unwrap();
        }
    }
}
