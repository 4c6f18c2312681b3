//! Input becomes an [`AppMsg`]: keys and mouse events map to messages here, pure and with no
//! terminal needed, so tests can drive the app key by key.

use crossterm::event::{
    KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};

use crate::tui::app::{App, AppMsg, ScreenId};
use crate::tui::keys;
use crate::tui::screens::quiz;
use crate::tui::screens::reader;

/// Maps a key press to a message for the current screen; `None` for keys that do nothing here.
pub fn map_key(key: KeyEvent, app: &App) -> Option<AppMsg> {
    if key.kind == KeyEventKind::Release {
        return None;
    }
    let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
    match key.code {
        KeyCode::Char('c') if ctrl => return Some(AppMsg::Quit),
        _ => {}
    }
    // A prompt being typed into, an overlay or a question to confirm takes its keys first.
    if !app.help {
        let modal = match app.screen {
            ScreenId::Reader => reader::map_modal(key, &app.reader),
            ScreenId::Quiz => app
                .quiz
                .as_ref()
                .and_then(|q| quiz::map_modal(key, q).map(Some)),
            _ => None,
        };
        if let Some(m) = modal {
            return m;
        }
    }
    match key.code {
        KeyCode::Char('?') => return Some(AppMsg::ToggleHelp),
        KeyCode::Char('L') => return Some(AppMsg::ToggleLang),
        KeyCode::Esc | KeyCode::Char('q') if app.help => return Some(AppMsg::ToggleHelp),
        KeyCode::Up | KeyCode::Char('k') if app.help => return Some(AppMsg::HelpScroll(-1)),
        KeyCode::Down | KeyCode::Char('j') if app.help => return Some(AppMsg::HelpScroll(1)),
        KeyCode::PageUp if app.help => return Some(AppMsg::HelpScroll(-10)),
        KeyCode::PageDown if app.help => return Some(AppMsg::HelpScroll(10)),
        KeyCode::Esc | KeyCode::Char('q') => return Some(AppMsg::Back),
        _ if app.help || ctrl => return None,
        _ => {}
    }
    // Every screen reads its keys from one table, which `?` help lists too; the quiz says which
    // of them the question on show takes.
    match (app.screen, &app.quiz) {
        (ScreenId::Quiz, Some(q)) => keys::map_with(app.screen, &key, |m| q.accept(m)),
        (ScreenId::Quiz, None) => None,
        (screen, _) => keys::map(screen, &key),
    }
}

/// Maps a mouse event: a left press or drag becomes a pointer message, the wheel scrolls.
pub fn map_mouse(m: MouseEvent) -> Option<AppMsg> {
    match m.kind {
        MouseEventKind::ScrollUp => Some(AppMsg::Wheel(-1)),
        MouseEventKind::ScrollDown => Some(AppMsg::Wheel(1)),
        MouseEventKind::Down(MouseButton::Left) | MouseEventKind::Drag(MouseButton::Left) => {
            Some(AppMsg::Pointer {
                col: m.column,
                row: m.row,
            })
        }
        _ => None,
    }
}
