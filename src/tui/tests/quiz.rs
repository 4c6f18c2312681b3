//! The quiz and stats screens: each question kind before and after answering, a whole session
//! driven by keys and checked against the saved progress file, closed-book refusals, and a
//! read-only store.

use super::*;
use crate::content::deck::Kind;
use crate::i18n::quiz::{Label, kind as kind_name, label};
use crate::progress::store::{self, Store};
use crate::quiz::item::{Body, Item, ModelInput, Rounds};
use crate::quiz::sched::Time;
use crate::quiz::score::{ModelResponse, model_expected};
use crate::quiz::select::{Bank, prepare_all};
use crate::quiz::session::Phase;
use crate::source::Source;
use crate::tui::screens::quiz::{QuizRequest, QuizState};

/// The fixed "now" of every quiz test.
pub const NOW: Time = 1_796_000_000;

pub fn fixed_now() -> Time {
    NOW
}

fn code(c: KeyCode) -> KeyEvent {
    KeyEvent::new(c, KeyModifiers::NONE)
}

fn start(s: &str, n: usize) -> String {
    s.chars().take(n).collect()
}

/// The first question of `kind` in the embedded bank, prepared in `lang`.
fn item_of(kind: Kind, lang: Lang, pick: impl Fn(&Item) -> bool) -> Item {
    let bank = Bank::load(&Source::Embedded).expect("embedded decks load");
    let all: Vec<_> = bank.questions().filter(|(_, q)| q.kind == kind).collect();
    let (items, _) = prepare_all(&bank, &all, 7, lang, Rounds::First);
    items
        .into_iter()
        .find(|i| pick(i))
        .expect("a question of this kind")
}

/// An app showing a one-question quiz on `item`.
fn quiz_app(item: Item, lang: Lang, size: (u16, u16)) -> App {
    let mut a = app(ScreenId::Home, lang, size);
    a.quiz = Some(QuizState::new(vec![item], 7, lang, ScreenId::Home, NOW));
    a.screen = ScreenId::Quiz;
    a
}

fn phase(a: &App) -> Phase {
    a.quiz.as_ref().expect("a quiz").session.phase()
}

#[test]
fn recall_reveals_ticks_and_rates() {
    for size in SIZES {
        for lang in LANGS {
            let item = item_of(Kind::Recall, lang, |_| true);
            let Body::Recall { points, follow_ups } = item.body.clone() else {
                panic!("recall")
            };
            let mut a = quiz_app(item.clone(), lang, size);
            let s = screen(&a);
            assert!(s.contains(ui(Ui::QuizTitle, lang)), "{s}");
            assert!(s.contains(kind_name(Kind::Recall, lang)), "{s}");
            assert!(s.contains(&start(&item.prompt, 8)), "{s}");
            assert!(s.contains(ui(Ui::QuizNotes, lang)), "{s}");
            // The reference answer is not on screen before it is revealed.
            assert!(!s.contains(label(Label::Answer, lang)), "{s}");

            // Notes take any text, Chinese included, without triggering commands.
            press(&mut a, code(KeyCode::Tab));
            for c in "q租约r".chars() {
                press(&mut a, key(c));
            }
            assert_eq!(a.quiz.as_ref().unwrap().notes, "q租约r");
            assert!(screen(&a).contains("q租约r"));
            press(&mut a, code(KeyCode::Esc));
            assert_eq!(phase(&a), Phase::Asking);

            press(&mut a, key('r'));
            assert_eq!(phase(&a), Phase::Ticking);
            let s = screen(&a);
            assert!(s.contains(label(Label::ScoringPoints, lang)), "{s}");
            assert!(s.contains("[ ] 1."), "{s}");
            assert!(s.contains(&start(&points[0].text, 6)), "{s}");
            press(&mut a, key('1'));
            assert!(screen(&a).contains("[x] 1."));
            press(&mut a, code(KeyCode::Enter));
            if !follow_ups.is_empty() {
                assert_eq!(phase(&a), Phase::FollowUpAsking);
                press(&mut a, code(KeyCode::Enter));
                assert_eq!(phase(&a), Phase::FollowUpTicking);
                press(&mut a, code(KeyCode::Enter));
            }
            assert_eq!(phase(&a), Phase::Rating);
            assert!(screen(&a).contains(ui(Ui::QuizRate, lang)));
            press(&mut a, key('3'));
            assert_eq!(phase(&a), Phase::Answered);
            let g = a.quiz.as_ref().unwrap().session.last().unwrap().clone();
            assert_eq!(g.score, points[0].value);
            assert_eq!(g.note, "q租约r");
            let s = screen(&a);
            assert!(s.contains(&format!("{}/{}", g.score, g.max)), "{s}");
            assert!(s.contains(label(Label::Score, lang)), "{s}");
            // No progress file in this app: the screen says nothing was saved.
            assert!(s.contains(ui(Ui::QuizNotSavedNoFile, lang)), "{s}");
        }
    }
}

#[test]
fn choice_letters_pick_and_the_reasons_show_after() {
    for size in SIZES {
        for lang in LANGS {
            let item = item_of(Kind::Choice, lang, |_| true);
            let Body::Choice { options } = item.body.clone() else {
                panic!("choice")
            };
            let mut a = quiz_app(item.clone(), lang, size);
            let s = screen(&a);
            assert!(s.contains(&start(&item.prompt, 8)), "{s}");
            for (k, o) in options.iter().enumerate() {
                let shown = format!("[ ] {}) {}", char::from(b'a' + k as u8), start(&o.text, 4));
                assert!(s.contains(&shown), "{shown} missing:\n{s}");
            }
            for (k, o) in options.iter().enumerate() {
                if o.correct {
                    press(&mut a, key(char::from(b'a' + k as u8)));
                }
            }
            assert!(screen(&a).contains("[x]"));
            press(&mut a, code(KeyCode::Enter));
            assert_eq!(phase(&a), Phase::Answered);
            let s = screen(&a);
            assert!(s.contains(label(Label::Right, lang)), "{s}");
            // Right options are marked +, the rest -, each with its reason (the first at least).
            assert!(s.contains("+ [x]"), "{s}");
            assert!(s.contains(&start(&options[0].why, 4)), "{s}");
            // What does not fit scrolls with PgDn; at the larger size it all fits at once.
            if s.contains("PgUp/PgDn") {
                for _ in 0..5 {
                    press(&mut a, code(KeyCode::PageDown));
                }
            }
            let s = screen(&a);
            assert!(s.contains(label(Label::Explanation, lang)), "{s}");
            assert!(
                s.contains(&start(&options[options.len() - 1].why, 4)),
                "{s}"
            );
            if size == (160, 48) {
                assert!(!s.contains("PgUp/PgDn"), "{s}");
                for o in &options {
                    assert!(s.contains(&start(&o.why, 4)), "{s}");
                }
            }
        }
    }
}

#[test]
fn order_steps_move_and_the_right_order_shows_after() {
    for size in SIZES {
        for lang in LANGS {
            let item = item_of(Kind::Order, lang, |_| true);
            let Body::Order { shown, correct } = item.body.clone() else {
                panic!("order")
            };
            let mut a = quiz_app(item.clone(), lang, size);
            let s = screen(&a);
            assert!(s.contains(&format!("> 1. {}", start(&shown[0], 4))), "{s}");
            // Put the steps in the right order with J/K and Shift-arrows.
            for (pos, &want) in correct.iter().enumerate() {
                let q = a.quiz.as_ref().unwrap();
                let at = q.order.iter().position(|&i| i == want).unwrap();
                // Select the step, then move it up to `pos`.
                while a.quiz.as_ref().unwrap().cursor < at {
                    press(&mut a, code(KeyCode::Down));
                }
                while a.quiz.as_ref().unwrap().cursor > at {
                    press(&mut a, code(KeyCode::Up));
                }
                for k in 0..(at - pos) {
                    if k % 2 == 0 {
                        press(&mut a, key('K'));
                    } else {
                        press(&mut a, KeyEvent::new(KeyCode::Up, KeyModifiers::SHIFT));
                    }
                }
            }
            assert_eq!(a.quiz.as_ref().unwrap().order, *correct);
            press(&mut a, code(KeyCode::Enter));
            let g = a.quiz.as_ref().unwrap().session.last().unwrap().clone();
            assert_eq!((g.score, g.max), (shown.len() as u32, shown.len() as u32));
            let s = screen(&a);
            assert!(s.contains(label(Label::Right, lang)), "{s}");
            assert!(s.contains(label(Label::RightOrder, lang).trim()), "{s}");
            assert!(
                s.contains(&format!("+ 1. {}", start(&shown[correct[0]], 4))),
                "{s}"
            );
        }
    }
}

#[test]
fn model_numbers_are_scored_by_the_engine_and_the_run_opens_after() {
    for size in SIZES {
        for lang in LANGS {
            let item = item_of(Kind::Model, lang, |i| {
                matches!(
                    i.body,
                    Body::Model {
                        input: ModelInput::Number { .. },
                        ..
                    }
                )
            });
            let Some(ModelResponse::Number(x)) = model_expected(&item) else {
                panic!("a numeric answer")
            };
            let mut a = quiz_app(item.clone(), lang, size);
            let s = screen(&a);
            // The drawn parameters are filled in: no placeholder is left.
            assert!(!item.prompt.contains('{'), "{}", item.prompt);
            assert!(s.contains(&start(&item.prompt, 8)), "{s}");
            assert!(s.contains(ui(Ui::QuizYourAnswer, lang)), "{s}");
            // `o` before answering is refused: no peeking at the run.
            press(&mut a, key('o'));
            assert_eq!(a.screen, ScreenId::Quiz);
            assert!(screen(&a).contains(ui(Ui::QuizNoRun, lang)));
            for c in crate::content::model::fmt_value(x).chars() {
                press(&mut a, key(c));
            }
            press(&mut a, code(KeyCode::Enter));
            assert_eq!(phase(&a), Phase::Answered);
            let s = screen(&a);
            assert!(s.contains(label(Label::Right, lang)), "{s}");
            assert!(s.contains(label(Label::EngineComputes, lang).trim()), "{s}");
            assert!(s.contains(ui(Ui::QuizOpenRun, lang)), "{s}");
            // The exact run opens on its screen; Back returns to the quiz.
            press(&mut a, key('o'));
            assert_ne!(a.screen, ScreenId::Quiz);
            let Body::Model { variant, .. } = &item.body else {
                panic!()
            };
            match &variant.params {
                crate::engine::Params::Frozen(p) => assert_eq!(&a.frozen.params, p),
                crate::engine::Params::Abc(p) => assert_eq!(&a.abc.params, p),
                crate::engine::Params::Herd(p) => assert_eq!(a.herd.params.waiters, p.waiters),
                crate::engine::Params::Redlock(_) | crate::engine::Params::Snowflake(_) => {
                    assert_eq!(&a.present.as_ref().unwrap().preset.params, &variant.params)
                }
                other => panic!("no model question runs this family yet: {other:?}"),
            }
            press(&mut a, key('q'));
            assert_eq!(a.screen, ScreenId::Quiz);
            assert_eq!(phase(&a), Phase::Answered);
        }
    }
}

#[test]
fn model_options_pick_one_and_show_the_engine_answer() {
    for lang in LANGS {
        let item = item_of(Kind::Model, lang, |i| {
            matches!(
                i.body,
                Body::Model {
                    input: ModelInput::Options(_),
                    ..
                }
            )
        });
        let Some(ModelResponse::Option(right)) = model_expected(&item) else {
            panic!("an option answer")
        };
        let mut a = quiz_app(item, lang, (80, 24));
        assert!(screen(&a).contains("( ) a)"));
        // Letters pick one option only: the last one wins.
        press(&mut a, key('a'));
        press(&mut a, key(char::from(b'a' + right as u8)));
        assert_eq!(
            a.quiz
                .as_ref()
                .unwrap()
                .picked
                .iter()
                .filter(|p| **p)
                .count(),
            1
        );
        press(&mut a, code(KeyCode::Enter));
        let s = screen(&a);
        assert!(s.contains(label(Label::Right, lang)), "{s}");
        assert!(
            s.contains(&format!("(*) {})", char::from(b'a' + right as u8))),
            "{s}"
        );
    }
}

/// Answers whatever question is current, by keys only: the first point, the first option, the
/// order as shown, `1` for a number.
fn answer_current(a: &mut App) {
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
            assert!(screen(&a).contains(&crate::i18n::quiz::saved(before + n, lang)));
            press(&mut a, code(KeyCode::Enter));
        }
        let q = a.quiz.as_ref().unwrap();
        let sum = q.summary.clone().expect("the summary");
        assert_eq!((sum.answered, sum.questions), (4, 4));
        let s = screen(&a);
        assert!(s.contains(&format!("{}/{}", sum.score, sum.max)), "{s}");
        assert!(s.contains(&format!("({:.0}%)", sum.percent)), "{s}");
        assert!(s.contains(label(Label::ByTopic, lang)), "{s}");
        assert!(s.contains(&sum.topics[0].topic), "{s}");
        let on_disk = store::read_progress(&dir.path().join(store::FILE_NAME)).unwrap();
        let last = on_disk.sessions.last().expect("a session record");
        assert_eq!(
            (last.answered, last.score, last.max),
            (4, sum.score, sum.max)
        );
        assert!(on_disk.cards.contains_key(&ids[0]));
        press(&mut a, code(KeyCode::Enter));
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
        for msg in [Msg::OpenLesson(0), Msg::OpenPreset(0), Msg::StartQuiz(0)] {
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
            .position(|i| *i == super::super::screens::home::Item::Frozen)
            .unwrap();
        press(&mut a, code(KeyCode::Enter));
        assert_eq!(a.screen, ScreenId::Quiz);
        // Once the session is over, links open again.
        press(&mut a, key('q'));
        press(&mut a, key('y'));
        press(&mut a, code(KeyCode::Enter));
        assert!(!a.closed_book());
        update(&mut a, Msg::OpenLesson(0));
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
    let msg = crate::i18n::quiz::notice(&store::Notice::Locked, Lang::En);
    assert!(s.contains(&start(&msg, 30)), "{s}");
    a.start_quiz(
        &QuizRequest {
            seed: Some(3),
            count: Some(1),
            ..QuizRequest::default()
        },
        ScreenId::Home,
    );
    assert!(screen(&a).contains(crate::i18n::quiz::not_saved(Lang::En)));
    answer_current(&mut a);
    assert!(screen(&a).contains(crate::i18n::quiz::not_saved(Lang::En)));
    assert!(!dir.path().join(store::FILE_NAME).exists());
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
                .position(|i| *i == super::super::screens::home::Item::Progress)
                .unwrap();
            a.home.selected = progress;
            let s = screen(&a);
            let due = a.learn.overview.as_ref().unwrap().due_today;
            assert!(
                s.contains(&ui(Ui::HomeReview, lang).replace("{}", &due.to_string())),
                "{s}"
            );
            assert!(s.contains(ui(Ui::HomeProgress, lang)), "{s}");
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
            press(&mut a, code(KeyCode::Enter));
            assert_eq!(a.screen, ScreenId::Home);
            a.home.selected = progress;
            press(&mut a, code(KeyCode::Enter));
            assert_eq!(a.screen, ScreenId::Stats);
            let s = screen(&a);
            let o = a.learn.overview.as_ref().unwrap();
            assert!(s.contains(ui(Ui::StatsTitle, lang)), "{s}");
            assert!(s.contains(label(Label::MasteryByDeck, lang)), "{s}");
            assert!(s.contains(&o.decks[0].deck), "{s}");
            assert!(
                s.contains('#') || o.decks.iter().all(|d| d.mastery < 5.0),
                "{s}"
            );
            assert!(s.contains(label(Label::Forecast, lang)), "{s}");
            assert!(
                s.contains(&ui(Ui::StatsStreak, lang).replace("{}", &o.streak.to_string())),
                "{s}"
            );
            assert!(o.streak >= 1);
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
            .position(|i| *i == super::super::screens::home::Item::Review)
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
fn quiz_snapshots_at_80x24() {
    let choice = quiz_app(
        item_of(Kind::Choice, Lang::En, |_| true),
        Lang::En,
        (80, 24),
    );
    insta::assert_snapshot!("quiz_choice_en", screen(&choice));
    let mut recall = quiz_app(
        item_of(Kind::Recall, Lang::Zh, |_| true),
        Lang::Zh,
        (80, 24),
    );
    press(&mut recall, key('r'));
    press(&mut recall, key('2'));
    insta::assert_snapshot!("quiz_recall_ticking_zh", screen(&recall));
}

#[test]
fn redlock_and_snowflake_model_runs_open_in_the_presenter_with_their_explanations_filled() {
    for (lang, family) in [(Lang::En, "redlock"), (Lang::Zh, "snowflake")] {
        let item = item_of(Kind::Model, lang, |i| {
            matches!(
                (&i.body, family),
                (Body::Model { variant, .. }, "redlock")
                    if matches!(variant.params, crate::engine::Params::Redlock(_))
            ) || matches!(
                (&i.body, family),
                (Body::Model { variant, .. }, "snowflake")
                    if matches!(variant.params, crate::engine::Params::Snowflake(_))
            )
        });
        // The explanation speaks of this attempt's numbers, not of placeholders.
        assert!(!item.answer.contains('{'), "{}", item.answer);
        let Some(ModelResponse::Number(x)) = model_expected(&item) else {
            panic!("a numeric answer")
        };
        let mut a = quiz_app(item.clone(), lang, (120, 40));
        for c in crate::content::model::fmt_value(x).chars() {
            press(&mut a, key(c));
        }
        press(&mut a, code(KeyCode::Enter));
        assert_eq!(phase(&a), Phase::Answered);
        press(&mut a, key('o'));
        assert_eq!(a.screen, ScreenId::Present, "{family}");
        let Body::Model { variant, .. } = &item.body else {
            panic!()
        };
        assert_eq!(&a.present.as_ref().unwrap().preset.params, &variant.params);
        // The presenter sets the run's about in large type, so it is checked as its caption.
        let about = &a.present.as_ref().unwrap().preset.about;
        assert_eq!(lang.pick(&about.zh, &about.en), ui(Ui::ModelRunAbout, lang));
        press(&mut a, key('q'));
        assert_eq!(a.screen, ScreenId::Quiz);
    }
}
