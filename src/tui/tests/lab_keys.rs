//! What a learner relies on in the lab screens: the future hidden until revealed, key moments
//! one key away, compare saying where runs part (or why not), clicks, the status line, locked
//! presets, and legends that cover every state a preset reaches.

use super::super::app::{ScreenId, map_mouse, update};
use super::super::screens::abc::RecipeVariant;
use super::super::theme::Mark;
use super::lab::*;
use super::{LANGS, app, key, press, screen};
use crate::engine::trace::invariant;
use crate::i18n::Lang;
use crate::i18n::lab::{Lab, lab};
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind};
use ratatui::layout::Rect;

#[test]
fn the_future_stays_hidden_until_revealed() {
    let mut a = app(ScreenId::Home, Lang::En, (140, 42));
    abc_on(&mut a, "chain");
    let s = screen(&a);
    assert!(!s.contains("holding #105"), "{s}");
    assert!(s.contains(&lab(Lab::WakeupsHidden, Lang::En)[..20]), "{s}");
    press(&mut a, key('v'));
    let s = screen(&a);
    assert!(s.contains("holding #105"), "{s}");
    // Stepping shows each event as it comes, in the log too.
    press(&mut a, key('v'));
    press(&mut a, key('.'));
    let e = a
        .abc
        .view
        .tl
        .current(&a.abc.runs.trace)
        .expect("an event")
        .clone();
    assert!(screen(&a).contains(&crate::i18n::describe(&e, &a.abc.runs.trace, Lang::En)[..20]));
}

#[test]
fn key_moments_and_the_first_violation_are_one_key_away() {
    let mut a = app(ScreenId::Home, Lang::En, (140, 42));
    abc_on(&mut a, "watch-race-broken");
    press(&mut a, key('n'));
    let first = a
        .abc
        .runs
        .trace
        .moments
        .iter()
        .map(|m| m.at_ms)
        .find(|&t| t > 0)
        .expect("a moment");
    assert_eq!(a.abc.view.tl.cursor_ms, first);
    press(&mut a, key('!'));
    let violation = a
        .abc
        .runs
        .trace
        .invariants
        .iter()
        .filter_map(|i| i.first_violation_ms())
        .min()
        .expect("this preset breaks an invariant");
    assert_eq!(a.abc.view.tl.cursor_ms, violation);
    // A run with none says so instead of moving.
    abc_on(&mut a, "chain");
    press(&mut a, key('!'));
    assert_eq!(a.abc.view.tl.cursor_ms, 0);
    assert!(screen(&a).contains(lab(Lab::NoViolation, Lang::En)));
}

#[test]
fn compare_on_lost_create_blind_flips_the_recovery_and_marks_the_parting() {
    for lang in LANGS {
        let mut a = app(ScreenId::Home, lang, (140, 42));
        abc_on(&mut a, "lost-create-blind");
        assert_eq!(a.abc.last, RecipeVariant::Recovery);
        press(&mut a, key('c'));
        let other = a.abc.runs.other.as_ref().expect("comparing");
        assert!(
            other
                .invariant(invariant::NOBODY_STUCK)
                .is_some_and(|i| i.held)
        );
        assert!(
            !a.abc
                .runs
                .trace
                .invariant(invariant::NOBODY_STUCK)
                .is_some_and(|i| i.held)
        );
        let p = a.abc.runs.parting.expect("the runs part");
        press(&mut a, key('v'));
        let s = screen(&a);
        let part = lab(Lab::PartAt, lang)
            .replacen("{}", &crate::engine::time::fmt_secs(p.at()), 1)
            .replacen("{}", &(p.index + 1).to_string(), 1);
        assert!(s.contains(&part), "{part}\n{s}");
        assert!(s.contains(Mark::Differs.glyph()), "{s}");
    }
}

#[test]
fn compare_says_when_a_flip_changes_nothing_and_why() {
    let mut a = app(ScreenId::Home, Lang::En, (140, 42));
    abc_on(&mut a, "chain");
    // No create reply is lost on chain: blind and GUID recovery run the same.
    press(&mut a, key('r'));
    press(&mut a, key('c'));
    assert_eq!(a.abc.runs.parting, None);
    // That nothing changes is only known at the end of the run.
    let s = screen(&a);
    assert!(
        !s.contains("changes nothing in this run")
            && s.contains(&lab(Lab::PartAhead, Lang::En)[..30]),
        "{s}"
    );
    press(&mut a, key('v'));
    let s = screen(&a);
    assert!(s.contains("changes nothing in this run"), "{s}");
    assert!(
        s.contains("only matters when a create's") && s.contains("reply is lost"),
        "{s}"
    );
}

#[test]
fn a_herd_behind_a_forgotten_node_is_reported_stuck_in_compare() {
    use crate::engine::params::{AbcParams, Fault, Recovery, WatchMode};
    let mut a = app(ScreenId::Home, Lang::En, (140, 42));
    abc_on(&mut a, "lost-create-blind");
    a.abc.open_params(
        AbcParams {
            recovery: Recovery::Guid,
            watch: WatchMode::Children,
            faults: vec![Fault::DropCreateResponse { client: "B".into() }],
            ..AbcParams::default()
        },
        crate::tui::screens::abc::Story {
            name: "a model run".into(),
            about: crate::scenario::Text {
                zh: String::new(),
                en: String::new(),
            },
            correct: None,
        },
    );
    assert_eq!(a.abc.last, RecipeVariant::Recovery);
    press(&mut a, key('c'));
    press(&mut a, KeyEvent::new(KeyCode::End, KeyModifiers::NONE));
    let other = a.abc.runs.other.as_ref().expect("comparing");
    assert!(
        other
            .invariant(invariant::NOBODY_STUCK)
            .is_some_and(|i| !i.held),
        "blind recovery with a herd watch deadlocks"
    );
    let s = screen(&a);
    let caption = s
        .lines()
        .find(|l| l.contains("flipped: blind re-create"))
        .unwrap_or_default();
    assert!(caption.contains("[!!] nobody stuck"), "{s}");
}

#[test]
fn herd_wake_ups_are_marked_on_the_waiters_lanes() {
    let wakes = |preset: &str| {
        let p = crate::scenario::find(preset).expect("preset");
        let t = crate::engine::run(&p.params);
        super::super::widgets::markers::markers(&t, t.end_ms)
            .iter()
            .filter(|m| {
                m.mark == Mark::Wake && t.role(m.actor) == Some(crate::engine::trace::Role::Client)
            })
            .count()
    };
    assert!(
        wakes("herd") > wakes("chain"),
        "the herd wakes more waiters"
    );
    let mut a = app(ScreenId::Home, Lang::En, (140, 42));
    abc_on(&mut a, "herd");
    press(&mut a, key('v'));
    assert!(screen(&a).contains(Mark::Wake.glyph()));
}

#[test]
fn the_sequence_chart_draws_requests_replies_and_notifications() {
    let mut a = app(ScreenId::Home, Lang::En, (140, 42));
    abc_on(&mut a, "watch-race");
    press(&mut a, key('m'));
    press(&mut a, key('v'));
    let s = screen(&a);
    assert!(s.contains(lab(Lab::Sequence, Lang::En)), "{s}");
    assert!(
        s.contains("create ") && s.contains("created 17") && s.contains('▶'),
        "{s}"
    );
    // Down in the chart moves the shared cursor to the next message.
    let before = a.abc.view.tl.cursor_ms;
    press(&mut a, KeyEvent::new(KeyCode::Down, KeyModifiers::NONE));
    press(&mut a, KeyEvent::new(KeyCode::Down, KeyModifiers::NONE));
    assert!(a.abc.view.tl.cursor_ms >= before);
    press(&mut a, key('H'));
    assert!(screen(&a).contains(lab(Lab::HeartbeatsHidden, Lang::En)));
}

#[test]
fn a_click_on_the_event_log_moves_the_cursor_there() {
    let mut a = app(ScreenId::Home, Lang::En, (140, 42));
    abc_on(&mut a, "chain");
    press(&mut a, key('v'));
    let lay = a.abc.layout(Rect::new(0, 0, 140, 42));
    let log = lay.log.expect("a log at 140x42");
    update(
        &mut a,
        map_mouse(MouseEvent {
            kind: MouseEventKind::Down(MouseButton::Left),
            column: log.x + 3,
            row: log.y + 6,
            modifiers: KeyModifiers::NONE,
        })
        .expect("a click"),
    );
    let i = a.abc.view.tl.event.expect("an event");
    assert_eq!(a.abc.view.tl.cursor_ms, a.abc.runs.trace.events[i].at_ms);
    // J picks the next event, Enter moves there.
    press(&mut a, key('J'));
    press(&mut a, KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE));
    assert_eq!(a.abc.view.tl.event, Some(i + 1));
}

#[test]
fn the_status_line_at_80x24_keeps_the_way_back() {
    for screen_id in [ScreenId::Frozen, ScreenId::Abc, ScreenId::Herd] {
        for lang in LANGS {
            let a = app(screen_id, lang, (80, 24));
            let s = screen(&a);
            let footer = s.lines().last().unwrap_or_default().trim_end();
            let back = format!("{}  {}", lab(Lab::HintBack, lang), lab(Lab::HintKeys, lang));
            assert!(footer.ends_with(&back), "{screen_id:?}: {footer}");
        }
    }
}

#[test]
fn the_status_line_never_cuts_a_key_hint() {
    for (screen_id, last) in [
        (ScreenId::Frozen, Lab::HintKeys),
        (ScreenId::Abc, Lab::HintKeys),
        (ScreenId::Herd, Lab::HintKeys),
    ] {
        for lang in LANGS {
            let a = app(screen_id, lang, (80, 24));
            let s = screen(&a);
            let footer = s.lines().last().unwrap_or_default().trim_end();
            assert!(footer.ends_with(lab(last, lang)), "{footer}");
            assert!(crate::text::width(footer) <= 80);
        }
    }
}

#[test]
fn frozen_compare_at_80x24_keeps_sliders_formulas_and_verdicts() {
    for lang in LANGS {
        let mut a = app(ScreenId::Frozen, lang, (80, 24));
        press(&mut a, key('c'));
        press(&mut a, key('v'));
        let s = screen(&a);
        for w in [
            crate::i18n::Ui::Ttl,
            crate::i18n::Ui::Keepalive,
            crate::i18n::Ui::PauseStart,
            crate::i18n::Ui::PauseLen,
            crate::i18n::Ui::Delay,
        ] {
            assert!(s.contains(crate::i18n::ui(w, lang)), "{w:?}\n{s}");
        }
        let formula = lang.pick("max(0, 38 - 19) = 19 秒", "max(0, 38 - 19) = 19 s");
        assert!(s.contains(formula), "{s}");
        assert!(s.contains(crate::i18n::verdict_short(
            crate::engine::trace::Verdict::Corruption,
            lang
        )));
    }
}

#[test]
fn a_locked_variant_says_so_when_touched() {
    let mut a = app(ScreenId::Home, Lang::En, (140, 42));
    abc_on(&mut a, "lost-create-blind");
    let before = a.abc.params.clone();
    press(&mut a, key('w'));
    assert_eq!(a.abc.params, before);
    assert!(screen(&a).contains("is locked by this preset"));
}

#[test]
fn every_frozen_preset_opens_from_the_command_line() {
    use super::super::{Start, check_start};
    use crate::scenario::Catalogue;
    for p in crate::scenario::builtin()
        .iter()
        .filter(|p| p.family == crate::engine::trace::Family::Frozen)
    {
        assert_eq!(
            check_start(&Start::Frozen(Some(p.name.clone())), Catalogue::embedded()),
            Ok(())
        );
        let s = super::super::screens::frozen::FrozenState::from_preset(p).expect("frozen");
        assert_eq!(s.preset.as_deref(), Some(p.name.as_str()));
    }
    let err = check_start(&Start::Frozen(Some("chain".into())), Catalogue::embedded())
        .expect_err("not frozen")
        .to_string();
    assert!(
        err.contains("frozen-holder") && err.contains("redis-lease"),
        "{err}"
    );
}

#[test]
fn every_state_a_preset_reaches_is_in_its_legend() {
    use super::super::widgets::legend::{classes_used, family_set, planned_classes};
    let mut missing = Vec::new();
    for p in crate::scenario::builtin() {
        let t = crate::engine::run(&p.params);
        let (classes, marks) = family_set(t.family);
        let planned = planned_classes(&p.params);
        for c in classes_used(&[&t]) {
            if !classes.contains(&c) && !planned.contains(&c) {
                missing.push(format!("{:?} {}: {c:?}", t.family, p.name));
            }
        }
        for m in super::super::widgets::markers::marks_used(&t) {
            if !marks.contains(&m) {
                missing.push(format!("{:?} {}: {m:?}", t.family, p.name));
            }
        }
    }
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}

/// The legend rows a lab screen draws, as text.
fn legend_text(a: &crate::tui::app::App, area: Rect) -> String {
    let lay = match a.screen {
        ScreenId::Frozen => a.frozen.layout(area).legend,
        ScreenId::Abc => a.abc.layout(area).legend,
        ScreenId::Family => {
            let f = a.family.as_ref().expect("a family run");
            super::super::screens::family::view::layout(f, area).legend
        }
        s => panic!("no legend on {s:?}"),
    };
    let s = screen(a);
    s.lines()
        .skip(lay.y as usize)
        .take(lay.height as usize)
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn the_legend_on_screen_names_every_class_and_mark_on_the_lanes() {
    use super::super::widgets::legend::classes_used;
    use super::super::widgets::markers::marks_used;
    use crate::i18n::lab::{class_name, mark_name};
    let mut missing = Vec::new();
    for p in crate::scenario::builtin()
        .iter()
        .filter(|p| !matches!(p.params, crate::engine::Params::Herd(_)))
    {
        for (w, h) in [(80, 24), (140, 42)] {
            for lang in LANGS {
                // Two runs at 80x24 keep a row for every lane of both first; their legend
                // names what fits of what the lanes draw.
                for compare in [false, true].into_iter().filter(|c| !*c || w >= 140) {
                    let mut a = app(ScreenId::Home, lang, (w, h));
                    assert!(a.open_lab(p), "{} opens a lab", p.name);
                    if compare {
                        press(&mut a, key('c'));
                    }
                    press(&mut a, key('v'));
                    let runs = match a.screen {
                        ScreenId::Frozen => &a.frozen.runs,
                        ScreenId::Abc => &a.abc.runs,
                        _ => &a.family.as_ref().expect("a family run").runs,
                    };
                    let traces: Vec<_> = std::iter::once(&runs.trace)
                        .chain(runs.other.as_ref())
                        .collect();
                    let legend = legend_text(&a, Rect::new(0, 0, w, h));
                    let mut want: Vec<String> = classes_used(&traces)
                        .into_iter()
                        .map(|c| class_name(c, lang).to_string())
                        .collect();
                    for t in &traces {
                        for m in marks_used(t) {
                            want.push(m.glyph().to_string());
                            want.push(mark_name(m, lang).to_string());
                        }
                    }
                    for word in want {
                        if !legend.contains(&word) {
                            missing.push(format!(
                                "{} {}x{h} {lang:?} compare={compare}: {word}\n{legend}",
                                p.name, w
                            ));
                        }
                    }
                }
            }
        }
    }
    assert!(
        missing.is_empty(),
        "{} missing:\n{}",
        missing.len(),
        missing
            .iter()
            .map(|m| m.lines().next().unwrap_or_default())
            .collect::<Vec<_>>()
            .join("\n")
    );
}

#[test]
fn the_presenter_shows_each_steps_story_and_never_a_key_moment_in_one_cell() {
    use super::super::screens::present::step_window;
    for p in crate::scenario::builtin()
        .iter()
        .filter(|p| !p.script.is_empty())
    {
        let mut since = None;
        for step in &p.script {
            let t = crate::engine::run(&step.params);
            let Some(at) = step.at_ms else { continue };
            let (from, to) = step_window(&t, since, at, 128);
            // The step's story: what happened since the step before, and its key moments,
            // every one in view.
            let story: Vec<u64> = t
                .events
                .iter()
                .filter(|e| super::super::timeline::notable(e))
                .map(|e| e.at_ms)
                .chain(t.moments.iter().map(|m| m.at_ms))
                .filter(|&m| since.is_some_and(|s| m > s) && m <= at)
                .collect();
            for m in &story {
                assert!(
                    (from..=to).contains(m),
                    "{} at {at}: moment {m} outside [{from}, {to}]",
                    p.name
                );
            }
            // ... and spread so that it never shares one column.
            let recent: Vec<u64> = t
                .events
                .iter()
                .filter(|e| e.at_ms <= at && super::super::timeline::notable(e))
                .map(|e| e.at_ms)
                .collect();
            let first = story
                .iter()
                .copied()
                .chain(recent.iter().rev().nth(4).or(recent.first()).copied())
                .min();
            since = Some(at);
            let Some(first) = first else { continue };
            let cols = (at - first) * 128 / (to - from).max(1);
            assert!(
                cols >= 20 || to - from <= super::super::timeline::MIN_WINDOW_MS * 2 || at == first,
                "{} at {at}: {cols} columns for its last moments in [{from}, {to}]",
                p.name
            );
        }
    }
}

/// `present rwlock-starved`, step 3 (10 s): its story is the readers taking turns while the
/// writer C waits, from the step before (3.06 s) on, so the lanes show those seconds, not the
/// last second before 10 s alone.
#[test]
fn the_starvation_step_shows_the_readers_taking_turns() {
    use super::super::screens::present::step_window;
    let p = crate::scenario::find("rwlock-starved").expect("a shipped preset");
    let step = &p.script[2];
    assert_eq!(step.at_ms, Some(10_000));
    let t = crate::engine::run(&step.params);
    let (from, to) = step_window(&t, Some(3_060), 10_000, 128);
    // A client arrives every second: readers from 4 s on hold while C waits.
    assert!(from <= 4_000 && to >= 10_000, "[{from}, {to}]");
}

#[test]
fn p_walks_the_frozen_presets_and_each_lab_says_what_its_preset_teaches() {
    for lang in super::LANGS {
        let mut a = app(ScreenId::Frozen, lang, (140, 42));
        assert!(a.frozen.preset.is_none());
        // The frozen presets in name order, as the scenario folder lists them.
        press(&mut a, key('p'));
        assert_eq!(a.frozen.preset.as_deref(), Some("frozen-early-write"));
        let about = &crate::scenario::find("frozen-early-write")
            .expect("a shipped preset")
            .about;
        let words: String = lang.pick(&about.zh, &about.en).chars().take(30).collect();
        assert!(screen(&a).contains(&words), "{}", screen(&a));
        press(&mut a, key('p'));
        assert_eq!(a.frozen.preset.as_deref(), Some("frozen-fenced"));
        press(&mut a, KeyEvent::new(KeyCode::BackTab, KeyModifiers::SHIFT));
        press(&mut a, KeyEvent::new(KeyCode::BackTab, KeyModifiers::SHIFT));
        // The last of them is the Redis lease, a frozen holder too.
        assert_eq!(a.frozen.preset.as_deref(), Some("redis-lease"));
        // The family lab opens on a preset and says what it shows.
        a.open_family(crate::engine::trace::Family::Rwlock, Some("rwlock-fair"));
        let about = &crate::scenario::find("rwlock-fair")
            .expect("a shipped preset")
            .about;
        let words: String = lang.pick(&about.zh, &about.en).chars().take(30).collect();
        assert!(screen(&a).contains(&words), "{}", screen(&a));
    }
}

#[test]
fn n_and_capital_n_visit_every_key_moment_of_the_frozen_holder_and_say_where_they_end() {
    // The default frozen holder (docs/src/model/frozen.md): A granted at 0 s, A's lease
    // expires and B is granted at 19 s, A learns it lost at 26 s, A's write is refused at 38 s.
    for lang in LANGS {
        let mut a = app(ScreenId::Frozen, lang, (140, 42));
        let learns = lab(Lab::StoryLearnedLost, lang).replace("{a}", "A");
        let mut visited = Vec::new();
        for _ in 0..3 {
            press(&mut a, key('n'));
            visited.push(a.frozen.view.tl.cursor_ms);
            // The story line tells A's learning at 26 s, and not before.
            let s = screen(&a);
            match visited.last() {
                Some(19_000) => assert!(!s.contains(&learns), "{s}"),
                Some(26_000) => assert!(s.contains(&learns), "{s}"),
                _ => {}
            }
        }
        assert_eq!(visited, [19_000, 26_000, 38_000]);
        press(&mut a, key('n'));
        assert_eq!(a.frozen.view.tl.cursor_ms, 38_000, "nothing after the last");
        let last = lab(Lab::MomentLast, lang).replace("{t}", "38");
        assert!(screen(&a).contains(&last), "{last}\n{}", screen(&a));
        let mut back = Vec::new();
        for _ in 0..3 {
            press(&mut a, key('N'));
            back.push(a.frozen.view.tl.cursor_ms);
        }
        assert_eq!(back, [26_000, 19_000, 0]);
        press(&mut a, key('N'));
        assert_eq!(a.frozen.view.tl.cursor_ms, 0);
        let first = lab(Lab::MomentFirst, lang).replace("{t}", "0");
        assert!(screen(&a).contains(&first), "{first}\n{}", screen(&a));
    }
}

#[test]
fn the_frozen_sequence_chart_shows_the_pause_and_tells_each_fact_once_where_it_happens() {
    // The default frozen holder (docs/src/model/frozen.md): A is frozen over [12, 26) s; its
    // lease expires at the service at 19 s, when B is granted; B asks every second before.
    for lang in LANGS {
        let mut a = app(ScreenId::Frozen, lang, (140, 42));
        press(&mut a, key('m'));
        press(&mut a, key('v'));
        press(&mut a, KeyEvent::new(KeyCode::End, KeyModifiers::NONE));
        let s = screen(&a);
        let rows: Vec<&str> = s.lines().collect();
        let head = rows
            .iter()
            .position(|r| r.trim_start().starts_with(lang.pick("秒", "s ")))
            .expect("the chart's heading");
        let chart: Vec<Vec<char>> = rows[head + 1..]
            .iter()
            .take_while(|r| !r.starts_with(lab(Lab::Legend, lang)))
            .map(|r| r.chars().collect())
            .collect();
        let time = |r: &Vec<char>| -> f64 {
            r[..8]
                .iter()
                .collect::<String>()
                .trim()
                .parse()
                .unwrap_or(-1.0)
        };
        // A's lifeline is frozen on every row from 12 s to before 26 s, and only there.
        for r in &chart {
            let t = time(r);
            let a_col = (9..r.len()).find(|&i| matches!(r[i], '│' | '║'));
            let frozen = a_col.is_some_and(|i| r[i] == '║');
            assert_eq!(frozen, (12.0..26.0).contains(&t), "at {t} s:\n{s}");
        }
        // B's grant at 19 s is told once; A's expiry sits on the service's lifeline.
        let grant = format!("B {}", lang.pick("拿到锁", "holds the lock"));
        let told = chart
            .iter()
            .map(|r| r.iter().collect::<String>().matches(&grant).count())
            .sum::<usize>();
        assert_eq!(told, 1, "{s}");
        let expired = format!("A {}", lang.pick("过期", "expired"));
        let line = chart
            .iter()
            .find(|r| r.iter().collect::<String>().contains(&expired))
            .expect("A's expiry on the chart");
        // The lifelines, left to right: A, the service, B, the resource.
        let lifelines: Vec<usize> = (9..line.len())
            .filter(|&i| matches!(line[i], '│' | '║'))
            .collect();
        let mark = line
            .iter()
            .position(|&c| c == Mark::Expired.glyph())
            .expect("the expiry's mark");
        let text: String = line.iter().collect();
        assert_eq!(lifelines.len(), 4, "{text}");
        assert_eq!(mark, lifelines[1] + 1, "on the service's lifeline: {text}");
        // B's refused requests are folded: no two rows in a row say the same.
        let folded = format!(
            "{} → {} ×",
            lang.pick("请求加锁", "acquire"),
            lang.pick("忙", "busy")
        );
        assert!(s.contains(&folded), "{s}");
        let arrows: Vec<String> = chart.iter().map(|r| r[8..].iter().collect()).collect();
        assert!(arrows.windows(2).all(|w| w[0] != w[1]), "{s}");
    }
}

#[test]
fn faint_heartbeats_fold_into_one_row_and_count_only_what_is_shown() {
    let mut a = app(ScreenId::Home, Lang::En, (140, 42));
    a.open_family(
        crate::engine::trace::Family::Election,
        Some("election-epochs"),
    );
    press(&mut a, key('m'));
    press(&mut a, key('v'));
    let trace = a
        .family
        .as_ref()
        .expect("the election lab")
        .runs
        .trace
        .clone();
    let rows = crate::tui::widgets::sequence::rows(&trace, Default::default());
    let beat = |r: &crate::tui::widgets::sequence::Row| match r {
        crate::tui::widgets::sequence::Row::Message(i) => trace.messages[*i].msg.is_heartbeat(),
        crate::tui::widgets::sequence::Row::Fold { beats, .. } => *beats,
        _ => false,
    };
    assert!(
        rows.windows(2).all(|w| !(beat(&w[0].1) && beat(&w[1].1))),
        "no two heartbeat rows in a row"
    );
    let pings = trace
        .messages
        .iter()
        .filter(|m| m.msg.is_heartbeat())
        .count();
    let folded: usize = rows
        .iter()
        .filter(|(_, r)| beat(r))
        .map(|(_, r)| r.repeats(trace.end_ms))
        .sum();
    assert_eq!(folded, pings, "every ping and pong is counted once");
    assert!(screen(&a).contains("heartbeats ×"), "{}", screen(&a));
    // Shown, every one has its own row again.
    press(&mut a, key('H'));
    press(&mut a, key('H'));
    let f = a.family.as_ref().expect("the election lab");
    assert_eq!(
        f.view.beats,
        crate::tui::widgets::sequence::Heartbeats::Shown
    );
    let shown = crate::tui::widgets::sequence::rows(&trace, f.view.beats);
    assert_eq!(
        shown.iter().filter(|(_, r)| beat(r)).count(),
        pings,
        "one row a heartbeat"
    );
}

#[test]
fn a_changed_frozen_preset_says_so_and_drops_its_story() {
    let p = crate::scenario::find("frozen-early-write").expect("preset");
    for size in [(80, 24), (140, 42)] {
        let mut a = app(ScreenId::Home, Lang::En, size);
        assert!(a.open_lab(p));
        let s = screen(&a);
        assert!(
            s.contains("A's stale write lands before B"),
            "{size:?}:\n{s}"
        );
        // Fencing is locked here; stop-on-loss is not.
        press(&mut a, key('f'));
        assert!(screen(&a).contains("is locked by this preset"), "{size:?}");
        press(&mut a, key('s'));
        let s = screen(&a);
        assert!(
            s.lines()
                .next()
                .unwrap_or_default()
                .contains("frozen-early-write, modified: stop on loss on"),
            "{size:?}:\n{s}"
        );
        assert!(
            !s.contains("A's stale write lands before B"),
            "{size:?}:\n{s}"
        );
        assert!(!s.contains("is locked by this preset"), "{size:?}:\n{s}");
        press(&mut a, key('s'));
        let s = screen(&a);
        assert!(
            s.contains("A's stale write lands before B"),
            "{size:?}:\n{s}"
        );
    }
}

/// The rows each lane but the last of every run draws on, read off the screen: a lane's
/// label row and the rows under it whose label column is blank.
fn lane_rows(s: &str, labels: &[&str]) -> Vec<(String, usize)> {
    let lines: Vec<&str> = s.lines().collect();
    let label = |l: &str| l.chars().take(12).collect::<String>().trim().to_string();
    let mut out = Vec::new();
    for (y, l) in lines.iter().enumerate() {
        let name = label(l);
        if labels.contains(&name.as_str()) {
            let under = lines[y + 1..]
                .iter()
                .take_while(|l| label(l).is_empty())
                .count();
            out.push((name, 1 + under));
        }
    }
    out
}

#[test]
fn lanes_take_spare_rows_before_the_panels() {
    use crate::engine::trace::Family;
    // Frozen holder: compare at 140x42, and one run at 120x30.
    for (size, compare) in [((140, 42), true), ((120, 30), false)] {
        for preset in [None, Some("frozen-fenced")] {
            let mut a = app(ScreenId::Home, Lang::En, size);
            if let Some(p) = preset {
                assert!(a.open_lab(crate::scenario::find(p).expect("preset")));
            } else {
                a.screen = ScreenId::Frozen;
            }
            if compare {
                press(&mut a, key('c'));
            }
            for reveal in [false, true] {
                if reveal {
                    press(&mut a, key('v'));
                }
                let s = screen(&a);
                let rows = lane_rows(&s, &["A believes", "service", "B"]);
                assert_eq!(rows.len(), if compare { 6 } else { 3 }, "{size:?}:\n{s}");
                assert!(rows.iter().all(|(_, n)| *n >= 2), "{size:?} {rows:?}:\n{s}");
            }
        }
    }
    // A/B/C compare at 140x42.
    let mut a = app(ScreenId::Home, Lang::En, (140, 42));
    abc_on(&mut a, "lost-create-blind");
    press(&mut a, key('c'));
    let s = screen(&a);
    let rows = lane_rows(&s, &["A", "B", "C", "service"]);
    assert_eq!(rows.len(), 8, "{s}");
    assert!(rows.iter().all(|(_, n)| *n >= 2), "{rows:?}:\n{s}");
    // Family labs with a handful of lanes use more than two rows a lane at 140x42.
    for (family, preset, labels) in [
        (
            Family::Rwlock,
            "rwlock-fair",
            &["A r", "B r", "C w", "D r"][..],
        ),
        (
            Family::Election,
            "election-epochs",
            &["A", "B", "service"][..],
        ),
    ] {
        let mut a = app(ScreenId::Home, Lang::En, (140, 42));
        a.open_family(family, Some(preset));
        let s = screen(&a);
        let rows = lane_rows(&s, labels);
        assert_eq!(rows.len(), labels.len(), "{preset}:\n{s}");
        assert!(rows.iter().all(|(_, n)| *n >= 3), "{preset} {rows:?}:\n{s}");
    }
}
