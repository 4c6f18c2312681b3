//! The quiz screen's keys: the leave prompt, the notes and number fields, then the commands.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::{QuizMsg, QuizState};
use crate::quiz::session::Phase;
use crate::tui::app::Msg;

/// Quiz keys, taken before the global ones. `None` lets the usual mapping run (`?`, `L`).
pub fn map_key(key: KeyEvent, s: &QuizState) -> Option<Msg> {
    let q = |m| Some(Msg::Quiz(m));
    let shift = key.modifiers.contains(KeyModifiers::SHIFT);
    if s.confirm {
        return match key.code {
            KeyCode::Char('y') | KeyCode::Enter => q(QuizMsg::Confirm(true)),
            KeyCode::Char('n') | KeyCode::Esc | KeyCode::Char('q') => q(QuizMsg::Confirm(false)),
            KeyCode::Char('?') | KeyCode::Char('L') => None,
            _ => q(QuizMsg::Confirm(false)),
        };
    }
    if s.text_entry() {
        match key.code {
            KeyCode::Esc if s.typing => return q(QuizMsg::Leave),
            KeyCode::Tab if s.typing => return q(QuizMsg::Notes),
            KeyCode::Enter => return q(QuizMsg::Submit),
            KeyCode::Backspace => return q(QuizMsg::Backspace),
            KeyCode::Char(c) if s.typing => return q(QuizMsg::Char(c)),
            KeyCode::Char(c) if c.is_ascii_digit() || matches!(c, '.' | ',' | '-') => {
                return q(QuizMsg::Char(c));
            }
            _ => {}
        }
    }
    let phase = s.session.phase();
    let options = s.picked.len();
    match key.code {
        KeyCode::Char('?') | KeyCode::Char('L') => None,
        KeyCode::Esc | KeyCode::Char('q') => q(QuizMsg::Leave),
        KeyCode::Enter => q(QuizMsg::Submit),
        KeyCode::Tab => q(QuizMsg::Notes),
        KeyCode::PageUp => q(QuizMsg::Scroll(-1)),
        KeyCode::PageDown => q(QuizMsg::Scroll(1)),
        KeyCode::Up if shift => q(QuizMsg::Move(-1)),
        KeyCode::Down if shift => q(QuizMsg::Move(1)),
        KeyCode::Char('K') => q(QuizMsg::Move(-1)),
        KeyCode::Char('J') => q(QuizMsg::Move(1)),
        KeyCode::Char(' ') if phase == Phase::Answered => q(QuizMsg::Submit),
        KeyCode::Char(' ') => q(QuizMsg::Toggle),
        KeyCode::Char(c @ '0'..='9') => q(QuizMsg::Digit(c as u8 - b'0')),
        // Only recall and model questions carry hints, and neither has an option `h`.
        KeyCode::Char('h')
            if phase == Phase::Asking && s.current().is_some_and(|i| i.hint.is_some()) =>
        {
            q(QuizMsg::Hint)
        }
        KeyCode::Char(c)
            if c.is_ascii_lowercase()
                && ((c as u8 - b'a') as usize) < options
                && phase == Phase::Asking =>
        {
            q(QuizMsg::Letter(c as u8 - b'a'))
        }
        KeyCode::Up | KeyCode::Char('k') => q(QuizMsg::Up),
        KeyCode::Down | KeyCode::Char('j') => q(QuizMsg::Down),
        KeyCode::Char('r') => q(QuizMsg::Reveal),
        KeyCode::Char('o') => q(QuizMsg::OpenRun),
        KeyCode::Char('n') => q(QuizMsg::Notes),
        _ => None,
    }
}
