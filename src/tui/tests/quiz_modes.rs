//! The interview and the self-test on screen, notes kept beside the reference answer, hints,
//! the home filters and the interview's clock; with snapshots at 80x24 and 140x42 in both
//! languages.

use std::sync::atomic::{AtomicI64, Ordering};

use super::quiz::{NOW, fixed_now};
use super::*;
use crate::content::deck::Kind;
use crate::quiz::item::{Body, Rounds};
use crate::quiz::select::{Bank, prepare_all};
use crate::quiz::session::{Phase, SessionKind};
use crate::quiz::words::{self as qtext, Label, label};
use crate::source::Source;
use crate::tui::screens::home::HomeRow;
use crate::tui::screens::quiz::QuizState;

const SNAP_SIZES: [(u16, u16); 2] = [(80, 24), (140, 42)];

fn code(c: KeyCode) -> KeyEvent {
    KeyEvent::new(c, KeyModifiers::NONE)
}

fn lang_code(lang: Lang) -> &'static str {
    lang.code()
}

/// An app running `mode` on `ids`, prepared in `lang`.
fn session_app(ids: &[&str], mode: SessionKind, lang: Lang, size: (u16, u16)) -> App {
    let bank = Bank::load(&Source::Embedded).expect("embedded decks load");
    let picked: Vec<_> = ids
        .iter()
        .map(|id| bank.find(id).expect("a question"))
        .collect();
    let rounds = match mode {
        SessionKind::Quiz => Rounds::First,
        SessionKind::Interview => Rounds::All,
        SessionKind::SelfTest => Rounds::None,
    };
    let (items, errors) = prepare_all(&bank, &picked, 1, lang, rounds);
    assert!(errors.is_empty());
    let mut a = app(ScreenId::Home, lang, size);
    let mut q = QuizState::of_kind(items, mode, 1, lang, ScreenId::Home, NOW);
    q.lessons = a.lessons_in(lang);
    a.quiz = Some(q);
    a.screen = ScreenId::Quiz;
    a
}

fn quiz(a: &App) -> &QuizState {
    a.quiz.as_ref().expect("a quiz")
}

fn type_text(a: &mut App, s: &str) {
    for c in s.chars() {
        press(a, key(c));
    }
}

#[test]
fn notes_stay_beside_the_reference_after_reveal() {
    for size in SNAP_SIZES {
        for lang in LANGS {
            let mut a = session_app(&["leases.frozen-holder"], SessionKind::Quiz, lang, size);
            press(&mut a, code(KeyCode::Tab));
            type_text(&mut a, "租约 19 s expires");
            press(&mut a, code(KeyCode::Tab));
            press(&mut a, code(KeyCode::Enter));
            assert_eq!(quiz(&a).session.phase(), Phase::Ticking);
            let s = screen(&a);
            // The reference answer and the learner's notes are on screen together.
            assert!(s.contains(label(Label::Answer, lang).trim()), "{s}");
            assert!(s.contains(label(Label::NotesTitle, lang)), "{s}");
            assert!(s.contains("租约 19 s expires"), "{s}");
            // On a wide screen they stand side by side: the notes on the answer's rows.
            if size.0 >= 100 {
                // The box's top row starts right of the question's first row of text.
                let title = label(Label::NotesTitle, lang);
                let row = s.lines().find(|l| l.contains(title)).unwrap();
                let (left, _) = row.split_once('┌').unwrap();
                assert!(crate::text::width(left) > usize::from(size.0) / 2, "{row}");
                assert!(!left.trim().is_empty(), "nothing beside the notes: {row}");
            }
            // And they are still there once the question is answered.
            press(&mut a, code(KeyCode::Enter));
            while quiz(&a).session.phase() != Phase::Rating {
                press(&mut a, code(KeyCode::Enter));
            }
            press(&mut a, key('2'));
            assert_eq!(quiz(&a).session.phase(), Phase::Answered);
            assert!(screen(&a).contains("租约 19 s expires"));
            assert_eq!(quiz(&a).session.last().unwrap().note, "租约 19 s expires");
        }
    }
}

#[test]
fn the_hint_key_shows_the_hint_and_caps_the_score() {
    for lang in LANGS {
        let mut a = session_app(
            &["fencing.chain-token-and-key"],
            SessionKind::Quiz,
            lang,
            (80, 24),
        );
        let hint = quiz(&a).current().unwrap().hint.clone().unwrap();
        assert!(screen(&a).contains(label(Label::HintOffer, lang)));
        assert!(!screen(&a).contains(&hint));
        press(&mut a, key('h'));
        assert!(quiz(&a).session.hint_taken());
        assert!(screen(&a).contains(&hint), "{}", screen(&a));
        // Tick every point of the opening question and its follow-up.
        press(&mut a, code(KeyCode::Enter));
        for d in '1'..='3' {
            press(&mut a, key(d));
        }
        press(&mut a, code(KeyCode::Enter));
        press(&mut a, code(KeyCode::Enter));
        for d in '1'..='2' {
            press(&mut a, key(d));
        }
        press(&mut a, code(KeyCode::Enter));
        press(&mut a, key('3'));
        let g = quiz(&a).session.last().unwrap().clone();
        assert!(g.hint && g.earned == g.max && g.score < g.max, "{g:?}");
        assert_eq!(g.rating, crate::quiz::sched::Rating::Hard);
        assert!(screen(&a).contains(&qtext::result_line(&g, lang)));
    }
}

#[test]
fn home_filters_narrow_the_exam() {
    let mut a = app(ScreenId::Home, Lang::En, (80, 24));
    let at = |a: &App, item| a.home.items.iter().position(|i| *i == item).unwrap();
    a.home.selected = at(&a, HomeRow::KindFilter);
    press(&mut a, code(KeyCode::Right));
    press(&mut a, code(KeyCode::Right));
    assert_eq!(a.home.kind, Some(Kind::Choice));
    assert!(screen(&a).contains("Kind: < choice >"), "{}", screen(&a));
    a.home.selected = at(&a, HomeRow::DifficultyFilter);
    press(&mut a, code(KeyCode::Left));
    assert_eq!(a.home.difficulty, Some(3));
    a.home.selected = at(&a, HomeRow::Exam);
    press(&mut a, code(KeyCode::Enter));
    assert_eq!(a.screen, ScreenId::Quiz);
    let items = quiz(&a).session.items();
    assert!(!items.is_empty());
    assert!(
        items
            .iter()
            .all(|i| i.kind == Kind::Choice && i.difficulty == 3)
    );
}

#[test]
fn home_starts_the_interview_and_the_self_test() {
    for (entry, mode) in [
        (HomeRow::Interview, SessionKind::Interview),
        (HomeRow::SelfTest, SessionKind::SelfTest),
    ] {
        let mut a = app(ScreenId::Home, Lang::Zh, (80, 24));
        a.home.selected = a.home.items.iter().position(|i| *i == entry).unwrap();
        press(&mut a, code(KeyCode::Enter));
        assert_eq!(a.screen, ScreenId::Quiz);
        let q = quiz(&a);
        assert_eq!(q.session.kind(), mode);
        let n = q.session.items().len();
        for (i, it) in q.session.items().iter().enumerate() {
            let Body::Recall { follow_ups, .. } = &it.body else {
                panic!("{} is not recall", it.id)
            };
            // An interview asks every round; the self-test none but in its closing question.
            let (_, deck_q) = a.learn.bank.as_ref().unwrap().find(&it.id).unwrap();
            let rounds = deck_q.rounds().count();
            match mode {
                SessionKind::Interview => assert!(rounds >= 1 && follow_ups.len() == rounds),
                _ if i + 1 == n => assert_eq!(follow_ups.len(), crate::quiz::selftest::ROUNDS),
                _ => assert!(follow_ups.is_empty()),
            }
        }
        if mode == SessionKind::SelfTest {
            assert_eq!(n, crate::quiz::selftest::SIZE + 1);
            assert!(q.session.defers_rounds());
        }
        assert!(screen(&a).contains(crate::tui::screens::quiz::view::title_of(mode, Lang::Zh)));
    }
}

static CLOCK: AtomicI64 = AtomicI64::new(NOW);

fn moving_clock() -> crate::quiz::sched::Time {
    CLOCK.load(Ordering::Relaxed)
}

#[test]
fn the_interview_clock_runs_and_a_limit_ends_it_after_the_question_in_progress() {
    let mut a = session_app(
        &[
            "disconnect-expire.chain-long-pause",
            "fencing.chain-token-and-key",
        ],
        SessionKind::Interview,
        Lang::En,
        (80, 24),
    );
    a.clock = moving_clock;
    CLOCK.store(NOW, Ordering::Relaxed);
    a.quiz.as_mut().unwrap().limit = Some(120);
    assert!(a.wants_clock());
    assert!(screen(&a).contains("time 0:00 / 2:00"), "{}", screen(&a));
    press(&mut a, code(KeyCode::Enter));
    CLOCK.store(NOW + 65, Ordering::Relaxed);
    update(&mut a, AppMsg::Tick);
    assert!(screen(&a).contains("time 1:05 / 2:00"));
    assert!(!quiz(&a).time_up);
    // Two minutes pass while the second follow-up waits for its answer: the rounds not
    // answered are dropped, and the references of those answered follow.
    press(&mut a, code(KeyCode::Enter));
    CLOCK.store(NOW + 121, Ordering::Relaxed);
    update(&mut a, AppMsg::Tick);
    assert!(quiz(&a).time_up);
    assert!(screen(&a).contains(label(Label::TimeUp, Lang::En)));
    assert_eq!(quiz(&a).session.phase(), Phase::Ticking);
    press(&mut a, key('1'));
    press(&mut a, code(KeyCode::Enter));
    assert_eq!(quiz(&a).session.phase(), Phase::FollowUpTicking);
    press(&mut a, key('1'));
    press(&mut a, code(KeyCode::Enter));
    assert_eq!(quiz(&a).session.phase(), Phase::Rating);
    press(&mut a, key('2'));
    let g = quiz(&a).session.last().unwrap().clone();
    assert_eq!(g.rounds.len(), 2);
    press(&mut a, code(KeyCode::Enter));
    // No second question: the report comes next.
    assert!(quiz(&a).summary.is_some());
    assert_eq!(quiz(&a).session.results().len(), 1);
    assert!(screen(&a).contains(label(Label::MissedByTopic, Lang::En)));
    a.clock = fixed_now;
}

/// Walks an interview question through every round, ticking the first point of each.
fn answer_chain(a: &mut App) {
    while matches!(
        quiz(a).session.phase(),
        Phase::Asking | Phase::FollowUpAsking
    ) {
        press(a, code(KeyCode::Enter));
    }
    while matches!(
        quiz(a).session.phase(),
        Phase::Ticking | Phase::FollowUpTicking
    ) {
        press(a, key('1'));
        press(a, code(KeyCode::Enter));
    }
    press(a, key('2'));
}

#[test]
fn interview_snapshots() {
    for size in SNAP_SIZES {
        for lang in LANGS {
            let name =
                |what: &str| format!("interview_{what}_{}x{}_{}", size.0, size.1, lang_code(lang));
            let mut a = session_app(
                &["disconnect-expire.chain-long-pause"],
                SessionKind::Interview,
                lang,
                size,
            );
            a.quiz.as_mut().unwrap().limit = Some(20 * 60);
            press(&mut a, code(KeyCode::Tab));
            type_text(&mut a, "20 s: expired, B has 502");
            press(&mut a, code(KeyCode::Tab));
            press(&mut a, code(KeyCode::Enter));
            // The first follow-up is asked with nothing of the opening reference on screen.
            insta::assert_snapshot!(name("follow_up_asked"), screen(&a));
            while quiz(&a).session.phase() == Phase::FollowUpAsking {
                press(&mut a, code(KeyCode::Enter));
            }
            press(&mut a, key('1'));
            press(&mut a, code(KeyCode::Enter));
            press(&mut a, key('2'));
            insta::assert_snapshot!(name("follow_up"), screen(&a));
            press(&mut a, code(KeyCode::Enter));
            while quiz(&a).session.phase() == Phase::FollowUpTicking {
                press(&mut a, key('1'));
                press(&mut a, code(KeyCode::Enter));
            }
            press(&mut a, key('2'));
            press(&mut a, code(KeyCode::Enter));
            assert!(quiz(&a).summary.is_some());
            insta::assert_snapshot!(name("report"), screen(&a));
        }
    }
}

#[test]
fn self_test_snapshots() {
    let bank = Bank::load(&Source::Embedded).expect("embedded decks load");
    let ids: Vec<&str> = bank.self_test.iter().map(String::as_str).collect();
    for size in SNAP_SIZES {
        for lang in LANGS {
            let name =
                |what: &str| format!("self_test_{what}_{}x{}_{}", size.0, size.1, lang_code(lang));
            let dir = tempfile::tempdir().expect("temp dir");
            let mut a = session_app(&ids, SessionKind::SelfTest, lang, size);
            a.learn = Learning::open(&Source::Embedded, Some(dir.path()), NOW, Calendar::UTC);
            insta::assert_snapshot!(name("question"), screen(&a));
            for _ in 0..2 {
                answer_chain(&mut a);
                press(&mut a, code(KeyCode::Enter));
            }
            press(&mut a, key('q'));
            press(&mut a, key('y'));
            assert!(quiz(&a).summary.is_some());
            insta::assert_snapshot!(name("summary"), screen(&a));
            // The progress screen shows the run.
            press(&mut a, key('q'));
            a.learn.refresh(NOW);
            a.screen = ScreenId::Stats;
            let s = screen(&a);
            assert!(s.contains(label(Label::LastSelfTest, lang).trim()), "{s}");
        }
    }
}

#[test]
fn the_report_opens_the_sections_and_simulations_that_teach_what_was_missed() {
    for lang in LANGS {
        let mut a = session_app(
            &["disconnect-expire.chain-long-pause"],
            SessionKind::Interview,
            lang,
            (140, 42),
        );
        answer_chain(&mut a);
        press(&mut a, code(KeyCode::Enter));
        let links: Vec<String> = quiz(&a).links().iter().map(|l| l.target()).collect();
        // The missed topic's places, then the same question's in the list of questions.
        let taught = [
            "lesson:04-disconnect-expire#6",
            "lesson:05-fencing#2",
            "sim:gc-pause-fencing",
        ];
        assert_eq!(links, [taught, taught].concat());
        // The first link opens the lesson at its section; Back comes back to the report.
        press(&mut a, key('o'));
        assert_eq!(a.screen, ScreenId::Reader);
        let section = a
            .reader
            .doc
            .headings
            .iter()
            .filter(|h| h.level == 2)
            .nth(5)
            .unwrap()
            .clone();
        assert!(screen(&a).contains(&section.text), "{}", screen(&a));
        press(&mut a, key('q'));
        assert_eq!(a.screen, ScreenId::Quiz);
        assert!(quiz(&a).summary.is_some());
        // The last one opens the simulation.
        press(&mut a, code(KeyCode::Down));
        press(&mut a, code(KeyCode::Down));
        press(&mut a, key('o'));
        assert_eq!(a.screen, ScreenId::Abc);
        press(&mut a, key('q'));
        assert_eq!(a.screen, ScreenId::Quiz);
        // Enter opens the chosen link too, and a click on a link's row opens that one.
        press(&mut a, code(KeyCode::Enter));
        assert_eq!(a.screen, ScreenId::Abc);
        press(&mut a, key('q'));
        let s = screen(&a);
        let row = s
            .lines()
            .position(|l| l.contains("> ") && l.contains("gc-pause-fencing"))
            .expect("the chosen link is drawn") as u16;
        // The row above it is the lesson section before it in the report.
        update(
            &mut a,
            AppMsg::Pointer {
                col: 8,
                row: row - 1,
            },
        );
        assert_eq!(a.screen, ScreenId::Reader, "{s}");
        assert_eq!(quiz(&a).link, 1);
        press(&mut a, key('q'));
        // A click off the links opens nothing; q leaves.
        update(&mut a, AppMsg::Pointer { col: 8, row: 2 });
        assert_eq!(a.screen, ScreenId::Quiz);
        press(&mut a, key('q'));
        assert_eq!(a.screen, ScreenId::Home);
    }
}

/// On screen too, the self-test's closing question asks every round before it shows any
/// reference: no reference answer appears until the last round has been answered.
#[test]
fn the_self_test_screen_asks_the_closing_rounds_before_any_reference() {
    let mut a = app(ScreenId::Home, Lang::Zh, (140, 42));
    a.home.selected = a
        .home
        .items
        .iter()
        .position(|i| *i == HomeRow::SelfTest)
        .unwrap();
    press(&mut a, code(KeyCode::Enter));
    let n = quiz(&a).session.items().len();
    for _ in 1..n {
        answer_chain(&mut a);
        press(&mut a, code(KeyCode::Enter));
    }
    assert_eq!(quiz(&a).session.position().0, n - 1);
    let reference = label(Label::Answer, Lang::Zh).trim();
    let mut asked = 0;
    while matches!(
        quiz(&a).session.phase(),
        Phase::Asking | Phase::FollowUpAsking
    ) {
        let s = screen(&a);
        assert!(!s.contains(reference), "reference shown while asking:\n{s}");
        asked += 1;
        press(&mut a, code(KeyCode::Enter));
    }
    // The opening question and its three rounds were asked; now the opening reference shows.
    assert_eq!(asked, 1 + crate::quiz::selftest::ROUNDS);
    assert_eq!(quiz(&a).session.phase(), Phase::Ticking);
    assert!(screen(&a).contains(reference));
}
