//! A recording's captions: the preset's script steps that tell the run being played (those
//! before the first step that changes a parameter), each shown from its instant on.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::widgets::{Paragraph, Widget, Wrap};

use crate::engine::time::Millis;
use crate::i18n::Lang;
use crate::scenario::Preset;
use crate::tui::theme::Theme;

pub struct Captions(Vec<(Millis, String)>);

impl Captions {
    pub fn of(preset: &Preset, lang: Lang) -> Self {
        let mut at = 0;
        let mut out = Vec::new();
        for step in preset.script.iter().take_while(|s| !s.changes_params) {
            // A step without a time keeps the cursor where the one before left it.
            at = step.at_ms.unwrap_or(at);
            let text = lang.pick(&step.caption.zh, &step.caption.en);
            let text = crate::text::printable(text, false).into_owned();
            if !text.trim().is_empty() {
                out.push((at, text));
            }
        }
        Self(out)
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The caption in force at `cursor`: the last step in script order that has been reached.
    pub fn at(&self, cursor: Millis) -> Option<&str> {
        self.0
            .iter()
            .rev()
            .find(|(t, _)| *t <= cursor)
            .map(|(_, s)| s.as_str())
    }
}

/// Seconds a caption stays still to be read: two, and a little more for a long one.
pub fn reading_secs(caption: &str) -> f64 {
    (2.0 + 0.04 * caption.chars().count() as f64).min(8.0)
}

/// A rule, then the caption wrapped under it.
pub fn draw(caption: Option<&str>, theme: Theme, area: Rect, buf: &mut Buffer) {
    let rule = "─".repeat(usize::from(area.width));
    buf.set_string(area.x, area.y, rule, theme.dim());
    let text = Rect::new(
        area.x + 1,
        area.y + 1,
        area.width.saturating_sub(2),
        area.height - 1,
    );
    Paragraph::new(caption.unwrap_or_default())
        .style(Style::new().add_modifier(Modifier::BOLD))
        .wrap(Wrap { trim: true })
        .render(text, buf);
}
