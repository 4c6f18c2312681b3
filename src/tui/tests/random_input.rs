//! Random keys, clicks, wheel notches, resizes and ticks thrown at `update`: nothing panics and
//! the state stays consistent.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind};
use proptest::prelude::*;
use ratatui::buffer::Buffer;

use super::{app, check_consistent};
use crate::i18n::Lang;
use crate::tui::app::{AppMsg, ScreenId, map_key, map_mouse, update};

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
            update(&mut a, AppMsg::OpenLesson(i));
        }
        if let Some(seed) = quiz_seed {
            let req = crate::tui::screens::quiz::QuizRequest {
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
                Input::Resize(w, h) => Some(AppMsg::Resize(w, h)),
                Input::Tick => Some(AppMsg::Tick),
            };
            if let Some(msg) = msg {
                update(&mut a, msg);
            }
            if a.quit {
                break;
            }
            check_consistent(&a);
            let mut buf = Buffer::empty(ratatui::layout::Rect::new(0, 0, a.size.0, a.size.1));
            crate::tui::app::render(&a, buf.area, &mut buf);
        }
    }
}
