//! The reader's keys: the search prompt and the overlays first, then scrolling, the outline,
//! the glossary, search and links.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::{Overlay, ReaderMsg, ReaderState};
use crate::tui::app::Msg;

/// Rows the mouse wheel scrolls per notch.
const WHEEL_ROWS: i32 = 3;

/// Keys the reader takes before the global ones: the search prompt and the overlays.
/// `Some(None)` swallows a key; `None` lets the usual mapping run.
pub fn map_modal(key: KeyEvent, s: &ReaderState) -> Option<Option<Msg>> {
    let m = |r| Some(Some(Msg::Reader(r)));
    if s.typing() {
        return match key.code {
            KeyCode::Esc => m(ReaderMsg::SearchCancel),
            KeyCode::Enter => m(ReaderMsg::SearchSubmit),
            KeyCode::Backspace => m(ReaderMsg::SearchBack),
            KeyCode::Char(c) if !key.modifiers.contains(KeyModifiers::CONTROL) => {
                m(ReaderMsg::SearchChar(c))
            }
            _ => Some(None),
        };
    }
    let overlay = s.overlay?;
    match key.code {
        KeyCode::Char('?') | KeyCode::Char('L') => None,
        KeyCode::Esc | KeyCode::Char('q') => m(ReaderMsg::Close),
        KeyCode::Char('o') if matches!(overlay, Overlay::Outline(_)) => m(ReaderMsg::Close),
        KeyCode::Char('g') if matches!(overlay, Overlay::Glossary(_)) => m(ReaderMsg::Close),
        KeyCode::Up | KeyCode::Char('k') => m(ReaderMsg::Move(-1)),
        KeyCode::Down | KeyCode::Char('j') => m(ReaderMsg::Move(1)),
        KeyCode::PageUp => m(ReaderMsg::Move(-10)),
        KeyCode::PageDown | KeyCode::Char(' ') => m(ReaderMsg::Move(10)),
        KeyCode::Enter => m(ReaderMsg::Pick),
        _ => Some(None),
    }
}

/// The reader's own keys, after the global ones.
pub fn map_key(key: KeyEvent) -> Option<Msg> {
    let shift = key.modifiers.contains(KeyModifiers::SHIFT);
    let r = match key.code {
        KeyCode::Up | KeyCode::Char('k') => ReaderMsg::Scroll(-1),
        KeyCode::Down | KeyCode::Char('j') => ReaderMsg::Scroll(1),
        KeyCode::PageUp => ReaderMsg::Page(-1),
        KeyCode::PageDown => ReaderMsg::Page(1),
        KeyCode::Char(' ') if shift => ReaderMsg::Page(-1),
        KeyCode::Char(' ') => ReaderMsg::Page(1),
        KeyCode::Home => ReaderMsg::Edge(false),
        KeyCode::End => ReaderMsg::Edge(true),
        KeyCode::Char('o') => ReaderMsg::Outline,
        KeyCode::Char('g') => ReaderMsg::Glossary,
        KeyCode::Char('/') => ReaderMsg::SearchStart,
        KeyCode::Char('n') => ReaderMsg::SearchNext(1),
        KeyCode::Char('N') => ReaderMsg::SearchNext(-1),
        KeyCode::BackTab => ReaderMsg::Link(-1),
        KeyCode::Tab if shift => ReaderMsg::Link(-1),
        KeyCode::Tab => ReaderMsg::Link(1),
        KeyCode::Enter => ReaderMsg::Follow,
        _ => return None,
    };
    Some(Msg::Reader(r))
}

/// Turns a mouse-wheel notch into a reader message.
pub fn wheel(dir: i8) -> ReaderMsg {
    ReaderMsg::Scroll(i32::from(dir) * WHEEL_ROWS)
}
