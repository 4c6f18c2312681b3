//! Predicting on the lab screens as a learner does: `P` rewinds and asks the run's question
//! with numbered choices, nothing past the cursor can be shown until a pick, a number picks,
//! the run plays to the instant asked about, and the pick is scored against the protocol's
//! answer.

use super::super::app::{App, ScreenId, update};
use super::super::timeline::Timeline;
use super::lab::abc_on;
use super::{LANGS, app, key, press, screen};
use crate::i18n::Lang;
use crate::i18n::present::{Present, present};

/// Plays until the timeline stops by itself.
fn play_out(a: &mut App, tl: fn(&App) -> &Timeline) {
    for _ in 0..10_000 {
        if !tl(a).playing {
            return;
        }
        update(a, super::super::app::AppMsg::Tick);
    }
    panic!("playback never stopped");
}

fn frozen_tl(a: &App) -> &Timeline {
    &a.frozen.view.tl
}

fn family_tl(a: &App) -> &Timeline {
    &a.family.as_ref().expect("a family lab").view.tl
}

/// The number to press for `choice`, read off the prompt on screen.
fn number_for(screen: &str, choice: &str) -> char {
    let at = screen
        .find(&format!(") {choice} "))
        .or_else(|| screen.find(&format!(") {choice}\n")))
        .unwrap_or_else(|| panic!("{choice} is not offered:\n{screen}"));
    screen[..at]
        .chars()
        .last()
        .expect("a number before the choice")
}

#[test]
fn the_frozen_holder_asks_who_holds_at_24_s_and_plays_to_the_answer() {
    for lang in LANGS {
        let mut a = app(ScreenId::Home, lang, (140, 42));
        a.open_preset_named("frozen-fenced");
        assert_eq!(a.screen, ScreenId::Frozen);
        // Somewhere into the run, the future shown: P rewinds and hides it again.
        press(&mut a, key('v'));
        press(&mut a, key('n'));
        press(&mut a, key('P'));
        assert_eq!(a.frozen.view.tl.cursor_ms, 0);
        assert!(!a.frozen.view.tl.reveal);
        let s = screen(&a);
        let asked = lang.pick(
            "在服务看来，24 秒时谁持有锁？",
            "In the service's view, who holds the lock at 24 s?",
        );
        assert!(s.contains(asked), "{s}");
        // Until a pick, nothing moves past the cursor: not `v`, not a step, not playback.
        for k in ['v', '.', 'n', ' ', 'G'] {
            press(&mut a, key(k));
            assert_eq!(a.frozen.view.tl.cursor_ms, 0, "{k}");
            assert!(!a.frozen.view.tl.reveal && !a.frozen.view.tl.playing, "{k}");
        }
        assert!(screen(&a).contains(present(Present::PredictPickFirst, lang)));
        // A's lease ran out at 19 s and the service granted it to B: B holds at 24 s.
        let s = screen(&a);
        let b = number_for(&s, "B");
        press(&mut a, key(b));
        assert!(a.frozen.view.tl.playing, "the run plays to the answer");
        assert!(screen(&a).contains(&present(Present::PredictPlaying, lang).replace("{}", "24")));
        play_out(&mut a, frozen_tl);
        assert_eq!(a.frozen.view.tl.cursor_ms, 24_000);
        let s = screen(&a);
        assert!(
            s.contains(present(Present::PredictRight, lang)),
            "{lang:?}\n{s}"
        );
        // A second pick is not taken: the prediction is made.
        press(&mut a, key('1'));
        assert_eq!(a.frozen.view.tl.cursor_ms, 24_000);
    }
}

#[test]
fn a_wrong_pick_is_scored_wrong_and_p_drops_a_waiting_question() {
    let mut a = app(ScreenId::Home, Lang::En, (140, 42));
    a.open_preset_named("frozen-fenced");
    press(&mut a, key('P'));
    let s = screen(&a);
    let wrong = number_for(&s, "A");
    press(&mut a, key(wrong));
    play_out(&mut a, frozen_tl);
    assert!(screen(&a).contains(present(Present::PredictWrong, Lang::En)));
    // A new question, then P again drops it and the keys move time once more.
    press(&mut a, key('P'));
    assert!(a.frozen.view.predict.as_ref().is_some_and(|p| p.waiting()));
    press(&mut a, key('P'));
    assert!(a.frozen.view.predict.is_none());
    press(&mut a, key('n'));
    assert!(a.frozen.view.tl.cursor_ms > 0);
}

#[test]
fn a_run_of_no_preset_is_asked_its_familys_question() {
    let mut a = app(ScreenId::Frozen, Lang::En, (140, 42));
    // Fencing off: the resource no longer checks tokens.
    press(&mut a, key('f'));
    assert!(!a.frozen.params.fencing);
    press(&mut a, key('P'));
    let s = screen(&a);
    assert!(s.contains("Will the resource accept A's write?"), "{s}");
    // Without fencing the resource takes any write: A's stale write is accepted.
    press(&mut a, key(number_for(&s, "yes")));
    play_out(&mut a, frozen_tl);
    assert_eq!(a.frozen.view.tl.cursor_ms, a.frozen.runs.trace.end_ms);
    assert!(screen(&a).contains(present(Present::PredictRight, Lang::En)));
}

#[test]
fn the_read_write_lab_asks_who_holds_at_3_06_s() {
    for lang in LANGS {
        let mut a = app(ScreenId::Home, lang, (140, 42));
        a.open_family(crate::engine::trace::Family::Rwlock, Some("rwlock-starved"));
        assert_eq!(a.screen, ScreenId::Family);
        press(&mut a, key('P'));
        let s = screen(&a);
        assert!(
            s.contains(lang.pick("3.06 秒时谁在持锁？", "Who holds the lock at 3.06 s?")),
            "{s}"
        );
        // A client every second holding 2.5 s: B (from 1 s) still reads, and D, a reader,
        // goes past the waiting writer C at 3.06 s.
        let right = lang.pick("B、D", "B, D");
        press(&mut a, key(number_for(&s, right)));
        play_out(&mut a, family_tl);
        assert_eq!(family_tl(&a).cursor_ms, 3_060);
        assert!(screen(&a).contains(present(Present::PredictRight, lang)));
    }
}

#[test]
fn the_abc_lab_asks_before_it_plays_and_no_run_without_choices_is_asked() {
    let mut a = app(ScreenId::Home, Lang::En, (140, 42));
    abc_on(&mut a, "chain");
    press(&mut a, key('P'));
    let p = a
        .abc
        .view
        .predict
        .clone()
        .expect("a question for the chain");
    assert!(p.waiting());
    let s = screen(&a);
    assert!(s.contains(&p.question.text.en), "{s}");
    assert!(s.contains("1) "), "{s}");
    press(&mut a, key('1'));
    assert!(a.abc.view.tl.playing);
    assert!(!a.abc.view.predict.expect("picked").waiting());
}
