//! Key sequences on the A/B/C screen, rendered: compare flips what each preset teaches, and the
//! data node's version follows the run.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::Terminal;
use ratatui::backend::TestBackend;

use super::RecipeVariant;
use crate::engine::params::{DataWrite, TokenSource};
use crate::i18n::Lang;
use crate::i18n::lab::{Lab, lab};
use crate::tui::app::{App, ScreenId, draw, map_key, update};
use crate::tui::theme::Theme;

const SIZES: [(u16, u16); 2] = [(80, 24), (140, 42)];

fn app(preset: &str, lang: Lang, (w, h): (u16, u16)) -> App {
    let reader =
        crate::tui::screens::reader::ReaderState::new(&crate::source::Source::Embedded, None);
    let mut app = App::with_reader(
        ScreenId::Abc,
        Some(preset),
        lang,
        Theme { mono: false },
        reader,
        crate::scenario::Catalogue::embedded(),
    );
    app.size = (w, h);
    app
}

fn screen(app: &App) -> String {
    let mut term = Terminal::new(TestBackend::new(app.size.0, app.size.1)).expect("test backend");
    term.draw(|f| draw(f, app)).expect("draw");
    let buf = term.backend().buffer();
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

fn press(app: &mut App, code: KeyCode) {
    if let Some(msg) = map_key(KeyEvent::new(code, KeyModifiers::NONE), app) {
        update(app, msg);
    }
}

#[test]
fn compare_on_the_recreated_directory_flips_the_token_source() {
    for lang in [Lang::En, Lang::Zh] {
        for size in SIZES {
            let mut a = app("lock-dir-recreated", lang, size);
            assert_eq!(a.abc.params.token, TokenSource::Sequence);
            assert_eq!(a.abc.last, RecipeVariant::Token);
            let before = screen(&a);
            assert!(
                before.contains("[o]"),
                "the token key is on the recipe line:\n{before}"
            );
            press(&mut a, KeyCode::Char('c'));
            let s = screen(&a);
            let flipped = lab(Lab::TokenCzxid, lang);
            assert!(s.contains(flipped), "{size:?} {lang:?}:\n{s}");
            // The flipped run is the one with czxid tokens: nobody's write is refused there.
            let other = a.abc.runs.other.as_ref().expect("comparing");
            let m = crate::engine::families::abc::metrics(other).unwrap();
            assert_eq!(m.current_writes_refused, 0);
            let m = crate::engine::families::abc::metrics(&a.abc.runs.trace).unwrap();
            assert_eq!(m.current_writes_refused, 2);
            assert!(a.abc.runs.parting.is_some());
        }
    }
}

#[test]
fn the_token_key_flips_the_source_and_reruns() {
    let mut a = app("lock-dir-recreated", Lang::En, (140, 42));
    press(&mut a, KeyCode::Char('o'));
    assert_eq!(a.abc.params.token, TokenSource::Czxid);
    let s = screen(&a);
    assert!(s.contains("[o] token: czxid"), "{s}");
}

#[test]
fn the_data_node_and_its_versions_show_and_compare_flips_the_expected_version() {
    for lang in [Lang::En, Lang::Zh] {
        for size in SIZES {
            let mut a = app("setdata-any-version", lang, size);
            assert_eq!(a.abc.last, RecipeVariant::DataWrite);
            press(&mut a, KeyCode::End);
            let s = screen(&a);
            if size.0 >= 120 {
                let heading = lab(Lab::DataNode, lang)
                    .replacen("{}", "/counter", 1)
                    .replacen("{}", "11", 1)
                    .replacen("{}", "10", 1);
                assert!(s.contains(&heading), "{lang:?}:\n{s}");
                assert!(s.contains("A setData(-1) "), "{lang:?}:\n{s}");
            } else {
                assert!(s.contains("/counter v11 (10)"), "{lang:?}:\n{s}");
            }
            assert!(s.contains(lab(Lab::DataUnconditional, lang)), "{s}");
            press(&mut a, KeyCode::Char('c'));
            let s = screen(&a);
            assert!(
                s.contains(lab(Lab::DataConditional, lang)),
                "{lang:?} {size:?}:\n{s}"
            );
            let other = a.abc.runs.other.as_ref().expect("comparing");
            assert!(other.all_invariants_hold());
        }
    }
}

#[test]
fn the_cursor_hides_writes_still_to_come() {
    let mut a = app("setdata-any-version", Lang::En, (140, 42));
    // Step to the first event after B's write and before A's.
    while a.abc.view.tl.cursor_ms < 8_040 {
        press(&mut a, KeyCode::Char('.'));
    }
    let s = screen(&a);
    assert!(
        s.contains("Data node /counter: version 9, counter 9"),
        "{s}"
    );
    assert!(s.contains("B setData(-1) -> v9"), "{s}");
    assert!(!s.contains("A setData(-1) -> v10"), "{s}");
}

#[test]
fn the_data_write_key_switches_to_the_version_read() {
    let mut a = app("setdata-any-version", Lang::En, (80, 24));
    press(&mut a, KeyCode::Char('u'));
    assert_eq!(a.abc.params.data_write, DataWrite::Conditional);
    press(&mut a, KeyCode::End);
    assert!(screen(&a).contains("/counter v10 (10)"));
}

#[test]
fn the_revealed_run_is_summed_up_and_the_summary_waits_for_the_reveal() {
    // lost-create-blind: B's forgotten node and its new one make one duplicate; B waits on its
    // own ghost and C behind B, so both stay stuck; no write reaches the resource stale.
    let cases = [
        (
            Lang::En,
            "whole run: duplicate nodes 1  stuck: B, C  stale writes accepted 0",
        ),
        (
            Lang::Zh,
            "全程：重复节点 1 个  卡死：B、C  被接受的陈旧写入 0 次",
        ),
    ];
    for (lang, want) in cases {
        for size in SIZES {
            let mut a = app("lost-create-blind", lang, size);
            let before = screen(&a);
            assert!(!before.contains(want), "{lang:?} {size:?}:\n{before}");
            assert!(
                before.contains(&lab(Lab::WakeupsHidden, lang)[..12]),
                "{lang:?} {size:?}:\n{before}"
            );
            press(&mut a, KeyCode::Char('v'));
            let s = screen(&a);
            assert!(s.contains(want), "{lang:?} {size:?}:\n{s}");
            // Comparing with a flipped recipe keeps the summary on a wide terminal.
            if size.0 >= 140 {
                press(&mut a, KeyCode::Char('c'));
                let s = screen(&a);
                assert!(s.contains(want), "compared, {lang:?} {size:?}:\n{s}");
            }
        }
    }
    // The correct recipe leaves nobody stuck and makes no duplicate.
    let mut a = app("chain", Lang::En, (140, 42));
    press(&mut a, KeyCode::Char('v'));
    let s = screen(&a);
    assert!(
        s.contains("whole run: duplicate nodes 0  stuck: none  stale writes accepted 0"),
        "{s}"
    );
}

#[test]
fn a_toggled_preset_says_it_is_modified_and_drops_its_story() {
    for size in SIZES {
        let mut a = app("chain", Lang::En, size);
        let story = a.abc.preset().expect("chain").about.en.clone();
        // The atomic watch is locked on chain: the refusal shows on the status line.
        press(&mut a, KeyCode::Char('a'));
        assert!(screen(&a).contains("is locked by this preset"), "{size:?}");
        press(&mut a, KeyCode::Char('w'));
        let s = screen(&a);
        let title = s.lines().next().unwrap_or_default();
        assert!(
            title.contains("chain, modified: watch children (herd)"),
            "{size:?}:\n{s}"
        );
        assert!(!s.contains(&story[..40]), "{size:?}:\n{s}");
        assert!(
            s.contains("No longer the preset's own run"),
            "{size:?}:\n{s}"
        );
        assert!(!s.contains("is locked by this preset"), "{size:?}:\n{s}");
        // Flipped back, it is the preset's run again and tells its story.
        press(&mut a, KeyCode::Char('w'));
        let s = screen(&a);
        assert!(!s.contains("modified"), "{size:?}:\n{s}");
        assert!(s.contains(&story[..40]), "{size:?}:\n{s}");
    }
}
