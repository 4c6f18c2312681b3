//! The Explore screen: search in slices, show what was found, open it in the A/B/C screen with
//! the correct recipe one key away, cancel honestly.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

use super::{LANGS, app, text};
use crate::engine::trace::invariant;
use crate::i18n::Lang;
use crate::tui::app::{AppMsg, ScreenId, render, update};

fn drawn(a: &crate::tui::app::App, (w, h): (u16, u16)) -> String {
    let area = Rect::new(0, 0, w, h);
    let mut buf = Buffer::empty(area);
    render(a, area, &mut buf);
    text(&buf)
}

fn search_to_the_end(a: &mut crate::tui::app::App) {
    update(a, AppMsg::Enter);
    assert!(a.playing(), "a running search wakes the loop for ticks");
    for _ in 0..10_000 {
        if !a.explore.is_running() {
            return;
        }
        update(a, AppMsg::Tick);
    }
    panic!("the search did not finish");
}

#[test]
fn a_search_finds_the_break_opens_it_and_compares_the_correct_recipe() {
    for lang in LANGS {
        let mut a = app(ScreenId::Home, lang, (80, 24));
        let i = a
            .presets
            .iter()
            .position(|p| p.name == "watch-race-broken")
            .unwrap();
        update(&mut a, AppMsg::OpenExplore(i));
        assert_eq!(a.screen, ScreenId::Explore);
        search_to_the_end(&mut a);
        let o = a.explore.outcome.as_ref().unwrap();
        assert!(o.complete && !o.cancelled);
        assert_eq!(o.violations[0].property, invariant::NOBODY_STUCK);
        for size in [(80, 24), (140, 42), (1, 1)] {
            let screen = drawn(&a, size);
            if size.0 >= 80 {
                let label = lang.pick("无人卡死", "nobody stuck");
                assert!(screen.contains(label), "{screen}");
            }
        }
        // Past the fault budget and the memory limit to the first finding.
        update(&mut a, AppMsg::Down);
        update(&mut a, AppMsg::Down);
        update(&mut a, AppMsg::Down);
        assert!(a.explore.selected().is_some());
        update(&mut a, AppMsg::Enter);
        assert_eq!(a.screen, ScreenId::Abc);
        assert!(a.abc.story.is_some());
        assert!(
            a.abc
                .runs
                .trace
                .invariant(invariant::NOBODY_STUCK)
                .is_some_and(|r| !r.held)
        );
        let screen = drawn(&a, (80, 24));
        assert!(screen.contains("watch-race-broken"), "{screen}");
        update(&mut a, AppMsg::Compare);
        let other = a
            .abc
            .runs
            .other
            .as_ref()
            .expect("compare shows the correct recipe");
        assert!(other.all_invariants_hold());
        update(&mut a, AppMsg::Back);
        assert_eq!(a.screen, ScreenId::Explore);
    }
}

#[test]
fn the_memory_limit_is_chosen_on_the_screen_and_bounds_the_search() {
    let mut a = app(ScreenId::Explore, Lang::En, (80, 24));
    a.explore.choose("chain");
    assert_eq!(a.explore.max_memory, 1 << 30, "the command line's default");
    update(&mut a, AppMsg::Down);
    update(&mut a, AppMsg::Down);
    update(
        &mut a,
        AppMsg::Adjust {
            dir: -1,
            coarse: false,
        },
    );
    assert_eq!(a.explore.max_memory, 512 << 20);
    let screen = drawn(&a, (80, 24));
    assert!(screen.contains("Memory limit: < 512 MiB >"), "{screen}");
    update(&mut a, AppMsg::Enter);
    let r = a.explore.running.as_ref().expect("a search");
    assert_eq!(r.search.bounds.max_memory, 512 << 20);
    update(&mut a, AppMsg::Cancel);
    assert!(
        a.explore.running.is_none(),
        "the search and its memory are gone"
    );
}

#[test]
fn a_cancelled_search_keeps_its_numbers_and_says_it_is_incomplete() {
    let mut a = app(ScreenId::Explore, Lang::En, (80, 24));
    a.explore.choose("chain");
    update(&mut a, AppMsg::Down);
    update(
        &mut a,
        AppMsg::Adjust {
            dir: 1,
            coarse: false,
        },
    );
    assert_eq!(a.explore.faults, 2);
    update(&mut a, AppMsg::Enter);
    update(&mut a, AppMsg::Tick);
    update(&mut a, AppMsg::Cancel);
    assert!(!a.explore.is_running() && !a.playing());
    let o = a.explore.outcome.as_ref().unwrap();
    assert!(o.cancelled && !o.complete && o.progress.distinct > 1);
    let screen = drawn(&a, (80, 24));
    assert!(screen.contains("Cancelled: incomplete"), "{screen}");
    assert!(!screen.contains("No invariant fails"), "{screen}");
    // A property with no witness yet is not claimed absent from the whole bounded space.
    assert!(o.witnesses.iter().any(|(_, w)| w.is_none()));
    let tall = drawn(&a, (140, 42));
    assert!(tall.contains("no witness in the part searched"), "{tall}");
    assert!(!tall.contains("within the bounds"), "{tall}");
}

#[test]
fn leaving_the_screen_stops_the_search() {
    let mut a = app(ScreenId::Explore, Lang::Zh, (80, 24));
    update(&mut a, AppMsg::Enter);
    assert!(a.explore.is_running());
    update(&mut a, AppMsg::Back);
    assert_eq!(a.screen, ScreenId::Home);
    assert!(!a.explore.is_running() && !a.playing());
}

#[test]
fn a_lesson_link_names_the_explorer() {
    let link = crate::content::lesson::Link {
        target: "explore:watch-race-broken".into(),
        line: 1,
    };
    assert_eq!(
        link.action(),
        Some(crate::content::lesson::Action::Explore("watch-race-broken"))
    );
}
