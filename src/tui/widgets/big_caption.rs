//! A caption in large type for the presenter. Latin text is drawn with tui-big-text (an 8x8
//! font in quarter-cell pixels, four columns and four rows per letter) when it fits the rows it
//! is given; its font has no Chinese, so Chinese (or anything too long for large type) is bold
//! text in a wide box with padding, which a projector shows just as clearly.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::Line;
use ratatui::widgets::{Block, Borders, Padding, Widget};
use tui_big_text::{BigText, PixelSize};

/// Columns and rows one letter takes in large type.
const LETTER: (u16, u16) = (4, 4);

/// The caption in plain ASCII if large type can draw all of it (typographic quotes and dashes
/// become their ASCII forms), else `None`.
pub fn big_text_form(text: &str) -> Option<String> {
    let s: String = text
        .chars()
        .map(|c| match c {
            '‘' | '’' => '\'',
            '“' | '”' => '"',
            '—' | '–' => '-',
            '…' => '.',
            c => c,
        })
        .collect();
    s.chars()
        .all(|c| c.is_ascii() && !c.is_ascii_control())
        .then_some(s)
}

/// The lines large type needs for `text` in `cols` columns, if it fits in `rows` rows.
pub fn big_lines(text: &str, cols: u16, rows: u16) -> Option<Vec<String>> {
    let ascii = big_text_form(text)?;
    let per_line = (cols / LETTER.0) as usize;
    if per_line < 8 {
        return None;
    }
    let lines = crate::text::wrap(&ascii, per_line);
    (lines.len() as u16 * LETTER.1 <= rows).then_some(lines)
}

/// Rows the caption takes in `cols` columns with at most `rows` available.
pub fn height(text: &str, cols: u16, rows: u16) -> u16 {
    match big_lines(text, cols, rows) {
        Some(lines) => lines.len() as u16 * LETTER.1,
        None => boxed_lines(text, cols).len() as u16 + 4,
    }
}

/// Whether `text` goes in a box rather than large type in `cols` columns and `rows` rows.
pub fn boxed(text: &str, cols: u16, rows: u16) -> bool {
    big_lines(text, cols, rows).is_none()
}

/// Rows the box takes without its padding rows.
pub fn tight_height(text: &str, cols: u16) -> u16 {
    boxed_lines(text, cols).len() as u16 + 2
}

fn boxed_lines(text: &str, cols: u16) -> Vec<String> {
    crate::text::wrap(text, cols.saturating_sub(8).max(1) as usize)
}

/// Rows the compact form takes: bold text behind a bar, for a screen whose lanes need the
/// rows a box would take.
pub fn compact_height(text: &str, cols: u16) -> u16 {
    compact_lines(text, cols).len() as u16
}

fn compact_lines(text: &str, cols: u16) -> Vec<String> {
    crate::text::wrap(text, cols.saturating_sub(2).max(1) as usize)
}

/// How the caption is drawn, from the most rows to the fewest.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    /// Large type, or a box with a row of padding above and below.
    Full,
    /// The box without its padding rows.
    Tight,
    /// Bold text behind a bar.
    Compact,
}

pub struct BigCaption<'a> {
    pub text: &'a str,
    pub style: Style,
    pub form: Form,
}

impl Widget for BigCaption<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let area = area.intersection(buf.area);
        if area.height == 0 || area.width < 10 {
            return;
        }
        let bold = self.style.add_modifier(Modifier::BOLD);
        if self.form == Form::Compact {
            for (i, l) in compact_lines(self.text, area.width)
                .iter()
                .enumerate()
                .take(area.height as usize)
            {
                let y = area.y + i as u16;
                buf.set_stringn(area.x, y, "▌", 1, self.style);
                buf.set_stringn(area.x + 2, y, l, area.width as usize - 2, bold);
            }
            return;
        }
        if let (Form::Full, Some(lines)) =
            (self.form, big_lines(self.text, area.width, area.height))
        {
            BigText::builder()
                .pixel_size(PixelSize::Quadrant)
                .style(self.style.add_modifier(Modifier::BOLD))
                .lines(lines.into_iter().map(Line::from).collect::<Vec<_>>())
                .build()
                .render(area, buf);
            return;
        }
        let lines = boxed_lines(self.text, area.width);
        let pad = u16::from(self.form == Form::Full);
        let h = (lines.len() as u16 + 2 + 2 * pad).min(area.height);
        let boxed = Rect { height: h, ..area };
        let block = Block::default()
            .borders(Borders::ALL)
            .padding(Padding::new(3, 3, pad, pad))
            .border_style(self.style);
        let inner = block.inner(boxed);
        block.render(boxed, buf);
        for (i, l) in lines.iter().enumerate().take(inner.height as usize) {
            buf.set_stringn(inner.x, inner.y + i as u16, l, inner.width as usize, bold);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chinese_is_never_drawn_in_large_type() {
        assert!(big_lines("A 还在停顿中。", 140, 40).is_none());
        assert!(big_lines("A is still frozen.", 140, 40).is_some());
        assert_eq!(
            big_text_form("B’s “node” — gone"),
            Some("B's \"node\" - gone".into())
        );
        // Too long for the rows given: the boxed form.
        assert!(big_lines(&"word ".repeat(80), 80, 8).is_none());
    }
}
