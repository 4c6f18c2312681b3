//! The one shape every screen has: it handles a message and draws itself. The app routes a
//! message to the screen on show and carries out what the screen cannot do alone (open another
//! screen, step through the catalogue), which the screen hands back as its [`Screen::Reply`].
//! Keys are not part of it: every screen's keys come from the one table in `keys`.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

use crate::i18n::Lang;
use crate::quiz::sched::Time;
use crate::scenario::Preset;
use crate::tui::app::AppMsg;
use crate::tui::learn::Learning;
use crate::tui::screens::reader::ReaderState;
use crate::tui::theme::Theme;

/// What a screen may use while it handles a message.
pub struct Cx<'a> {
    pub lang: Lang,
    /// The whole terminal.
    pub area: Rect,
    /// The terminal is smaller than the screens are laid out for: a click lands on nothing.
    pub small: bool,
    /// The wall clock (the tests' fixed one under test).
    pub now: Time,
    /// The decks and the progress store: answers and predictions are saved here.
    pub learn: &'a mut Learning,
}

/// What a screen may read while it draws.
pub struct View<'a> {
    pub lang: Lang,
    pub theme: Theme,
    pub learn: &'a Learning,
    /// The catalogue's A/B/C presets.
    pub presets: &'a [&'static Preset],
    /// The lessons, for their titles.
    pub reader: &'a ReaderState,
}

pub trait Screen {
    /// What the app must do after a message, beyond this screen's own state.
    type Reply;

    /// Applies one message to the screen's state.
    fn handle(&mut self, msg: AppMsg, cx: &mut Cx<'_>) -> Option<Self::Reply>;

    /// Draws the screen; it only reads the state.
    fn draw(&self, view: &View<'_>, area: Rect, buf: &mut Buffer);
}
