//! The family lab as a person uses it: snapshots at 80x24 and 140x42 in both languages for
//! two families (at the start, revealed, comparing), and key sequences that change a knob and
//! find on screen exactly what the engine's own run of the changed parameters says.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::super::app::{App, ScreenId};
use super::super::screens::family::knob_values;
use super::super::screens::family::view::metric_rows;
use super::{LANGS, app, key, press, screen};
use crate::engine::params::knobs::Value;
use crate::engine::trace::Family;
use crate::i18n::Lang;
use crate::i18n::lab::{Lab, lab};

const SIZES: [(u16, u16); 2] = [(80, 24), (140, 42)];

fn code(c: KeyCode) -> KeyEvent {
    KeyEvent::new(c, KeyModifiers::NONE)
}

fn opened(family: Family, preset: &str, lang: Lang, size: (u16, u16)) -> App {
    let mut a = app(ScreenId::Home, lang, size);
    a.open_family(family, Some(preset));
    assert_eq!(a.screen, ScreenId::Family, "{preset} opens the family lab");
    a
}

/// Chooses knob `name` with the Down key, as a learner would.
fn choose(a: &mut App, name: &str) {
    for _ in 0..40 {
        let f = a.family.as_ref().expect("a family run");
        if f.knobs()[f.focus].key() == name {
            return;
        }
        press(a, code(KeyCode::Down));
    }
    panic!("no knob {name}");
}

#[test]
fn snapshots_of_two_families_at_start_revealed_and_compared() {
    let runs = [
        (Family::Rwlock, "rwlock-fair"),
        (Family::Election, "election-epochs"),
    ];
    for (family, preset) in runs {
        for size in SIZES {
            for lang in LANGS {
                let tag = format!("{preset}_{}_{}x{}", lang.code(), size.0, size.1);
                let mut a = opened(family, preset, lang, size);
                insta::assert_snapshot!(format!("family_start_{tag}"), screen(&a));
                press(&mut a, key('v'));
                insta::assert_snapshot!(format!("family_revealed_{tag}"), screen(&a));
                press(&mut a, key('c'));
                insta::assert_snapshot!(format!("family_compare_{tag}"), screen(&a));
            }
        }
    }
}

/// Rows of the metrics panel that fit on one line of the 140-column layout.
fn short_rows(rows: &[(String, String)], lang: Lang) -> Vec<String> {
    let c = crate::tui::screens::colon(lang);
    rows.iter()
        .map(|(k, v)| format!("  {k}{c}{v}"))
        .filter(|t| crate::text::width(t) <= 40)
        .collect()
}

#[test]
fn switching_the_release_changes_foreign_deletes_as_the_engine_says() {
    for lang in LANGS {
        let mut a = opened(Family::Redlock, "redlock-naive-del", lang, (140, 42));
        let before = a.family.clone().expect("a family run");
        choose(&mut a, "release");
        press(&mut a, code(KeyCode::Right));
        let f = a.family.as_ref().expect("a family run");
        let knob = f.knobs()[f.focus];
        let Some(Value::Text(old)) = knob_values::get(&before.params, &knob) else {
            panic!("release is a choice");
        };
        let Some(Value::Text(new)) = knob_values::get(&f.params, &knob) else {
            panic!("release is a choice");
        };
        assert_ne!(old, new, "Right moved to the other release");
        // The engine's own run of the preset with the other release.
        let expected_params = knob_values::set(&before.params, "release", &Value::Text(new))
            .expect("a valid release");
        assert_eq!(f.params, expected_params);
        let expected = crate::engine::run(&expected_params);
        assert_eq!(f.runs.trace, expected, "the screen shows the engine's run");
        let (
            crate::engine::trace::Metrics::Redlock(m0),
            crate::engine::trace::Metrics::Redlock(m1),
        ) = (&before.runs.trace.metrics, &expected.metrics)
        else {
            panic!("redlock metrics");
        };
        assert_ne!(
            m0.foreign_deletes, m1.foreign_deletes,
            "the change is one a learner can see"
        );
        // Hidden until the whole run is shown, then every metric as the engine computed it.
        let label = crate::i18n::sim::metric_label("foreign_deletes", lang);
        let deletes = format!(
            "{label}{}{}",
            crate::tui::screens::colon(lang),
            m1.foreign_deletes
        );
        assert!(!screen(&a).contains(&deletes));
        press(&mut a, key('v'));
        let s = screen(&a);
        assert!(s.contains(&deletes), "{deletes} missing:\n{s}");
        for row in short_rows(&metric_rows(&expected, lang), lang) {
            assert!(s.contains(&row), "{row} missing:\n{s}");
        }
    }
}

/// The text of the info panel, row by row, as drawn.
fn info_text(a: &App) -> String {
    let f = a.family.as_ref().expect("a family run");
    let area = ratatui::layout::Rect::new(0, 0, a.size.0, a.size.1);
    let mut buf = ratatui::buffer::Buffer::empty(area);
    super::super::app::render(a, area, &mut buf);
    let r = super::super::screens::family::view::layout(f, area).info;
    let mut out = String::new();
    for y in r.y..r.bottom() {
        for x in r.x..r.right() {
            out.push_str(buf[(x, y)].symbol());
        }
        out.push(' ');
    }
    out
}

#[test]
fn a_shorter_election_run_changes_the_outcome_and_locked_knobs_stay() {
    for lang in LANGS {
        let mut a = opened(Family::Election, "election-epochs", lang, (80, 24));
        let before = a.family.clone().expect("a family run");
        // A locked knob refuses, saying so, and the run stays as it was.
        choose(&mut a, "first_epoch");
        press(&mut a, code(KeyCode::Right));
        let f = a.family.as_ref().expect("a family run");
        assert_eq!(f.params, before.params);
        let refused = lab(Lab::Locked, lang).replace("{}", "first_epoch");
        assert!(screen(&a).contains(&refused), "{}", screen(&a));
        // Duration down by coarse steps (Shift-Left) until B never gets to take over.
        choose(&mut a, "duration");
        for _ in 0..4 {
            press(&mut a, KeyEvent::new(KeyCode::Left, KeyModifiers::SHIFT));
        }
        let f = a.family.as_ref().expect("a family run");
        let mut expected_params = before.params.clone();
        let crate::engine::params::knobs::Knob::Num(spec) = f.knobs()[f.focus] else {
            panic!("duration is a number");
        };
        let Some(Value::Num(mut d)) = knob_values::get(&before.params, &f.knobs()[f.focus]) else {
            panic!("duration is set");
        };
        for _ in 0..4 {
            d = (d - spec.coarse).max(spec.min);
            expected_params = knob_values::set(&expected_params, "duration", &Value::Num(d))
                .expect("a valid duration");
        }
        assert_eq!(f.params, expected_params);
        let expected = crate::engine::run(&expected_params);
        assert_eq!(f.runs.trace, expected);
        press(&mut a, key('v'));
        let lines = crate::export::svg::family_lines(&expected, lang);
        assert_ne!(
            lines,
            crate::export::svg::family_lines(&before.runs.trace, lang)
        );
        // The outcome line wraps in the narrow panel: compare it word by word, in order.
        let info = info_text(&a);
        let flat: String = info.split_whitespace().collect();
        let want: String = lines[0].split_whitespace().collect();
        assert!(flat.contains(&want), "{} missing:\n{info}", lines[0]);
    }
}

#[test]
fn compare_marks_where_the_conditional_and_unconditional_runs_part() {
    let mut a = opened(Family::Election, "election-epochs", Lang::En, (140, 42));
    press(&mut a, key('c'));
    let f = a.family.as_ref().expect("a family run");
    let other = f.runs.other.as_ref().expect("the flipped run");
    let p = crate::tui::compare::first_difference(&f.runs.trace, other).expect("they part");
    assert_eq!(f.runs.parting, Some(p));
    let words = lab(Lab::PartAt, Lang::En)
        .replacen("{}", &crate::engine::time::fmt_secs(p.at()), 1)
        .replacen("{}", &(p.index + 1).to_string(), 1);
    // Where they part is an outcome: it waits for the cursor, or for the whole run.
    let s = screen(&a);
    assert!(
        !s.contains(&words) && s.contains(&lab(Lab::PartAhead, Lang::En)[..30]),
        "{words} shows before the cursor gets there:\n{s}"
    );
    press(&mut a, key('v'));
    let s = screen(&a);
    assert!(s.contains(&words), "{words} missing:\n{s}");
    // The semaphore has no pair to flip, and says so.
    let mut a = opened(Family::Semaphore, "semaphore-expiry", Lang::En, (80, 24));
    press(&mut a, key('c'));
    assert!(a.family.as_ref().is_some_and(|f| f.runs.other.is_none()));
}

#[test]
fn every_family_opens_from_home_and_its_keys_are_in_help() {
    for lang in LANGS {
        let mut a = app(ScreenId::Home, lang, (80, 24));
        let at = a
            .home
            .items
            .iter()
            .position(|i| *i == super::super::screens::home::HomeRow::Lab)
            .expect("a home row for the family lab");
        a.home.selected = at;
        for (i, family) in knob_values::FAMILIES.into_iter().enumerate() {
            // Right steps through the families, one at a time, on the one row.
            if i > 0 {
                press(&mut a, code(KeyCode::Right));
            }
            assert_eq!(a.home.family, family);
            let name = crate::i18n::family::family_name(family, lang);
            assert!(screen(&a).contains(name), "{name} missing from home");
            press(&mut a, code(KeyCode::Enter));
            assert_eq!(a.screen, ScreenId::Family);
            assert_eq!(a.family.as_ref().map(|f| f.family), Some(family));
            press(&mut a, key('?'));
            let s = screen(&a);
            let words = crate::i18n::family::fam(crate::i18n::family::Fam::KeyKnobSelect, lang);
            assert!(s.contains(words), "{words} missing from help:\n{s}");
            press(&mut a, key('?'));
            press(&mut a, key('q'));
            assert_eq!(a.screen, ScreenId::Home);
        }
    }
}

#[test]
fn read_write_lanes_say_reader_or_writer_and_readers_have_their_own_class() {
    use crate::tui::theme::Class;
    for lang in LANGS {
        let mut a = opened(Family::Rwlock, "rwlock-fair", lang, (140, 42));
        let f = a.family.as_ref().expect("a family run");
        let knob = *f
            .knobs()
            .iter()
            .find(|k| k.key() == "roles")
            .expect("a roles knob");
        let Some(Value::Text(roles)) = knob_values::get(&f.params, &knob) else {
            panic!("roles is text");
        };
        // Each client's lane starts with its letter and the side its role asks for.
        let s = screen(&a);
        for (i, role) in roles.chars().enumerate() {
            let name = char::from(b'A' + i as u8);
            let side = match (role, lang) {
                ('r', Lang::En) => "r",
                ('w', Lang::En) => "w",
                ('r', Lang::Zh) => "读",
                _ => "写",
            };
            let label = format!("{name} {side}");
            assert!(
                s.lines().any(|l| l.starts_with(&label)),
                "{label} missing:\n{s}"
            );
        }
        // The legend names reading apart from holding, and the revealed lanes use both.
        let reading = crate::i18n::lab::class_name(Class::Reading, lang);
        assert!(s.contains(reading), "{s}");
        press(&mut a, key('v'));
        let f = a.family.as_ref().unwrap();
        let used = crate::tui::widgets::legend::classes_used(&[&f.runs.trace]);
        assert!(used.contains(&Class::Reading) && used.contains(&Class::Holding));
    }
}

#[test]
fn the_election_marks_each_submission_on_the_jobs_lane_with_its_judgement() {
    use crate::tui::theme::Mark;
    // election-epochs: B submits with epoch 27 at 13.28 s and the row accepts it; A wakes at
    // 21 s and submits with the old epoch 26: 0 rows. Without the condition A's late result
    // overwrites B's.
    let jobs_marks = |a: &App| -> String {
        let s = screen(a);
        let rows: Vec<&str> = s.lines().collect();
        let at = rows
            .iter()
            .position(|r| r.starts_with("jobs"))
            .unwrap_or_else(|| panic!("a jobs lane:\n{s}"));
        // The lane's rows: its label and bar, down to the edge where the marks go.
        rows[at..(at + 3).min(rows.len())].join("\n")
    };
    let mut a = opened(Family::Election, "election-epochs", Lang::En, (140, 42));
    let refused = format!("{}#26", Mark::WriteRefused.glyph());
    let fresh = format!("{}#27", Mark::WriteOk.glyph());
    // Nothing is judged before the cursor gets there.
    assert!(!jobs_marks(&a).contains(&refused), "{}", jobs_marks(&a));
    press(&mut a, key('v'));
    let lane = jobs_marks(&a);
    assert!(lane.contains(&refused) && lane.contains(&fresh), "{lane}");
    // A's refused write is a key moment: `n` stops there and the story line tells it.
    let mut a = opened(Family::Election, "election-epochs", Lang::En, (140, 42));
    let f = a.family.as_ref().expect("a family run");
    let a_id = f.runs.trace.actor_named("A").expect("A");
    let refused_at = f
        .runs
        .trace
        .moments
        .iter()
        .find(|m| {
            m.kind
                == crate::engine::trace::MomentKind::StaleWrite {
                    actor: a_id,
                    accepted: false,
                }
        })
        .map(|m| m.at_ms)
        .expect("A's stale submission is a key moment");
    assert!((21_000..22_000).contains(&refused_at), "{refused_at}");
    for _ in 0..20 {
        press(&mut a, key('n'));
        if a.family
            .as_ref()
            .is_some_and(|f| f.view.tl.cursor_ms == refused_at)
        {
            break;
        }
    }
    let s = screen(&a);
    // The line wraps in its panel: its first clause is on one row.
    let told = lab(Lab::StoryStaleRefused, Lang::En).replace("{a}", "A");
    let clause = told.split(':').next().unwrap_or_default();
    assert!(s.contains(clause), "{clause}\n{s}");
    // Unconditional: A's old result is accepted over B's, marked as the alarm it is.
    let mut a = opened(
        Family::Election,
        "election-unconditional",
        Lang::En,
        (140, 42),
    );
    press(&mut a, key('v'));
    let lane = jobs_marks(&a);
    let overwrote = format!("{}#26", Mark::WriteStale.glyph());
    assert!(lane.contains(&overwrote), "{lane}");
}

/// Rows `r` of a screen's text, cut to its columns (wide characters counted twice).
fn cut(screen: &str, r: ratatui::layout::Rect) -> Vec<String> {
    screen
        .lines()
        .skip(r.y as usize)
        .take(r.height as usize)
        .map(|l| {
            let mut col = 0;
            let mut out = String::new();
            for ch in l.chars() {
                let w = crate::text::width(ch.encode_utf8(&mut [0; 4]));
                if col >= r.x as usize && col + w <= (r.x + r.width) as usize {
                    out.push(ch);
                }
                col += w;
            }
            out
        })
        .collect()
}

#[test]
fn the_snowflake_lab_tells_every_instant_in_milliseconds_with_its_unit_on_its_line() {
    // snowflake-exhaustion runs 12 ms; its burst of six requests arrives at 5 ms.
    for lang in LANGS {
        let ms = lang.pick("毫秒", "ms");
        for size in SIZES {
            let mut a = opened(Family::Snowflake, "snowflake-exhaustion", lang, size);
            press(&mut a, key('v'));
            for _ in 0..6 {
                press(&mut a, key('.'));
            }
            let s = screen(&a);
            let title = s.lines().next().unwrap_or_default();
            assert!(title.contains(&format!("/ 12 {ms}")), "{title}");
            let f = a.family.as_ref().expect("a family run");
            let lay = super::super::screens::family::view::layout(
                f,
                ratatui::layout::Rect::new(0, 0, size.0, size.1),
            );
            // No row of the outcome panel starts with a unit torn from its number.
            for row in cut(&s, lay.info) {
                let row = row.trim_start();
                for unit in ["ms", "毫秒", "s ", "秒"] {
                    assert!(!row.starts_with(unit), "{row:?}\n{s}");
                }
            }
            assert!(s.contains(&format!("5 {ms}")), "{s}");
            // The event log counts the same milliseconds as the axis, never seconds.
            if let Some(log) = lay.log {
                let rows = cut(&s, log);
                let timed: Vec<&String> =
                    rows[1..].iter().filter(|r| !r.trim().is_empty()).collect();
                assert!(timed.len() >= 10, "{rows:?}");
                for r in timed.iter().take(10) {
                    let r = r.trim_start_matches(['▶', ' ']);
                    let (n, rest) = r.split_once(' ').expect("a time");
                    assert!(n.parse::<u64>().is_ok_and(|n| n <= 12), "{r}");
                    assert!(rest.starts_with(ms), "{r}");
                }
                assert!(!rows.iter().any(|r| r.contains("0.005 s")), "{rows:?}");
            }
        }
    }
}

#[test]
fn a_semaphore_lists_no_reader_or_writer_metric() {
    // A semaphore hands out permits: it has no readers and no writers to wait or starve.
    let sides = [
        "max_concurrent_readers",
        "writer_wait_ms",
        "grants_before_writer",
        "starved_writers",
    ];
    for lang in LANGS {
        let words: Vec<&str> = sides
            .iter()
            .map(|k| crate::i18n::sim::metric_label(k, lang))
            .collect();
        let mut a = app(ScreenId::Home, lang, (140, 42));
        a.open_family(Family::Semaphore, None);
        press(&mut a, key('v'));
        let bare = |t: &str| t.split_whitespace().collect::<String>();
        let info = bare(&info_text(&a));
        let held = crate::i18n::sim::metric_label("max_holders", lang);
        assert!(info.contains(&bare(held)), "{info}");
        for w in &words {
            assert!(!info.contains(&bare(w)), "{w} on a semaphore:\n{info}");
        }
        // The read-write lock has the three its default run fills.
        let mut a = app(ScreenId::Home, lang, (140, 42));
        a.open_family(Family::Rwlock, None);
        press(&mut a, key('v'));
        let info = bare(&info_text(&a));
        for w in &words[..3] {
            assert!(
                info.contains(&bare(w)),
                "{w} missing on a read-write lock:\n{info}"
            );
        }
    }
}

#[test]
fn a_redlock_write_carries_no_token_mark() {
    // Redlock gives the resource a bare value with no fencing token, so its write marks (here
    // A's stale write accepted) carry no "#".
    for lang in LANGS {
        let mut a = opened(Family::Redlock, "redlock-restart", lang, (140, 42));
        press(&mut a, key('v'));
        let s = screen(&a);
        let f = a.family.as_ref().expect("a family run");
        assert!(f.runs.trace.writes.iter().any(|w| w.accepted));
        assert!(
            s.contains(crate::tui::theme::Mark::WriteStale.glyph()),
            "{s}"
        );
        for m in ["✓#", "✗#", "⚠#"] {
            assert!(!s.contains(m), "{m}:\n{s}");
        }
    }
    // A write with a token keeps it.
    let mut a = app(ScreenId::Home, Lang::En, (140, 42));
    a.open_family(Family::Etcd, None);
    press(&mut a, key('v'));
    let s = screen(&a);
    assert!(["✓#", "✗#", "⚠#"].iter().any(|m| s.contains(m)), "{s}");
}

#[test]
fn a_changed_knob_says_the_run_is_modified_and_drops_the_preset_story() {
    for size in SIZES {
        let mut a = opened(Family::Rwlock, "rwlock-fair", Lang::En, size);
        let story = a
            .family
            .as_ref()
            .and_then(|f| f.about.clone())
            .expect("a story");
        let s = screen(&a);
        assert!(s.contains(&story.en[..30]), "{size:?}:\n{s}");
        choose(&mut a, "session_timeout");
        press(&mut a, code(KeyCode::Right));
        let s = screen(&a);
        let title = s.lines().next().unwrap_or_default();
        assert!(
            title.contains("rwlock-fair, modified: session_timeout"),
            "{size:?}:\n{s}"
        );
        assert!(!s.contains(&story.en[..30]), "{size:?}:\n{s}");
        press(&mut a, code(KeyCode::Left));
        let s = screen(&a);
        assert!(s.contains(&story.en[..30]), "{size:?}:\n{s}");
        assert!(!s.contains("modified"), "{size:?}:\n{s}");
    }
}
