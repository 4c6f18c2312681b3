//! Getting around: home opens every simulation, `?` help, small terminals, the language
//! toggle and the key mapping.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::buffer::Buffer;

use super::{LANGS, SIZES, app, key, press, screen};
use crate::i18n::{Lang, Ui, ui};
use crate::tui::app::{App, AppMsg, ScreenId, map_key, update};
use crate::tui::screens::abc::RecipeVariant;

#[test]
fn home_lists_every_simulation_and_opens_it() {
    for size in SIZES {
        for lang in LANGS {
            let mut a = app(ScreenId::Home, lang, size);
            // The whole list, page by page.
            let mut s = String::new();
            for _ in 0..a.home.items.len() / 4 {
                s.push_str(&screen(&a));
                press(&mut a, KeyEvent::new(KeyCode::PageDown, KeyModifiers::NONE));
            }
            press(&mut a, key('g'));
            assert!(s.contains(ui(Ui::HomeFrozen, lang)));
            assert!(s.contains(ui(Ui::HomeHerd, lang)));
            for p in &a.presets {
                assert!(s.contains(&p.name), "{} missing:\n{s}", p.name);
            }
            // The selected preset's purpose is shown whole (first words at least).
            press(&mut a, KeyEvent::new(KeyCode::Down, KeyModifiers::NONE));
            let p = a.presets[0];
            let about = lang.pick(&p.about.zh, &p.about.en);
            let start: String = about.chars().take(8).collect();
            assert!(screen(&a).contains(&start));
            press(&mut a, KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE));
            assert_eq!(a.screen, ScreenId::Abc);
            assert_eq!(a.abc.index, 0);
            press(&mut a, key('q'));
            assert_eq!(a.screen, ScreenId::Home);
            press(&mut a, key('q'));
            assert!(a.quit);
        }
    }
}

#[test]
fn help_overlay_lists_the_keys_of_each_screen() {
    for screen_id in [
        ScreenId::Home,
        ScreenId::Frozen,
        ScreenId::Abc,
        ScreenId::Herd,
        ScreenId::Reader,
    ] {
        for lang in LANGS {
            let mut a = app(screen_id, lang, (160, 90));
            press(&mut a, key('?'));
            assert!(a.help);
            let s = screen(&a);
            for (k, what) in crate::tui::screens::help::keys(screen_id) {
                assert!(s.contains(&k), "{k} missing");
                assert!(s.contains(what.text(lang)), "{:?} missing:\n{s}", what);
            }
            // While help is open, screen keys do nothing; Esc closes it.
            press(&mut a, key('f'));
            assert!(a.frozen.params.fencing);
            press(&mut a, KeyEvent::new(KeyCode::Esc, KeyModifiers::NONE));
            assert!(!a.help);
        }
    }
}

#[test]
fn small_terminals_ask_to_enlarge_and_never_panic() {
    for lang in LANGS {
        let a = app(ScreenId::Frozen, lang, (79, 24));
        let s = screen(&a);
        assert!(s.contains("80x24") && s.contains("79x24"), "{s}");
    }
    for screen_id in [
        ScreenId::Home,
        ScreenId::Frozen,
        ScreenId::Abc,
        ScreenId::Herd,
        ScreenId::Reader,
    ] {
        for (w, h) in [(1, 1), (0, 0), (80, 1), (1, 40), (80, 24)] {
            let mut a = app(screen_id, Lang::Zh, (w, h));
            a.open_lesson(4);
            a.screen = screen_id;
            a.reader.sync(a.lang, a.size);
            a.help = true;
            let mut buf = Buffer::empty(ratatui::layout::Rect::new(0, 0, w, h));
            crate::tui::app::render(&a, buf.area, &mut buf);
        }
    }
}

#[test]
fn language_toggles_at_run_time() {
    let mut a = app(ScreenId::Frozen, Lang::En, (80, 24));
    press(&mut a, key('L'));
    assert_eq!(a.lang, Lang::Zh);
    assert!(screen(&a).contains(ui(Ui::HomeFrozen, Lang::Zh)));
}

#[test]
fn key_mapping() {
    let a = app(ScreenId::Frozen, Lang::En, (80, 24));
    let ctrl_c = KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL);
    assert_eq!(map_key(ctrl_c, &a), Some(AppMsg::Quit));
    assert_eq!(map_key(key('c'), &a), Some(AppMsg::Compare));
    assert_eq!(map_key(key('f'), &a), Some(AppMsg::ToggleFencing));
    assert_eq!(map_key(key('s'), &a), Some(AppMsg::ToggleStopOnLoss));
    assert_eq!(map_key(key(' '), &a), Some(AppMsg::TogglePlay));
    assert_eq!(map_key(key(','), &a), Some(AppMsg::Step(-1)));
    assert_eq!(map_key(key(']'), &a), Some(AppMsg::Step(1)));
    assert_eq!(
        map_key(KeyEvent::new(KeyCode::Right, KeyModifiers::SHIFT), &a),
        Some(AppMsg::Adjust {
            dir: 1,
            coarse: true
        })
    );
    assert_eq!(
        map_key(KeyEvent::new(KeyCode::Left, KeyModifiers::NONE), &a),
        Some(AppMsg::Adjust {
            dir: -1,
            coarse: false
        })
    );
    assert_eq!(map_key(key('q'), &a), Some(AppMsg::Back));
    assert_eq!(map_key(key('L'), &a), Some(AppMsg::ToggleLang));
    assert_eq!(map_key(key('w'), &a), None);

    let b = app(ScreenId::Abc, Lang::En, (80, 24));
    assert_eq!(
        map_key(key('w'), &b),
        Some(AppMsg::RecipeVariant(RecipeVariant::Watch))
    );
    assert_eq!(
        map_key(key('r'), &b),
        Some(AppMsg::RecipeVariant(RecipeVariant::Recovery))
    );
    assert_eq!(
        map_key(key('a'), &b),
        Some(AppMsg::RecipeVariant(RecipeVariant::Registration))
    );
    assert_eq!(
        map_key(key('f'), &b),
        Some(AppMsg::RecipeVariant(RecipeVariant::Fencing))
    );
    assert_eq!(
        map_key(key('s'), &b),
        Some(AppMsg::RecipeVariant(RecipeVariant::OnLoss))
    );
    assert_eq!(map_key(key('p'), &b), Some(AppMsg::Preset(1)));
    assert_eq!(map_key(key('P'), &b), Some(AppMsg::TogglePredict));
    assert_eq!(
        map_key(KeyEvent::new(KeyCode::BackTab, KeyModifiers::SHIFT), &b),
        Some(AppMsg::Preset(-1))
    );
    assert_eq!(
        map_key(KeyEvent::new(KeyCode::Tab, KeyModifiers::NONE), &b),
        Some(AppMsg::Preset(1))
    );
    assert_eq!(
        map_key(KeyEvent::new(KeyCode::Right, KeyModifiers::NONE), &b),
        Some(AppMsg::Step(1))
    );

    let h = app(ScreenId::Home, Lang::En, (80, 24));
    assert_eq!(
        map_key(KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE), &h),
        Some(AppMsg::Enter)
    );
    assert_eq!(map_key(key('j'), &h), Some(AppMsg::Down));
    assert_eq!(
        map_key(KeyEvent::new(KeyCode::Esc, KeyModifiers::NONE), &h),
        Some(AppMsg::Back)
    );
    assert_eq!(map_key(key('f'), &h), None);

    let mut release = key('f');
    release.kind = crossterm::event::KeyEventKind::Release;
    assert_eq!(map_key(release, &a), None);
}

/// The rows of home as drawn, headings included, for finding a row by its words.
fn row_of(s: &str, words: &str) -> Option<u16> {
    s.lines().position(|l| l.contains(words)).map(|y| y as u16)
}

#[test]
fn home_is_a_map_every_key_reaches_its_end_and_a_click_opens() {
    use crate::tui::screens::home::{HomeRow, Section};
    for size in [(80, 24), (140, 42)] {
        for lang in LANGS {
            let mut a = app(ScreenId::Home, lang, size);
            // Every section has its heading, in the order of the map.
            let sections: Vec<Section> = a
                .home
                .items
                .iter()
                .filter_map(|i| match i {
                    HomeRow::Heading(s) => Some(*s),
                    _ => None,
                })
                .collect();
            assert_eq!(
                sections,
                [
                    Section::StartHere,
                    Section::Labs,
                    Section::Presentations,
                    Section::Lessons,
                    Section::Quizzes,
                    Section::Progress
                ]
            );
            // A first visit starts on the first lesson, then its lab, then its quiz.
            assert_eq!(
                &a.home.items[1..4],
                &[HomeRow::Lesson(0), HomeRow::Abc(0), HomeRow::Deck(0)]
            );
            assert_eq!(a.home.current(), HomeRow::Lesson(0));
            assert!(screen(&a).contains(ui(Ui::HomeStartHere, lang)));
            assert!(screen(&a).contains(&ui(Ui::HomeMoreBelow, lang).replace(
                "{}",
                &(a.home.items.len() - (size.1 as usize - 6)).to_string()
            )));
            // End reaches the last row and shows it; Home comes back to the first.
            press(&mut a, KeyEvent::new(KeyCode::End, KeyModifiers::NONE));
            assert_eq!(a.home.current(), HomeRow::Progress);
            assert_eq!(a.home.selected, a.home.items.len() - 1);
            let s = screen(&a);
            assert!(s.contains(ui(Ui::HomeProgress, lang)), "{s}");
            assert!(s.contains(ui(Ui::HomeProgressSection, lang)), "{s}");
            press(&mut a, key('g'));
            assert_eq!(a.home.current(), HomeRow::Lesson(0));
            press(&mut a, key('G'));
            assert_eq!(a.home.current(), HomeRow::Progress);
            press(&mut a, KeyEvent::new(KeyCode::Home, KeyModifiers::NONE));
            assert_eq!(a.home.selected, 1);
            // PgDn pages down through every row and stops at the last; PgUp comes back.
            let mut seen = vec![a.home.selected];
            for _ in 0..a.home.items.len() {
                press(&mut a, KeyEvent::new(KeyCode::PageDown, KeyModifiers::NONE));
                seen.push(a.home.selected);
            }
            assert!(seen.windows(2).all(|w| w[0] <= w[1]), "{seen:?}");
            assert_eq!(a.home.selected, a.home.items.len() - 1);
            assert!(seen.iter().all(|&i| !a.home.items[i].heading()));
            for _ in 0..a.home.items.len() {
                press(&mut a, KeyEvent::new(KeyCode::PageUp, KeyModifiers::NONE));
            }
            assert_eq!(a.home.selected, 1);
            // The wheel moves the selection.
            update(&mut a, AppMsg::Wheel(1));
            assert_eq!(
                a.home.selected, 5,
                "three rows down, then off the labs heading"
            );
            // One click on the frozen-holder row opens its screen; a click on a heading
            // opens nothing.
            press(&mut a, key('g'));
            let s = screen(&a);
            let heading = row_of(&s, ui(Ui::HomeLabs, lang)).expect("the labs heading");
            update(
                &mut a,
                AppMsg::Pointer {
                    col: 1,
                    row: heading,
                },
            );
            assert_eq!(a.screen, ScreenId::Home);
            let y = row_of(&s, ui(Ui::HomeFrozen, lang)).expect("the frozen row is drawn");
            update(&mut a, AppMsg::Pointer { col: 4, row: y });
            assert_eq!(a.screen, ScreenId::Frozen, "{s}");
        }
    }
}

#[test]
fn home_names_cut_end_in_an_ellipsis_and_the_chosen_one_shows_whole() {
    let mut a = app(ScreenId::Home, Lang::En, (80, 24));
    let long = a
        .home
        .presentations
        .iter()
        .position(|p| crate::text::width(&p.name) > 20)
        .expect("a long presentation name");
    let name = a.home.presentations[long].name.clone();
    let row = a
        .home
        .items
        .iter()
        .position(|i| *i == crate::tui::screens::home::HomeRow::Present(long))
        .unwrap();
    // Selected just below it, its name is cut with an ellipsis.
    a.home.selected = row + 1;
    let s = screen(&a);
    let line = s
        .lines()
        .find(|l| l.contains(&name[..10]))
        .expect("the row");
    assert!(!line.contains(&name) && line.contains('…'), "{line}");
    a.home.selected = row;
    let s = screen(&a);
    assert!(
        s.lines().any(|l| l.starts_with("> ") && l.contains(&name)),
        "{s}"
    );
}

/// An app on the embedded content whose data folder is `dir`, as a learner's next visit opens.
fn visit(dir: &std::path::Path, lang: Lang) -> App {
    let reader = crate::tui::screens::reader::ReaderState::new(
        &crate::source::Source::Embedded,
        Some(dir.to_path_buf()),
    );
    let mut a = App::with_reader(
        ScreenId::Home,
        None,
        lang,
        crate::tui::theme::Theme { mono: false },
        reader,
        crate::scenario::Catalogue::embedded(),
    );
    a.size = (80, 24);
    a.clock = super::quiz::fixed_now;
    a.set_learning(crate::tui::learn::Learning::open(
        &crate::source::Source::Embedded,
        None,
        super::quiz::NOW,
        crate::quiz::sched::Calendar::UTC,
    ));
    a
}

#[test]
fn the_start_path_resumes_where_the_learner_stopped() {
    use crate::tui::screens::home::HomeRow;
    let dir = tempfile::tempdir().unwrap();
    let enter = KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE);
    // A first visit: nothing opened yet, the first lesson chosen.
    let mut a = visit(dir.path(), Lang::En);
    assert_eq!(a.home.current(), HomeRow::Lesson(0));
    assert!(screen(&a).contains("(0/3 done)"), "{}", screen(&a));
    press(&mut a, enter);
    assert_eq!(a.screen, ScreenId::Reader);
    press(&mut a, key('q'));
    // Back on home the lab waits, and the lesson carries its tick.
    assert_eq!(a.screen, ScreenId::Home);
    assert_eq!(a.home.current(), HomeRow::Abc(0));
    let s = screen(&a);
    assert!(s.contains("(1/3 done)"), "{s}");
    assert!(s.lines().nth(2).is_some_and(|l| l.contains("✓")), "{s}");
    // The next visit, in the other language, resumes at the lab.
    let mut b = visit(dir.path(), Lang::Zh);
    assert_eq!(b.home.current(), HomeRow::Abc(0));
    assert!(screen(&b).contains("（已完成 1/3）"), "{}", screen(&b));
    // Opening the first lesson again from its own section does not take the path back.
    b.home.selected = b
        .home
        .items
        .iter()
        .rposition(|r| *r == HomeRow::Lesson(0))
        .unwrap();
    press(&mut b, enter);
    assert_eq!(crate::tui::start_path::load(dir.path()), 1);
    press(&mut b, key('q'));
    b.home.resume(1);
    press(&mut b, enter);
    assert_eq!(b.screen, ScreenId::Abc);
    press(&mut b, key('q'));
    assert_eq!(b.home.current(), HomeRow::Deck(0));
    press(&mut b, enter);
    assert_eq!(b.screen, ScreenId::Quiz);
    // With the whole path walked, home opens on the first lab.
    let c = visit(dir.path(), Lang::En);
    assert_eq!(c.home.current(), HomeRow::Frozen);
    assert!(screen(&c).contains("(3/3 done)"));
}
