//! A panel of knobs: a title, one row per knob (a bar for a number, `< value >` for a switch
//! or a choice, the bare value for text), scrolled to keep the chosen knob in view, and a line
//! under them about the chosen knob (its range or options, or why a change was refused).

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::widgets::Widget;

use crate::tui::theme::Theme;

/// Columns of a number's bar: shorter in a narrow panel, so the value keeps its room.
fn bar_cols(width: u16) -> u16 {
    if width < 44 { 6 } else { 10 }
}

/// One knob as the panel shows it.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    pub label: String,
    pub value: String,
    /// Where a number sits in its range; `None` for a switch, a choice or text.
    pub frac: Option<f64>,
    /// Whether Left/Right cycle it (a switch or a choice), shown as `< value >`.
    pub cycles: bool,
    pub locked: bool,
}

/// Rows of knobs an area `h` rows high shows (after the title, before the detail line).
pub fn visible(h: u16) -> usize {
    h.saturating_sub(2).max(1) as usize
}

/// The first knob shown so that `focus` stays in view, a little below the top when it can.
pub fn first(n: usize, focus: usize, shown: usize) -> usize {
    if n <= shown {
        return 0;
    }
    focus.saturating_sub(shown / 2).min(n - shown)
}

/// The knob on screen row `row` of a panel in `area`, if any.
pub fn row_at(area: Rect, n: usize, focus: usize, row: u16) -> Option<usize> {
    let shown = visible(area.height).min(n);
    let top = area.y + 1;
    if row < top || row >= top + shown as u16 {
        return None;
    }
    let i = first(n, focus, shown) + (row - top) as usize;
    (i < n).then_some(i)
}

pub struct KnobPanel<'a> {
    pub title: &'a str,
    pub rows: &'a [Row],
    pub focus: usize,
    pub detail: &'a str,
    pub detail_style: Style,
    pub theme: Theme,
}

impl Widget for KnobPanel<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let area = area.intersection(buf.area);
        if area.height == 0 || area.width < 4 {
            return;
        }
        let n = self.rows.len();
        let shown = visible(area.height).min(n);
        let bar = bar_cols(area.width);
        // The labels get the columns the longest one needs, up to half the panel.
        let label_w = self
            .rows
            .iter()
            .map(|r| crate::text::width(&r.label) as u16 + 1)
            .max()
            .unwrap_or(0)
            .min(area.width / 2);
        let top = first(n, self.focus, shown);
        let more = if n > shown {
            format!("  {}/{n}", self.focus + 1)
        } else {
            String::new()
        };
        buf.set_stringn(
            area.x,
            area.y,
            format!("{}{more}", self.title),
            area.width as usize,
            self.theme.title(),
        );
        for (k, row) in self.rows.iter().enumerate().skip(top).take(shown) {
            let y = area.y + 1 + (k - top) as u16;
            if y >= area.bottom() {
                break;
            }
            let lock = if row.locked { " ⊘" } else { "" };
            let focused = k == self.focus;
            let marker = if focused { "> " } else { "  " };
            buf.set_stringn(area.x, y, marker, area.width as usize, Style::new());
            let style = if focused {
                self.theme.focus()
            } else {
                Style::new()
            };
            let lw = label_w.min(area.width.saturating_sub(2));
            buf.set_stringn(
                area.x + 2,
                y,
                crate::tui::widgets::clip_cols(&row.label, lw.saturating_sub(1) as usize),
                lw as usize,
                style,
            );
            let mut x = area.x + 2 + lw;
            if let Some(frac) = row.frac
                && x + bar + 1 < area.right()
            {
                let knob = (frac.clamp(0.0, 1.0) * f64::from(bar - 1)).round() as u16;
                for i in 0..bar {
                    let (ch, st) = match i.cmp(&knob) {
                        std::cmp::Ordering::Less => ('=', self.theme.title()),
                        std::cmp::Ordering::Equal if focused => ('O', self.theme.focus()),
                        std::cmp::Ordering::Equal => ('O', self.theme.title()),
                        std::cmp::Ordering::Greater => ('-', self.theme.dim()),
                    };
                    buf[(x + i, y)].set_char(ch).set_style(st);
                }
                x += bar + 1;
            }
            let value = if row.cycles {
                format!("< {} >{lock}", row.value)
            } else {
                format!("{}{lock}", row.value)
            };
            if x < area.right() {
                let room = (area.right() - x) as usize;
                buf.set_stringn(
                    x,
                    y,
                    crate::tui::widgets::clip_cols(&value, room),
                    room,
                    if row.frac.is_some() {
                        Style::new()
                    } else {
                        self.theme.title()
                    },
                );
            }
        }
        let dy = area.y + 1 + shown as u16;
        if dy < area.bottom() {
            let d = crate::tui::widgets::clip_cols(self.detail, area.width as usize);
            buf.set_stringn(area.x, dy, d, area.width as usize, self.detail_style);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_chosen_knob_stays_in_view_and_clicks_find_it() {
        assert_eq!(first(24, 0, 5), 0);
        assert_eq!(first(24, 10, 5), 8);
        assert_eq!(first(24, 23, 5), 19);
        assert_eq!(first(3, 2, 5), 0);
        let area = Rect::new(0, 10, 40, 7);
        assert_eq!(row_at(area, 24, 10, 10), None, "the title row");
        assert_eq!(row_at(area, 24, 10, 11), Some(8));
        assert_eq!(row_at(area, 24, 10, 15), Some(12));
        assert_eq!(row_at(area, 24, 10, 16), None, "the detail row");
    }
}
