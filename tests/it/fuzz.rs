//! Fuzz targets that run on stable as part of `cargo test`: mutated scenario files, quiz decks,
//! lessons (through the Markdown layout) and progress files, plus a round trip of random
//! progress data through its file. Each must never panic, and every error must say where it is.
//!
//! The budget is small by default; `PROPTEST_CASES=20000 cargo test --release --test it fuzz::`
//! runs a long session (see docs/src/development/fuzzing.md). A failure prints the inputs that
//! caused it, shrunk.

use locklab::content::deck;
use locklab::engine::params::Params;
use locklab::progress::file::{self, Parsed};
use locklab::progress::{Answer, Extra, Progress, SessionRecord};
use locklab::scenario;
use locklab::source::Source;
use proptest::prelude::*;

/// Cases per target: `PROPTEST_CASES` when set, else `default`.
fn cases(default: u32) -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn config(default: u32) -> ProptestConfig {
    ProptestConfig {
        cases: cases(default),
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// Pieces a mutation may insert: TOML syntax, values at and past the edges, escapes, CJK.
const TOKENS: &[&str] = &[
    "[",
    "]",
    "{",
    "}",
    "=",
    "\"",
    "'",
    "\n",
    ",",
    ".",
    "#",
    "\"\"\"",
    "'''",
    "[[script]]\n",
    "[params]\n",
    "[[faults]]\n",
    "[[answers]]\n",
    "[[questions]]\n",
    "[cards.x]\n",
    "-1",
    "0",
    "1e309",
    "-0.0",
    "nan",
    "inf",
    "99999999999999999999",
    "true",
    "\"\\u0000\"",
    "\u{1b}[31m",
    "\u{0}",
    "中文，",
    "\u{feff}",
    " = { a = 1 }",
    " = [1, [2]]",
    "x = ",
    "\\",
    "\r\n",
    "\t",
    "```",
    "# ",
    "## ",
    "| a | b |\n|---|---|\n",
    "[link](sim:chain)",
    "**",
    "`",
    "> ",
    "- ",
    "1. ",
    "<br>",
    "&amp;",
    "\u{200b}",
    "🔒",
];

/// One edit of a text, as numbers proptest can shrink.
#[derive(Debug, Clone)]
struct Edit {
    op: u8,
    /// Where, as a share of the text's length (0 to 9999 parts in 10,000).
    at: u16,
    len: u8,
    token: usize,
}

fn edits() -> impl Strategy<Value = Vec<Edit>> {
    prop::collection::vec(
        (0u8..5, 0u16..10_000, 0u8..40, 0usize..1000).prop_map(|(op, at, len, token)| Edit {
            op,
            at,
            len,
            token,
        }),
        1..8,
    )
}

/// Applies the edits to `text`, on characters so the result stays valid UTF-8.
fn mutate(text: &str, edits: &[Edit]) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for e in edits {
        let at = chars.len() * usize::from(e.at) / 10_000;
        let end = (at + e.len as usize).min(chars.len());
        match e.op {
            // Delete a run.
            0 => {
                chars.drain(at..end);
            }
            // Insert a token.
            1 => {
                let t = TOKENS[e.token % TOKENS.len()];
                chars.splice(at..at, t.chars());
            }
            // Replace a run with a token.
            2 => {
                let t = TOKENS[e.token % TOKENS.len()];
                chars.splice(at..end, t.chars());
            }
            // Duplicate a run.
            3 => {
                let copy: Vec<char> = chars[at..end].to_vec();
                chars.splice(at..at, copy);
            }
            // Move a run elsewhere.
            _ => {
                let run: Vec<char> = chars.drain(at..end).collect();
                let to = e.token % (chars.len() + 1);
                chars.splice(to..to, run);
            }
        }
    }
    chars.into_iter().collect()
}

fn shipped(folder: &str, ext: &str) -> Vec<(String, String)> {
    Source::Embedded
        .files(folder, ext)
        .expect("embedded files")
        .into_iter()
        .map(|f| (f.rel, f.text.into_owned()))
        .collect()
}

fn lines(text: &str) -> usize {
    text.matches('\n').count() + 1
}

proptest! {
    #![proptest_config(config(96))]

    #[test]
    fn mutated_scenario_files_never_panic_and_errors_say_where(
        pick in any::<prop::sample::Index>(),
        edits in edits(),
    ) {
        let files = shipped("assets/scenarios", "toml");
        let (rel, text) = pick.get(&files);
        let text = mutate(text, &edits);
        match scenario::parse("fuzzed", rel, &text) {
            Ok(p) => {
                // What parses runs: the engine must not panic on any accepted parameters.
                let small = !matches!(&p.params, Params::Herd(h) if h.waiters > 2_000);
                if small {
                    let _ = locklab::engine::run(&p.params);
                }
            }
            Err(e) => {
                prop_assert_eq!(&e.file, rel);
                prop_assert!(e.line >= 1 && e.line <= lines(&text), "{e}");
                prop_assert!(e.column >= 1, "{e}");
                let shape = ["invalid type", "duplicate key", "unknown field", "missing field"];
                if shape.iter().any(|s| e.message.contains(s)) {
                    prop_assert!(e.key.is_some(), "no key: {e}\n{text}");
                }
                prop_assert!(!e.to_string().is_empty());
            }
        }
    }

    #[test]
    fn mutated_decks_never_panic_and_errors_say_where(
        pick in any::<prop::sample::Index>(),
        edits in edits(),
    ) {
        let files = shipped("quizzes", "toml");
        let (rel, text) = pick.get(&files);
        let text = mutate(text, &edits);
        if let Err(e) = deck::parse("fuzzed", rel, &text) {
            prop_assert_eq!(&e.file, rel);
            prop_assert!(e.line <= lines(&text), "{e}");
            prop_assert!(e.line == 0 || e.column >= 1, "{e}");
        }
    }

    #[test]
    fn mutated_lessons_lay_out_at_any_width(
        pick in any::<prop::sample::Index>(),
        edits in edits(),
        width in 0usize..160,
    ) {
        let files = shipped("content", "md");
        let (_, text) = pick.get(&files);
        let text = mutate(text, &edits);
        let doc = locklab::tui::markdown::layout(&text, width);
        for h in &doc.headings {
            prop_assert!(h.line <= doc.lines.len());
        }
        // Very narrow widths are laid out at the layout's own minimum.
        prop_assert!(doc.width >= width);
    }

    #[test]
    fn mutated_progress_files_never_panic_and_errors_say_where(
        p in progress(),
        edits in edits(),
    ) {
        let text = file::to_text(&p).expect("serialise");
        let text = mutate(&text, &edits);
        if let Err(e) = file::parse(&text) {
            let e = e.to_string();
            prop_assert!(e.starts_with("line ") || e.starts_with("schema_version")
                || e.starts_with("`answers`") || e.starts_with("`sessions`")
                // A record no locklab writes is named by its number.
                || e.starts_with("answer ") || e.starts_with("session ")
                || e.starts_with("no migration"), "{e}");
            prop_assert!(!e.chars().any(char::is_control), "{e:?}");
        }
    }

    #[test]
    fn progress_data_survives_its_file(p in progress()) {
        let text = file::to_text(&p).expect("serialise");
        match file::parse(&text) {
            Ok(Parsed::Current(q)) => prop_assert_eq!(q, p, "{}", text),
            other => prop_assert!(false, "{other:?}\n{text}"),
        }
    }
}

/// Ids and notes with the characters that make TOML hard: quotes, brackets, line breaks,
/// control characters, headers inside strings, CJK.
fn tricky() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-z]{1,8}\\.[a-z]{1,8}",
        Just("[[answers]]\n[cards.x]".to_string()),
        Just("\"quoted\" and 'single' \\ back".to_string()),
        any::<String>(),
        "[中文，。a-z\\n\\t\\[\\]\"]{0,12}",
    ]
}

fn extra() -> impl Strategy<Value = Extra> {
    prop::collection::btree_map(
        "x_[a-z]{1,6}",
        prop_oneof![
            any::<i64>().prop_map(toml::Value::Integer),
            tricky().prop_map(toml::Value::String),
            any::<bool>().prop_map(toml::Value::Boolean),
            prop::collection::vec(
                any::<i32>().prop_map(|i| toml::Value::Integer(i.into())),
                0..3
            )
            .prop_map(toml::Value::Array),
        ],
        0..3,
    )
    .prop_map(|m| Extra::from(m.into_iter().collect::<toml::Table>()))
}

fn answer() -> impl Strategy<Value = Answer> {
    use locklab::content::deck::Kind;
    use locklab::quiz::sched::{Rating, SelfRating};
    (
        (
            any::<i32>(),
            tricky(),
            tricky(),
            0usize..4,
            0u32..20,
            0u32..20,
        ),
        (0usize..4, prop::option::of(0usize..3)),
        (
            prop::collection::vec(0usize..12, 0..4),
            tricky(),
            extra(),
            any::<bool>(),
        ),
    )
        .prop_map(
            |((at, q, d, k, score, max), (r, sr), (missed, note, extra, hint))| Answer {
                at: i64::from(at),
                question: q.into(),
                deck: d.into(),
                kind: [Kind::Recall, Kind::Choice, Kind::Order, Kind::Model][k],
                // locklab never writes a score above its maximum, and refuses one at load.
                score: score.min(max),
                max,
                rating: Rating::ALL[r],
                self_rating: sr
                    .map(|i| [SelfRating::Forgot, SelfRating::Partial, SelfRating::Solid][i]),
                missed,
                note,
                extra,
                hint,
            },
        )
}

fn session() -> impl Strategy<Value = SessionRecord> {
    (
        any::<i32>(),
        0u32..50,
        0u32..50,
        0u32..50,
        0u32..50,
        (
            extra(),
            0usize..3,
            prop::option::of((0u32..13, 0u32..13, 0u32..13)),
        ),
    )
        .prop_map(
            |(t, questions, answered, score, max, (extra, kind, tiers))| {
                use locklab::quiz::session::SessionKind;
                let kind = [
                    SessionKind::Quiz,
                    SessionKind::Interview,
                    SessionKind::SelfTest,
                ][kind];
                SessionRecord {
                    started: i64::from(t),
                    ended: i64::from(t) + 60,
                    questions,
                    // As recorded: never more answered than asked, nor scored than possible.
                    answered: answered.min(questions),
                    score: score.min(max),
                    max,
                    extra,
                    kind,
                    tiers: tiers.map(|(forgot, partial, solid)| locklab::quiz::summary::Tiers {
                        forgot,
                        partial,
                        solid,
                    }),
                    scored_tiers: tiers.map(|(forgot, partial, solid)| {
                        locklab::quiz::summary::Tiers {
                            forgot: solid,
                            partial,
                            solid: forgot,
                        }
                    }),
                }
            },
        )
}

fn progress() -> impl Strategy<Value = Progress> {
    use locklab::quiz::sched::Card;
    (
        prop::collection::vec(answer(), 0..6),
        prop::collection::btree_map(
            tricky(),
            (
                0.01f32..1000.0,
                1.0f32..10.0,
                any::<i32>(),
                0u32..30,
                extra(),
            ),
            0..3,
        ),
        prop::collection::vec(session(), 0..3),
        extra(),
    )
        .prop_map(|(answers, cards, sessions, top)| {
            let mut p = Progress {
                answers,
                sessions,
                ..Progress::default()
            };
            for (id, (stability, difficulty, due, reps, extra)) in cards {
                p.cards.insert(
                    id.clone(),
                    Card {
                        stability,
                        difficulty,
                        due: i64::from(due),
                        last_review: 0,
                        reps,
                        lapses: 0,
                    },
                );
                if !extra.is_empty() {
                    p.unknown.cards.insert(id, extra);
                }
            }
            p.unknown.top = top;
            p
        })
}

#[test]
fn the_mutations_reach_errors_and_successes_alike() {
    // A target that only ever saw one outcome would test little; check both happen.
    let files = shipped("assets/scenarios", "toml");
    let (rel, text) = &files[0];
    assert!(scenario::parse("x", rel, text).is_ok());
    let broken = mutate(
        text,
        &[Edit {
            op: 1,
            at: 0,
            len: 0,
            token: 0,
        }],
    );
    assert!(scenario::parse("x", rel, &broken).is_err(), "{broken}");
}
