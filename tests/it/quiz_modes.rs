//! The quiz's other modes against the shipped bank: the interview with its follow-up rounds and
//! time limit, hints, the twelve-question self-test, and plain mode's notes and unsaved answers.

use crate::common;

use std::collections::BTreeMap;

use common::bank;
use locklab::content::deck::Kind;
use locklab::i18n::Lang;
use locklab::quiz::item::{self, Body, Rounds};
use locklab::quiz::sched::{Rating, SelfRating};
use locklab::quiz::select::{self, Selection};
use locklab::quiz::session::{Phase, Session, SessionKind};

const NOW: i64 = 1_790_000_000;

fn items(sel: &Selection) -> Vec<locklab::quiz::item::PreparedQuestion> {
    let b = bank();
    let picked = select::select(&b, sel, &BTreeMap::new(), NOW).unwrap();
    let (items, errors) = select::prepare_all(&b, &picked, sel.seed, Lang::En, Rounds::First);
    assert!(errors.is_empty(), "{errors:?}");
    items
}

/// A prepared interview item: a chain with three follow-up rounds.
fn chain(id: &str) -> locklab::quiz::item::PreparedQuestion {
    let b = bank();
    let (d, q) = b.find(id).unwrap();
    item::prepare(d, q, 1, Lang::En, &b.presets, Rounds::All).unwrap()
}

#[test]
fn an_interview_scores_each_round_against_its_own_points() {
    let it = chain("disconnect-expire.chain-long-pause");
    let Body::Recall { points, follow_ups } = it.body.clone() else {
        panic!("recall")
    };
    assert_eq!(follow_ups.len(), 3);
    let value = |ps: &[locklab::quiz::item::PointText], i: usize| ps[i].value;
    let mut s = Session::of_kind(vec![it.clone()], SessionKind::Interview, NOW);
    // Every round is asked and answered before any reference is shown.
    s.reveal().unwrap();
    for round in 0..3 {
        assert_eq!((s.phase(), s.round()), (Phase::FollowUpAsking, round));
        s.reveal().unwrap();
    }
    // Then the opening reference, and each round's in turn.
    assert_eq!(s.phase(), Phase::Ticking);
    s.set_points(&[0, 1]).unwrap();
    s.confirm_points().unwrap();
    for (round, ticks) in [vec![0], vec![], vec![1, 2]].iter().enumerate() {
        assert_eq!((s.phase(), s.round()), (Phase::FollowUpTicking, round));
        s.set_points(ticks).unwrap();
        s.confirm_points().unwrap();
    }
    assert_eq!(s.phase(), Phase::Rating);
    let g = s.rate(SelfRating::Partial, NOW + 100).unwrap().clone();
    let sum = |ps: &[locklab::quiz::item::PointText]| ps.iter().map(|p| p.value).sum::<u32>();
    let want = [
        (value(&points, 0) + value(&points, 1), sum(&points)),
        (value(&follow_ups[0].points, 0), sum(&follow_ups[0].points)),
        (0, sum(&follow_ups[1].points)),
        (
            value(&follow_ups[2].points, 1) + value(&follow_ups[2].points, 2),
            sum(&follow_ups[2].points),
        ),
    ];
    let got: Vec<(u32, u32)> = g.rounds.iter().map(|r| (r.score, r.max)).collect();
    assert_eq!(got, want);
    assert_eq!(g.score, want.iter().map(|w| w.0).sum::<u32>());
    assert_eq!(g.max, want.iter().map(|w| w.1).sum::<u32>());
    // Missed points are numbered across the rounds, the opening question first.
    let n0 = points.len();
    let n1 = follow_ups[0].points.len();
    let n2 = follow_ups[1].points.len();
    assert!(g.missed.contains(&2) && !g.missed.contains(&0));
    assert!(g.missed.contains(&(n0 + 1)) && !g.missed.contains(&n0));
    assert!((n0 + n1..n0 + n1 + n2).all(|i| g.missed.contains(&i)));
    assert!(g.missed.contains(&(n0 + n1 + n2)) && !g.missed.contains(&(n0 + n1 + n2 + 1)));
    // The report groups the missed points by topic and says where to study them.
    let lessons: Vec<_> = locklab::content::lesson::load_all(&locklab::source::Source::Embedded)
        .unwrap()
        .into_iter()
        .filter(|l| l.lang == Lang::En)
        .collect();
    let report = locklab::quiz::report::by_topic(s.items(), s.results(), &lessons, Lang::En);
    assert_eq!(report.len(), 1);
    assert_eq!(report[0].topic, it.topics[0]);
    assert_eq!(report[0].missed.len(), g.missed.len());
    let targets: Vec<String> = report[0].links.iter().map(|l| l.target()).collect();
    assert_eq!(targets, it.see);
    assert!(
        report[0]
            .links
            .iter()
            .all(|l| !l.words(Lang::En).contains("lesson:"))
    );
}

#[test]
fn when_an_interview_runs_out_of_time_the_rounds_not_asked_are_dropped() {
    let it = chain("fencing.chain-token-and-key");
    let Body::Recall { points, follow_ups } = it.body.clone() else {
        panic!("recall")
    };
    let mut s = Session::of_kind(vec![it], SessionKind::Interview, NOW);
    s.reveal().unwrap();
    s.reveal().unwrap();
    // Time is up while the second follow-up is being asked: the opening question and the first
    // round have been answered and are scored; the other two rounds are never answered and
    // count neither as scored nor as missed. The references follow.
    assert_eq!((s.phase(), s.round()), (Phase::FollowUpAsking, 1));
    s.cut_rounds();
    assert_eq!(s.phase(), Phase::Ticking);
    s.set_points(&[0]).unwrap();
    s.confirm_points().unwrap();
    assert_eq!((s.phase(), s.round()), (Phase::FollowUpTicking, 0));
    s.set_points(&[1]).unwrap();
    // Once the references are shown every round kept was answered: nothing more is cut.
    s.cut_rounds();
    s.confirm_points().unwrap();
    assert_eq!(s.phase(), Phase::Rating);
    let g = s.rate(SelfRating::Forgot, NOW).unwrap().clone();
    let sum = |ps: &[locklab::quiz::item::PointText]| ps.iter().map(|p| p.value).sum::<u32>();
    assert_eq!(g.rounds.len(), 2);
    assert_eq!(g.max, sum(&points) + sum(&follow_ups[0].points));
    assert_eq!(g.score, points[0].value + follow_ups[0].points[1].value);
    assert_eq!(
        g.missed.len(),
        points.len() + follow_ups[0].points.len() - 2
    );
}

#[test]
fn a_hint_caps_the_score_and_the_grade_and_is_recorded() {
    use locklab::progress::Progress;
    // Recall: every point ticked, yet at most half of the opening question's points count.
    let it = chain("task-leases.chain-takeover");
    let Body::Recall { points, follow_ups } = it.body.clone() else {
        panic!("recall")
    };
    let hint = it.hint.clone().unwrap();
    let mut s = Session::of_kind(vec![it.clone()], SessionKind::Interview, NOW);
    assert_eq!(s.take_hint().unwrap(), hint);
    s.reveal().unwrap();
    assert!(s.take_hint().is_err(), "a hint is taken before answering");
    for _ in &follow_ups {
        s.reveal().unwrap();
    }
    s.set_points(&(0..points.len()).collect::<Vec<_>>())
        .unwrap();
    s.confirm_points().unwrap();
    for f in &follow_ups {
        s.set_points(&(0..f.points.len()).collect::<Vec<_>>())
            .unwrap();
        s.confirm_points().unwrap();
    }
    let g = s.rate(SelfRating::Solid, NOW).unwrap().clone();
    let opening: u32 = points.iter().map(|p| p.value).sum();
    let rounds: u32 = follow_ups
        .iter()
        .flat_map(|f| &f.points)
        .map(|p| p.value)
        .sum();
    assert_eq!(g.rounds[0].score, opening / 2);
    assert_eq!(g.score, opening / 2 + rounds);
    assert_eq!(g.earned, opening + rounds);
    assert!(g.hint);
    assert_eq!(g.rating, Rating::Hard, "solid with a hint is graded Hard");
    let mut p = Progress::default();
    p.record(&g);
    assert!(p.answers[0].hint);
    let toml = toml::to_string(&p).unwrap();
    assert!(toml.contains("hint = true"), "{toml}");

    // Model: the right number with the hint earns nothing and is graded Hard, not Easy.
    let b = bank();
    let (d, q) = b.find("fencing.gc-pause-takeover").unwrap();
    let it = item::prepare(d, q, 4, Lang::En, &b.presets, Rounds::First).unwrap();
    let right = locklab::quiz::score::model_expected(&it).unwrap();
    let mut with = Session::new(vec![it.clone()], NOW);
    with.take_hint().unwrap();
    let g = with.answer_model(&right, NOW).unwrap().clone();
    assert_eq!(
        (g.score, g.earned, g.max, g.rating),
        (0, 1, 1, Rating::Hard)
    );
    let mut without = Session::new(vec![it], NOW);
    let g = without.answer_model(&right, NOW).unwrap().clone();
    assert_eq!((g.score, g.rating, g.hint), (1, Rating::Easy, false));
    // A question without a hint offers none.
    let (d, q) = b.find("leases.danger-window").unwrap();
    let it = item::prepare(d, q, 4, Lang::En, &b.presets, Rounds::First).unwrap();
    assert!(it.hint.is_none());
    assert!(Session::new(vec![it], NOW).take_hint().is_err());
}

#[test]
fn the_self_test_asks_its_twelve_in_order_without_follow_ups() {
    let b = bank();
    let picked = select::self_test(&b);
    assert_eq!(picked.len(), locklab::quiz::selftest::SIZE);
    let ids: Vec<&str> = picked
        .iter()
        .map(|(_, q)| q.id.get_ref().as_str())
        .collect();
    assert_eq!(
        ids,
        b.self_test.iter().map(String::as_str).collect::<Vec<_>>()
    );
    let decks: std::collections::BTreeSet<&str> = picked
        .iter()
        .map(|(d, _)| d.deck.deck.get_ref().as_str())
        .collect();
    // The topics of the page the self-test comes from: the release script, recovering a lost
    // create, disconnected and expired, setData's version check, the counter's limits, the
    // ways Snowflake repeats an id, segments, the conditional claim and its lost reply, the
    // periodic scanner, the cancel race.
    let topics: std::collections::BTreeSet<&str> = picked
        .iter()
        .flat_map(|(_, q)| q.topics.iter().map(String::as_str))
        .collect();
    for t in [
        "release",
        "guid-recovery",
        "session-expired",
        "cas",
        "sequence-suffix",
        "collision",
        "segment",
        "claim",
        "claim-id",
        "periodic-task",
        "cancellation",
    ] {
        assert!(
            topics.contains(t),
            "no self-test question on {t}: {topics:?}"
        );
    }
    assert!(decks.len() >= 6, "{decks:?}");
    let (items, errors) = select::prepare_all(&b, &picked, 0, Lang::Zh, Rounds::None);
    assert!(errors.is_empty());
    assert!(
        items
            .iter()
            .all(|i| matches!(&i.body, Body::Recall { follow_ups, .. } if follow_ups.is_empty()))
    );
    // Rated in three tiers, recorded as a self-test with its tiers, and found again as history.
    let mut s = Session::of_kind(items, SessionKind::SelfTest, NOW);
    for r in [SelfRating::Solid, SelfRating::Partial, SelfRating::Partial] {
        s.reveal().unwrap();
        s.set_points(&[0]).unwrap();
        s.confirm_points().unwrap();
        s.rate(r, NOW).unwrap();
        s.next();
    }
    s.stop();
    let sum = s.summary(NOW + 60);
    assert_eq!(
        (sum.tiers.solid, sum.tiers.partial, sum.tiers.forgot),
        (1, 2, 0)
    );
    let mut p = locklab::progress::Progress::default();
    p.record_session(&sum);
    p.record_session(&Session::new(Vec::new(), NOW).summary(NOW));
    let history = p.self_tests();
    assert_eq!(history.len(), 1);
    assert_eq!(history[0].kind, SessionKind::SelfTest);
    assert_eq!(history[0].tiers, Some(sum.tiers));
    assert_eq!((history[0].answered, history[0].questions), (3, 12));
}

#[test]
fn the_self_test_list_is_checked() {
    use locklab::quiz::selftest::{self, Known, SelfTestFile};
    let b = bank();
    let known: BTreeMap<&str, Known> = b
        .decks
        .iter()
        .flat_map(|d| {
            d.deck.questions.iter().map(move |q| {
                (
                    q.id.get_ref().as_str(),
                    Known {
                        kind: q.kind,
                        deck: d.deck.deck.get_ref(),
                        follow_ups: q.rounds().count(),
                    },
                )
            })
        })
        .collect();
    let parse = |text: &str| {
        let st = toml::from_str::<toml::Table>(text).unwrap();
        let ids = st["questions"].as_array().unwrap().len();
        let file = SelfTestFile {
            file: "self-test.toml".into(),
            text: text.into(),
            // The list alone (a `rounds` line follows it), so the spans stay those of `text`.
            ids: toml::from_str::<BTreeMap<String, Vec<toml::Spanned<String>>>>(
                text.split("\nrounds").next().unwrap(),
            )
            .unwrap()["questions"]
                .clone(),
            rounds: rounds_of(text),
        };
        assert_eq!(file.ids.len(), ids);
        selftest::check(&file, &known)
    };
    let shipped = format!(
        "questions = [{}]",
        b.self_test
            .iter()
            .map(|i| format!("\"{i}\""))
            .collect::<Vec<_>>()
            .join(", ")
    );
    assert!(parse(&shipped).is_empty());
    let model = b
        .questions()
        .find(|(_, q)| q.kind == Kind::Model)
        .unwrap()
        .1
        .id
        .get_ref()
        .clone();
    let bad = format!(
        "questions = [\"nope.x\", \"{model}\", \"{0}\", \"{0}\"]",
        b.self_test[0]
    );
    let problems: Vec<String> = parse(&bad).iter().map(|p| p.message.clone()).collect();
    let all = problems.join("\n");
    assert!(all.contains("needs 12"), "{all}");
    assert!(all.contains("no question has the id `nope.x`"), "{all}");
    assert!(all.contains("recall questions only"), "{all}");
    assert!(all.contains("listed twice"), "{all}");

    // The closing question: shipped, it passes; each wrong one is named.
    let closing = b.self_test_rounds.clone().unwrap();
    assert!(parse(&format!("{shipped}\nrounds = \"{closing}\"")).is_empty());
    let one_round = b
        .questions()
        .find(|(_, q)| q.kind == Kind::Recall && q.rounds().count() == 1)
        .unwrap()
        .1
        .id
        .get_ref()
        .clone();
    for (rounds, want) in [
        (
            "nope.y".to_string(),
            "no question has the id `nope.y`".to_string(),
        ),
        (
            one_round.clone(),
            format!("`{one_round}` has 1 follow-up round;"),
        ),
        (
            model.clone(),
            "the rounds are asked from a recall question".into(),
        ),
        (
            b.self_test[0].clone(),
            "already one of the questions".into(),
        ),
    ] {
        let text = format!("{shipped}\nrounds = \"{rounds}\"");
        let problems = parse(&text);
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert!(problems[0].message.contains(&want), "{problems:?}");
    }
}

/// The `rounds` entry of a self-test list, with its place in `text`.
fn rounds_of(text: &str) -> Option<toml::Spanned<String>> {
    let table = toml::from_str::<toml::Table>(text).unwrap();
    let r = table.get("rounds")?.as_str()?;
    let after = text.find("rounds =").unwrap();
    let at = after + text[after..].find(&format!("\"{r}\"")).unwrap();
    Some(toml::Spanned::new(at..at + r.len() + 2, r.to_string()))
}

/// Plain mode in process on `input`, with a clock that moves `step` seconds per reading.
fn plain(
    session: &mut Session,
    store: &mut locklab::progress::store::Store,
    input: &str,
    step: i64,
    opts: &locklab::plain::Options,
    lang: Lang,
) -> (locklab::plain::Outcome, String) {
    let mut input = std::io::Cursor::new(input.to_string());
    let mut out = Vec::new();
    let mut t = NOW;
    let mut clock = || {
        t += step;
        t
    };
    let o =
        locklab::plain::run(&mut input, &mut out, session, store, lang, &mut clock, opts).unwrap();
    (o, String::from_utf8(out).unwrap())
}

#[test]
fn plain_mode_shows_the_notes_beside_the_reference_in_both_languages() {
    use locklab::progress::store::Store;
    for (lang, label, answer) in [
        (Lang::En, "Your notes: ", "Answer: "),
        (Lang::Zh, "你的笔记：", "参考答案："),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let mut store = Store::open(dir.path(), NOW).unwrap();
        let b = bank();
        let (d, q) = b.find("fencing.chain-token-and-key").unwrap();
        let it = item::prepare(d, q, 1, lang, &b.presets, Rounds::First).unwrap();
        let mut s = Session::new(vec![it], NOW);
        let input = "n token stops A, key stops retries\n\n1\n\n\n3\n";
        let (o, out) = plain(&mut s, &mut store, input, 1, &Default::default(), lang);
        assert_eq!(o.summary.answered, 1);
        // After each reveal the learner's own words come first, then the reference.
        let notes = format!("{label}token stops A, key stops retries\n{answer}");
        assert_eq!(out.matches(&notes).count(), 2, "{out}");
        assert_eq!(
            store.data().answers[0].note,
            "token stops A, key stops retries"
        );
    }
}

#[test]
fn answers_that_could_not_be_saved_are_counted() {
    use locklab::progress::store::Store;
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let mut store = Store::open(&data, NOW).unwrap();
    // The folder disappears under the running session: every save fails.
    std::fs::remove_dir_all(&data).unwrap();
    let its = items(&Selection {
        deck: Some("recipes".into()),
        kind: Some(Kind::Recall),
        count: Some(2),
        seed: 1,
        ..Selection::default()
    });
    let input: String = its.iter().map(|_| "\n\n\n\n2\n").collect();
    let mut s = Session::new(its, NOW);
    let (o, out) = plain(&mut s, &mut store, &input, 1, &Default::default(), Lang::En);
    assert_eq!(o.summary.answered, 2);
    assert_eq!(o.unsaved, 2, "{out}");
    assert!(out.contains("! cannot save progress"), "{out}");
    assert!(out.contains("! 2 answers could not be saved"), "{out}");
    // A read-only store is no failure: it says so from the start and nothing is pending.
    let dir = tempfile::tempdir().unwrap();
    let _holder = Store::open(dir.path(), NOW).unwrap();
    let mut second = Store::open(dir.path(), NOW).unwrap();
    assert!(!second.is_writable());
    let its = items(&Selection {
        deck: Some("recipes".into()),
        kind: Some(Kind::Recall),
        count: Some(1),
        seed: 1,
        ..Selection::default()
    });
    let mut s = Session::new(its, NOW);
    let (o, out) = plain(
        &mut s,
        &mut second,
        "\n\n\n\n2\n",
        1,
        &Default::default(),
        Lang::En,
    );
    assert_eq!(o.unsaved, 0, "{out}");
    assert!(out.contains("not saved (read-only)"));
}

#[test]
fn an_interview_with_a_time_limit_stops_after_the_question_in_progress() {
    use locklab::progress::store::Store;
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open(dir.path(), NOW).unwrap();
    let its = vec![
        chain("disconnect-expire.chain-long-pause"),
        chain("fencing.chain-token-and-key"),
    ];
    let mut s = Session::of_kind(its, SessionKind::Interview, NOW);
    // Every clock reading moves 40 s on; the limit is one minute, so it runs out during the
    // first question's follow-ups.
    let opts = locklab::plain::Options {
        limit: Some(60),
        lessons: &[],
    };
    let (o, out) = plain(&mut s, &mut store, &"\n1\n".repeat(12), 40, &opts, Lang::En);
    assert!(out.contains("Time is up"), "{out}");
    assert_eq!(o.summary.answered, 1, "{out}");
    assert!(!out.contains("Question 2/2"), "{out}");
    let g = &s.results()[0];
    assert!(g.rounds.len() < 4, "{:?}", g.rounds);
    // The clock is shown, with the limit.
    assert!(out.contains(" / 1:00"), "{out}");
}
