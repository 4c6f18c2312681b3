//! The quiz screen's keys and its place behind the [`Screen`] trait. The leave prompt and the
//! notes and number fields take keys first ([`map_modal`]); every other key comes from the key
//! table ([`KEYS`]), and [`QuizState::accept`] says which of its messages the question on show
//! takes.

use crossterm::event::{KeyCode, KeyEvent};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

use super::{Outcome, QuizMsg, QuizState};
use crate::i18n::Ui;
use crate::quiz::session::Phase;
use crate::tui::app::AppMsg;
use crate::tui::keys::{Binding, Ch, Code, Digit, Letter, Shifted, U, b, info};
use crate::tui::screen::{Cx, Screen, View};

const fn q(msg: QuizMsg) -> AppMsg {
    AppMsg::Quiz(msg)
}

/// The commands, in the order a key is looked up: Shift rows before the plain key, the hint
/// before the option letters, and the letters before the one-letter commands (a long option
/// list uses them; [`QuizState::accept`] lets a letter through only where an option has it).
pub const KEYS: &[Binding] = &[
    b(
        &[Code(KeyCode::Enter)],
        "Enter r",
        U(Ui::KeyQuizSubmit),
        q(QuizMsg::Submit),
    ),
    b(
        &[Code(KeyCode::Tab)],
        "Tab n",
        U(Ui::KeyQuizNotes),
        q(QuizMsg::Notes),
    ),
    b(
        &[Shifted(KeyCode::Up), Ch('K')],
        "Shift-Up/Down K/J",
        U(Ui::KeyQuizMoveStep),
        q(QuizMsg::Move(-1)),
    ),
    b(
        &[Shifted(KeyCode::Down), Ch('J')],
        "Shift-Up/Down K/J",
        U(Ui::KeyQuizMoveStep),
        q(QuizMsg::Move(1)),
    ),
    b(
        &[Ch(' ')],
        "Up/Down j/k Space",
        U(Ui::KeyQuizTick),
        q(QuizMsg::Toggle),
    ),
    b(&[Digit], "1-9", U(Ui::KeyQuizDigits), q(QuizMsg::Digit(1))),
    b(&[Ch('h')], "h", U(Ui::KeyQuizHint), q(QuizMsg::Hint)),
    b(
        &[Letter],
        "a b c ...",
        U(Ui::KeyQuizLetters),
        q(QuizMsg::Letter(0)),
    ),
    b(
        &[Code(KeyCode::Up), Ch('k')],
        "Up/Down j/k Space",
        U(Ui::KeyQuizTick),
        q(QuizMsg::Up),
    ),
    b(
        &[Code(KeyCode::Down), Ch('j')],
        "Up/Down j/k Space",
        U(Ui::KeyQuizTick),
        q(QuizMsg::Down),
    ),
    b(
        &[Ch('r')],
        "Enter r",
        U(Ui::KeyQuizSubmit),
        q(QuizMsg::Reveal),
    ),
    b(&[Ch('o')], "o", U(Ui::KeyQuizOpenRun), q(QuizMsg::OpenRun)),
    b(&[Ch('n')], "Tab n", U(Ui::KeyQuizNotes), q(QuizMsg::Notes)),
    b(
        &[Code(KeyCode::PageUp)],
        "PgUp/PgDn",
        U(Ui::KeyQuizScroll),
        q(QuizMsg::Scroll(-1)),
    ),
    b(
        &[Code(KeyCode::PageDown)],
        "PgUp/PgDn",
        U(Ui::KeyQuizScroll),
        q(QuizMsg::Scroll(1)),
    ),
    // q and Esc are the app's Back, which the quiz turns into its leave prompt.
    info("q Esc", U(Ui::KeyQuizLeave)),
];

/// Keys the leave prompt and the text fields take before anything else. `None` lets the usual
/// mapping run (`?`, `L`, Back, then the table).
pub fn map_modal(key: KeyEvent, s: &QuizState) -> Option<AppMsg> {
    if s.confirm {
        return match key.code {
            KeyCode::Char('y') | KeyCode::Enter => Some(q(QuizMsg::Confirm(true))),
            KeyCode::Char('?') | KeyCode::Char('L') => None,
            _ => Some(q(QuizMsg::Confirm(false))),
        };
    }
    if s.text_entry() {
        match key.code {
            KeyCode::Esc if s.typing => return Some(q(QuizMsg::Leave)),
            KeyCode::Tab if s.typing => return Some(q(QuizMsg::Notes)),
            KeyCode::Enter => return Some(q(QuizMsg::Submit)),
            KeyCode::Backspace => return Some(q(QuizMsg::Backspace)),
            KeyCode::Char(c) if s.typing => {
                return Some(q(QuizMsg::Char(c)));
            }
            KeyCode::Char(c) if c.is_ascii_digit() || matches!(c, '.' | ',' | '-') => {
                return Some(q(QuizMsg::Char(c)));
            }
            _ => {}
        }
    }
    None
}

impl QuizState {
    /// A message of the key table as the question on show takes it: Space goes on once the
    /// question is answered, the hint only where there is one, a letter only where an option
    /// has it. `None` lets the next row of the table have the key.
    pub fn accept(&self, msg: AppMsg) -> Option<AppMsg> {
        let asking = self.session.phase() == Phase::Asking;
        match msg {
            AppMsg::Quiz(QuizMsg::Toggle) if self.session.phase() == Phase::Answered => {
                Some(q(QuizMsg::Submit))
            }
            AppMsg::Quiz(QuizMsg::Hint)
                if !(asking && self.current().is_some_and(|i| i.hint.is_some())) =>
            {
                None
            }
            AppMsg::Quiz(QuizMsg::Letter(n)) if !(asking && usize::from(n) < self.picked.len()) => {
                None
            }
            m => Some(m),
        }
    }
}

impl Screen for QuizState {
    type Reply = Outcome;

    fn handle(&mut self, msg: AppMsg, cx: &mut Cx<'_>) -> Option<Outcome> {
        let m = match msg {
            // A click on a study link of the result list opens it, as Enter does.
            AppMsg::Pointer { row, .. } if !cx.small => {
                let sum = self.summary.as_ref()?;
                let main = super::view::main_area(cx.area);
                self.link = super::end::link_at(self, sum, cx.learn, cx.lang, main, row)?;
                QuizMsg::OpenRun
            }
            AppMsg::Quiz(m) => m,
            _ => return None,
        };
        self.update(m, cx.learn, cx.now)
    }

    fn draw(&self, v: &View<'_>, area: Rect, buf: &mut Buffer) {
        super::render(self, v.learn, v.lang, v.theme, area, buf);
    }
}
