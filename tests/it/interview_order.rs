//! An interview asks the way an interviewer does: every round of a chain is asked and answered
//! before any reference answer or scoring point is shown, then each round's reference follows in
//! order. Driven through plain mode of the real binary.

use crate::common::bank;

use locklab::i18n::Lang;
use locklab::quiz::item::{Body, PreparedQuestion, Rounds};
use locklab::quiz::select;

use super::cli_quiz::{locklab_in, text};
use super::cli_quiz_modes::interview_lines;

#[test]
fn no_reference_is_shown_before_the_last_round_is_answered() {
    for (lang, deck, seed) in [
        ("en", "fencing", 3),
        ("zh", "task-leases", 5),
        ("en", "recipes", 1),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let b = bank();
        let l = Lang::parse(lang).unwrap();
        let picked = select::chains(&b, Some(deck), seed, 1).unwrap();
        let it = &select::prepare_all(&b, &picked, seed, l, Rounds::All).0[0];
        let Body::Recall { follow_ups, .. } = &it.body else {
            panic!("an interview chain is a recall question")
        };
        assert!(
            follow_ups.len() >= 3,
            "{} has {} rounds",
            it.id,
            follow_ups.len()
        );
        let seed = seed.to_string();
        let args = [
            "interview",
            "--plain",
            "--deck",
            deck,
            "--count",
            "1",
            "--seed",
            &seed,
        ];
        let out = locklab_in(lang, dir.path(), &args, interview_lines(it).as_bytes());
        let stdout = text(&out.stdout);
        assert!(out.status.success(), "{stdout}\n{}", text(&out.stderr));
        assert_rounds_before_references(&stdout, it);
    }
}

#[test]
fn every_topic_of_the_shipped_decks_has_a_name_and_the_zh_report_uses_it() {
    let b = bank();
    let decks = locklab::content::deck::load_all(&locklab::source::Source::Embedded).unwrap();
    for d in decks {
        for q in &d.unwrap().deck.questions {
            for t in &q.topics {
                assert!(
                    locklab::i18n::topics::is_named(t),
                    "topic `{t}` of {} has no name",
                    q.id.get_ref()
                );
            }
        }
    }
    // A zh interview report names its topics in Chinese, not by their tags.
    let dir = tempfile::tempdir().unwrap();
    let picked = select::chains(&b, Some("fencing"), 3, 1).unwrap();
    let it = &select::prepare_all(&b, &picked, 3, Lang::Zh, Rounds::All).0[0];
    let args = [
        "interview",
        "--plain",
        "--deck",
        "fencing",
        "--count",
        "1",
        "--seed",
        "3",
    ];
    let out = locklab_in("zh", dir.path(), &args, interview_lines(it).as_bytes());
    let stdout = text(&out.stdout);
    let topic = &it.topics[0];
    let name = locklab::i18n::topics::topic_name(topic, Lang::Zh);
    assert_ne!(name, topic.as_str());
    assert!(
        stdout.contains(&format!("  {name}")),
        "{name:?} missing:\n{stdout}"
    );
    assert!(
        !stdout.contains(&format!("  {topic} ")),
        "tag {topic:?} shown:\n{stdout}"
    );
}

/// Asserts that in `stdout` every round of `it` is asked before any reference answer or scoring
/// point of any round shows, and that the references then come in the order of the rounds.
fn assert_rounds_before_references(stdout: &str, it: &PreparedQuestion) {
    let Body::Recall { points, follow_ups } = &it.body else {
        panic!("{} is not a recall question", it.id)
    };
    // Where the last round's prompt is first printed: everything the learner answers with.
    let last = &follow_ups[follow_ups.len() - 1];
    let body = locklab::quiz::words::lines::follow_up_body(&last.prompt);
    let asked = stdout
        .find(body)
        .unwrap_or_else(|| panic!("last round not asked:\n{stdout}"));
    // No reference answer and no scoring point of any round is on screen before it.
    let references =
        std::iter::once(it.answer.as_str()).chain(follow_ups.iter().map(|f| f.answer.as_str()));
    let shown_points = points
        .iter()
        .chain(follow_ups.iter().flat_map(|f| &f.points))
        .map(|p| p.text.as_str());
    for t in references.chain(shown_points) {
        let at = stdout
            .find(t)
            .unwrap_or_else(|| panic!("{t:?} never shown:\n{stdout}"));
        assert!(
            at > asked,
            "{t:?} shown before the last round was asked:\n{stdout}"
        );
    }
    // Then the references come in the order of the rounds.
    let mut from = asked;
    for a in std::iter::once(it.answer.as_str()).chain(follow_ups.iter().map(|f| f.answer.as_str()))
    {
        let at = from
            + stdout[from..]
                .find(a)
                .unwrap_or_else(|| panic!("{a:?} out of order:\n{stdout}"));
        from = at;
    }
}

#[test]
fn the_self_test_asks_its_closing_rounds_before_any_reference() {
    for lang in ["en", "zh"] {
        let dir = tempfile::tempdir().unwrap();
        let b = bank();
        let l = Lang::parse(lang).unwrap();
        let (items, errors) = select::self_test_items(&b, l);
        assert!(errors.is_empty(), "{errors:?}");
        let closing = items.last().unwrap();
        let Body::Recall { follow_ups, .. } = &closing.body else {
            panic!("the closing question is recall")
        };
        assert_eq!(follow_ups.len(), locklab::quiz::selftest::ROUNDS);
        // The twelve answered without follow-ups, then the closing question as an interview.
        let input = format!(
            "{}{}",
            "\n\n2\n".repeat(items.len() - 1),
            interview_lines(closing)
        );
        let out = locklab_in(
            lang,
            dir.path(),
            &["self-test", "--plain"],
            input.as_bytes(),
        );
        let stdout = text(&out.stdout);
        assert!(out.status.success(), "{stdout}\n{}", text(&out.stderr));
        // Only what follows the closing question's own prompt: the twelve show their answers.
        let from = stdout
            .find(&closing.prompt)
            .unwrap_or_else(|| panic!("closing question not asked:\n{stdout}"));
        assert_rounds_before_references(&stdout[from..], closing);
    }
}
