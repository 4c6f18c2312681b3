//! The presenter for the families that have no screen of their own (read-write locks,
//! semaphores, election, tasks, Redlock, Snowflake): what a class sees at 80x24 and 140x42.

use super::super::app::App;
use super::super::theme::{Class, Theme};
use super::super::widgets::legend::class_item;
use super::{LANGS, app, key, press, screen};
use crate::engine::trace::Family;
use crate::i18n::Lang;
use crate::i18n::lab::{Lab, class_name, lab};
use crate::tui::app::ScreenId;

const FAMILIES: [Family; 6] = [
    Family::Rwlock,
    Family::Semaphore,
    Family::Election,
    Family::Tasks,
    Family::Redlock,
    Family::Snowflake,
];

fn open(preset: &str, lang: Lang, size: (u16, u16)) -> App {
    let mut a = app(ScreenId::Home, lang, size);
    let p = crate::scenario::find(preset)
        .expect("a shipped preset")
        .clone();
    a.present_preset(p, false);
    a
}

/// Whether a row of `screen` starts with `label` as the lanes write it: cut to the label
/// column, then a space.
fn has_lane(screen: &str, label: &str) -> bool {
    let cols = (super::super::widgets::lanes::LABEL_COLS - 1) as usize;
    let mut w = 0;
    let shown: String = label
        .chars()
        .take_while(|c| {
            w += crate::text::width(c.encode_utf8(&mut [0; 4]));
            w <= cols
        })
        .collect();
    screen
        .lines()
        .any(|l| l.strip_prefix(&shown).is_some_and(|r| r.starts_with(' ')))
}

#[test]
fn every_lane_stays_on_an_80x24_screen_whatever_the_step_shows() {
    let mut lost = Vec::new();
    for p in crate::scenario::builtin()
        .iter()
        .filter(|p| FAMILIES.contains(&p.family) && !p.script.is_empty())
    {
        for lang in LANGS {
            let mut a = open(&p.name, lang, (80, 24));
            for step in 0..p.script.len() {
                // Revealed: the answer and the outcome take the most rows.
                press(&mut a, key('r'));
                let s = screen(&a);
                let st = a.present.as_ref().expect("presenting");
                for lane in &st.trace.lanes {
                    let label = crate::export::text::lane_label(&st.trace, lane, lang);
                    if !has_lane(&s, &label) {
                        lost.push(format!("{} {lang:?} step {step}: {label}\n{s}", p.name));
                    }
                }
                press(&mut a, key(' '));
            }
        }
    }
    assert!(lost.is_empty(), "{}", lost.join("\n"));
}

#[test]
fn a_run_of_milliseconds_has_an_axis_in_milliseconds() {
    for (lang, unit) in [(Lang::En, "ms "), (Lang::Zh, "毫秒")] {
        let s = screen(&open("snowflake-exhaustion", lang, (80, 24)));
        let axis = s.lines().nth(2).unwrap_or_default();
        assert!(axis.starts_with(unit), "{axis}");
        assert!(axis.contains("╵2") && !axis.contains("0.00"), "{axis}");
    }
    // A run of seconds keeps its seconds.
    let s = screen(&open("rwlock-fair", Lang::En, (80, 24)));
    assert!(
        s.lines().nth(2).unwrap_or_default().starts_with("s "),
        "{s}"
    );
}

#[test]
fn a_question_about_a_millisecond_keeps_that_millisecond_hidden_until_revealed() {
    for size in [(80, 24), (140, 42)] {
        // Step 1 asks which IDs are issued at 4 ms: G1 issues 999|7|0 then.
        let mut a = open("snowflake-exhaustion", Lang::En, size);
        let asked = screen(&a);
        assert!(asked.contains("Which IDs are issued at 4 ms?"), "{asked}");
        assert!(
            !asked.contains("999"),
            "the answer shows before the reveal:\n{asked}"
        );
        // The milliseconds before it are labelled, their IDs on two rows.
        assert!(asked.contains("998") && asked.contains("7|0"), "{asked}");
        press(&mut a, key('r'));
        let revealed = screen(&a);
        assert!(revealed.contains("Answer: G1 999|7|0"), "{revealed}");
        let lanes: String = revealed.lines().take(9).collect::<Vec<_>>().join("\n");
        assert!(
            lanes.contains("999"),
            "the lanes show the millisecond asked about:\n{lanes}"
        );
    }
}

#[test]
fn the_presenter_shows_the_family_legend_where_there_is_room() {
    for lang in LANGS {
        let s = screen(&open("snowflake-exhaustion", lang, (140, 42)));
        assert!(
            s.contains(lab(Lab::Legend, lang)) && s.contains(class_name(Class::Duplicate, lang)),
            "{s}"
        );
        let s = screen(&open("redlock-gc-pause", lang, (140, 42)));
        assert!(
            s.contains(class_name(Class::Overdue, lang))
                && s.contains(class_name(Class::FrozenHolding, lang)),
            "{s}"
        );
    }
}

#[test]
fn two_classes_of_one_colour_have_different_legend_swatches() {
    let theme = Theme { mono: false };
    let a = class_item(Class::Overdue, theme, Lang::En);
    let b = class_item(Class::FrozenHolding, theme, Lang::En);
    assert!(
        (a.swatch, a.style) != (b.swatch, b.style),
        "{a:?} looks like {b:?}"
    );
}

#[test]
fn chinese_event_lines_and_footers_use_chinese_units_and_brackets() {
    let mut a = open("redlock-gc-pause", Lang::Zh, (140, 42));
    for _ in 0..4 {
        press(&mut a, key(' '));
    }
    press(&mut a, key('r'));
    let s = screen(&a);
    assert!(s.contains("16 秒  运行结束"), "{s}");
    assert!(
        s.contains("（节点视角 1）") && !s.contains("(节点视角"),
        "{s}"
    );
}

#[test]
fn a_squeezed_screen_drops_the_captions_padding_and_the_question_stands_out() {
    use ratatui::style::{Color, Modifier};
    // At 80x24 a scripted preset with many lanes (Redlock: two clients, five nodes and the
    // resource) cannot give each lane two rows: the caption box then keeps no blank rows.
    for p in crate::scenario::builtin()
        .iter()
        .filter(|p| !p.script.is_empty())
    {
        for lang in LANGS {
            let mut a = app(ScreenId::Home, lang, (80, 24));
            a.present_preset(p.clone(), false);
            for step in 0..p.script.len() {
                if step > 0 {
                    press(&mut a, key(' '));
                }
                let mut term = ratatui::Terminal::new(ratatui::backend::TestBackend::new(80, 24))
                    .expect("a test terminal");
                term.draw(|f| super::super::app::draw(f, &a)).expect("draw");
                let buf = term.backend().buffer().clone();
                let rows: Vec<String> = super::text(&buf).lines().map(String::from).collect();
                let text = rows.join("\n");
                let axis = rows.iter().position(|r| r.contains('╵'));
                let label = |r: &String| !r.starts_with(' ') && !r.starts_with('▀');
                let one_row = axis
                    .is_some_and(|i| rows.get(i + 1..i + 3).is_some_and(|r| r.iter().all(label)));
                let top = rows.iter().position(|r| r.trim_start().starts_with('┌'));
                let bottom = rows.iter().position(|r| r.trim_start().starts_with('└'));
                if let (true, Some(t), Some(b)) = (one_row, top, bottom) {
                    let blank = rows[t + 1..b]
                        .iter()
                        .any(|r| r.trim().trim_matches('│').trim().is_empty());
                    assert!(
                        !blank,
                        "{} step {step}: padding while lanes have one row\n{text}",
                        p.name
                    );
                }
                // A question is a banner across the screen, and bold.
                let shown = a.present.as_ref().and_then(|s| s.current()).cloned();
                let Some(q) = shown.and_then(|s| s.question) else {
                    continue;
                };
                let words = lang.pick(&q.text.zh, &q.text.en).to_string();
                let asked =
                    crate::i18n::present::present(crate::i18n::present::Present::Question, lang);
                let head: String = format!("{asked}{}", words.chars().take(4).collect::<String>());
                let Some(y) = rows.iter().position(|r| r.contains(&head)) else {
                    continue; // cut off by a screen this small: the other sizes show it
                };
                let cell = &buf[(1, y as u16)];
                assert!(
                    cell.modifier.contains(Modifier::BOLD) && cell.bg == Color::LightYellow,
                    "{} step {step}: the question is not a banner {cell:?}\n{text}",
                    p.name
                );
            }
        }
    }
}

/// `present herd-50`: while a question waits, the chart (whose counts are the answer) gives
/// way to a note saying so; once revealed it has its column headings and the glyphs' key.
#[test]
fn the_herd_chart_waits_for_the_answer_and_then_has_headings_and_a_key() {
    use crate::i18n::present::{Present, present};
    use crate::i18n::{Ui, ui};
    for lang in LANGS {
        for size in [(80, 24), (140, 42)] {
            let mut a = open("herd-50", lang, size);
            // Step 2 asks how many notifications the service sends.
            press(&mut a, key(' '));
            let s = screen(&a);
            let note = &present(Present::HerdChartHidden, lang)[..12];
            assert!(s.contains(note), "{lang:?} {size:?}:\n{s}");
            press(&mut a, key('r'));
            let s = screen(&a);
            assert!(!s.contains(note), "{lang:?} {size:?}:\n{s}");
            let heading = s
                .lines()
                .find(|l| l.contains(lab(Lab::Woken, lang)))
                .unwrap_or_else(|| panic!("no heading, {lang:?} {size:?}:\n{s}"));
            assert!(heading.contains(lab(Lab::Release, lang)), "{heading}");
            // The key's first entry, whatever the width leaves of the rest.
            let first = ui(Ui::HerdLegend, lang)
                .split("   ")
                .next()
                .unwrap_or_default();
            assert!(heading.contains(first), "{heading}");
            // Fifty releases never fit: the last row says how many more there are.
            let more = ui(Ui::MoreRows, lang);
            let (before, _) = more.split_once("{}").expect("a count in the words");
            assert!(s.contains(before), "{lang:?} {size:?}:\n{s}");
        }
    }
}
