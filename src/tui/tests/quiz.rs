//! The quiz and stats screens: each question kind before and after answering, a whole session
//! driven by keys and checked against the saved progress file, closed-book refusals, and a
//! read-only store.

use super::*;
use crate::content::deck::Kind;
use crate::quiz::item::{Body, ModelInput, PreparedQuestion, Rounds};
use crate::quiz::sched::Time;
use crate::quiz::score::{ModelResponse, model_expected};
use crate::quiz::select::{Bank, prepare_all};
use crate::quiz::session::Phase;
use crate::quiz::words::{Label, kind as kind_name, label};
use crate::source::Source;
use crate::tui::screens::quiz::QuizState;

/// The fixed "now" of every quiz test.
pub const NOW: Time = 1_796_000_000;

pub fn fixed_now() -> Time {
    NOW
}

pub(super) fn code(c: KeyCode) -> KeyEvent {
    KeyEvent::new(c, KeyModifiers::NONE)
}

pub(super) fn start(s: &str, n: usize) -> String {
    s.chars().take(n).collect()
}

/// The first question of `kind` in the embedded bank, prepared in `lang`.
pub(super) fn item_of(
    kind: Kind,
    lang: Lang,
    pick: impl Fn(&PreparedQuestion) -> bool,
) -> PreparedQuestion {
    let bank = Bank::load(&Source::Embedded).expect("embedded decks load");
    let all: Vec<_> = bank.questions().filter(|(_, q)| q.kind == kind).collect();
    let (items, _) = prepare_all(&bank, &all, 7, lang, Rounds::First);
    items
        .into_iter()
        .find(|i| pick(i))
        .expect("a question of this kind")
}

/// An app showing a one-question quiz on `item`.
pub(super) fn quiz_app(item: PreparedQuestion, lang: Lang, size: (u16, u16)) -> App {
    let mut a = app(ScreenId::Home, lang, size);
    a.quiz = Some(QuizState::new(vec![item], 7, lang, ScreenId::Home, NOW));
    a.screen = ScreenId::Quiz;
    a
}

pub(super) fn phase(a: &App) -> Phase {
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
fn a_right_option_left_unpicked_reads_as_missed() {
    for lang in LANGS {
        let item = item_of(Kind::Choice, lang, |_| true);
        let Body::Choice { options } = item.body.clone() else {
            panic!("choice")
        };
        let wrong = options
            .iter()
            .position(|o| !o.correct)
            .expect("a wrong option");
        let mut a = quiz_app(item, lang, (160, 48));
        press(&mut a, key(char::from(b'a' + wrong as u8)));
        press(&mut a, code(KeyCode::Enter));
        assert_eq!(phase(&a), Phase::Answered);
        let s = screen(&a);
        for (k, o) in options.iter().enumerate() {
            let letter = char::from(b'a' + k as u8);
            let row = format!("{letter}) ");
            let line = s
                .lines()
                .find(|l| l.contains(&row) && l.contains(&start(&o.text, 4)))
                .unwrap_or_else(|| panic!("option {letter} missing:\n{s}"));
            let missed = label(Label::Missed, lang);
            match (o.correct, k == wrong) {
                (true, _) => assert!(line.contains("! [ ]") && line.contains(missed), "{line}"),
                (false, true) => {
                    assert!(line.contains("- [x]") && !line.contains(missed), "{line}")
                }
                (false, false) => {
                    assert!(line.contains("- [ ]") && !line.contains(missed), "{line}")
                }
            }
        }
        // The rating is named as the review's, not as a difficulty.
        assert!(s.contains(lang.pick("记入复习", "for review")), "{s}");
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

#[test]
fn the_result_lists_the_answer_given_against_the_right_one() {
    for lang in LANGS {
        // A choice question with a wrong option to pick.
        let item = item_of(
            Kind::Choice,
            lang,
            |i| matches!(&i.body, Body::Choice { options } if options.iter().any(|o| !o.correct)),
        );
        let Body::Choice { options } = item.body.clone() else {
            panic!("choice")
        };
        let wrong = options.iter().position(|o| !o.correct).unwrap();
        let mut a = quiz_app(item.clone(), lang, (140, 42));
        press(&mut a, key(crate::quiz::item::letter(wrong)));
        press(&mut a, code(KeyCode::Enter));
        press(&mut a, code(KeyCode::Enter));
        assert!(a.quiz.as_ref().unwrap().summary.is_some());
        let s = screen(&a);
        let given = format!(
            "{}{}) {}",
            label(Label::YourAnswer, lang),
            crate::quiz::item::letter(wrong),
            start(&options[wrong].text, 20)
        );
        assert!(s.contains(&given), "{given} missing:\n{s}");
        let right = options.iter().position(|o| o.correct).unwrap();
        let shown = format!(
            "{}{}) {}",
            label(Label::RightAnswer, lang),
            crate::quiz::item::letter(right),
            start(&options[right].text, 20)
        );
        assert!(s.contains(&shown), "{shown} missing:\n{s}");
    }
}

/// A model question's run opens under its own name: an A/B/C run drawn for a question is no
/// shipped preset, so the lab's title names none, nor does it tell a preset's story.
#[test]
fn a_model_questions_abc_run_opens_under_no_presets_name() {
    for lang in LANGS {
        let item = item_of(Kind::Model, lang, |i| {
            matches!(&i.body, Body::Model { variant, .. }
                if matches!(variant.params, crate::engine::Params::Abc(_)))
        });
        let Body::Model { variant, .. } = &item.body else {
            panic!()
        };
        let mut a = quiz_app(item.clone(), lang, (140, 42));
        let answer = match model_expected(&item) {
            Some(ModelResponse::Number(x)) => crate::content::model::fmt_value(x),
            _ => "1".to_string(),
        };
        for c in answer.chars() {
            press(&mut a, key(c));
        }
        press(&mut a, code(KeyCode::Enter));
        assert_eq!(phase(&a), Phase::Answered, "{}", screen(&a));
        press(&mut a, key('o'));
        assert_eq!(a.screen, ScreenId::Abc);
        let s = screen(&a);
        let title = s.lines().next().unwrap_or_default();
        for p in crate::scenario::builtin() {
            if p.params != variant.params {
                assert!(
                    !title.contains(&format!(" {} (", p.name)),
                    "{lang:?}: {title}"
                );
                let story = lang.pick(&p.about.zh, &p.about.en);
                let story: String = story.chars().take(30).collect();
                assert!(!s.contains(&story), "{lang:?}: {} told:\n{s}", p.name);
            }
        }
    }
}
