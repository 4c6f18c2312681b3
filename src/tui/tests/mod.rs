//! The screens' tests, by topic: shared helpers (an app on embedded content, the screen as text,
//! key presses) and the 80x24 snapshots live here.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;

use super::app::{App, AppMsg, ScreenId, draw, map_key, map_mouse, update};
use super::learn::Learning;
use super::screens::frozen::FrozenState;
use super::theme::Theme;
use crate::engine::trace::{Metrics, Verdict};
use crate::i18n::{Lang, Ui, ui};
use crate::quiz::sched::Calendar;

mod catalogue;
mod chinese;
mod explore;
mod family;
mod help_keys;
mod hidden;
mod lab;
mod lab_keys;
mod navigation;
mod predict;
mod present;
mod quiz;
mod quiz_modes;
mod quiz_session;
mod random_input;
mod reader;
mod script;
mod sims;
mod storm;
mod story;

const SIZES: [(u16, u16); 2] = [(80, 24), (160, 48)];
const LANGS: [Lang; 2] = [Lang::En, Lang::Zh];

fn app(screen: ScreenId, lang: Lang, (w, h): (u16, u16)) -> App {
    // No data folder: tests never write reading positions, whatever the environment says.
    let reader = super::screens::reader::ReaderState::new(&crate::source::Source::Embedded, None);
    let mut app = App::with_reader(
        screen,
        None,
        lang,
        Theme { mono: false },
        reader,
        crate::scenario::Catalogue::embedded(),
    );
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
    match &s.runs.trace.metrics {
        Metrics::Frozen(m) => m.verdict,
        _ => panic!("not a frozen trace"),
    }
}

#[test]
fn snapshots_at_80x24() {
    // Home has one row fewer in a build without the live lab, so it has a picture of its own.
    let home = if cfg!(feature = "live") {
        "home_en"
    } else {
        "home_en_without_live"
    };
    for (name, screen_id, lang) in [
        (home, ScreenId::Home, Lang::En),
        ("frozen_en", ScreenId::Frozen, Lang::En),
        ("frozen_zh", ScreenId::Frozen, Lang::Zh),
        ("abc_en", ScreenId::Abc, Lang::En),
        ("herd_zh", ScreenId::Herd, Lang::Zh),
    ] {
        let a = app(screen_id, lang, (80, 24));
        insta::assert_snapshot!(name, screen(&a));
    }
}

/// What must hold after any input: every cursor, selection and index within its range.
fn check_consistent(a: &App) {
    assert!(a.home.selected < a.home.items.len());
    assert!(a.frozen.focus < crate::engine::params::FROZEN_SPECS.len());
    assert!(a.herd.focus < crate::engine::params::HERD_SPECS.len());
    assert!(a.herd.params.fanout >= 1 && a.herd.params.fanout <= a.herd.params.waiters);
    assert!(a.herd.params.waiters <= crate::tui::screens::herd::SCREEN_MAX_WAITERS);
    assert!(a.frozen.view.tl.cursor_ms <= a.frozen.runs.trace.end_ms);
    assert!(a.abc.view.tl.cursor_ms <= a.abc.runs.trace.end_ms);
    for (tl, trace) in [
        (&a.frozen.view.tl, &a.frozen.runs.trace),
        (&a.abc.view.tl, &a.abc.runs.trace),
    ] {
        if let Some(i) = tl.event {
            assert!(i < trace.events.len());
        }
    }
    assert!(a.abc.index < a.abc.presets.len().max(1));
    assert_eq!(a.frozen.runs.other.is_some(), a.frozen.runs.comparing());
    if let Some(f) = &a.family {
        assert!(f.focus < f.knobs().len());
        assert!(f.view.tl.cursor_ms <= f.runs.trace.end_ms);
        assert!(
            f.view
                .tl
                .event
                .is_none_or(|i| i < f.runs.trace.events.len())
        );
        assert!(
            f.runs.parting.is_none() || f.runs.other.is_some(),
            "a parting needs two runs"
        );
    }
    let r = &a.reader;
    assert!(r.top <= r.doc.lines.len().saturating_sub(r.rows));
    assert!(r.link.is_none_or(|l| l < r.doc.links.len()));
    assert!(r.search.current.is_none_or(|c| c < r.search.matches.len()));
    if let Some(crate::tui::screens::reader::Overlay::Outline(i)) = r.overlay {
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
