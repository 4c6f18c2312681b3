//! Key, mouse and resize storms, one per screen and one per screen's help popup: random input
//! goes through the real key and mouse mapping and `update`, and every step is drawn through a
//! `TestBackend` terminal that follows the resizes, as the event loop does. Nothing may panic,
//! and the state must stay consistent after every step.
//!
//! A storm keeps to its screen: when the input leaves it (Back, a link, a finished quiz), the
//! screen is opened again, so most of the input lands where the storm is aimed. A new screen is
//! one `storm!` line below. `PROPTEST_CASES` sets the number of storms per screen.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind};
use proptest::prelude::*;
use ratatui::Terminal;
use ratatui::backend::TestBackend;

use super::super::app::{App, AppMsg, ScreenId, draw, map_key, map_mouse, update};
use super::super::screens::quiz::QuizRequest;
use crate::i18n::Lang;

/// One thing a user or the terminal can do.
#[derive(Debug, Clone)]
enum Input {
    Key(KeyCode, KeyModifiers),
    Mouse(MouseEventKind, u16, u16),
    Resize(u16, u16),
    Tick,
}

fn key_code() -> impl Strategy<Value = KeyCode> {
    prop_oneof![
        3 => proptest::sample::select(
            " ,.[]+-=_fswracpPLqQ?hjklJK/nNgo0123456789yYbBtTxzZvemHd!<>\u{4e2d}"
                .chars()
                .collect::<Vec<_>>()
        )
        .prop_map(KeyCode::Char),
        2 => proptest::sample::select(vec![
            KeyCode::Up,
            KeyCode::Down,
            KeyCode::Left,
            KeyCode::Right,
            KeyCode::Home,
            KeyCode::End,
            KeyCode::PageUp,
            KeyCode::PageDown,
            KeyCode::Enter,
            KeyCode::Esc,
            KeyCode::Tab,
            KeyCode::BackTab,
            KeyCode::Backspace,
            KeyCode::Delete,
            KeyCode::Insert,
            KeyCode::F(1),
        ]),
        1 => any::<char>().prop_map(KeyCode::Char),
    ]
}

fn input() -> impl Strategy<Value = Input> {
    let mods = proptest::sample::select(vec![
        KeyModifiers::NONE,
        KeyModifiers::NONE,
        KeyModifiers::NONE,
        KeyModifiers::SHIFT,
        KeyModifiers::CONTROL,
        KeyModifiers::ALT,
    ]);
    let mouse = proptest::sample::select(vec![
        MouseEventKind::Down(MouseButton::Left),
        MouseEventKind::Drag(MouseButton::Left),
        MouseEventKind::Up(MouseButton::Left),
        MouseEventKind::Down(MouseButton::Right),
        MouseEventKind::Moved,
        MouseEventKind::ScrollUp,
        MouseEventKind::ScrollDown,
    ]);
    prop_oneof![
        8 => (key_code(), mods).prop_map(|(k, m)| Input::Key(k, m)),
        3 => (mouse, 0u16..220, 0u16..70).prop_map(|(k, c, r)| Input::Mouse(k, c, r)),
        1 => prop_oneof![
            (0u16..250, 0u16..80),
            Just((80u16, 24u16)),
            Just((0u16, 0u16)),
            Just((1u16, 1u16)),
            Just((300u16, 90u16)),
        ]
        .prop_map(|(w, h)| Input::Resize(w, h)),
        1 => Just(Input::Tick),
    ]
}

/// Where a storm aims, and whether it is there.
struct Target {
    open: fn(&mut App),
    on: fn(&App) -> bool,
}

fn storm(target: &Target, lang: Lang, inputs: &[Input]) -> Result<(), TestCaseError> {
    let mut a = super::app(ScreenId::Home, lang, (100, 30));
    (target.open)(&mut a);
    prop_assert!((target.on)(&a), "the storm's screen did not open");
    let mut term = Terminal::new(TestBackend::new(a.size.0, a.size.1)).expect("test backend");
    for i in inputs {
        let msg = match i {
            Input::Key(code, mods) => map_key(KeyEvent::new(*code, *mods), &a),
            Input::Mouse(kind, column, row) => map_mouse(MouseEvent {
                kind: *kind,
                column: *column,
                row: *row,
                modifiers: KeyModifiers::NONE,
            }),
            Input::Resize(w, h) => {
                term.backend_mut().resize(*w, *h);
                Some(AppMsg::Resize(*w, *h))
            }
            Input::Tick => Some(AppMsg::Tick),
        };
        if let Some(msg) = msg {
            update(&mut a, msg);
        }
        if a.quit || !(target.on)(&a) {
            a.quit = false;
            (target.open)(&mut a);
        }
        super::check_consistent(&a);
        term.draw(|f| draw(f, &a)).expect("draw");
    }
    Ok(())
}

fn open_quiz(a: &mut App) {
    let req = QuizRequest {
        seed: Some(11),
        count: Some(4),
        ..Default::default()
    };
    a.start_quiz(&req, ScreenId::Home);
}

fn open_stats(a: &mut App) {
    a.learn.refresh((a.clock)());
    a.screen = ScreenId::Stats;
    a.help = false;
}

fn open_present(a: &mut App) {
    let scripted = crate::scenario::builtin()
        .iter()
        .find(|p| !p.script.is_empty())
        .expect("a scripted preset ships");
    a.present_preset(scripted.clone(), false);
}

fn open_family(a: &mut App) {
    a.open_family(crate::engine::trace::Family::Redlock, None);
    a.help = false;
}

fn open_reader(a: &mut App) {
    a.open_lesson(0);
}

/// Opens `screen` by setting it, for the screens that need nothing else.
macro_rules! plain_screen {
    ($id:ident) => {
        |a: &mut App| {
            a.screen = ScreenId::$id;
            a.help = false;
        }
    };
}

fn cases() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(4)
}

/// `storm!(test name, open the screen, is the app on it)`: one storm test. With `help`, the
/// screen's help popup is opened over it and the storm keeps to the popup.
macro_rules! storm {
    ($name:ident, $open:expr, $on:expr) => {
        proptest! {
            #![proptest_config(ProptestConfig {
                cases: cases(),
                failure_persistence: None,
                ..ProptestConfig::default()
            })]
            #[test]
            fn $name(zh in any::<bool>(), inputs in proptest::collection::vec(input(), 1..40)) {
                let target = Target { open: $open, on: $on };
                storm(&target, if zh { Lang::Zh } else { Lang::En }, &inputs)?;
            }
        }
    };
    ($name:ident, $open:expr, $on:expr, help) => {
        storm!(
            $name,
            |a: &mut App| {
                let open: fn(&mut App) = $open;
                open(a);
                a.help = true;
            },
            |a: &App| {
                let on: fn(&App) -> bool = $on;
                on(a) && a.help
            }
        );
    };
}

storm!(home, plain_screen!(Home), |a| a.screen == ScreenId::Home);
storm!(frozen, plain_screen!(Frozen), |a| a.screen
    == ScreenId::Frozen);
storm!(abc, plain_screen!(Abc), |a| a.screen == ScreenId::Abc);
storm!(herd, plain_screen!(Herd), |a| a.screen == ScreenId::Herd);
storm!(explore, plain_screen!(Explore), |a| a.screen
    == ScreenId::Explore);
storm!(reader, open_reader, |a| a.screen == ScreenId::Reader);
storm!(quiz, open_quiz, |a| a.screen == ScreenId::Quiz);
storm!(stats, open_stats, |a| a.screen == ScreenId::Stats);
storm!(present, open_present, |a| a.screen == ScreenId::Present);
storm!(family, open_family, |a| a.screen == ScreenId::Family);
storm!(
    family_help,
    open_family,
    |a| a.screen == ScreenId::Family,
    help
);
storm!(
    home_help,
    plain_screen!(Home),
    |a| a.screen == ScreenId::Home,
    help
);
storm!(
    frozen_help,
    plain_screen!(Frozen),
    |a| a.screen == ScreenId::Frozen,
    help
);
storm!(
    abc_help,
    plain_screen!(Abc),
    |a| a.screen == ScreenId::Abc,
    help
);
storm!(
    herd_help,
    plain_screen!(Herd),
    |a| a.screen == ScreenId::Herd,
    help
);
storm!(
    reader_help,
    open_reader,
    |a| a.screen == ScreenId::Reader,
    help
);
storm!(quiz_help, open_quiz, |a| a.screen == ScreenId::Quiz, help);
storm!(
    stats_help,
    open_stats,
    |a| a.screen == ScreenId::Stats,
    help
);
storm!(
    present_help,
    open_present,
    |a| a.screen == ScreenId::Present,
    help
);
