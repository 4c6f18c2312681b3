//! The lab screens as a person sees them: snapshots of every screen and mode at 80x24, 140x42
//! and 200x60 in both languages and without colour, plus checks of what a learner relies on:
//! no lane reads as a run of repeated letters, the run fills the screen, the cursor never hides
//! an axis label, popups keep their border next to Chinese, compare says where runs part (or
//! why they do not), and the keys that move time do what they say.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::widgets::Widget;

use super::super::app::{App, AppMsg, ScreenId, update};
use super::super::theme::Theme;
use super::{LANGS, app, key, press, screen, text};
use crate::i18n::Lang;

pub(super) const LAB_SIZES: [(u16, u16); 3] = [(80, 24), (140, 42), (200, 60)];

/// A screen in one of its modes: how to get there from a fresh app.
pub(super) struct Mode {
    name: &'static str,
    setup: fn(&mut App),
}

pub(super) fn abc_on(a: &mut App, preset: &str) {
    let i = a
        .presets
        .iter()
        .position(|p| p.name == preset)
        .expect("a shipped preset");
    a.abc.select(i);
    a.screen = ScreenId::Abc;
}

pub(super) fn present(a: &mut App, preset: &str) {
    let p = crate::scenario::find(preset)
        .expect("a shipped preset")
        .clone();
    a.present_preset(p, false);
}

pub(super) const MODES: &[Mode] = &[
    Mode {
        name: "frozen_start",
        setup: |a| a.screen = ScreenId::Frozen,
    },
    Mode {
        name: "frozen_revealed",
        setup: |a| {
            a.screen = ScreenId::Frozen;
            press(a, key('v'));
        },
    },
    Mode {
        name: "frozen_moment",
        setup: |a| {
            a.screen = ScreenId::Frozen;
            for _ in 0..4 {
                press(a, key('n'));
            }
        },
    },
    Mode {
        name: "frozen_compare",
        setup: |a| {
            a.screen = ScreenId::Frozen;
            press(a, key('c'));
            press(a, key('v'));
        },
    },
    Mode {
        name: "frozen_sequence",
        setup: |a| {
            a.screen = ScreenId::Frozen;
            press(a, key('m'));
            press(a, key('v'));
        },
    },
    Mode {
        name: "frozen_zoomed",
        setup: |a| {
            a.screen = ScreenId::Frozen;
            press(a, key('v'));
            press(a, key('n'));
            press(a, key('z'));
            press(a, key('z'));
        },
    },
    Mode {
        name: "abc_chain_revealed",
        setup: |a| {
            abc_on(a, "chain");
            press(a, key('v'));
        },
    },
    Mode {
        name: "abc_herd_stepping",
        setup: |a| {
            abc_on(a, "herd");
            for _ in 0..5 {
                press(a, key('n'));
            }
        },
    },
    Mode {
        name: "abc_compare",
        setup: |a| {
            abc_on(a, "lost-create-blind");
            press(a, key('c'));
            press(a, key('v'));
        },
    },
    Mode {
        name: "abc_sequence",
        setup: |a| {
            abc_on(a, "watch-race");
            press(a, key('m'));
            for _ in 0..12 {
                press(a, key('.'));
            }
        },
    },
    Mode {
        name: "abc_disconnect",
        setup: |a| {
            abc_on(a, "disconnect");
            press(a, key('v'));
        },
    },
    Mode {
        name: "herd_50",
        setup: |a| {
            let i = crate::scenario::builtin()
                .iter()
                .position(|p| p.name == "herd-50")
                .expect("herd-50");
            update(a, AppMsg::OpenPreset(i));
        },
    },
    Mode {
        name: "present_frozen",
        setup: |a| {
            present(a, "frozen-fenced");
            press(a, key(' '));
            press(a, key('r'));
        },
    },
    Mode {
        name: "present_abc",
        setup: |a| {
            present(a, "lost-create-blind");
            press(a, key(' '));
            press(a, key(' '));
            press(a, key('r'));
        },
    },
    Mode {
        name: "help_frozen",
        setup: |a| {
            a.screen = ScreenId::Frozen;
            press(a, key('?'));
        },
    },
];

pub(super) fn mode_app(m: &Mode, lang: Lang, size: (u16, u16), mono: bool) -> App {
    let mut a = app(ScreenId::Home, lang, size);
    a.theme = Theme { mono };
    (m.setup)(&mut a);
    a
}

#[test]
fn snapshots_of_every_lab_screen_and_mode() {
    for m in MODES {
        for size in LAB_SIZES {
            for lang in LANGS {
                let a = mode_app(m, lang, size, false);
                let name = format!("{}_{}_{}x{}", m.name, lang.code(), size.0, size.1);
                insta::assert_snapshot!(name, screen(&a));
            }
        }
        // Without colour every state keeps its own glyph.
        let a = mode_app(m, Lang::En, (140, 42), true);
        insta::assert_snapshot!(format!("{}_mono_140x42", m.name), screen(&a));
    }
}

/// The longest run of one repeated ASCII letter in `line`.
pub(super) fn longest_letter_run(line: &str) -> usize {
    let mut best = 0;
    let mut run = 0;
    let mut prev = None;
    for c in line.chars() {
        if c.is_ascii_alphabetic() && Some(c) == prev {
            run += 1;
        } else {
            run = usize::from(c.is_ascii_alphabetic());
        }
        prev = Some(c);
        best = best.max(run);
    }
    best
}

#[test]
fn no_row_reads_as_a_run_of_repeated_letters() {
    for m in MODES {
        for size in LAB_SIZES {
            for mono in [false, true] {
                let s = screen(&mode_app(m, Lang::En, size, mono));
                for line in s.lines() {
                    assert!(longest_letter_run(line) < 8, "{}: {line}", m.name);
                }
            }
        }
    }
    assert_eq!(longest_letter_run("xAAAAAAAAb"), 8);
}

pub(super) fn cells(r: Rect) -> u32 {
    u32::from(r.width) * u32::from(r.height)
}

#[test]
fn the_run_fills_three_quarters_of_a_140x42_screen() {
    let area = Rect::new(0, 0, 140, 42);
    let total = cells(area);
    for compare in [false, true] {
        let f = super::super::screens::frozen::layout(area, compare);
        // Everything but the title, the footer and the controls shows the run.
        let controls = cells(f.toggles) + f.sliders.iter().map(|r| cells(*r)).sum::<u32>();
        let run = cells(f.main) + cells(f.legend) + cells(f.info) + f.log.map_or(0, cells);
        assert!(
            run * 4 >= total * 3,
            "frozen compare={compare}: {run}/{total}"
        );
        assert!(run + controls + 2 * 140 <= total, "frozen areas overlap");
        let legend = super::super::widgets::legend::rows_for(
            crate::engine::trace::Family::Abc,
            &[],
            compare,
            area.width,
        );
        let b = super::super::screens::abc::layout(area, 5, compare, true, legend);
        let run = cells(b.main)
            + cells(b.legend)
            + cells(b.service)
            + cells(b.event)
            + cells(b.badges)
            + b.log.map_or(0, cells);
        assert!(run * 4 >= total * 3, "abc compare={compare}: {run}/{total}");
    }
    // The presenter: everything below its one-line header.
    let a = mode_app(&MODES[13], Lang::En, (140, 42), false);
    let s = screen(&a);
    let used = s.lines().skip(1).filter(|l| !l.trim().is_empty()).count();
    assert!(used * 4 >= 41 * 3, "presenter rows used: {used}\n{s}");
}

#[test]
fn the_cursor_never_covers_an_axis_label() {
    let a = app(ScreenId::Frozen, Lang::En, (140, 42));
    let trace = &a.frozen.runs.trace;
    let area = Rect::new(0, 0, 140, 20);
    let axis = |cursor: u64| {
        let mut l = super::super::widgets::lanes::Lanes::of(trace, Lang::En, Theme::default());
        l.cursor_ms = cursor;
        let mut buf = Buffer::empty(area);
        l.render(area, &mut buf);
        text(&buf).lines().next().unwrap_or_default().to_string()
    };
    let bare = axis(u64::MAX);
    for t in (0..=trace.end_ms).step_by(250) {
        let with = axis(t);
        for (b, w) in bare.chars().zip(with.chars()) {
            assert!(
                b == w || (b == ' ' && w == '▼'),
                "at {t}: {with}\nnot {bare}"
            );
        }
    }
}

#[test]
fn chinese_popups_keep_their_left_border() {
    for screen_id in [ScreenId::Frozen, ScreenId::Abc, ScreenId::Present] {
        for size in LAB_SIZES {
            let mut a = app(ScreenId::Home, Lang::Zh, size);
            match screen_id {
                ScreenId::Present => present(&mut a, "frozen-fenced"),
                ScreenId::Abc => abc_on(&mut a, "lost-create-blind"),
                _ => a.screen = screen_id,
            }
            press(&mut a, key('v'));
            press(&mut a, key('?'));
            let mut buf = Buffer::empty(Rect::new(0, 0, size.0, size.1));
            super::super::app::render(&a, buf.area, &mut buf);
            let w = size.0.min(100);
            let x = (size.0 - w) / 2;
            for y in 1..size.1 - 1 {
                let border = buf[(x, y)].symbol();
                if !matches!(border, "│" | "┌" | "└") {
                    continue;
                }
                if x > 0 {
                    let left = buf[(x - 1, y)].symbol();
                    assert!(crate::text::width(left) <= 1, "row {y}: {}", text(&buf));
                }
            }
        }
    }
}

#[test]
fn an_invariant_badge_keeps_its_mark_and_name_on_one_row() {
    // Three steps in, B and C are stuck: both marks show, at every size and in both languages.
    for lang in LANGS {
        for size in LAB_SIZES {
            let mut a = app(ScreenId::Abc, lang, size);
            abc_on(&mut a, "lost-create-blind");
            for _ in 0..3 {
                press(&mut a, key('n'));
            }
            let s = screen(&a);
            for inv in &a.abc.runs.trace.invariants {
                if inv.check != crate::engine::trace::Check::Always {
                    continue;
                }
                let name = crate::i18n::invariant_label(inv.name, lang);
                let whole = |row: &str| {
                    ["[ok]", "[!!]"]
                        .iter()
                        .any(|m| row.contains(&format!("{m} {name}")))
                };
                assert!(
                    s.lines().any(whole),
                    "{lang:?} {size:?}: the badge of \"{name}\" is split\n{s}"
                );
            }
        }
    }
}
