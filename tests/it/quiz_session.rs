//! The quiz core against the shipped bank: selection, each question kind, scoring, the summary.

use crate::common;

use std::collections::BTreeMap;

use common::{Expected, bank, engine_answer};
use locklab::content::deck::Kind;
use locklab::content::model;
use locklab::i18n::Lang;
use locklab::quiz::item::{self, Body, Rounds};
use locklab::quiz::sched::{self, Rating, SelfRating};
use locklab::quiz::score::ModelResponse;
use locklab::quiz::select::{self, Selection};
use locklab::quiz::session::{Phase, Session, SessionError};

const NOW: i64 = 1_790_000_000;

fn items(sel: &Selection) -> Vec<locklab::quiz::item::PreparedQuestion> {
    let b = bank();
    let picked = select::select(&b, sel, &BTreeMap::new(), NOW).unwrap();
    let (items, errors) = select::prepare_all(&b, &picked, sel.seed, Lang::En, Rounds::First);
    assert!(errors.is_empty(), "{errors:?}");
    items
}

#[test]
fn a_seed_fixes_the_order_and_the_variants() {
    let sel = Selection {
        count: Some(25),
        seed: 99,
        ..Selection::default()
    };
    let a = items(&sel);
    assert_eq!(a, items(&sel));
    assert_eq!(a.len(), 25);
    let other = items(&Selection {
        seed: 100,
        ..sel.clone()
    });
    let ids = |v: &[locklab::quiz::item::PreparedQuestion]| {
        v.iter().map(|i| i.id.clone()).collect::<Vec<_>>()
    };
    assert_ne!(ids(&a), ids(&other));
    // A mixed exam draws from more than one deck.
    let decks: std::collections::BTreeSet<_> = a.iter().map(|i| i.deck.clone()).collect();
    assert!(decks.len() > 1);
}

#[test]
fn deck_topic_and_unknown_names() {
    let b = bank();
    let by_deck = select::select(
        &b,
        &Selection {
            deck: Some("06-leases".into()),
            ..Selection::default()
        },
        &BTreeMap::new(),
        NOW,
    )
    .unwrap();
    assert!(!by_deck.is_empty());
    assert!(
        by_deck
            .iter()
            .all(|(d, _)| d.deck.deck.get_ref() == "leases")
    );
    let topic = b.questions().next().unwrap().1.topics[0].clone();
    let by_topic = select::select(
        &b,
        &Selection {
            topic: Some(topic.clone()),
            ..Selection::default()
        },
        &BTreeMap::new(),
        NOW,
    )
    .unwrap();
    assert!(by_topic.iter().all(|(_, q)| q.topics.contains(&topic)));
    let err = select::select(
        &b,
        &Selection {
            deck: Some("nope".into()),
            ..Selection::default()
        },
        &BTreeMap::new(),
        NOW,
    )
    .unwrap_err();
    assert!(
        matches!(err, select::SelectError::UnknownDeck { ref known, .. } if known.len() == b.decks.len())
    );
}

#[test]
fn due_selects_only_cards_due_today() {
    let b = bank();
    let ids: Vec<String> = b
        .questions()
        .take(3)
        .map(|(_, q)| q.id.get_ref().clone())
        .collect();
    let mut cards = BTreeMap::new();
    cards.insert(
        ids[0].clone(),
        sched::review(None, Rating::Again, NOW - 3 * sched::DAY),
    );
    cards.insert(ids[1].clone(), sched::review(None, Rating::Easy, NOW));
    let picked = select::select(
        &b,
        &Selection {
            due: true,
            ..Selection::default()
        },
        &cards,
        NOW,
    )
    .unwrap();
    let got: Vec<&str> = picked
        .iter()
        .map(|(_, q)| q.id.get_ref().as_str())
        .collect();
    assert_eq!(got, [ids[0].as_str()]);
}

fn first_of(
    kind: Kind,
    pred: impl Fn(&locklab::quiz::item::PreparedQuestion) -> bool,
) -> locklab::quiz::item::PreparedQuestion {
    items(&Selection {
        seed: 5,
        ..Selection::default()
    })
    .into_iter()
    .find(|i| i.kind == kind && pred(i))
    .expect("the bank has such a question")
}

#[test]
fn recall_scores_the_ticked_points_including_the_follow_up() {
    let item = first_of(
        Kind::Recall,
        |i| matches!(&i.body, Body::Recall { follow_ups, points } if follow_ups.len() == 1 && !follow_ups[0].points.is_empty() && points.len() >= 2),
    );
    let Body::Recall { points, follow_ups } = item.body.clone() else {
        unreachable!()
    };
    let follow = follow_ups[0].clone();
    let mut s = Session::new(vec![item.clone()], NOW);
    assert_eq!(s.phase(), Phase::Asking);
    assert!(matches!(
        s.rate(SelfRating::Solid, NOW),
        Err(SessionError::WrongPhase(Phase::Asking))
    ));
    s.reveal().unwrap();
    s.set_note("forgot the second part");
    s.toggle_point(0).unwrap();
    s.toggle_point(1).unwrap();
    s.toggle_point(1).unwrap();
    assert!(s.toggle_point(points.len()).is_err());
    s.confirm_points().unwrap();
    assert_eq!(s.phase(), Phase::FollowUpAsking);
    s.reveal().unwrap();
    s.set_points(&[0]).unwrap();
    s.confirm_points().unwrap();
    assert_eq!(s.phase(), Phase::Rating);
    let g = s.rate(SelfRating::Partial, NOW + 60).unwrap().clone();
    assert_eq!(g.score, points[0].value + follow.points[0].value);
    let total: u32 = points.iter().chain(&follow.points).map(|p| p.value).sum();
    assert_eq!(g.max, total);
    assert_eq!(g.rating, Rating::Hard);
    assert_eq!(g.note, "forgot the second part");
    let mut expect_missed: Vec<usize> = (1..points.len()).collect();
    expect_missed.extend((1..follow.points.len()).map(|i| points.len() + i));
    assert_eq!(g.missed, expect_missed);
    assert_eq!(s.phase(), Phase::Answered);
    s.next();
    assert!(s.is_finished());
    let sum = s.summary(NOW + 90);
    assert_eq!(
        (sum.answered, sum.score, sum.max, sum.seconds),
        (1, g.score, g.max, 90)
    );
    assert_eq!(sum.missed.len(), expect_missed.len().min(5));
    assert_eq!(sum.missed[0].text, points[1].text);
    assert_eq!(sum.topics.len(), item.topics.len());
}

#[test]
fn choice_scoring_right_wrong_and_partial() {
    let item = first_of(
        Kind::Choice,
        |i| matches!(&i.body, Body::Choice { options } if options.iter().filter(|o| o.correct).count() >= 2 && options.iter().any(|o| !o.correct)),
    );
    let Body::Choice { options } = item.body.clone() else {
        unreachable!()
    };
    let right: Vec<usize> = (0..options.len()).filter(|&i| options[i].correct).collect();
    let wrong = (0..options.len()).find(|&i| !options[i].correct).unwrap();
    let run = |picked: &[usize]| {
        let mut s = Session::new(vec![item.clone()], NOW);
        s.answer_choice(picked, NOW)
            .map(|g| (g.score, g.max, g.rating))
    };
    let n = right.len() as u32;
    assert_eq!(run(&right), Ok((n, n, Rating::Easy)));
    assert_eq!(run(&[wrong]).unwrap().0, 0);
    assert_eq!(run(&[right[0], wrong]).unwrap().0, 0);
    assert_eq!(run(&right[..1]).unwrap().0, 1);
    assert!(run(&[]).is_err());
    assert!(run(&[options.len()]).is_err());
}

#[test]
fn order_answers_are_the_sequence_of_shown_steps() {
    let item = first_of(Kind::Order, |_| true);
    let Body::Order { shown, correct } = item.body.clone() else {
        unreachable!()
    };
    assert_ne!(
        correct,
        (0..shown.len()).collect::<Vec<_>>(),
        "shown in the answer order"
    );
    let mut s = Session::new(vec![item.clone()], NOW);
    assert!(s.answer_order(&correct[1..], NOW).is_err());
    let g = s.answer_order(&correct, NOW).unwrap();
    assert_eq!((g.score, g.max), (shown.len() as u32, shown.len() as u32));
    let mut swapped = correct.clone();
    swapped.swap(0, 1);
    let mut s = Session::new(vec![item], NOW);
    assert_eq!(
        s.answer_order(&swapped, NOW).unwrap().score,
        shown.len() as u32 - 2
    );
}

#[test]
fn every_model_question_is_scored_against_the_engine() {
    let b = bank();
    let mut checked = 0;
    for seed in [1, 2, 3] {
        for it in items(&Selection {
            seed,
            ..Selection::default()
        }) {
            let Body::Model { variant, .. } = &it.body else {
                continue;
            };
            let (_, q) = b.find(&it.id).unwrap();
            // The variant is the one drawn for this question and seed, and the engine's answer
            // is read off its metrics here, not taken from the quiz.
            let v = model::variant(q, item::item_seed(seed, &it.id), &b.presets).unwrap();
            assert_eq!(&v, variant.as_ref());
            let expected = engine_answer(q, &v).expect("the engine answers");
            let (right, wrong) = match &expected {
                Expected::Number(x) => {
                    (ModelResponse::Number(*x), ModelResponse::Number(x + 1000.0))
                }
                e => {
                    let l = common::option_letter(e).unwrap() as usize - 'a' as usize;
                    (
                        ModelResponse::Option(l),
                        ModelResponse::Option(if l == 0 { 1 } else { 0 }),
                    )
                }
            };
            let mut s = Session::new(vec![it.clone()], NOW);
            let g = s.answer_model(&right, NOW).unwrap();
            assert_eq!(
                (g.score, g.max, g.rating),
                (1, 1, Rating::Easy),
                "{}",
                it.id
            );
            let mut s = Session::new(vec![it.clone()], NOW);
            assert_eq!(s.answer_model(&wrong, NOW).unwrap().score, 0, "{}", it.id);
            checked += 1;
        }
    }
    assert!(checked >= 30, "{checked}");
}

#[test]
fn stopping_keeps_what_was_answered() {
    let its = items(&Selection {
        count: Some(3),
        seed: 8,
        ..Selection::default()
    });
    let mut s = Session::new(its, NOW);
    // Skip until an automatically scored question, answer it wrongly, then stop.
    while s.current().is_some_and(|i| i.kind == Kind::Recall) {
        s.next();
    }
    if let Some(i) = s.current().cloned() {
        let r = match i.kind {
            Kind::Choice => s.answer_choice(&[0], NOW).is_ok(),
            Kind::Order => {
                let n = match &i.body {
                    Body::Order { shown, .. } => shown.len(),
                    _ => 0,
                };
                s.answer_order(&(0..n).collect::<Vec<_>>(), NOW).is_ok()
            }
            _ => {
                s.answer_model(&ModelResponse::Number(-1.0), NOW).is_ok()
                    || s.answer_model(&ModelResponse::Option(0), NOW).is_ok()
            }
        };
        assert!(r);
    }
    let answered = s.results().len();
    s.stop();
    assert!(s.is_finished() && s.current().is_none());
    assert_eq!(s.summary(NOW).answered as usize, answered);
    assert_eq!(s.summary(NOW).questions, 3);
}

#[test]
fn plain_mode_runs_in_process_with_an_injected_clock() {
    use locklab::progress::store::Store;
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open(dir.path(), NOW).unwrap();
    let its = items(&Selection {
        deck: Some("fencing".into()),
        seed: 2,
        ..Selection::default()
    });
    let first = its[0].clone();
    let mut session = Session::new(its, NOW);
    // The first question answered with whatever fits its kind; then stop.
    let reply = match &first.body {
        Body::Recall { follow_ups, .. } if !follow_ups.is_empty() => "\n\n\n\n2\n",
        Body::Recall { .. } => "\n\n2\n",
        Body::Choice { .. } => "a\n",
        Body::Order { .. } => "",
        Body::Model { .. } => "a\n",
    };
    let reply = if let Body::Order { shown, .. } = &first.body {
        format!(
            "{}\n",
            (1..=shown.len())
                .map(|i| i.to_string())
                .collect::<Vec<_>>()
                .join(",")
        )
    } else if matches!(
        first.body,
        Body::Model {
            input: locklab::quiz::item::ModelInput::Number { .. },
            ..
        }
    ) {
        "7\n".to_string()
    } else {
        reply.to_string()
    };
    let mut input = std::io::Cursor::new(format!("n mixed up the two timeouts\n{reply}q\n"));
    let mut out = Vec::new();
    let mut t = NOW;
    let mut clock = || {
        t += 30;
        t
    };
    let summary = locklab::plain::run(
        &mut input,
        &mut out,
        &mut session,
        &mut store,
        Lang::En,
        &mut clock,
        &locklab::plain::Options::default(),
    )
    .unwrap()
    .summary;
    let out = String::from_utf8(out).unwrap();
    assert!(out.contains("saved 1"), "{out}");
    assert_eq!(summary.answered, 1);
    // One clock read for the answer, one for the summary.
    assert_eq!(
        (summary.started, summary.ended, summary.seconds),
        (NOW, NOW + 60, 60)
    );
    assert_eq!(store.data().answers[0].at, NOW + 30);
    assert_eq!(store.data().answers[0].question, first.id);
    assert_eq!(store.data().answers[0].note, "mixed up the two timeouts");
    assert!(out.contains("Note kept."));
    assert_eq!(store.data().sessions.len(), 1);
}

#[test]
fn overview_mastery_due_and_removed_questions() {
    use locklab::progress::{Progress, stats};
    let b = bank();
    let deck = &b.decks[0];
    let id = deck.deck.questions[0].id.get_ref().clone();
    let mut p = Progress::default();
    let g = |id: &str, score, at| locklab::quiz::session::Graded {
        id: id.into(),
        deck: "x".into(),
        kind: Kind::Choice,
        topics: vec![],
        score,
        max: 2,
        rating: Rating::from_score(score, 2),
        self_rating: None,
        missed: vec![],
        at,
        note: String::new(),
        earned: score,
        hint: false,
        rounds: vec![],
    };
    p.record(&g(&id, 0, NOW - 2 * sched::DAY));
    p.record(&g(&id, 1, NOW - sched::DAY));
    p.record(&g("gone.question", 0, NOW - sched::DAY));
    let o = stats::overview(&p, Some(&b), NOW, sched::Calendar::UTC);
    assert_eq!((o.answers, o.questions_seen, o.streak), (3, 2, 2));
    let n = deck.deck.questions.len() as f64;
    assert_eq!(o.decks[0].seen, 1);
    assert!((o.decks[0].mastery - 50.0 / n).abs() < 1e-9);
    assert!(
        o.decks[1..]
            .iter()
            .all(|d| d.mastery == 0.0 && d.mastery.is_sign_positive())
    );
    // The removed question's history stays but it never comes due.
    assert!(p.cards.contains_key("gone.question"));
    let live_due = u32::from(sched::due_today(&p.cards[&id], NOW, sched::Calendar::UTC));
    assert_eq!(o.due_today, live_due);
    assert_eq!(o.forecast.iter().sum::<u32>(), 1);
}

/// The shown position of the deck's first correct option, found by text.
fn first_right_position(
    q: &locklab::content::deck::Question,
    it: &locklab::quiz::item::PreparedQuestion,
) -> usize {
    let Body::Choice { options } = &it.body else {
        panic!("choice")
    };
    let right = q.options.iter().find(|o| o.correct).unwrap();
    options.iter().position(|o| o.text == right.en).unwrap()
}

#[test]
fn options_are_shuffled_per_attempt_and_stable_for_a_seed() {
    let b = bank();
    let choice: Vec<_> = b
        .questions()
        .filter(|(_, q)| q.kind == Kind::Choice && q.options.len() >= 4)
        .take(5)
        .collect();
    assert_eq!(choice.len(), 5);
    for (d, q) in choice {
        let prepare =
            |seed| item::prepare(d, q, seed, Lang::En, &b.presets, Rounds::First).unwrap();
        // Across attempts the right option lands in several places, never always the first.
        let positions: std::collections::BTreeSet<usize> = (0..40)
            .map(|seed| first_right_position(q, &prepare(seed)))
            .collect();
        assert!(positions.len() >= 3, "{}: {positions:?}", q.id.get_ref());
        // The same seed gives the same order, so resuming a session with its seed asks the
        // same thing; and every option is still there, with its own verdict.
        assert_eq!(prepare(7), prepare(7));
        let Body::Choice { options } = prepare(7).body else {
            unreachable!()
        };
        let mut shown: Vec<(&str, bool)> = options
            .iter()
            .map(|o| (o.text.as_str(), o.correct))
            .collect();
        let mut deck: Vec<(&str, bool)> = q
            .options
            .iter()
            .map(|o| (o.en.as_str(), o.correct))
            .collect();
        shown.sort();
        deck.sort();
        assert_eq!(shown, deck);
    }
    // Where a question falls in the session does not change its order.
    let sel = Selection {
        kind: Some(Kind::Choice),
        seed: 3,
        ..Selection::default()
    };
    let all = items(&sel);
    let one = items(&Selection {
        count: Some(1),
        ..sel.clone()
    });
    let same = all.iter().find(|i| i.id == one[0].id).unwrap();
    assert_eq!(same, &one[0]);
}

#[test]
fn scoring_is_unchanged_by_the_shuffle() {
    let b = bank();
    let (d, q) = b
        .questions()
        .find(|(_, q)| {
            q.kind == Kind::Choice && q.options.iter().filter(|o| o.correct).count() >= 2
        })
        .unwrap();
    for seed in 0..10 {
        let it = item::prepare(d, q, seed, Lang::En, &b.presets, Rounds::First).unwrap();
        let Body::Choice { options } = &it.body else {
            unreachable!()
        };
        let right: Vec<usize> = (0..options.len()).filter(|&i| options[i].correct).collect();
        let n = right.len() as u32;
        let mut s = Session::new(vec![it.clone()], NOW);
        assert_eq!(s.answer_choice(&right, NOW).unwrap().score, n);
    }
}

#[test]
fn kind_and_difficulty_filters_select_only_matching_questions() {
    let b = bank();
    for kind in [Kind::Recall, Kind::Choice, Kind::Order, Kind::Model] {
        for difficulty in 1..=3u8 {
            let sel = Selection {
                kind: Some(kind),
                difficulty: Some(difficulty),
                ..Selection::default()
            };
            let picked = select::select(&b, &sel, &BTreeMap::new(), NOW).unwrap();
            let expected = b
                .questions()
                .filter(|(_, q)| q.kind == kind && *q.difficulty.get_ref() == difficulty)
                .count();
            assert_eq!(picked.len(), expected, "{kind:?} {difficulty}");
            assert!(
                picked
                    .iter()
                    .all(|(_, q)| q.kind == kind && *q.difficulty.get_ref() == difficulty)
            );
        }
    }
    // The difficulty reaches the prepared question, for every screen to show.
    let its = items(&Selection {
        difficulty: Some(3),
        kind: Some(Kind::Model),
        seed: 1,
        ..Selection::default()
    });
    assert!(
        !its.is_empty()
            && its
                .iter()
                .all(|i| i.difficulty == 3 && i.kind == Kind::Model)
    );
}

#[test]
fn a_mixed_exam_takes_every_kind_and_difficulty() {
    for seed in 0..20 {
        let its = items(&Selection {
            count: Some(10),
            seed,
            ..Selection::default()
        });
        assert_eq!(its.len(), 10);
        for kind in [Kind::Recall, Kind::Choice, Kind::Order, Kind::Model] {
            let n = its.iter().filter(|i| i.kind == kind).count();
            assert!(n >= 2, "seed {seed}: {n} of {kind:?}");
        }
        for d in 1..=3u8 {
            let n = its.iter().filter(|i| i.difficulty == d).count();
            assert!(n >= 2, "seed {seed}: {n} of difficulty {d}");
        }
    }
}

#[test]
fn every_metric_a_question_may_ask_is_one_the_metrics_answer_on_every_preset() {
    for p in locklab::scenario::builtin() {
        let trace = locklab::engine::run(&p.params);
        let json = serde_json::to_value(&trace.metrics).unwrap();
        for spec in locklab::engine::trace::metrics_of(p.family) {
            // Empty only where the run left that metric empty.
            assert!(
                trace.metrics.get(spec.key).is_some() || json[spec.key].is_null(),
                "{}: {} unanswered",
                p.name,
                spec.key
            );
        }
        assert!(trace.metrics.get("no_such_metric").is_none());
    }
}
