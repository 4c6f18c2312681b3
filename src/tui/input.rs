//! Input becomes a [`Msg`]: keys and mouse events map to messages here, pure and with no
//! terminal needed, so tests can drive the app key by key.

use crossterm::event::{
    KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};

use crate::tui::app::{App, Msg, ScreenId};
use crate::tui::screens::quiz;
use crate::tui::screens::reader;

/// Maps a key press to a message for the current screen; `None` for keys that do nothing here.
pub fn map_key(key: KeyEvent, app: &App) -> Option<Msg> {
    if key.kind == KeyEventKind::Release {
        return None;
    }
    let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
    match key.code {
        KeyCode::Char('c') if ctrl => return Some(Msg::Quit),
        _ => {}
    }
    if app.screen == ScreenId::Reader
        && !app.help
        && let Some(m) = reader::map_modal(key, &app.reader)
    {
        return m;
    }
    if app.screen == ScreenId::Quiz
        && !app.help
        && let Some(q) = &app.quiz
        && let Some(m) = quiz::map_key(key, q)
    {
        return Some(m);
    }
    match key.code {
        KeyCode::Char('?') => return Some(Msg::ToggleHelp),
        KeyCode::Char('L') => return Some(Msg::ToggleLang),
        KeyCode::Esc | KeyCode::Char('q') if app.help => return Some(Msg::ToggleHelp),
        KeyCode::Up | KeyCode::Char('k') if app.help => return Some(Msg::HelpScroll(-1)),
        KeyCode::Down | KeyCode::Char('j') if app.help => return Some(Msg::HelpScroll(1)),
        KeyCode::PageUp if app.help => return Some(Msg::HelpScroll(-10)),
        KeyCode::PageDown if app.help => return Some(Msg::HelpScroll(10)),
        KeyCode::Esc | KeyCode::Char('q') => return Some(Msg::Back),
        _ if app.help || ctrl => return None,
        _ => {}
    }
    // The simulation screens read their keys from one table, which `?` help lists too.
    if crate::tui::keys::drives(app.screen) {
        return crate::tui::keys::map(app.screen, &key);
    }
    match app.screen {
        ScreenId::Home => match key.code {
            KeyCode::Up | KeyCode::Char('k') => Some(Msg::Up),
            KeyCode::Down | KeyCode::Char('j') => Some(Msg::Down),
            KeyCode::Enter => Some(Msg::Enter),
            KeyCode::Home | KeyCode::Char('g') => Some(Msg::Jump(false)),
            KeyCode::End | KeyCode::Char('G') => Some(Msg::Jump(true)),
            KeyCode::PageUp => Some(Msg::Scroll(-1)),
            KeyCode::PageDown => Some(Msg::Scroll(1)),
            // The quiz filter rows change with Left/Right.
            KeyCode::Left | KeyCode::Char('h') => Some(Msg::Adjust {
                dir: -1,
                coarse: false,
            }),
            KeyCode::Right | KeyCode::Char('l') => Some(Msg::Adjust {
                dir: 1,
                coarse: false,
            }),
            _ => None,
        },
        #[cfg(feature = "live")]
        ScreenId::Live => match key.code {
            KeyCode::Up | KeyCode::Char('k') => Some(Msg::Up),
            KeyCode::Down | KeyCode::Char('j') => Some(Msg::Down),
            KeyCode::Enter => Some(Msg::Enter),
            _ => None,
        },
        ScreenId::Reader => reader::map_key(key),
        ScreenId::Stats => match key.code {
            KeyCode::Up | KeyCode::Char('k') => Some(Msg::Up),
            KeyCode::Down | KeyCode::Char('j') => Some(Msg::Down),
            KeyCode::PageUp => Some(Msg::Scroll(-1)),
            KeyCode::PageDown => Some(Msg::Scroll(1)),
            KeyCode::Home | KeyCode::Char('g') => Some(Msg::Jump(false)),
            KeyCode::End | KeyCode::Char('G') => Some(Msg::Jump(true)),
            _ => None,
        },
        ScreenId::Quiz => None,
        ScreenId::Frozen
        | ScreenId::Abc
        | ScreenId::Herd
        | ScreenId::Present
        | ScreenId::Explore
        | ScreenId::Family => None,
    }
}

/// Maps a mouse event: a left press or drag becomes a pointer message, the wheel scrolls.
pub fn map_mouse(m: MouseEvent) -> Option<Msg> {
    match m.kind {
        MouseEventKind::ScrollUp => Some(Msg::Wheel(-1)),
        MouseEventKind::ScrollDown => Some(Msg::Wheel(1)),
        MouseEventKind::Down(MouseButton::Left) | MouseEventKind::Drag(MouseButton::Left) => {
            Some(Msg::Pointer {
                col: m.column,
                row: m.row,
            })
        }
        _ => None,
    }
}
