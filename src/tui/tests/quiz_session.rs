//! A whole quiz session driven by keys and checked against the saved progress file; leaving,
//! closed-book refusals, a read-only store, Home's quiz entries, the stats screen and help.

use super::quiz::*;
use super::*;
use crate::progress::store::{self, Store};
use crate::quiz::item::{Body, ModelInput};
use crate::quiz::session::Phase;
use crate::quiz::words::{Label, label};
use crate::source::Source;
use crate::tui::screens::quiz::QuizRequest;

/// Answers whatever question is current, by keys only: the first point, the first option, the
/// order as shown, `1` for a number.
pub(super) fn answer_current(a: &mut App) {
    let item = a.quiz.as_ref().unwrap().current().unwrap().clone();
    match &item.body {
        Body::Recall { follow_ups, .. } => {
            press(a, code(KeyCode::Enter));
            press(a, key('1'));
            press(a, code(KeyCode::Enter));
            for _ in follow_ups {
                press(a, code(KeyCode::Enter));
                press(a, code(KeyCode::Enter));
            }
            press(a, key('2'));
        }
        Body::Choice { .. }
        | Body::Model {
            input: ModelInput::Options(_),
            ..
        } => {
            press(a, key('a'));
            press(a, code(KeyCode::Enter));
        }
        Body::Order { .. } => press(a, code(KeyCode::Enter)),
        Body::Model { .. } => {
            press(a, key('1'));
            press(a, code(KeyCode::Enter));
        }
    }
    assert_eq!(phase(a), Phase::Answered, "{}", item.id);
}

#[test]
fn a_whole_session_by_keys_saves_every_answer_and_the_summary() {
    let dir = tempfile::tempdir().expect("temp dir");
    for lang in LANGS {
        let mut a = app(ScreenId::Home, lang, (80, 24));
        a.set_learning(Learning::open(
            &Source::Embedded,
            Some(dir.path()),
            NOW,
            Calendar::UTC,
        ));
        let before = a.learn.store.as_ref().unwrap().data().answers.len();
        let req = QuizRequest {
            count: Some(4),
            seed: Some(42),
            ..QuizRequest::default()
        };
        a.start_quiz(&req, ScreenId::Home);
        assert_eq!(a.screen, ScreenId::Quiz);
        let ids: Vec<String> = a
            .quiz
            .as_ref()
            .unwrap()
            .session
            .items()
            .iter()
            .map(|i| i.id.clone())
            .collect();
        assert_eq!(ids.len(), 4);
        // The same seed asks the same questions.
        let mut b = app(ScreenId::Home, lang, (80, 24));
        b.start_quiz(&req, ScreenId::Home);
        let again: Vec<String> = b
            .quiz
            .as_ref()
            .unwrap()
            .session
            .items()
            .iter()
            .map(|i| i.id.clone())
            .collect();
        assert_eq!(ids, again);

        for n in 1..=4 {
            answer_current(&mut a);
            // Saved before the explanation is read: the file already holds the answer.
            let on_disk = store::read_progress(&dir.path().join(store::FILE_NAME)).unwrap();
            assert_eq!(on_disk.answers.len(), before + n);
            assert_eq!(on_disk.answers.last().unwrap().question, ids[n - 1]);
            assert!(screen(&a).contains(&crate::progress::words::saved(before + n, lang)));
            press(&mut a, code(KeyCode::Enter));
        }
        let q = a.quiz.as_ref().unwrap();
        let sum = q.summary.clone().expect("the summary");
        assert_eq!((sum.answered, sum.questions), (4, 4));
        let s = screen(&a);
        assert!(s.contains(&format!("{}/{}", sum.score, sum.max)), "{s}");
        assert!(s.contains(&format!("({:.0}%)", sum.percent)), "{s}");
        assert!(s.contains(label(Label::ByTopic, lang)), "{s}");
        let name = crate::i18n::topics::topic_name(&sum.topics[0].topic, lang);
        assert!(s.contains(name), "{s}");
        let on_disk = store::read_progress(&dir.path().join(store::FILE_NAME)).unwrap();
        let last = on_disk.sessions.last().expect("a session record");
        assert_eq!(
            (last.answered, last.score, last.max),
            (4, sum.score, sum.max)
        );
        assert!(on_disk.cards.contains_key(&ids[0]));
        press(&mut a, key('q'));
        assert_eq!(a.screen, ScreenId::Home);
        assert!(a.quiz.is_none());
        // Drop the store (and its lock) before the next language opens it again.
        drop(a);
    }
}

#[test]
fn leaving_asks_first_and_keeps_what_was_answered() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut a = app(ScreenId::Home, Lang::En, (80, 24));
    a.set_learning(Learning::open(
        &Source::Embedded,
        Some(dir.path()),
        NOW,
        Calendar::UTC,
    ));
    let req = QuizRequest {
        count: Some(3),
        seed: Some(5),
        ..QuizRequest::default()
    };
    a.start_quiz(&req, ScreenId::Home);
    answer_current(&mut a);
    press(&mut a, code(KeyCode::Enter));
    press(&mut a, key('q'));
    assert!(screen(&a).contains(ui(Ui::QuizConfirmLeave, Lang::En)));
    press(&mut a, key('n'));
    assert!(a.quiz.as_ref().unwrap().running());
    press(&mut a, code(KeyCode::Esc));
    press(&mut a, key('y'));
    let sum = a.quiz.as_ref().unwrap().summary.clone().unwrap();
    assert_eq!((sum.answered, sum.questions), (1, 3));
    let on_disk = store::read_progress(&dir.path().join(store::FILE_NAME)).unwrap();
    assert_eq!(on_disk.answers.len(), 1);
    assert_eq!(on_disk.sessions.len(), 1);
    press(&mut a, key('q'));
    assert_eq!(a.screen, ScreenId::Home);
}

#[test]
fn closed_book_refuses_lessons_and_simulations() {
    for lang in LANGS {
        let mut a = app(ScreenId::Home, lang, (80, 24));
        a.start_quiz(
            &QuizRequest {
                seed: Some(1),
                count: Some(2),
                ..QuizRequest::default()
            },
            ScreenId::Home,
        );
        assert!(a.closed_book());
        for msg in [
            AppMsg::OpenLesson(0),
            AppMsg::OpenPreset(0),
            AppMsg::StartQuiz(0),
        ] {
            update(&mut a, msg);
            assert_eq!(a.screen, ScreenId::Quiz);
            assert!(screen(&a).contains(ui(Ui::QuizClosedBook, lang)));
            // The session is untouched.
            assert_eq!(a.quiz.as_ref().unwrap().session.position().0, 0);
        }
        // Home items are refused too (Home is not reachable during a session, but if it were).
        a.screen = ScreenId::Home;
        a.home.selected = a
            .home
            .items
            .iter()
            .position(|i| *i == super::super::screens::home::HomeRow::Frozen)
            .unwrap();
        press(&mut a, code(KeyCode::Enter));
        assert_eq!(a.screen, ScreenId::Quiz);
        // Once the session is over, links open again.
        press(&mut a, key('q'));
        press(&mut a, key('y'));
        press(&mut a, code(KeyCode::Enter));
        assert!(!a.closed_book());
        update(&mut a, AppMsg::OpenLesson(0));
        assert_eq!(a.screen, ScreenId::Reader);
    }
}

#[test]
fn a_read_only_store_says_so_on_home_and_in_the_quiz() {
    let dir = tempfile::tempdir().expect("temp dir");
    // A first locklab holds the lock.
    let _first = Store::open(dir.path(), NOW).expect("store");
    let mut a = app(ScreenId::Home, Lang::En, (80, 24));
    a.set_learning(Learning::open(
        &Source::Embedded,
        Some(dir.path()),
        NOW,
        Calendar::UTC,
    ));
    assert!(!a.learn.writable());
    let s = screen(&a);
    let msg = crate::progress::words::notice(&store::Notice::Locked, Lang::En);
    assert!(s.contains(&start(&msg, 30)), "{s}");
    a.start_quiz(
        &QuizRequest {
            seed: Some(3),
            count: Some(1),
            ..QuizRequest::default()
        },
        ScreenId::Home,
    );
    assert!(screen(&a).contains(crate::progress::words::not_saved(Lang::En)));
    answer_current(&mut a);
    assert!(screen(&a).contains(crate::progress::words::not_saved(Lang::En)));
    assert!(!dir.path().join(store::FILE_NAME).exists());
}

/// The review date the scheduler saved for question `id`.
fn store_due(store: &Store, id: &str) -> crate::quiz::sched::Time {
    store
        .data()
        .cards
        .get(id)
        .expect("a card for every answer")
        .due
}

#[test]
fn home_lists_the_quizzes_and_the_stats_screen_shows_progress() {
    let dir = tempfile::tempdir().expect("temp dir");
    for size in SIZES {
        for lang in LANGS {
            let mut a = app(ScreenId::Home, lang, size);
            a.set_learning(Learning::open(
                &Source::Embedded,
                Some(dir.path()),
                NOW,
                Calendar::UTC,
            ));
            // The quiz entries follow the simulations; selecting one scrolls them into view.
            let progress = a
                .home
                .items
                .iter()
                .position(|i| *i == super::super::screens::home::HomeRow::Progress)
                .unwrap();
            let review = a
                .home
                .items
                .iter()
                .position(|i| *i == super::super::screens::home::HomeRow::Exam)
                .unwrap();
            a.home.selected = progress;
            assert!(screen(&a).contains(ui(Ui::HomeProgress, lang)));
            a.home.selected = review;
            let s = screen(&a);
            let due = a.learn.overview.as_ref().unwrap().due_today;
            assert!(
                s.contains(&ui(Ui::HomeReview, lang).replace("{}", &due.to_string())),
                "{s}"
            );
            let exam = ui(Ui::HomeExam, lang).replace("{}", "10");
            assert!(s.contains(&exam), "{s}");
            let due_line = ui(Ui::HomeDue, lang).replacen("{}", &due.to_string(), 1);
            assert!(s.contains(&start(&due_line, 10)), "{s}");
            // One answered session makes the numbers move.
            a.start_quiz(
                &QuizRequest {
                    seed: Some(9),
                    count: Some(2),
                    ..QuizRequest::default()
                },
                ScreenId::Home,
            );
            answer_current(&mut a);
            press(&mut a, code(KeyCode::Enter));
            answer_current(&mut a);
            press(&mut a, code(KeyCode::Enter));
            // The result lists both questions, each with when the scheduler brings it back.
            let q = a.quiz.as_ref().expect("the result");
            assert_eq!(q.questions.len(), 2);
            let store = a.learn.store.as_ref().expect("a store");
            let backs: Vec<String> = q
                .questions
                .iter()
                .map(|r| crate::quiz::words::comes_back(store_due(store, &r.id) - q.now, lang))
                .collect();
            let mut result = String::new();
            for _ in 0..6 {
                result.push_str(&screen(&a));
                press(&mut a, code(KeyCode::PageDown));
            }
            for back in &backs {
                assert!(result.contains(back.as_str()), "{back} missing:\n{result}");
            }
            press(&mut a, key('q'));
            assert_eq!(a.screen, ScreenId::Home);
            a.home.selected = progress;
            press(&mut a, code(KeyCode::Enter));
            assert_eq!(a.screen, ScreenId::Stats);
            let s = screen(&a);
            let o = a.learn.overview.as_ref().unwrap();
            assert!(s.contains(ui(Ui::StatsTitle, lang)), "{s}");
            assert!(s.contains(label(Label::MasteryByDeck, lang)), "{s}");
            assert!(
                s.contains(&start(&a.learn.deck_title(&o.decks[0].deck, lang), 6)),
                "{s}"
            );
            assert!(
                s.contains('#') || o.decks.iter().all(|d| d.mastery < 5.0),
                "{s}"
            );
            assert!(s.contains(label(Label::Forecast, lang)), "{s}");
            // The streak is told once, in the counts' line.
            let counts = crate::progress::words::overview_line(
                o.answers,
                o.questions_seen,
                o.sessions,
                o.streak,
                lang,
            );
            assert_eq!(s.matches(&counts).count(), 1, "{s}");
            assert_eq!(s.matches(lang.pick("连续", "streak")).count(), 1, "{s}");
            assert!(o.streak >= 1);
            // Every deck can be reached in the list, at every size.
            let titles: Vec<String> = o
                .decks
                .iter()
                .map(|d| {
                    crate::text::clip_cols(&a.learn.deck_title(&d.deck, lang), 8).replace('…', "")
                })
                .collect();
            let mut seen = s.clone();
            for _ in 0..titles.len() {
                press(&mut a, code(KeyCode::Down));
                seen.push_str(&screen(&a));
            }
            for t in &titles {
                assert!(seen.contains(t.as_str()), "{t} never shown:\n{seen}");
            }
            press(&mut a, code(KeyCode::Home));
            assert!(s.contains(ui(Ui::StatsHistory, lang)), "{s}");
            let last = a.learn.history.last().unwrap();
            assert!(
                s.contains(&ui(Ui::StatsLastSession, lang).replace("{}", &last.to_string())),
                "{s}"
            );
            press(&mut a, key('?'));
            assert!(screen(&a).contains(ui(Ui::KeyLang, lang)));
            press(&mut a, key('?'));
            press(&mut a, key('q'));
            assert_eq!(a.screen, ScreenId::Home);
            drop(a);
        }
    }
}

#[test]
fn help_lists_the_quiz_keys() {
    let mut a = app(ScreenId::Home, Lang::En, (80, 24));
    a.start_quiz(
        &QuizRequest {
            seed: Some(1),
            count: Some(1),
            ..QuizRequest::default()
        },
        ScreenId::Home,
    );
    press(&mut a, key('?'));
    let s = screen(&a);
    for k in [
        Ui::KeyQuizSubmit,
        Ui::KeyQuizMoveStep,
        Ui::KeyQuizOpenRun,
        Ui::KeyQuizLeave,
    ] {
        assert!(s.contains(ui(k, Lang::En)), "{s}");
    }
    // `q` closes the help, not the quiz.
    press(&mut a, key('q'));
    assert!(!a.help);
    assert!(a.quiz.as_ref().unwrap().running());
}

#[test]
fn review_with_nothing_due_stays_home_and_says_so() {
    for lang in LANGS {
        let dir = tempfile::tempdir().expect("temp dir");
        let mut a = app(ScreenId::Home, lang, (80, 24));
        a.set_learning(Learning::open(
            &Source::Embedded,
            Some(dir.path()),
            NOW,
            Calendar::UTC,
        ));
        let review = a
            .home
            .items
            .iter()
            .position(|i| *i == super::super::screens::home::HomeRow::Review)
            .unwrap();
        a.home.selected = review;
        press(&mut a, code(KeyCode::Enter));
        assert_eq!(a.screen, ScreenId::Home);
        assert!(a.quiz.is_none());
        let s = screen(&a);
        assert!(s.contains(label(Label::NothingDue, lang)), "{s}");
    }
}

#[test]
fn l_on_the_result_tells_the_missed_points_and_topics_again_in_chinese() {
    use crate::content::deck::Kind;
    let mut a = app(ScreenId::Home, Lang::En, (140, 42));
    let req = QuizRequest {
        kind: Some(Kind::Recall),
        count: Some(1),
        seed: Some(3),
        ..QuizRequest::default()
    };
    a.start_quiz(&req, ScreenId::Home);
    let item = a.quiz.as_ref().unwrap().session.items()[0].clone();
    // Ticks the first scoring point only: every other one is missed.
    answer_current(&mut a);
    press(&mut a, code(KeyCode::Enter));
    assert!(a.quiz.as_ref().unwrap().summary.is_some());
    // The deck's own words for the missed points, in both languages.
    let bank = crate::quiz::select::Bank::load(&Source::Embedded).expect("embedded decks load");
    let (_, q) = bank
        .questions()
        .find(|(_, q)| *q.id.get_ref() == item.id)
        .expect("the question in its deck");
    let missed = &q.points[1..];
    assert!(!missed.is_empty(), "{} has one point", item.id);
    let topic = &item.topics[0];
    let (topic_en, topic_zh) = (
        crate::i18n::topics::topic_name(topic, Lang::En),
        crate::i18n::topics::topic_name(topic, Lang::Zh),
    );
    let s = screen(&a);
    for p in missed {
        assert!(s.contains(&start(&p.en, 16)), "{} missing:\n{s}", p.en);
    }
    assert!(s.contains(topic_en), "{s}");
    press(&mut a, key('L'));
    let s = screen(&a);
    for p in missed {
        assert!(s.contains(&start(&p.zh, 6)), "{} missing:\n{s}", p.zh);
        assert!(!s.contains(&start(&p.en, 16)), "{} stays:\n{s}", p.en);
    }
    assert!(s.contains(topic_zh) && !s.contains(topic_en), "{s}");
    // And back.
    press(&mut a, key('L'));
    let s = screen(&a);
    assert!(s.contains(&start(&missed[0].en, 16)), "{s}");
}
