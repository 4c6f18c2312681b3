//! The cue rules of `locklab check`, each fed a deck that breaks it: a prompt that says how many
//! options are right, a deck whose right options are too often the longest, and an absolute
//! word only wrong options carry.

use std::path::Path;

use crate::common::ScratchContent;

use locklab::content::check::{self, Report};
use locklab::content::{Located, check_cues, deck};
use locklab::source::Source;

/// Replaces the first `from` in a file.
fn edit(path: &Path, from: &str, to: &str) {
    let text = std::fs::read_to_string(path).unwrap();
    assert!(text.contains(from), "{from} not in {}", path.display());
    std::fs::write(path, text.replacen(from, to, 1)).unwrap();
}

/// The line of the `id = "…"` of question `id` in a deck file.
fn id_line(path: &Path, id: &str) -> usize {
    let text = std::fs::read_to_string(path).unwrap();
    let at = text.find(&format!("id = \"{id}\"")).unwrap();
    text[..at].matches('\n').count() + 1
}

fn problems_in<'a>(r: &'a Report, file: &str) -> Vec<&'a Located> {
    r.problems
        .iter()
        .filter(|p| p.file.ends_with(file))
        .collect()
}

#[test]
fn a_prompt_that_tells_the_number_of_right_options_is_refused() {
    let dir = ScratchContent::new("count");
    let deck = dir.join("quizzes/02-abc-queue.toml");
    // The old marker on a multi-answer prompt, and a singular ask on a single-answer one.
    edit(
        &deck,
        "Which of these statements about the herd effect and chain wake-ups are correct?",
        "Which statements about the herd effect and chain wake-ups are correct? (one or more)",
    );
    edit(
        &deck,
        "C 接下来应该做下列哪些事？",
        "C 接下来应该做哪一个？",
    );
    let r = check::check(&dir.source());
    let found = problems_in(&r, "quizzes/02-abc-queue.toml");
    let herd = id_line(&deck, "abc-queue.herd-vs-chain");
    let woken = id_line(&deck, "abc-queue.c-woken");
    let at = |line: usize, words: &str| {
        found
            .iter()
            .any(|p| p.line == line && p.message.contains(words))
    };
    assert!(at(herd, "(`one or more`)"), "{found:?}");
    assert!(at(herd, "does not ask with `which of these`"), "{found:?}");
    assert!(at(woken, "(`哪一个`)"), "{found:?}");
    assert!(at(woken, "does not ask with `哪些`"), "{found:?}");
    assert!(!r.ok());
}

#[test]
fn an_absolute_word_only_on_wrong_options_is_refused() {
    let dir = ScratchContent::new("absolute");
    let deck = dir.join("quizzes/08-coordination-services.toml");
    edit(
        &deck,
        "en = \"S3 returns an error until it has caught up, so Y retries\"",
        "en = \"S3 always returns an error until it has caught up, so Y retries\"",
    );
    let r = check::check(&dir.source());
    let line = id_line(&deck, "coordination-services.zk-stale-read");
    let found = problems_in(&r, "quizzes/08-coordination-services.toml");
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].line, line);
    assert!(
        found[0].message.contains("(en) only wrong options"),
        "{found:?}"
    );

    // The same word on a right option as well is no longer a give-away.
    edit(
        &deck,
        "en = \"Y may read the old value; to get the latest it must call sync() first\"",
        "en = \"Y may read the old value; to get the latest it must always call sync() first\"",
    );
    let r = check::check(&dir.source());
    assert!(r.ok(), "{}", r.render(locklab::i18n::Lang::En));
}

/// A deck of `n` single-answer questions of which the first `longest` have a right option
/// longer than every wrong one, and the rest a wrong option at least as long.
fn length_deck(n: usize, longest: usize) -> String {
    let mut s = String::from(
        "deck = \"cues\"\nlesson = \"01-ephemeral-nodes\"\n[title]\nzh = \"测\"\nen = \"t\"\n",
    );
    for i in 0..n {
        let (right, wrong) = if i < longest {
            ("a longer right option", "short")
        } else {
            ("right", "a longer wrong option")
        };
        s.push_str(&format!(
            "\n[[questions]]\nid = \"cues.q{i}\"\nkind = \"choice\"\ntopics = [\"t\"]\ndifficulty = 1\n\
             [questions.zh]\nprompt = \"下列哪些对？\"\nanswer = \"答\"\n\
             [questions.en]\nprompt = \"Which of these hold?\"\nanswer = \"a\"\n\
             [[questions.options]]\ncorrect = true\nzh = \"{right}\"\nen = \"{right}\"\n\
             [[questions.options]]\ncorrect = false\nzh = \"{wrong}\"\nen = \"{wrong}\"\n\
             [[questions.options]]\ncorrect = false\nzh = \"other\"\nen = \"other\"\n"
        ));
    }
    s
}

#[test]
fn a_deck_whose_right_option_is_too_often_the_longest_is_refused() {
    // 30 % of 10 single-answer questions is 3: three pass, four do not, in each language.
    let ok = deck::parse("99-cues", "quizzes/99-cues.toml", &length_deck(10, 3)).unwrap();
    assert!(check_cues::deck(&ok).is_empty());
    let bad = deck::parse("99-cues", "quizzes/99-cues.toml", &length_deck(10, 4)).unwrap();
    let found = check_cues::deck(&bad);
    assert_eq!(found.len(), 2, "{found:?}");
    for (p, lang) in found.iter().zip(["zh", "en"]) {
        assert!(
            p.message
                .contains(&format!("in 4 of 10 single-answer questions ({lang})")),
            "{p:?}"
        );
        assert!(p.message.contains("cues.q3"), "{p:?}");
        assert_eq!(p.line, 1);
    }
    // A tie for the longest is not a cue.
    let tie = length_deck(10, 0).replace("a longer wrong option", "right");
    let tie = deck::parse("99-cues", "quizzes/99-cues.toml", &tie).unwrap();
    assert!(check_cues::deck(&tie).is_empty());

    // On a shipped deck through the whole check: the deck's one single-answer question with its
    // right option the only longest is already more than 30 %.
    let dir = ScratchContent::new("length");
    edit(
        &dir.join("quizzes/04-disconnect-expire.toml"),
        "en = \"Release the lock and acquire it again before writing, so the holder starts from a clean state and writes on with a fresh token\"",
        "en = \"Release and re-acquire the lock\"",
    );
    let r = check::check(&dir.source());
    let found = problems_in(&r, "quizzes/04-disconnect-expire.toml");
    assert!(
        found.iter().any(|p| p
            .message
            .contains("(en) the right option is strictly the longest")
            && p.message
                .contains("disconnect-expire.resume-after-reconnect")),
        "{found:?}"
    );
}

#[test]
fn a_course_whose_right_option_keeps_one_length_rank_is_refused() {
    // Every right option second longest: "pick the second longest" would always score.
    let second = deck::parse("99-cues", "quizzes/99-cues.toml", &length_deck(10, 0)).unwrap();
    let found = check_cues::course(std::slice::from_ref(&second));
    assert_eq!(found.len(), 2, "{found:?}");
    for (p, lang) in found.iter().zip(["zh", "en"]) {
        assert!(
            p.message.contains(&format!(
                "in 10 of 10 single-answer questions ({lang}) the right option is the second longest"
            )),
            "{p:?}"
        );
        assert_eq!(p.file, "quizzes/99-cues.toml");
    }
    // Half second longest and half third longest, over two decks, is no cue.
    let third = length_deck(5, 0)
        .replace("\"other\"", "\"another longer wrong one\"")
        .replace("cues.q", "cues.r");
    let half = deck::parse("99-cues", "quizzes/99-cues.toml", &length_deck(5, 0)).unwrap();
    let third = deck::parse("98-cues", "quizzes/98-cues.toml", &third).unwrap();
    assert!(check_cues::course(&[half, third]).is_empty());
    // Six of ten at one rank is one too many.
    let six = deck::parse("99-cues", "quizzes/99-cues.toml", &length_deck(6, 0)).unwrap();
    let four = length_deck(4, 0)
        .replace("\"other\"", "\"another longer wrong one\"")
        .replace("cues.q", "cues.r");
    let four = deck::parse("98-cues", "quizzes/98-cues.toml", &four).unwrap();
    let found = check_cues::course(&[six, four]);
    assert_eq!(found.len(), 2, "{found:?}");
    assert!(found[0].message.contains("in 6 of 10"), "{found:?}");
}

#[test]
fn draws_refuse_a_model_question_whose_answer_can_be_guessed() {
    let dir = ScratchContent::new("draws");
    let deck = dir.join("quizzes/02-abc-queue.toml");
    let narrowed = |r: &Report| {
        problems_in(r, "quizzes/02-abc-queue.toml")
            .into_iter()
            .filter(|p| p.message.contains("`abc-queue.model-total-time`"))
            .map(|p| p.message.clone())
            .collect::<Vec<_>>()
    };
    // Drawn from 4 queue lengths and 20 fan-outs, the drain time takes many values.
    let r = check::check_with(&dir.source(), Some(40));
    assert!(narrowed(&r).is_empty(), "{:?}", narrowed(&r));
    // Two fan-outs over one queue length leave two answers: a coin toss, not a calculation.
    edit(
        &deck,
        "waiters = [20, 50, 10]\nfanout = [1, 20, 1]",
        "waiters = [20, 20, 1]\nfanout = [1, 2, 1]",
    );
    let r = check::check_with(&dir.source(), Some(40));
    let found = narrowed(&r);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(
        found[0].contains("gives 2 answers in 40 draws"),
        "{found:?}"
    );
    // Without --draws the spread is not measured.
    assert!(narrowed(&check::check(&dir.source())).is_empty());
}

/// The spread problems `check --draws 40` reports for question `id`.
fn spread_faults(dir: &ScratchContent, id: &str) -> Vec<String> {
    let r = check::check_with(&dir.source(), Some(40));
    r.problems
        .iter()
        .filter(|p| p.message.contains(&format!("`{id}` gives")))
        .map(|p| p.message.clone())
        .collect()
}

#[test]
fn draws_refuse_an_answer_that_comes_up_in_most_draws() {
    let dir = ScratchContent::new("modal");
    let id = "recipes.model-grants-before-writer";
    assert!(spread_faults(&dir, id).is_empty());
    // D writes in three of the four cases and readers seldom hold past 2 s: 3 grants come up
    // in most draws, although 2, 3 and 6 all still occur.
    let deck = dir.join("quizzes/09-recipes.toml");
    edit(
        &deck,
        "params = { roles = \"rwrrrrr\", read_rule = \"fair\" }",
        "params = { roles = \"rrrwrrr\", read_rule = \"fair\" }",
    );
    edit(&deck, "hold = [0.5, 4.5, 0.25]", "hold = [0.5, 2.5, 0.25]");
    let found = spread_faults(&dir, id);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].contains("`3` in "), "{found:?}");
    assert!(
        found[0].contains("of 40 draws (more than 50%)"),
        "{found:?}"
    );
}

#[test]
fn draws_refuse_a_verdict_question_with_two_verdicts() {
    let dir = ScratchContent::new("verdicts");
    let id = "fencing.no-fencing-by-pause-start";
    assert!(spread_faults(&dir, id).is_empty());
    // Pauses of 6.75 s or 7.25 s starting at 22 s: only two outcomes are left to choose from.
    edit(
        &dir.join("quizzes/05-fencing.toml"),
        "pause_len = [6.75, 10.25, 0.5]\npause_start = [22.0, 23.5, 0.5]",
        "pause_len = [6.75, 7.25, 0.5]\npause_start = [22.0, 23.5, 1.5]",
    );
    let found = spread_faults(&dir, id);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(
        found[0].contains("verdicts in 40 draws (needs at least 3)"),
        "{found:?}"
    );
}

/// What CI runs: every shipped model question has an answer that must be worked out.
#[test]
fn every_shipped_model_question_passes_forty_draws() {
    let r = check::check_with(&Source::Embedded, Some(40));
    let spread: Vec<String> = r
        .problems
        .iter()
        .filter(|p| p.message.contains(" draws"))
        .map(ToString::to_string)
        .collect();
    assert!(spread.is_empty(), "{spread:#?}");
}

#[test]
fn draws_must_be_a_positive_count() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_locklab"))
        .args(["--lang", "en", "check", "--draws", "0"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--draws"), "{err}");
}

#[test]
fn an_order_question_with_a_second_valid_order_is_refused() {
    let dir = ScratchContent::new("order");
    let deck = dir.join("quizzes/02-abc-queue.toml");
    // Step 2 marked as able to swap with step 1; steps 5 and 6 rewritten as two alternatives;
    // step 1's Chinese made the same as step 2's.
    edit(
        &deck,
        "en = \"Read the children and sort them by numeric suffix\"",
        "en = \"Read the children and sort them by numeric suffix\"\nswaps_with_previous = true",
    );
    edit(
        &deck,
        "en = \"Call exists with a watch on the predecessor; on null, go back and re-read at once\"",
        "en = \"If exists on the predecessor returns null, go back and re-read at once\"",
    );
    edit(
        &deck,
        "en = \"Wait for the watch event, and after waking go back to reading the children\"",
        "en = \"If it returns a stat, wait for the watch event and re-read after waking\"",
    );
    edit(
        &deck,
        "zh = \"在锁目录下创建临时顺序节点\"",
        "zh = \"读取子节点，按数字后缀排序\"",
    );
    let r = check::check(&dir.source());
    let found = problems_in(&r, "quizzes/02-abc-queue.toml");
    let line = id_line(&deck, "abc-queue.acquire-loop");
    let at = |words: &str| {
        found
            .iter()
            .any(|p| p.line == line && p.message.contains(words))
    };
    assert!(
        at("steps 1 and 2 of `abc-queue.acquire-loop` are marked as able to swap"),
        "{found:?}"
    );
    assert!(
        at("steps 5 and 6 of `abc-queue.acquire-loop` open as alternatives"),
        "{found:?}"
    );
    assert!(
        at("steps 1 and 2 of `abc-queue.acquire-loop` read the same"),
        "{found:?}"
    );
    // "Otherwise" refers to the step above it, so steps 3 and 4 are not alternatives.
    assert!(
        !at("steps 3 and 4 of `abc-queue.acquire-loop` open as alternatives"),
        "{found:?}"
    );
    assert_eq!(found.len(), 3, "{found:?}");
}
