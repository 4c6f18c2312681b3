//! Rendering tests at 80x24 and 160x48 in both languages, key-mapping tests, and a property
//! test that throws random input at `update`.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind};
use proptest::prelude::*;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;

use super::app::{App, Msg, ScreenId, draw, map_key, map_mouse, update};
use super::learn::Learning;
use super::screens::abc::Variant;
use super::screens::frozen::FrozenState;
use super::screens::herd::HerdState;
use super::theme::Theme;
use crate::engine::time::fmt_secs;
use crate::engine::trace::{Metrics, Verdict};
use crate::i18n::{Lang, Ui, invariant_label, ui, verdict_short};
use crate::quiz::sched::Calendar;

mod explore;
mod family;
mod lab;
mod present;
mod quiz;
mod quiz_modes;
mod reader;
mod storm;

const SIZES: [(u16, u16); 2] = [(80, 24), (160, 48)];
const LANGS: [Lang; 2] = [Lang::En, Lang::Zh];

fn app(screen: ScreenId, lang: Lang, (w, h): (u16, u16)) -> App {
    // No data folder: tests never write reading positions, whatever the environment says.
    let reader = super::screens::reader::ReaderState::new(&crate::source::Source::Embedded, None);
    let mut app = App::with_reader(screen, None, lang, Theme { mono: false }, reader);
    app.size = (w, h);
    // The embedded decks and no progress file: nothing is written, whatever the environment.
    app.clock = quiz::fixed_now;
    app.set_learning(Learning::open(
        &crate::source::Source::Embedded,
        None,
        quiz::NOW,
        Calendar::UTC,
    ));
    app
}

/// The screen as text, one line per row, wide characters counted once.
fn text(buf: &Buffer) -> String {
    let mut out = String::new();
    for y in 0..buf.area.height {
        let mut skip = 0usize;
        for x in 0..buf.area.width {
            let cell = &buf[(x, y)];
            if skip == 0 {
                out.push_str(cell.symbol());
                skip = crate::text::width(cell.symbol()).max(1);
            }
            skip -= 1;
        }
        out.push('\n');
    }
    out
}

fn screen(app: &App) -> String {
    let mut term = Terminal::new(TestBackend::new(app.size.0, app.size.1)).expect("test backend");
    term.draw(|f| draw(f, app)).expect("draw");
    text(term.backend().buffer())
}

fn key(c: char) -> KeyEvent {
    KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE)
}

fn press(app: &mut App, k: KeyEvent) {
    if let Some(msg) = map_key(k, app) {
        update(app, msg);
    }
}

fn frozen_verdict(s: &FrozenState) -> Verdict {
    match &s.trace.metrics {
        Metrics::Frozen(m) => m.verdict,
        _ => panic!("not a frozen trace"),
    }
}

#[test]
fn frozen_default_rejects_the_stale_write_then_fencing_off_corrupts() {
    for size in SIZES {
        for lang in LANGS {
            let mut a = app(ScreenId::Frozen, lang, size);
            assert_eq!(frozen_verdict(&a.frozen), Verdict::StaleWriteRejected);
            // The outcome stays hidden until the whole run is shown.
            assert!(!screen(&a).contains(verdict_short(Verdict::StaleWriteRejected, lang)));
            press(&mut a, key('v'));
            let s = screen(&a);
            assert!(
                s.contains(verdict_short(Verdict::StaleWriteRejected, lang)),
                "{s}"
            );
            // The danger-window formula with this run's numbers, all from the trace.
            let Metrics::Frozen(m) = &a.frozen.trace.metrics else {
                panic!()
            };
            let (w, e) = (m.holder_write_arrival.unwrap(), m.lease_expiry.unwrap());
            let filled = format!(
                "max(0, {} - {}) = {} {}",
                super::screens::secs(w),
                super::screens::secs(e),
                super::screens::secs(m.danger_window),
                crate::i18n::sim::s(lang)
            );
            assert!(s.contains(&filled), "{filled} missing:\n{s}");
            // The cursor starts at the beginning of the run, and the title says so.
            assert_eq!(a.frozen.view.tl.cursor_ms, 0);
            let title = format!(
                "{} {} / {} s",
                ui(Ui::Cursor, lang),
                fmt_secs(0),
                fmt_secs(a.frozen.trace.end_ms)
            );
            assert!(
                s.lines().next().is_some_and(|l| l.contains(&title)),
                "{title} missing:\n{s}"
            );

            press(&mut a, key('f'));
            assert!(!a.frozen.params.fencing);
            assert_eq!(frozen_verdict(&a.frozen), Verdict::Corruption);
            let s = screen(&a);
            assert!(s.contains(verdict_short(Verdict::Corruption, lang)), "{s}");
            assert!(!s.contains(verdict_short(Verdict::StaleWriteRejected, lang)));
        }
    }
}

#[test]
fn frozen_cursor_walks_events_and_shows_the_resource() {
    let mut a = app(ScreenId::Frozen, Lang::En, (80, 24));
    press(&mut a, KeyEvent::new(KeyCode::End, KeyModifiers::NONE));
    let end = a.frozen.trace.end_ms;
    assert_eq!(a.frozen.view.tl.cursor_ms, end);
    let s = screen(&a);
    let Metrics::Frozen(m) = &a.frozen.trace.metrics else {
        panic!()
    };
    // At the end the resource shows the final value and largest token the engine reports.
    assert!(
        s.contains(&format!(
            "{}: {}",
            ui(Ui::LastToken, Lang::En),
            m.last_seen_token
        )),
        "{s}"
    );
    let final_value = m.final_value.clone().unwrap();
    assert!(
        s.contains(&format!(
            "{}: {final_value} (token",
            ui(Ui::Value, Lang::En)
        )),
        "{s}"
    );
    // Stepping back lands on events, each explained in words.
    press(&mut a, key(','));
    let e = a.frozen.view.tl.current(&a.frozen.trace).unwrap().clone();
    assert_eq!(a.frozen.view.tl.cursor_ms, e.at_ms);
    assert!(screen(&a).contains(&crate::i18n::describe(&e, &a.frozen.trace, Lang::En)[..30]));
    press(&mut a, KeyEvent::new(KeyCode::Home, KeyModifiers::NONE));
    assert_eq!(a.frozen.view.tl.cursor_ms, 0);
}

#[test]
fn frozen_sliders_rerun_the_engine() {
    let mut a = app(ScreenId::Frozen, Lang::En, (80, 24));
    let before = a.frozen.trace.clone();
    // Select "pause length" and shorten it a lot: the catch-up keepalive then saves the lease.
    for _ in 0..3 {
        press(&mut a, KeyEvent::new(KeyCode::Down, KeyModifiers::NONE));
    }
    assert_eq!(a.frozen.focus, 3);
    for _ in 0..3 {
        press(&mut a, KeyEvent::new(KeyCode::Left, KeyModifiers::SHIFT));
    }
    assert_eq!(a.frozen.params.pause_len_ms, 0);
    assert_ne!(a.frozen.trace, before);
    assert_eq!(frozen_verdict(&a.frozen), Verdict::NoIncident);
    press(&mut a, key('v'));
    assert!(screen(&a).contains(verdict_short(Verdict::NoIncident, Lang::En)));
}

#[test]
fn frozen_mouse_sets_sliders_and_cursor() {
    let mut a = app(ScreenId::Frozen, Lang::En, (80, 24));
    let lay = super::screens::frozen::layout(ratatui::layout::Rect::new(0, 0, 80, 24), false);
    let track = super::widgets::slider::track(lay.sliders[0]);
    let click = |col, row| MouseEvent {
        kind: MouseEventKind::Down(MouseButton::Left),
        column: col,
        row,
        modifiers: KeyModifiers::NONE,
    };
    update(
        &mut a,
        map_mouse(click(track.right() - 1, lay.sliders[0].y)).unwrap(),
    );
    assert_eq!(a.frozen.params.ttl_ms, 30_000);
    let lanes = super::widgets::lanes::track(lay.lanes);
    update(
        &mut a,
        map_mouse(click(lanes.x + lanes.width / 2, lay.lanes.y + 2)).unwrap(),
    );
    assert_eq!(
        a.frozen.view.tl.cursor_ms,
        super::widgets::lanes::time_at(
            lanes,
            (0, a.frozen.trace.end_ms),
            lanes.x + lanes.width / 2
        )
    );
    assert!(a.frozen.view.tl.cursor_ms > 0);
}

#[test]
fn frozen_compare_shows_both_runs_with_one_cursor() {
    for size in SIZES {
        for lang in LANGS {
            let mut a = app(ScreenId::Frozen, lang, size);
            press(&mut a, key('c'));
            press(&mut a, key('v'));
            let s = screen(&a);
            assert!(
                s.contains(verdict_short(Verdict::StaleWriteRejected, lang)),
                "{s}"
            );
            assert!(s.contains(verdict_short(Verdict::Corruption, lang)), "{s}");
            assert!(s.contains(ui(Ui::Compare, lang)));
        }
    }
}

#[test]
fn herd_totals_come_from_three_engine_runs() {
    for size in SIZES {
        for lang in LANGS {
            let mut a = app(ScreenId::Herd, lang, size);
            a.herd = HerdState::new(crate::engine::HerdParams {
                waiters: 50,
                fanout: 50,
                ..Default::default()
            });
            let herd = HerdState::metrics(&a.herd.current)
                .unwrap()
                .total_notifications;
            // Everyone left wakes on every release: N(N+1)/2.
            assert_eq!(herd, 50 * 51 / 2);
            let chain = HerdState::metrics(&a.herd.chain)
                .unwrap()
                .total_notifications;
            let s = screen(&a);
            assert!(s.contains(&herd.to_string()), "{s}");
            assert!(s.contains(&chain.to_string()), "{s}");
            // Both sides of the picture name their totals, for the same N.
            let side = format!("k=50: {herd} {}", ui(Ui::Notifications, lang));
            assert!(s.contains(&side), "{side} missing:\n{s}");
            let side = format!("k=1: {chain} {}", ui(Ui::Notifications, lang));
            assert!(s.contains(&side), "{side} missing:\n{s}");
        }
    }
}

#[test]
fn herd_fanout_follows_waiters_down() {
    let mut a = app(ScreenId::Herd, Lang::En, (80, 24));
    press(&mut a, KeyEvent::new(KeyCode::Down, KeyModifiers::NONE));
    for _ in 0..10 {
        press(&mut a, KeyEvent::new(KeyCode::Right, KeyModifiers::SHIFT));
    }
    assert_eq!(a.herd.params.fanout, a.herd.params.waiters);
    press(&mut a, KeyEvent::new(KeyCode::Up, KeyModifiers::NONE));
    for _ in 0..10 {
        press(&mut a, KeyEvent::new(KeyCode::Left, KeyModifiers::SHIFT));
    }
    assert_eq!(a.herd.params.waiters, 1);
    assert_eq!(a.herd.params.fanout, 1);
}

#[test]
fn abc_badges_turn_red_from_the_first_violation() {
    for size in SIZES {
        for lang in LANGS {
            let mut a = App::new(
                ScreenId::Abc,
                Some("watch-race-broken"),
                lang,
                Theme::default(),
            );
            a.size = size;
            let inv = a
                .abc
                .trace
                .invariants
                .iter()
                .find(|i| !i.held)
                .expect("this preset breaks an invariant")
                .clone();
            let label = invariant_label(inv.name, lang);
            let s = screen(&a);
            assert!(s.contains(&format!("[ok] {label}")), "{s}");
            press(&mut a, KeyEvent::new(KeyCode::End, KeyModifiers::NONE));
            assert!(a.abc.view.tl.cursor_ms >= inv.first_violation_ms().unwrap());
            let s = screen(&a);
            assert!(s.contains(&format!("[!!] {label}")), "{s}");
            assert!(s.contains("watch-race-broken"));
        }
    }
}

#[test]
fn abc_variants_and_presets_rerun_the_engine() {
    let mut a = App::new(
        ScreenId::Abc,
        Some("watch-race-broken"),
        Lang::En,
        Theme::default(),
    );
    assert!(!a.abc.trace.all_invariants_hold());
    press(&mut a, key('a'));
    assert_eq!(a.abc.last, Variant::Registration);
    assert!(
        a.abc.trace.all_invariants_hold(),
        "the atomic watch fixes the race"
    );
    let s = screen(&a);
    assert!(s.contains(ui(Ui::RegAtomic, Lang::En)));
    // Compare flips the last toggled variant back: the broken run beside the fixed one.
    press(&mut a, key('c'));
    assert!(!a.abc.other.as_ref().unwrap().all_invariants_hold());
    assert!(
        screen(&a).contains(&ui(Ui::Flipped, Lang::En).replace("{}", ui(Ui::RegTwoStep, Lang::En)))
    );
    let before = a.abc.index;
    press(&mut a, key('p'));
    assert_eq!(a.abc.index, (before + 1) % a.abc.presets.len());
    // The herd preset wakes more than one per release; the chain preset exactly one.
    let mut a = App::new(ScreenId::Abc, Some("herd"), Lang::En, Theme::default());
    a.size = (160, 48);
    press(&mut a, key('v'));
    let Metrics::Abc(m) = &a.abc.trace.metrics else {
        panic!()
    };
    let list: Vec<String> = m.wakeups_per_release.iter().map(u32::to_string).collect();
    assert!(screen(&a).contains(&format!("[{}]", list.join(", "))));
}

#[test]
fn home_lists_every_simulation_and_opens_it() {
    for size in SIZES {
        for lang in LANGS {
            let mut a = app(ScreenId::Home, lang, size);
            let s = screen(&a);
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
            for (k, what) in super::screens::help::keys(screen_id) {
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
            super::app::render(&a, buf.area, &mut buf);
        }
    }
}

#[test]
fn chinese_labels_keep_lanes_aligned() {
    for mono in [false, true] {
        let mut a = app(ScreenId::Frozen, Lang::Zh, (80, 24));
        a.theme = Theme { mono };
        press(&mut a, key('v'));
        let mut buf = Buffer::empty(ratatui::layout::Rect::new(0, 0, 80, 24));
        super::app::render(&a, buf.area, &mut buf);
        let lay = super::screens::frozen::layout(buf.area, false);
        let x = super::widgets::lanes::LABEL_COLS + 1;
        let per = (lay.lanes.height - 2) / a.frozen.trace.lanes.len() as u16;
        for (i, lane) in a.frozen.trace.lanes.iter().enumerate() {
            let y = lay.lanes.y + 1 + i as u16 * per;
            // The lower half of each bar starts right after the Chinese label, in its colour
            // (or, without colour, its class's glyph).
            let class = super::theme::Class::of(lane.spans[0].state);
            let cell = &buf[(x, y + per - 1)];
            if mono {
                assert_eq!(cell.symbol(), class.glyph().to_string(), "{}", text(&buf));
            } else if let Some(c) = class.colour() {
                assert_eq!(cell.fg, c, "lane {i}: {}", text(&buf));
            }
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
    assert_eq!(map_key(ctrl_c, &a), Some(Msg::Quit));
    assert_eq!(map_key(key('c'), &a), Some(Msg::Compare));
    assert_eq!(map_key(key('f'), &a), Some(Msg::ToggleFencing));
    assert_eq!(map_key(key('s'), &a), Some(Msg::ToggleStopOnLoss));
    assert_eq!(map_key(key(' '), &a), Some(Msg::TogglePlay));
    assert_eq!(map_key(key(','), &a), Some(Msg::Step(-1)));
    assert_eq!(map_key(key(']'), &a), Some(Msg::Step(1)));
    assert_eq!(
        map_key(KeyEvent::new(KeyCode::Right, KeyModifiers::SHIFT), &a),
        Some(Msg::Adjust {
            dir: 1,
            coarse: true
        })
    );
    assert_eq!(
        map_key(KeyEvent::new(KeyCode::Left, KeyModifiers::NONE), &a),
        Some(Msg::Adjust {
            dir: -1,
            coarse: false
        })
    );
    assert_eq!(map_key(key('q'), &a), Some(Msg::Back));
    assert_eq!(map_key(key('L'), &a), Some(Msg::ToggleLang));
    assert_eq!(map_key(key('w'), &a), None);

    let b = app(ScreenId::Abc, Lang::En, (80, 24));
    assert_eq!(map_key(key('w'), &b), Some(Msg::Variant(Variant::Watch)));
    assert_eq!(map_key(key('r'), &b), Some(Msg::Variant(Variant::Recovery)));
    assert_eq!(
        map_key(key('a'), &b),
        Some(Msg::Variant(Variant::Registration))
    );
    assert_eq!(map_key(key('f'), &b), Some(Msg::Variant(Variant::Fencing)));
    assert_eq!(map_key(key('s'), &b), Some(Msg::Variant(Variant::OnLoss)));
    assert_eq!(map_key(key('p'), &b), Some(Msg::Preset(1)));
    assert_eq!(map_key(key('P'), &b), Some(Msg::Preset(-1)));
    assert_eq!(
        map_key(KeyEvent::new(KeyCode::Tab, KeyModifiers::NONE), &b),
        Some(Msg::Preset(1))
    );
    assert_eq!(
        map_key(KeyEvent::new(KeyCode::Right, KeyModifiers::NONE), &b),
        Some(Msg::Step(1))
    );

    let h = app(ScreenId::Home, Lang::En, (80, 24));
    assert_eq!(
        map_key(KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE), &h),
        Some(Msg::Enter)
    );
    assert_eq!(map_key(key('j'), &h), Some(Msg::Down));
    assert_eq!(
        map_key(KeyEvent::new(KeyCode::Esc, KeyModifiers::NONE), &h),
        Some(Msg::Back)
    );
    assert_eq!(map_key(key('f'), &h), None);

    let mut release = key('f');
    release.kind = crossterm::event::KeyEventKind::Release;
    assert_eq!(map_key(release, &a), None);
}

#[test]
fn playback_advances_and_stops_at_the_end() {
    let mut a = app(ScreenId::Frozen, Lang::En, (80, 24));
    press(&mut a, key(' '));
    assert!(a.playing());
    // By event: each notable event gets its ticks, then playback stops at the end.
    let notable = a
        .frozen
        .trace
        .events
        .iter()
        .filter(|e| super::timeline::notable(e))
        .count() as u32;
    for _ in 0..(notable + 2) * super::timeline::TICKS_PER_EVENT {
        update(&mut a, Msg::Tick);
    }
    assert!(!a.playing());
    assert_eq!(a.frozen.view.tl.cursor_ms, a.frozen.trace.end_ms);
}

fn input() -> impl Strategy<Value = Input> {
    let keys = prop_oneof![
        Just(KeyCode::Up),
        Just(KeyCode::Down),
        Just(KeyCode::Left),
        Just(KeyCode::Right),
        Just(KeyCode::Home),
        Just(KeyCode::End),
        Just(KeyCode::Enter),
        Just(KeyCode::Esc),
        Just(KeyCode::Tab),
        Just(KeyCode::BackTab),
        Just(KeyCode::PageUp),
        Just(KeyCode::PageDown),
        Just(KeyCode::Backspace),
        proptest::sample::select(
            " ,.[]fswracpPLq?hjkl/nNgo123yJK"
                .chars()
                .collect::<Vec<_>>()
        )
        .prop_map(KeyCode::Char),
    ];
    prop_oneof![
        4 => (keys, any::<bool>()).prop_map(|(k, shift)| Input::Key(k, shift)),
        1 => (0u16..200, 0u16..60, any::<bool>()).prop_map(|(c, r, d)| Input::Mouse(c, r, d)),
        1 => any::<bool>().prop_map(Input::Wheel),
        1 => (0u16..200, 0u16..60).prop_map(|(w, h)| Input::Resize(w, h)),
        1 => Just(Input::Tick),
    ]
}

#[derive(Debug, Clone)]
enum Input {
    Key(KeyCode, bool),
    Mouse(u16, u16, bool),
    Wheel(bool),
    Resize(u16, u16),
    Tick,
}

fn check_consistent(a: &App) {
    assert!(a.home.selected < a.home.items.len());
    assert!(a.frozen.focus < crate::engine::params::FROZEN_SPECS.len());
    assert!(a.herd.focus < crate::engine::params::HERD_SPECS.len());
    assert!(a.herd.params.fanout >= 1 && a.herd.params.fanout <= a.herd.params.waiters);
    assert!(a.herd.params.waiters <= super::screens::herd::SCREEN_MAX_WAITERS);
    assert!(a.frozen.view.tl.cursor_ms <= a.frozen.trace.end_ms);
    assert!(a.abc.view.tl.cursor_ms <= a.abc.trace.end_ms);
    for (tl, trace) in [
        (&a.frozen.view.tl, &a.frozen.trace),
        (&a.abc.view.tl, &a.abc.trace),
    ] {
        if let Some(i) = tl.event {
            assert!(i < trace.events.len());
        }
    }
    assert!(a.abc.index < a.abc.presets.len().max(1));
    assert_eq!(a.frozen.other.is_some(), a.frozen.compare());
    if let Some(f) = &a.family {
        assert!(f.focus < f.knobs().len());
        assert!(f.view.tl.cursor_ms <= f.trace.end_ms);
        assert!(f.view.tl.event.is_none_or(|i| i < f.trace.events.len()));
        assert!(
            f.parting.is_none() || f.other.is_some(),
            "a parting needs two runs"
        );
    }
    let r = &a.reader;
    assert!(r.top <= r.doc.lines.len().saturating_sub(r.rows));
    assert!(r.link.is_none_or(|l| l < r.doc.links.len()));
    assert!(r.search.current.is_none_or(|c| c < r.search.matches.len()));
    if let Some(super::screens::reader::Overlay::Outline(i)) = r.overlay {
        assert!(i < r.outline().len().max(1));
    }
    if r.open.is_some() {
        assert_eq!(r.lang, a.lang);
    }
    if let Some(q) = &a.quiz {
        // The cursor stays on a row of the current question; a finished session asks nothing.
        let rows = q
            .picked
            .len()
            .max(q.order.len())
            .max(q.session.ticked().len())
            .max(q.session.round_ticked(q.session.round()).len());
        assert!(q.cursor < rows.max(1));
        assert_eq!(q.summary.is_some(), q.session.is_finished());
        assert!(q.session.results().len() <= q.session.items().len());
    }
    if a.screen == ScreenId::Quiz {
        assert!(a.quiz.is_some());
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]
    #[test]
    fn random_input_never_panics_and_keeps_state_consistent(
        inputs in proptest::collection::vec(input(), 1..40),
        lesson in proptest::option::of(0usize..12),
        quiz_seed in proptest::option::of(0u64..1000),
    ) {
        let mut a = app(ScreenId::Home, Lang::En, (80, 24));
        // Half the runs start in the reader, half in a quiz (a quiz started from a lesson, too).
        if let Some(i) = lesson {
            update(&mut a, Msg::OpenLesson(i));
        }
        if let Some(seed) = quiz_seed {
            let req = super::screens::quiz::QuizRequest {
                seed: Some(seed),
                count: Some(3),
                ..Default::default()
            };
            a.start_quiz(&req, a.screen);
        }
        for i in inputs {
            let msg = match i {
                Input::Key(k, shift) => {
                    let m = if shift { KeyModifiers::SHIFT } else { KeyModifiers::NONE };
                    map_key(KeyEvent::new(k, m), &a)
                }
                Input::Mouse(c, r, drag) => map_mouse(MouseEvent {
                    kind: if drag {
                        MouseEventKind::Drag(MouseButton::Left)
                    } else {
                        MouseEventKind::Down(MouseButton::Left)
                    },
                    column: c,
                    row: r,
                    modifiers: KeyModifiers::NONE,
                }),
                Input::Wheel(down) => map_mouse(MouseEvent {
                    kind: if down { MouseEventKind::ScrollDown } else { MouseEventKind::ScrollUp },
                    column: 0,
                    row: 0,
                    modifiers: KeyModifiers::NONE,
                }),
                Input::Resize(w, h) => Some(Msg::Resize(w, h)),
                Input::Tick => Some(Msg::Tick),
            };
            if let Some(msg) = msg {
                update(&mut a, msg);
            }
            if a.quit {
                break;
            }
            check_consistent(&a);
            let mut buf = Buffer::empty(ratatui::layout::Rect::new(0, 0, a.size.0, a.size.1));
            super::app::render(&a, buf.area, &mut buf);
        }
    }
}

#[test]
fn no_color_draws_states_by_glyph_alone() {
    let mut a = app(ScreenId::Frozen, Lang::En, (80, 24));
    a.theme = Theme { mono: true };
    press(&mut a, key('v'));
    let mut buf = Buffer::empty(ratatui::layout::Rect::new(0, 0, 80, 24));
    super::app::render(&a, buf.area, &mut buf);
    use ratatui::style::Color;
    for cell in &buf.content {
        assert_eq!((cell.fg, cell.bg), (Color::Reset, Color::Reset));
    }
    // Held, frozen-while-holding and lost still read differently, on A's own row.
    use super::theme::Class;
    let lay = super::screens::frozen::layout(buf.area, false);
    let s = text(&buf);
    let a_row = s.lines().nth(lay.lanes.y as usize + 2).unwrap_or_default();
    for c in [Class::Holding, Class::FrozenHolding, Class::Lost] {
        assert!(a_row.contains(c.glyph()), "{c:?} in {a_row}\n{s}");
    }
}

#[test]
fn snapshots_at_80x24() {
    for (name, screen_id, lang) in [
        ("home_en", ScreenId::Home, Lang::En),
        ("frozen_en", ScreenId::Frozen, Lang::En),
        ("frozen_zh", ScreenId::Frozen, Lang::Zh),
        ("abc_en", ScreenId::Abc, Lang::En),
        ("herd_zh", ScreenId::Herd, Lang::Zh),
    ] {
        let a = app(screen_id, lang, (80, 24));
        insta::assert_snapshot!(name, screen(&a));
    }
}

#[test]
fn opening_a_preset_runs_its_parameters_on_its_screen() {
    use crate::engine::trace::Verdict;
    let mut app = App::new(ScreenId::Home, None, Lang::En, Theme { mono: false });
    let early = crate::preset::builtin()
        .iter()
        .position(|p| p.name == "frozen-early-write")
        .unwrap();
    update(&mut app, Msg::OpenPreset(early));
    assert_eq!(app.screen, ScreenId::Frozen);
    let m = crate::engine::families::frozen::metrics(&app.frozen.trace).unwrap();
    assert_eq!(m.verdict, Verdict::StaleWriteAccepted);
    let blind = crate::preset::builtin()
        .iter()
        .position(|p| p.name == "lost-create-blind")
        .unwrap();
    update(&mut app, Msg::OpenPreset(blind));
    assert_eq!(app.screen, ScreenId::Abc);
    assert_eq!(app.presets[app.abc.index].name, "lost-create-blind");
    let herd = crate::preset::builtin()
        .iter()
        .position(|p| p.name == "herd-50")
        .unwrap();
    update(&mut app, Msg::OpenPreset(herd));
    assert_eq!((app.screen, app.herd.params.fanout), (ScreenId::Herd, 50));
}

const SCRIPTED: &str = r#"
family = "frozen"
locked = ["ttl"]

[about]
zh = "演示"
en = "Demo"

[[script]]
at = 12
zh = "A 开始停顿。"
en = "A freezes."

[[script]]
at = 20
zh = "现在谁持锁？"
en = "Who holds it now?"
ask = "holder_at"
question = { zh = "20 秒时谁持有锁？", en = "Who holds the lock at 20 s?" }

[[script]]
zh = "A 的写入会被接受吗？"
en = "Will A's write be accepted?"
ask = "write_accepted"
question = { zh = "A 的写入被接受了吗？", en = "Is A's write accepted?" }

[[script]]
set = { fencing = false }
zh = "关掉栅栏令牌再看。"
en = "Now without fencing."
ask = "verdict"
question = { zh = "结论是什么？", en = "What is the verdict?" }
"#;

/// Whether a presenter screen shows `caption`: written out, or in large type (the first row of
/// the same large letters drawn on their own appears on screen).
fn shows_caption(screen_text: &str, caption: &str, screen_width: u16) -> bool {
    use super::widgets::big_caption::big_lines;
    use ratatui::widgets::Widget;
    let first: String = caption.chars().take(6).collect();
    if screen_text.contains(&first) {
        return true;
    }
    let width = screen_width - 2;
    let Some(lines) = big_lines(caption, width, u16::MAX) else {
        return false;
    };
    let mut buf = Buffer::empty(ratatui::layout::Rect::new(0, 0, width, 4));
    tui_big_text::BigText::builder()
        .pixel_size(tui_big_text::PixelSize::Quadrant)
        .lines(vec![ratatui::text::Line::from(lines[0].clone())])
        .build()
        .render(buf.area, &mut buf);
    let rows = text(&buf);
    let row = rows
        .lines()
        .find(|l| !l.trim().is_empty())
        .unwrap_or_default();
    !row.trim().is_empty() && screen_text.contains(row.trim())
}

fn presenter(lang: Lang, size: (u16, u16)) -> App {
    let preset = crate::preset::parse("demo", "demo.toml", SCRIPTED).expect("valid script");
    let mut a = app(ScreenId::Home, lang, size);
    a.present_preset(preset, true);
    a
}

#[test]
fn the_presenter_steps_hides_and_reveals_engine_answers() {
    for size in SIZES {
        let mut a = presenter(Lang::En, size);
        let first = screen(&a);
        assert!(
            shows_caption(&first, "A freezes.", size.0) && first.contains("1/4"),
            "{first}"
        );
        press(&mut a, key(' '));
        let asked = screen(&a);
        assert!(
            asked.contains("Question: Who holds the lock at 20 s?"),
            "{asked}"
        );
        assert!(!asked.contains("Answer:"), "hidden until revealed");
        press(&mut a, key('r'));
        let revealed = screen(&a);
        assert!(revealed.contains("Answer: B"), "{revealed}");
        // The lanes stop at the step's time: nothing of A's write at 38 s shows yet.
        press(&mut a, key(' '));
        let hidden = screen(&a);
        assert!(
            !hidden.contains("Answer:") && !hidden.contains("rejected"),
            "{hidden}"
        );
        press(&mut a, key('r'));
        assert!(screen(&a).contains("Answer: no"));
        press(&mut a, key(' '));
        press(&mut a, key('r'));
        let last = screen(&a);
        assert!(
            last.contains("Answer: corruption") && last.contains("4/4"),
            "{last}"
        );
        assert!(
            last.contains("overwrote B's accepted write"),
            "the outcome shows once revealed"
        );
        press(&mut a, key(' '));
        assert!(screen(&a).contains("4/4"), "stays on the last step");
        press(&mut a, KeyEvent::new(KeyCode::Left, KeyModifiers::NONE));
        assert!(screen(&a).contains("3/4"));
        press(&mut a, key('b'));
        assert!(screen(&a).trim().is_empty(), "blank screen");
        press(&mut a, key('b'));
        press(&mut a, key('q'));
        assert!(a.quit, "leaving a presentation opened on its own quits");
    }
}

#[test]
fn the_presenter_speaks_chinese() {
    let mut a = presenter(Lang::Zh, (80, 24));
    press(&mut a, key(' '));
    press(&mut a, key('r'));
    let s = screen(&a);
    assert!(
        s.contains("提问：20 秒时谁持有锁？") && s.contains("答案：B"),
        "{s}"
    );
}

#[test]
fn every_shipped_script_steps_to_the_end_in_both_languages() {
    let scripted: Vec<_> = crate::preset::builtin()
        .iter()
        .filter(|p| !p.script.is_empty())
        .collect();
    for p in scripted {
        for lang in LANGS {
            for size in SIZES {
                let mut a = app(ScreenId::Home, lang, size);
                a.present_preset(p.clone(), false);
                for _ in 0..p.script.len() {
                    press(&mut a, key('r'));
                    let s = screen(&a);
                    let step = a.present.as_ref().map_or(0, |s| s.step);
                    let caption = lang.pick(&p.script[step].caption.zh, &p.script[step].caption.en);
                    assert!(
                        shows_caption(&s, caption, size.0),
                        "{} step {step}: {s}",
                        p.name
                    );
                    press(&mut a, key(' '));
                }
                let st = a.present.as_ref().unwrap();
                assert_eq!(st.step + 1, p.script.len(), "{}", p.name);
                press(&mut a, key('q'));
                assert_eq!(a.screen, ScreenId::Home);
            }
        }
    }
}

#[test]
fn playback_speed_changes_how_far_a_tick_moves() {
    let mut a = app(ScreenId::Frozen, Lang::En, (100, 30));
    press(&mut a, key('e'));
    assert_eq!(a.frozen.view.tl.pace, super::timeline::Pace::Time);
    press(&mut a, key(' '));
    update(&mut a, Msg::Tick);
    let normal = a.frozen.view.tl.cursor_ms;
    press(&mut a, key('+'));
    press(&mut a, key('+'));
    update(&mut a, Msg::Tick);
    assert_eq!(
        a.frozen.view.tl.cursor_ms - normal,
        4 * normal,
        "four times faster"
    );
    assert!(screen(&a).contains("x4"));
    for _ in 0..10 {
        press(&mut a, key('-'));
    }
    assert_eq!(
        a.frozen.view.tl.speed_factor(),
        0.25,
        "the slowest speed is a quarter"
    );
}

#[test]
fn a_preset_s_locked_sliders_do_not_move() {
    let mut a = app(ScreenId::Home, Lang::En, (120, 40));
    let i = crate::preset::builtin()
        .iter()
        .position(|p| p.name == "frozen-fenced")
        .unwrap();
    let locked = crate::preset::builtin()[i].locked.clone();
    assert!(
        locked.contains(&"ttl".to_string()),
        "the fenced demonstration locks the TTL"
    );
    update(&mut a, Msg::OpenPreset(i));
    let before = a.frozen.params.ttl_ms;
    press(&mut a, KeyEvent::new(KeyCode::Right, KeyModifiers::NONE));
    assert_eq!(a.frozen.params.ttl_ms, before, "TTL is locked");
    // Touching it says so, naming the slider.
    assert!(
        screen(&a).contains("\"TTL\" is locked by this preset"),
        "{}",
        screen(&a)
    );
    press(&mut a, key('.'));
    assert!(screen(&a).contains("[parameters locked by this preset]"));
}
