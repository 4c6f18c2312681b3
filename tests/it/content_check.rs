//! The content checker on the shipped lessons and decks, on broken copies, and from the command
//! line; model answers checked against the engine run independently.

use std::collections::BTreeSet;
use std::path::Path;

use crate::common::ScratchContent;
use std::process::Command;

use locklab::content::check::{self, Report};
use locklab::content::deck::{self, DeckFile, Kind, Question};
use locklab::content::model::{self, ModelAnswer};
use locklab::engine::params::knobs::{Knobs as _, Value};
use locklab::engine::params::{FrozenParams, HerdParams, Params};
use locklab::engine::trace::Metrics;
use locklab::scenario;
use locklab::source::Source;

fn shipped_decks() -> Vec<DeckFile> {
    deck::load_all(&Source::Embedded)
        .expect("embedded")
        .into_iter()
        .map(|d| d.expect("shipped decks parse"))
        .collect()
}

fn question<'a>(decks: &'a [DeckFile], id: &str) -> &'a Question {
    decks
        .iter()
        .flat_map(|d| &d.deck.questions)
        .find(|q| q.id.get_ref() == id)
        .unwrap_or_else(|| panic!("no question {id}"))
}

#[test]
fn shipped_content_has_no_problems_and_enough_questions() {
    let r = check::check(&Source::Embedded);
    assert!(r.ok(), "{}", r.render(locklab::i18n::Lang::En));
    assert_eq!((r.lessons.zh, r.lessons.en), (15, 15));
    assert!(
        r.questions.zh >= 120 && r.questions.en >= 120,
        "{:?}",
        r.questions
    );
    assert_eq!(r.decks.len(), 15);
    for d in &r.decks {
        assert!(d.questions.zh >= 8 && d.questions.en >= 8, "{d:?}");
    }
    assert!(r.model_questions >= 20, "{}", r.model_questions);
    assert!(r.presets >= 21);

    let decks = shipped_decks();
    let recalls: Vec<&Question> = decks
        .iter()
        .flat_map(|d| &d.deck.questions)
        .filter(|q| q.kind == Kind::Recall)
        .collect();
    assert!(!recalls.is_empty());
    for q in &recalls {
        assert!(!q.points.is_empty(), "{} has no points", q.id.get_ref());
        for f in q.rounds() {
            assert!(!f.points.is_empty(), "{} follow-up", q.id.get_ref());
        }
    }
    // Interview chains: a recall question with three rounds of follow-ups, each in both
    // languages with its own points, spread over every deck.
    let chains: Vec<&&Question> = recalls.iter().filter(|q| q.rounds().count() == 3).collect();
    assert!(chains.len() >= 30, "{} interview chains", chains.len());
    for d in &decks {
        assert!(
            d.deck.questions.iter().any(|q| q.rounds().count() == 3),
            "deck {} has no interview chain",
            d.deck.deck.get_ref()
        );
    }
    for q in chains {
        for f in q.rounds() {
            let (zh, en) = (f.zh.as_ref().unwrap(), f.en.as_ref().unwrap());
            assert!(
                !zh.prompt.is_empty() && !en.answer.is_empty(),
                "{}",
                q.id.get_ref()
            );
            assert!(
                f.points
                    .iter()
                    .all(|p| !p.zh.is_empty() && !p.en.is_empty())
            );
        }
    }
}

#[test]
fn model_answers_are_what_the_engine_computes() {
    let decks = shipped_decks();
    let presets = scenario::load_all(&Source::Embedded).unwrap();

    // A frozen question with two drawn parameters.
    let q = question(&decks, "leases.danger-window");
    let spec = q.model.as_ref().unwrap();
    for seed in 0..8 {
        let (v, a) = model::compute(q, seed, &presets).unwrap();
        let mut p = FrozenParams::default();
        for (k, val) in &spec.params {
            match val.get_ref() {
                toml::Value::Boolean(b) => p.set_knob(k, &Value::Bool(*b)).unwrap(),
                toml::Value::Float(f) => p.set(k, *f).unwrap(),
                toml::Value::Integer(i) => p.set(k, *i as f64).unwrap(),
                other => panic!("{other:?}"),
            }
        }
        for (k, range) in &spec.vary {
            let [min, max, step] = range.get_ref()[..] else {
                panic!("vary")
            };
            let x = v.drawn[k];
            assert!((min..=max).contains(&x), "{k} = {x}");
            let steps = (x - min) / step;
            assert!(
                (steps - steps.round()).abs() < 1e-9,
                "{k} = {x} off the grid"
            );
            p.set(k, x).unwrap();
        }
        let trace = locklab::engine::run(&Params::Frozen(p));
        let Metrics::Frozen(m) = trace.metrics else {
            panic!("frozen")
        };
        assert_eq!(a, ModelAnswer::Number(m.danger_window), "seed {seed}");
        let filled = model::fill(&q.en.as_ref().unwrap().prompt, &v);
        assert!(!filled.contains('{'), "{filled}");
        assert!(filled.contains(&format!(
            "t = {} s",
            model::fmt_value(v.drawn["pause_start"])
        )));
    }

    // A herd question: the count of wasted wake-ups.
    let q = question(&decks, "abc-queue.model-wasted-wakeups");
    for seed in 0..4 {
        let (v, a) = model::compute(q, seed, &presets).unwrap();
        let mut p = HerdParams::default();
        p.set("waiters", 50.0).unwrap();
        p.set("fanout", v.drawn["fanout"]).unwrap();
        let Metrics::Herd(m) = locklab::engine::run(&Params::Herd(p)).metrics else {
            panic!("herd")
        };
        assert_eq!(a, ModelAnswer::Number(m.wasted_wakeups as f64));
    }

    // An abc question runs its preset, with the drawn case's client losing its create reply.
    let q = question(&decks, "lost-create.model-blind-stuck");
    let blind = scenario::find("lost-create-blind").unwrap();
    let mut answers = BTreeSet::new();
    for seed in 0..12 {
        let (v, a) = model::compute(q, seed, &presets).unwrap();
        let case = &q.model.as_ref().unwrap().cases[v.case.unwrap()];
        let who = case.get_ref().params["lost_reply"]
            .get_ref()
            .as_str()
            .unwrap();
        let Params::Abc(mut p) = blind.params.clone() else {
            panic!("abc")
        };
        for f in &mut p.faults {
            if let locklab::engine::params::Fault::DropCreateResponse { client } = f {
                *client = who.to_string();
            }
        }
        let Metrics::Abc(m) = locklab::engine::run(&Params::Abc(p)).metrics else {
            panic!("abc")
        };
        assert_eq!(a, ModelAnswer::Number(m.stuck_clients.len() as f64));
        answers.insert(m.stuck_clients.len());
    }
    // Which client loses its reply changes how many get stuck behind the forgotten node.
    assert!(answers.len() > 1, "{answers:?}");
}

/// An etcd question runs the etcd model, not another family's: its answer is the count the
/// prompt's own rules give (a lease that outlives the pause makes no write stale; otherwise
/// every write after the one at 1 s of A's running time lands after the revoke).
#[test]
fn an_etcd_question_runs_the_etcd_model() {
    let decks = shipped_decks();
    let presets = scenario::load_all(&Source::Embedded).unwrap();
    let q = question(&decks, "etcd.model-unfenced-stale-writes");
    let mut answers = BTreeSet::new();
    for seed in 0..16 {
        let (v, a) = model::compute(q, seed, &presets).unwrap();
        let Params::Etcd(p) = &v.params else {
            panic!("etcd parameters, got {:?}", v.params)
        };
        let (work_ms, pause_ms) = (v.drawn["work"], v.drawn["pause_len"]);
        assert_eq!(p.work_ms as f64, work_ms);
        assert_eq!(p.pause_len_ms as f64, pause_ms);
        // The prompt: the lease lasts until 6.03 s unless A wakes (at 1.5 s + the pause) first.
        let expected = if 1_500.0 + pause_ms < 6_030.0 {
            0.0
        } else {
            work_ms / 1_000.0 - 1.0
        };
        assert_eq!(
            a,
            ModelAnswer::Number(expected),
            "seed {seed}: {:?}",
            v.drawn
        );
        answers.insert(expected as u32);
    }
    assert!(answers.len() >= 3, "{answers:?}");
}

#[test]
fn a_seed_always_draws_the_same_variant() {
    let decks = shipped_decks();
    let presets = scenario::load_all(&Source::Embedded).unwrap();
    let q = question(&decks, "leases.danger-window");
    let first = model::compute(q, 42, &presets).unwrap();
    assert_eq!(model::compute(q, 42, &presets).unwrap(), first);
    let distinct: BTreeSet<String> = (0..20)
        .map(|s| format!("{:?}", model::variant(q, s, &presets).unwrap().drawn))
        .collect();
    assert!(
        distinct.len() > 3,
        "seeds should vary the draw: {distinct:?}"
    );
}

/// Replaces the first `from` in a file, returning the 1-based line where it was.
fn edit(path: &Path, from: &str, to: &str) -> usize {
    let text = std::fs::read_to_string(path).unwrap();
    let at = text
        .find(from)
        .unwrap_or_else(|| panic!("{from} not in {}", path.display()));
    std::fs::write(path, text.replacen(from, to, 1)).unwrap();
    text[..at].matches('\n').count() + 1
}

fn problems_in<'a>(r: &'a Report, file: &str) -> Vec<&'a locklab::content::Located> {
    r.problems
        .iter()
        .filter(|p| p.file.ends_with(file))
        .collect()
}

#[test]
fn broken_decks_are_reported_with_file_and_line() {
    let dir = ScratchContent::new("decks");
    let q = dir.join("quizzes");
    // A model question asking for a parameter out of range.
    let bad_vary = edit(
        &q.join("05-fencing.toml"),
        "pause_len = [4.0, 12.0, 1.0]",
        "pause_len = [4.0, 42.0, 1.0]",
    );
    // A choice question with no correct option.
    let text = std::fs::read_to_string(q.join("09-recipes.toml")).unwrap();
    let id_line = text[..text.find("kind = \"choice\"").unwrap()]
        .matches('\n')
        .count();
    let choice = &text[text.find("kind = \"choice\"").unwrap()..];
    let options = &choice[..choice.find("[[questions]]").unwrap_or(choice.len())];
    std::fs::write(
        q.join("09-recipes.toml"),
        text.replacen(
            options,
            &options.replace("correct = true", "correct = false"),
            1,
        ),
    )
    .unwrap();
    // A syntax error stops only its own deck.
    let syntax = edit(
        &q.join("12-task-leases.toml"),
        "difficulty = ",
        "difficulty = = ",
    );

    let r = check::check(&dir.source());
    let fencing = problems_in(&r, "quizzes/05-fencing.toml");
    assert!(
        fencing
            .iter()
            .any(|p| p.line == bad_vary && p.message.contains("pause_len must be 0 to 30 s")),
        "{fencing:?}"
    );
    let recipes = problems_in(&r, "quizzes/09-recipes.toml");
    assert!(
        recipes
            .iter()
            .any(|p| p.line == id_line && p.message.contains("no correct option")),
        "{recipes:?}"
    );
    let tasks = problems_in(&r, "quizzes/12-task-leases.toml");
    assert_eq!(tasks.len(), 1, "{tasks:?}");
    assert_eq!(tasks[0].line, syntax);
    let shipped = check::check(&Source::Embedded).decks.len();
    assert_eq!(
        r.decks.len(),
        shipped - 1,
        "the other decks are still checked"
    );
}

#[test]
fn broken_lessons_links_and_placeholders_are_reported() {
    let dir = ScratchContent::new("lessons");
    let link = edit(
        &dir.join("content/en/05-fencing.md"),
        "(sim:frozen-fenced)",
        "(sim:frozen-fenced-typo)",
    );
    edit(&dir.join("content/zh/06-leases.md"), "\n## ", "\n### ");
    let summary = edit(
        &dir.join("content/en/03-lost-create.md"),
        "## Key takeaways",
        "## Summary",
    );
    let prompt = dir.join("quizzes/06-leases.toml");
    edit(&prompt, "{keepalive} s", "{keepalive} s (TTL {ttl} s)");
    edit(
        &dir.join("quizzes/02-abc-queue.toml"),
        "id = \"abc-queue.model-wasted-wakeups\"",
        "id = \"abc-queue.model-total-notifications\"",
    );

    let r = check::check(&dir.source());
    let msgs: Vec<String> = r.problems.iter().map(|p| p.to_string()).collect();
    let has = |file: &str, line: Option<usize>, text: &str| {
        r.problems.iter().any(|p| {
            p.file.ends_with(file) && line.is_none_or(|l| p.line == l) && p.message.contains(text)
        })
    };
    assert!(
        has("content/en/05-fencing.md", Some(link), "names no preset"),
        "{msgs:#?}"
    );
    assert!(
        has("content/zh/06-leases.md", Some(1), "`##` sections"),
        "{msgs:#?}"
    );
    assert!(
        has(
            "content/en/03-lost-create.md",
            Some(summary),
            "ends with `## Key takeaways`"
        ),
        "{msgs:#?}"
    );
    assert!(
        has(
            "quizzes/06-leases.toml",
            None,
            "`{ttl}`, which is not drawn"
        ),
        "{msgs:#?}"
    );
    assert!(
        has("quizzes/02-abc-queue.toml", None, "is already used at"),
        "{msgs:#?}"
    );
}

#[test]
fn check_command_prints_json() {
    let out = Command::new(env!("CARGO_BIN_EXE_locklab"))
        .args(["check", "--json"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["lessons"]["zh"], 15);
    assert_eq!(v["lessons"]["en"], 15);
    assert!(v["questions"]["zh"].as_u64().unwrap() >= 120);
    assert!(v["questions"]["en"].as_u64().unwrap() >= 120);
    assert_eq!(v["decks"].as_array().unwrap().len(), 15);
    assert!(v["model_questions"].as_u64().unwrap() >= 20);
    assert!(v["presets"].as_u64().unwrap() >= 21);
    assert_eq!(v["problems"], serde_json::json!([]));
}

#[test]
fn check_command_fails_on_a_broken_copy() {
    let dir = ScratchContent::new("cli");
    let line = edit(
        &dir.join("content/en/01-ephemeral-nodes.md"),
        "](sim:",
        "](sim:nowhere-",
    );
    let out = Command::new(env!("CARGO_BIN_EXE_locklab"))
        .arg("--content")
        .arg(&*dir)
        .args(["check", "--json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let problems = v["problems"].as_array().unwrap();
    assert!(
        problems.iter().any(|p| p["file"]
            .as_str()
            .unwrap()
            .ends_with("content/en/01-ephemeral-nodes.md")
            && p["line"] == line),
        "{problems:?}"
    );

    let out = Command::new(env!("CARGO_BIN_EXE_locklab"))
        .arg("--content")
        .arg(&*dir)
        .arg("check")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains(&format!(
            "01-ephemeral-nodes.md:{line}:1: link `sim:nowhere-"
        )),
        "{text}"
    );
}

#[test]
fn avoided_variants_are_reported_with_file_and_line() {
    let dir = ScratchContent::new("vocab");
    let lesson = dir.join("content/zh/05-fencing.md");
    // An avoided variant in a lesson's prose, in a deck's text, and in a glossary note.
    let in_lesson = edit(&lesson, "**任期号**", "**纪元**");
    let deck = dir.join("quizzes/02-abc-queue.toml");
    let in_deck = edit(&deck, "无效唤醒 1225 次", "白醒 1225 次");
    // Not drift: an ASCII variant inside code, or as part of an identifier.
    let text = std::fs::read_to_string(&lesson).unwrap();
    std::fs::write(
        &lesson,
        format!("{text}\n比较 `revision` 字段与 mod_revision 的差别。\n\netcd 的 revision 每次写入加一。\n"),
    )
    .unwrap();
    let lines = text.lines().count();
    let (in_code, in_prose) = (lines + 2, lines + 4);

    let r = check::check(&dir.source());
    let msgs: Vec<String> = r.problems.iter().map(|p| p.to_string()).collect();
    let at = |file: &str, line: usize, variant: &str| {
        r.problems.iter().any(|p| {
            p.file.ends_with(file)
                && p.line == line
                && p.message
                    .contains(&format!("「{variant}」 is a variant to avoid"))
        })
    };
    assert!(
        at("content/zh/05-fencing.md", in_lesson, "纪元"),
        "{msgs:#?}"
    );
    assert!(
        at("quizzes/02-abc-queue.toml", in_deck, "白醒"),
        "{msgs:#?}"
    );
    assert!(
        at("content/zh/05-fencing.md", in_prose, "revision"),
        "{msgs:#?}"
    );
    assert!(
        !r.problems
            .iter()
            .any(|p| p.file.ends_with("05-fencing.md") && p.line == in_code),
        "{msgs:#?}"
    );
    assert!(
        r.problems
            .iter()
            .all(|p| p.message.contains("variant to avoid")),
        "only the edits are reported: {msgs:#?}"
    );
    assert_eq!(r.problems.len(), 3, "{msgs:#?}");

    // The command line fails and names the place.
    let out = Command::new(env!("CARGO_BIN_EXE_locklab"))
        .arg("--content")
        .arg(&*dir)
        .arg("check")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains(&format!("02-abc-queue.toml:{in_deck}:")) && text.contains("「无效唤醒」"),
        "{text}"
    );
}

#[test]
fn a_term_with_two_names_is_reported() {
    let dir = ScratchContent::new("glossary");
    // Lesson 9 pairs "epoch" with a different Chinese word than lesson 5 does.
    let line = edit(
        &dir.join("content/glossary/09-recipes.toml"),
        "zh = \"任期号\"",
        "zh = \"纪元\"",
    );
    let r = check::check(&dir.source());
    let msgs: Vec<String> = r.problems.iter().map(|p| p.to_string()).collect();
    let glossary = problems_in(&r, "content/glossary/09-recipes.toml");
    assert!(
        glossary.iter().any(|p| p
            .message
            .contains("`epoch` is paired with `纪元` here but with `任期号`")),
        "{msgs:#?}"
    );
    // The other glossary lists 纪元 as a variant to avoid, which a term may not be.
    assert!(
        problems_in(&r, "content/glossary/05-fencing.toml")
            .iter()
            .any(|p| p
                .message
                .contains("`纪元` is listed as a variant to avoid but is a glossary term")),
        "{msgs:#?}"
    );
    assert!(
        glossary
            .iter()
            .any(|p| p.line == line && p.message.contains("「纪元」 is a variant to avoid")),
        "{msgs:#?}"
    );
    assert_eq!(r.problems.len(), 3, "{msgs:#?}");
}

/// The drifts the glossaries now list: an English variant in a lesson, a Chinese one in a deck,
/// and a calque in a lesson are each reported where they are.
#[test]
fn the_drifts_fixed_in_both_languages_stay_out() {
    let dir = ScratchContent::new("drift");
    let en = dir.join("content/en/05-fencing.md");
    let in_en = edit(
        &en,
        "A random owner value protects the lock itself.",
        "A random owner token protects the lock itself.",
    );
    let deck = dir.join("quizzes/12-task-leases.toml");
    let in_deck = edit(
        &deck,
        "claim_version 每次领取递增，续期和完成以它为条件",
        "claim_version 每次领取递增，续租和完成以它为条件",
    );
    let zh = dir.join("content/zh/02-abc-queue.md");
    let text = std::fs::read_to_string(&zh).unwrap();
    std::fs::write(
        &zh,
        format!("{text}\n它的后继者被唤醒后，羊群只会额外加活。\n"),
    )
    .unwrap();
    let in_zh = text.lines().count() + 2;

    let r = check::check(&dir.source());
    let msgs: Vec<String> = r.problems.iter().map(|p| p.to_string()).collect();
    let at = |file: &str, line: usize, variant: &str| {
        r.problems
            .iter()
            .any(|p| p.file.ends_with(file) && p.line == line && p.message.contains(variant))
    };
    assert!(
        at("content/en/05-fencing.md", in_en, "owner token"),
        "{msgs:#?}"
    );
    assert!(
        at("quizzes/12-task-leases.toml", in_deck, "「续租」"),
        "{msgs:#?}"
    );
    assert!(
        at("content/zh/02-abc-queue.md", in_zh, "「后继者」"),
        "{msgs:#?}"
    );
    assert!(
        at("content/zh/02-abc-queue.md", in_zh, "「额外加活」"),
        "{msgs:#?}"
    );
    assert_eq!(
        r.problems.len(),
        4,
        "only the edits are reported: {msgs:#?}"
    );
}
