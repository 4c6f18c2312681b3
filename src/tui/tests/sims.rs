//! The simulation screens against their engine runs: verdicts, cursors, sliders, compare,
//! presets, playback, and drawing without colour.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind};
use ratatui::buffer::Buffer;

use super::{LANGS, SIZES, app, frozen_verdict, key, press, screen, text};
use crate::engine::time::fmt_secs;
use crate::engine::trace::{Metrics, Verdict};
use crate::i18n::{Lang, Ui, invariant_label, ui, verdict_short};
use crate::tui::app::{App, AppMsg, ScreenId, map_mouse, update};
use crate::tui::screens::abc::RecipeVariant;
use crate::tui::screens::herd::HerdState;
use crate::tui::theme::{Colour, Theme};

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
            let Metrics::Frozen(m) = &a.frozen.runs.trace.metrics else {
                panic!()
            };
            let (w, e) = (m.holder_write_arrival.unwrap(), m.lease_expiry.unwrap());
            let filled = format!(
                "max(0, {} - {}) = {} {}",
                crate::tui::screens::secs(w),
                crate::tui::screens::secs(e),
                crate::tui::screens::secs(m.danger_window),
                crate::i18n::sim::s(lang)
            );
            assert!(s.contains(&filled), "{filled} missing:\n{s}");
            // The cursor starts at the beginning of the run, and the title says so.
            assert_eq!(a.frozen.view.tl.cursor_ms, 0);
            let title = format!(
                "{} {} / {} {}",
                ui(Ui::Cursor, lang),
                fmt_secs(0),
                fmt_secs(a.frozen.runs.trace.end_ms),
                lang.pick("秒", "s")
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
    let end = a.frozen.runs.trace.end_ms;
    assert_eq!(a.frozen.view.tl.cursor_ms, end);
    let s = screen(&a);
    let Metrics::Frozen(m) = &a.frozen.runs.trace.metrics else {
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
    let e = a
        .frozen
        .view
        .tl
        .current(&a.frozen.runs.trace)
        .unwrap()
        .clone();
    assert_eq!(a.frozen.view.tl.cursor_ms, e.at_ms);
    assert!(screen(&a).contains(&crate::i18n::describe(&e, &a.frozen.runs.trace, Lang::En)[..30]));
    press(&mut a, KeyEvent::new(KeyCode::Home, KeyModifiers::NONE));
    assert_eq!(a.frozen.view.tl.cursor_ms, 0);
}

#[test]
fn frozen_sliders_rerun_the_engine() {
    let mut a = app(ScreenId::Frozen, Lang::En, (80, 24));
    let before = a.frozen.runs.trace.clone();
    // Select "pause length" and shorten it a lot: the catch-up keepalive then saves the lease.
    for _ in 0..3 {
        press(&mut a, KeyEvent::new(KeyCode::Down, KeyModifiers::NONE));
    }
    assert_eq!(a.frozen.focus, 3);
    for _ in 0..3 {
        press(&mut a, KeyEvent::new(KeyCode::Left, KeyModifiers::SHIFT));
    }
    assert_eq!(a.frozen.params.pause_len_ms, 0);
    assert_ne!(a.frozen.runs.trace, before);
    assert_eq!(frozen_verdict(&a.frozen), Verdict::NoIncident);
    press(&mut a, key('v'));
    assert!(screen(&a).contains(verdict_short(Verdict::NoIncident, Lang::En)));
}

#[test]
fn frozen_mouse_sets_sliders_and_cursor() {
    let mut a = app(ScreenId::Frozen, Lang::En, (80, 24));
    let lay = crate::tui::screens::frozen::layout(ratatui::layout::Rect::new(0, 0, 80, 24), false);
    let track = crate::tui::widgets::slider::track(lay.sliders[0]);
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
    let lanes = crate::tui::widgets::lanes::track(lay.lanes);
    update(
        &mut a,
        map_mouse(click(lanes.x + lanes.width / 2, lay.lanes.y + 2)).unwrap(),
    );
    assert_eq!(
        a.frozen.view.tl.cursor_ms,
        crate::tui::widgets::lanes::time_at(
            lanes,
            (0, a.frozen.runs.trace.end_ms),
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
fn the_herd_chart_key_and_headings_are_whole_at_every_size() {
    use crate::i18n::lab::{Lab, lab};
    for size in SIZES {
        for lang in LANGS {
            let a = app(ScreenId::Herd, lang, size);
            let s = screen(&a);
            // Every entry of the key is there whole, wrapped between entries if need be.
            for entry in [Lab::HerdKeyWasted, Lab::HerdKeyWinner, Lab::HerdKeyWoken] {
                assert!(s.contains(lab(entry, lang)), "{lang:?} {size:?}:\n{s}");
            }
            // The release and woken columns are headed in full, not cut to an ellipsis.
            let (release, woken) = (lab(Lab::Release, lang), lab(Lab::Woken, lang));
            let headed = s.lines().any(|l| {
                l.trim_start()
                    .strip_prefix(release)
                    .is_some_and(|rest| rest.trim_start().starts_with(woken))
            });
            assert!(headed, "{release} {woken} {size:?}:\n{s}");
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
                .runs
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
    assert!(!a.abc.runs.trace.all_invariants_hold());
    press(&mut a, key('a'));
    assert_eq!(a.abc.last, RecipeVariant::Registration);
    assert!(
        a.abc.runs.trace.all_invariants_hold(),
        "the atomic watch fixes the race"
    );
    let s = screen(&a);
    assert!(s.contains(ui(Ui::RegAtomic, Lang::En)));
    // Compare flips the last toggled variant back: the broken run beside the fixed one.
    press(&mut a, key('c'));
    assert!(!a.abc.runs.other.as_ref().unwrap().all_invariants_hold());
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
    let Metrics::Abc(m) = &a.abc.runs.trace.metrics else {
        panic!()
    };
    let list: Vec<String> = m.wakeups_per_release.iter().map(u32::to_string).collect();
    assert!(screen(&a).contains(&format!("[{}]", list.join(", "))));
}

#[test]
fn chinese_labels_keep_lanes_aligned() {
    for mono in [false, true] {
        // A size where each lane has two rows, so a bar has a lower half under its label.
        let mut a = app(ScreenId::Frozen, Lang::Zh, (100, 30));
        a.theme = Theme { mono };
        press(&mut a, key('v'));
        let mut buf = Buffer::empty(ratatui::layout::Rect::new(0, 0, 100, 30));
        crate::tui::app::render(&a, buf.area, &mut buf);
        let lay = crate::tui::screens::frozen::layout(buf.area, false);
        let x = crate::tui::widgets::lanes::LABEL_COLS + 1;
        let per = (lay.lanes.height - 2) / a.frozen.runs.trace.lanes.len() as u16;
        assert_eq!(per, 2, "{}", text(&buf));
        for (i, lane) in a.frozen.runs.trace.lanes.iter().enumerate() {
            let y = lay.lanes.y + 1 + i as u16 * per;
            // The lower half of each bar starts right after the Chinese label, in its colour
            // (or, without colour, its class's glyph).
            let class = crate::tui::theme::Class::of(lane.spans[0].state);
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
fn playback_advances_and_stops_at_the_end() {
    let mut a = app(ScreenId::Frozen, Lang::En, (80, 24));
    press(&mut a, key(' '));
    assert!(a.playing());
    // By event: each notable event gets its ticks, then playback stops at the end.
    let notable = a
        .frozen
        .runs
        .trace
        .events
        .iter()
        .filter(|e| crate::tui::timeline::notable(e))
        .count() as u32;
    for _ in 0..(notable + 2) * crate::tui::timeline::TICKS_PER_EVENT {
        update(&mut a, AppMsg::Tick);
    }
    assert!(!a.playing());
    assert_eq!(a.frozen.view.tl.cursor_ms, a.frozen.runs.trace.end_ms);
}

#[test]
fn no_color_draws_states_by_glyph_alone() {
    let mut a = app(ScreenId::Frozen, Lang::En, (80, 24));
    a.theme = Theme { mono: true };
    press(&mut a, key('v'));
    let mut buf = Buffer::empty(ratatui::layout::Rect::new(0, 0, 80, 24));
    crate::tui::app::render(&a, buf.area, &mut buf);
    use ratatui::style::Color;
    for cell in &buf.content {
        assert_eq!((cell.fg, cell.bg), (Color::Reset, Color::Reset));
    }
    // Held, frozen-while-holding and lost still read differently, on A's own row.
    use crate::tui::theme::Class;
    let lay = crate::tui::screens::frozen::layout(buf.area, false);
    let s = text(&buf);
    // A's lane is the first under the axis; its bar is its lowest row.
    let per = (lay.lanes.height - 2) / a.frozen.runs.trace.lanes.len() as u16;
    let a_row = s
        .lines()
        .nth((lay.lanes.y + per) as usize)
        .unwrap_or_default();
    for c in [Class::Holding, Class::FrozenHolding, Class::Lost] {
        assert!(a_row.contains(c.glyph()), "{c:?} in {a_row}\n{s}");
    }
}

#[test]
fn opening_a_preset_runs_its_parameters_on_its_screen() {
    use crate::engine::trace::Verdict;
    let mut app = App::new(ScreenId::Home, None, Lang::En, Theme { mono: false });
    let early = crate::scenario::builtin()
        .iter()
        .position(|p| p.name == "frozen-early-write")
        .unwrap();
    update(&mut app, AppMsg::OpenPreset(early));
    assert_eq!(app.screen, ScreenId::Frozen);
    let m = crate::engine::families::frozen::metrics(&app.frozen.runs.trace).unwrap();
    assert_eq!(m.verdict, Verdict::StaleWriteAccepted);
    let blind = crate::scenario::builtin()
        .iter()
        .position(|p| p.name == "lost-create-blind")
        .unwrap();
    update(&mut app, AppMsg::OpenPreset(blind));
    assert_eq!(app.screen, ScreenId::Abc);
    assert_eq!(app.presets[app.abc.index].name, "lost-create-blind");
    let herd = crate::scenario::builtin()
        .iter()
        .position(|p| p.name == "herd-50")
        .unwrap();
    update(&mut app, AppMsg::OpenPreset(herd));
    assert_eq!((app.screen, app.herd.params.fanout), (ScreenId::Herd, 50));
}

#[test]
fn playback_speed_changes_how_far_a_tick_moves() {
    let mut a = app(ScreenId::Frozen, Lang::En, (100, 30));
    press(&mut a, key('e'));
    assert_eq!(a.frozen.view.tl.pace, crate::tui::timeline::Pace::Time);
    press(&mut a, key(' '));
    update(&mut a, AppMsg::Tick);
    let normal = a.frozen.view.tl.cursor_ms;
    press(&mut a, key('+'));
    press(&mut a, key('+'));
    update(&mut a, AppMsg::Tick);
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
    let i = crate::scenario::builtin()
        .iter()
        .position(|p| p.name == "frozen-fenced")
        .unwrap();
    let locked = crate::scenario::builtin()[i].locked.clone();
    assert!(
        locked.contains(&"ttl".to_string()),
        "the fenced demonstration locks the TTL"
    );
    update(&mut a, AppMsg::OpenPreset(i));
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
