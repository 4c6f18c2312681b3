//! `locklab quiz --plain` and `locklab progress` through the real binary.

use crate::common;

use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

use common::{Expected, bank, engine_answer, option_letter};
use locklab::content::deck::Kind;
use locklab::content::model;
use locklab::i18n::Lang;
use locklab::progress::store::{self, Store};
use locklab::quiz::item::{self, Body, PreparedQuestion, Rounds};
use locklab::quiz::select::{self, Selection};

pub(crate) fn locklab(dir: &Path, args: &[&str], input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_locklab"))
        .args(["--lang", "en", "--data-dir"])
        .arg(dir)
        .args(args)
        .env_remove(store::ENV_DATA_DIR)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The child may stop reading early (q); a closed pipe is fine.
    let _ = child.stdin.take().unwrap().write_all(input.as_bytes());
    child.wait_with_output().unwrap()
}

pub(crate) fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// The items plain mode asks for `--deck deck --seed seed`, prepared by the library.
fn items_for(deck: &str, seed: u64) -> Vec<PreparedQuestion> {
    let b = bank();
    let sel = Selection {
        deck: Some(deck.into()),
        seed,
        ..Selection::default()
    };
    let picked = select::select(&b, &sel, &BTreeMap::new(), 0).unwrap();
    select::prepare_all(&b, &picked, seed, Lang::En, Rounds::First).0
}

/// What we expect the file to hold for one answer: (id, kind, score, max).
type Want = (String, Kind, u32, u32);

/// Lines answering `it` (rightly or wrongly), and the expected result. Choice and model answers
/// come from the deck and the engine, not from the quiz's scoring.
fn answer(it: &PreparedQuestion, right: bool, seed: u64) -> (String, Want) {
    let b = bank();
    let (_, q) = b.find(&it.id).unwrap();
    let want = |score| (it.id.clone(), it.kind, score, it.max_score());
    match &it.body {
        Body::Recall { follow_ups, .. } => {
            // Reveal and tick nothing, for the question and each round; then rate.
            let lines = format!("{}1\n", "\n\n".repeat(1 + follow_ups.len()));
            (lines, want(0))
        }
        Body::Choice { options } => {
            // The options are shown shuffled; which are right is read from the deck, by text.
            let letters: Vec<String> = options
                .iter()
                .enumerate()
                .filter(|(_, shown)| {
                    let deck = q.options.iter().find(|o| o.en == shown.text).unwrap();
                    deck.correct == right
                })
                .map(|(i, _)| char::from(b'a' + i as u8).to_string())
                .collect();
            let n = q.options.iter().filter(|o| o.correct).count() as u32;
            let pick = if right {
                letters.join(",")
            } else {
                letters[0].clone()
            };
            (format!("{pick}\n"), want(if right { n } else { 0 }))
        }
        Body::Order { shown, correct } => {
            let seq: Vec<String> = correct.iter().map(|i| (i + 1).to_string()).collect();
            (format!("{}\n", seq.join(",")), want(shown.len() as u32))
        }
        Body::Model { .. } => {
            let v = model::variant(q, item::item_seed(seed, &it.id), &b.presets).unwrap();
            let e = engine_answer(q, &v).unwrap();
            let line = match (&e, right) {
                (Expected::Number(x), true) => format!("{x}"),
                (Expected::Number(x), false) => format!("{}", x + 1000.0),
                (e, true) => option_letter(e).unwrap().to_string(),
                (e, false) => {
                    if option_letter(e) == Some('a') {
                        "b".into()
                    } else {
                        "a".into()
                    }
                }
            };
            // The answer, then Enter past the offer to print the run.
            (format!("{line}\n\n"), want(u32::from(right)))
        }
    }
}

#[test]
fn plain_mode_scores_choice_and_model_answers_as_the_engine_computes() {
    let dir = tempfile::tempdir().unwrap();
    let seed = 21;
    let items = items_for("fencing", seed);
    assert!(items.iter().any(|i| i.kind == Kind::Choice));
    assert!(items.iter().filter(|i| i.kind == Kind::Model).count() >= 2);
    let mut input = String::new();
    let mut wants = Vec::new();
    let mut seen_of_kind: BTreeMap<&str, usize> = BTreeMap::new();
    for it in &items {
        // Alternate right and wrong answers within each kind, so both are exercised.
        let n = seen_of_kind.entry(it.kind.name()).or_default();
        let (lines, want) = answer(it, n.is_multiple_of(2), seed);
        *n += 1;
        input.push_str(&lines);
        wants.push(want);
    }
    let out = locklab(
        dir.path(),
        &["quiz", "--plain", "--deck", "fencing", "--seed", "21"],
        &input,
    );
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{}\n{}", stdout, text(&out.stderr));
    let saved: Vec<&str> = stdout.lines().filter(|l| l.starts_with("saved ")).collect();
    assert_eq!(saved.len(), items.len(), "{stdout}");
    assert_eq!(
        saved.last().copied(),
        Some(format!("saved {}", items.len()).as_str())
    );
    assert!(stdout.contains("The engine computes: "));
    assert!(stdout.contains("Session: answered"));
    let p = store::read_progress(&dir.path().join(store::FILE_NAME)).unwrap();
    let got: Vec<Want> = p
        .answers
        .iter()
        .map(|a| (a.question.to_string(), a.kind, a.score, a.max))
        .collect();
    assert_eq!(got, wants);
    // Both right and wrong model answers were exercised.
    let models: Vec<&Want> = wants.iter().filter(|w| w.1 == Kind::Model).collect();
    assert!(models.iter().any(|w| w.2 == 1) && models.iter().any(|w| w.2 == 0));
    assert_eq!(p.cards.len(), items.len());
    assert_eq!(p.sessions.len(), 1);
    assert_eq!(p.sessions[0].answered as usize, items.len());
}

#[test]
fn q_and_end_of_input_stop_and_keep_what_was_answered() {
    let dir = tempfile::tempdir().unwrap();
    let items = items_for("leases", 4);
    let (first, _) = answer(&items[0], true, 4);
    let out = locklab(
        dir.path(),
        &["quiz", "--plain", "--deck", "leases", "--seed", "4"],
        &format!("{first}q\n"),
    );
    assert!(out.status.success());
    let p = store::read_progress(&dir.path().join(store::FILE_NAME)).unwrap();
    assert_eq!(p.answers.len(), 1);
    assert_eq!(p.answers[0].question, items[0].id);
    let out = locklab(
        dir.path(),
        &["quiz", "--plain", "--deck", "leases", "--seed", "4"],
        "",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("Session: answered 0/"));
    assert_eq!(
        store::read_progress(&dir.path().join(store::FILE_NAME))
            .unwrap()
            .answers
            .len(),
        1
    );
}

#[test]
fn a_second_locklab_runs_read_only_and_saves_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let mut holder = Store::open(dir.path(), 0).unwrap();
    holder.save().unwrap();
    let before = std::fs::read(dir.path().join(store::FILE_NAME)).unwrap();
    let items = items_for("abc-queue", 2);
    let (lines, _) = answer(&items[0], true, 2);
    let out = locklab(
        dir.path(),
        &["quiz", "--plain", "--deck", "abc-queue", "--seed", "2"],
        &format!("{lines}q\n"),
    );
    assert!(out.status.success());
    assert!(
        text(&out.stderr).contains("another locklab has the progress file open"),
        "{}",
        text(&out.stderr)
    );
    assert!(text(&out.stdout).contains("not saved (read-only)"));
    assert_eq!(
        std::fs::read(dir.path().join(store::FILE_NAME)).unwrap(),
        before
    );
    drop(holder);
}

#[test]
fn corrupt_and_newer_files_through_the_binary() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(store::FILE_NAME);
    std::fs::write(&path, "this is not toml = = =").unwrap();
    let out = locklab(dir.path(), &["progress"], "");
    assert!(out.status.success());
    let err = text(&out.stderr);
    assert!(
        err.contains("could not be read") && err.contains("progress.toml.corrupt-"),
        "{err}"
    );
    let moved: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| {
            e.file_name()
                .to_string_lossy()
                .starts_with("progress.toml.corrupt-")
        })
        .collect();
    assert_eq!(moved.len(), 1);
    assert!(err.contains(&moved[0].path().display().to_string()));

    let newer = "schema_version = 3\nanswers = \"kept as is\"\n";
    std::fs::write(&path, newer).unwrap();
    let items = items_for("recipes", 1);
    let (lines, _) = answer(&items[0], true, 1);
    let out = locklab(
        dir.path(),
        &["quiz", "--plain", "--deck", "recipes", "--seed", "1"],
        &format!("{lines}q\n"),
    );
    assert!(out.status.success());
    assert!(text(&out.stderr).contains("newer locklab (schema_version 3)"));
    assert!(text(&out.stdout).contains("not saved (read-only)"));
    assert_eq!(std::fs::read_to_string(&path).unwrap(), newer);
}

fn run_some(dir: &Path, deck: &str, seed: u64, n: usize) -> usize {
    let items = items_for(deck, seed);
    let input: String = items
        .iter()
        .take(n)
        .map(|i| answer(i, true, seed).0)
        .collect();
    let s = seed.to_string();
    let out = locklab(
        dir,
        &["quiz", "--plain", "--deck", deck, "--seed", &s],
        &format!("{input}q\n"),
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    n.min(items.len())
}

#[test]
fn export_merge_reset_and_summary() {
    let a = tempfile::tempdir().unwrap();
    let b = tempfile::tempdir().unwrap();
    let na = run_some(a.path(), "leases", 3, 3);
    let nb = run_some(b.path(), "fencing", 3, 2);

    let csv = text(&locklab(a.path(), &["progress", "export", "--format", "csv"], "").stdout);
    assert_eq!(csv.lines().count(), na + 1);
    assert!(csv.lines().skip(1).all(|l| l.contains(",leases,")));
    let json: serde_json::Value = serde_json::from_slice(
        &locklab(a.path(), &["progress", "export", "--format", "json"], "").stdout,
    )
    .unwrap();
    assert_eq!(json["answers"].as_array().unwrap().len(), na);

    let other = b.path().join(store::FILE_NAME);
    let other = other.to_str().unwrap();
    let out = locklab(a.path(), &["progress", "merge", other], "");
    assert!(
        text(&out.stdout).contains(&format!("added {nb} answers; {} in all", na + nb)),
        "{}",
        text(&out.stdout)
    );
    let out = locklab(a.path(), &["progress", "merge", other], "");
    assert!(text(&out.stdout).contains(&format!("added 0 answers; {} in all", na + nb)));

    let summary = text(&locklab(a.path(), &["progress"], "").stdout);
    assert!(
        summary.contains(&format!("{} answers", na + nb)),
        "{summary}"
    );
    assert!(summary.contains("Due today:") && summary.contains("Next 14 days"));
    assert!(summary.contains("streak 1 day."), "{summary}");
    assert!(
        summary
            .lines()
            .any(|l| l.trim_start().starts_with("leases "))
    );

    let out = locklab(a.path(), &["progress", "reset"], "no\n");
    assert!(text(&out.stdout).contains("Not reset"));
    assert_eq!(
        store::read_progress(&a.path().join(store::FILE_NAME))
            .unwrap()
            .answers
            .len(),
        na + nb
    );
    let out = locklab(a.path(), &["progress", "reset"], "yes\n");
    assert!(
        text(&out.stdout).contains("the backup is"),
        "{}",
        text(&out.stdout)
    );
    assert!(
        store::read_progress(&a.path().join(store::FILE_NAME))
            .unwrap()
            .answers
            .is_empty()
    );
    let backups: Vec<_> = std::fs::read_dir(a.path())
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| {
            e.file_name()
                .to_string_lossy()
                .starts_with("progress.toml.bak-")
        })
        .collect();
    assert_eq!(backups.len(), 1);
    assert_eq!(
        store::read_progress(&backups[0].path())
            .unwrap()
            .answers
            .len(),
        na + nb
    );
    let out = locklab(b.path(), &["progress", "reset", "--yes"], "");
    assert!(out.status.success());
    assert!(
        store::read_progress(&b.path().join(store::FILE_NAME))
            .unwrap()
            .answers
            .is_empty()
    );
}

#[test]
fn the_environment_variable_picks_the_data_dir() {
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_locklab"))
        .args(["--lang", "en", "progress"])
        .env(store::ENV_DATA_DIR, dir.path())
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(text(&out.stdout).contains(&dir.path().join(store::FILE_NAME).display().to_string()));
}

#[test]
fn unknown_deck_is_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    let out = locklab(dir.path(), &["quiz", "--plain", "--deck", "nope"], "");
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(
        err.contains("unknown deck `nope`") && err.contains("leases"),
        "{err}"
    );
    assert!(!err.contains("backtrace"));
}

#[test]
fn plain_mode_speaks_chinese_with_lang_zh() {
    let dir = tempfile::tempdir().unwrap();
    let items = items_for("leases", 6);
    let (lines, want) = answer(&items[0], true, 6);
    let out = Command::new(env!("CARGO_BIN_EXE_locklab"))
        .args(["--lang", "zh", "--data-dir"])
        .arg(dir.path())
        .args(["quiz", "--plain", "--deck", "leases", "--seed", "6"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .and_then(|mut c| {
            let _ = c
                .stdin
                .take()
                .unwrap()
                .write_all(format!("{lines}q\n").as_bytes());
            c.wait_with_output()
        })
        .unwrap();
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("题目 1/") && stdout.contains("已保存 1"),
        "{stdout}"
    );
    assert!(stdout.contains("本次：已答 1/"));
    let p = store::read_progress(&dir.path().join(store::FILE_NAME)).unwrap();
    assert_eq!((p.answers[0].score, p.answers[0].max), (want.2, want.3));
}

/// Runs the binary in `lang` with raw bytes on stdin.
pub(crate) fn locklab_in(lang: &str, dir: &Path, args: &[&str], input: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_locklab"))
        .args(["--lang", lang, "--data-dir"])
        .arg(dir)
        .args(args)
        .env_remove(store::ENV_DATA_DIR)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let _ = child.stdin.take().unwrap().write_all(input);
    child.wait_with_output().unwrap()
}

#[test]
fn kind_and_difficulty_flags_filter_the_quiz() {
    let dir = tempfile::tempdir().unwrap();
    let b = bank();
    let expected = b
        .questions()
        .filter(|(_, q)| q.kind == Kind::Model && *q.difficulty.get_ref() == 2)
        .count();
    let out = locklab(
        dir.path(),
        &[
            "quiz",
            "--plain",
            "--kind",
            "model",
            "--difficulty",
            "2",
            "--seed",
            "1",
        ],
        "q\n",
    );
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(
        stdout.contains(&format!("locklab quiz: {expected} questions")),
        "{stdout}"
    );
    assert!(stdout.contains(&format!("Question 1/{expected} · model · difficulty 2 · ")));
    // Out of range is a usage error, named by the command line parser.
    let out = locklab(dir.path(), &["quiz", "--plain", "--difficulty", "4"], "");
    assert_eq!(out.status.code(), Some(2));
    let out = locklab(dir.path(), &["quiz", "--plain", "--kind", "essay"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("recall"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn one_prompt_wording_whatever_the_number_of_right_options() {
    let dir = tempfile::tempdir().unwrap();
    let out = locklab(
        dir.path(),
        &["quiz", "--plain", "--kind", "choice", "--seed", "2"],
        "",
    );
    let stdout = text(&out.stdout);
    let b = bank();
    let singles = b
        .questions()
        .filter(|(_, q)| {
            q.kind == Kind::Choice && q.options.iter().filter(|o| o.correct).count() == 1
        })
        .count();
    assert!(singles > 0);
    assert!(
        stdout.contains("> Option letters; one or several may be right"),
        "{stdout}"
    );
    assert!(!stdout.contains("> Option letter (q to stop)"), "{stdout}");
}

#[test]
fn a_garbled_line_is_asked_again_and_t_prints_the_run() {
    let dir = tempfile::tempdir().unwrap();
    let seed = 5;
    let b = bank();
    let sel = Selection {
        deck: Some("leases".into()),
        kind: Some(Kind::Model),
        count: Some(1),
        seed,
        ..Selection::default()
    };
    let picked = select::select(&b, &sel, &BTreeMap::new(), 0).unwrap();
    let it = &select::prepare_all(&b, &picked, seed, Lang::En, Rounds::First).0[0];
    let (lines, want) = answer(it, true, seed);
    let answer_line = lines.lines().next().unwrap().to_string();
    let mut input = b"\xff\xfe not utf-8\n".to_vec();
    input.extend_from_slice(format!("{answer_line}\nt\n\n").as_bytes());
    let args = [
        "quiz", "--plain", "--deck", "leases", "--kind", "model", "--count", "1", "--seed", "5",
    ];
    let out = locklab_in("en", dir.path(), &args, &input);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}\n{}", text(&out.stderr));
    assert!(stdout.contains("! Not understood; try again."), "{stdout}");
    assert!(stdout.contains("Right. Score 1/1"), "{stdout}");
    // The explanation is written from the run, with its numbers.
    assert!(stdout.contains("From this run: "), "{stdout}");
    // `t` prints the run's text timeline and events, then Enter goes on.
    assert!(
        stdout.contains("The run this question was drawn from"),
        "{stdout}"
    );
    assert!(stdout.contains("Events"), "{stdout}");
    assert!(stdout.contains("Session: answered 1/1"), "{stdout}");
    let p = store::read_progress(&dir.path().join(store::FILE_NAME)).unwrap();
    assert_eq!((p.answers[0].score, p.answers[0].max), (want.2, want.3));
}
