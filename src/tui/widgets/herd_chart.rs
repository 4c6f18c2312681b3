//! The herd chart: one row per release, the winner solid at the left, then the waiters woken for
//! nothing, then those left asleep, scaled so the widest row fits.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::widgets::Widget;

use crate::engine::trace::HerdMetrics;
use crate::tui::theme::{HerdPart, Theme};

pub struct HerdChart<'a> {
    pub metrics: &'a HerdMetrics,
    /// Shown instead of the last row when rows are left off; `{}` is replaced by the count.
    pub more: String,
    pub theme: Theme,
}

/// Columns for the release number and the woken count.
const PREFIX: u16 = 12;

impl Widget for HerdChart<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let area = area.intersection(buf.area);
        if area.height == 0 || area.width <= PREFIX + 1 {
            return;
        }
        let rows = &self.metrics.rows;
        let widest = rows
            .iter()
            .map(|r| (r.woken + r.not_notified) as usize)
            .max()
            .unwrap_or(0);
        let cols = (area.width - PREFIX) as usize;
        let scale = widest.div_ceil(cols).max(1);
        let cells = |n: u32| (n as usize).div_ceil(scale);
        let fits = area.height as usize;
        let shown = if rows.len() > fits {
            fits - 1
        } else {
            rows.len()
        };
        for (i, row) in rows.iter().take(shown).enumerate() {
            let y = area.y + i as u16;
            let prefix = format!("{:>5} {:>5} ", row.release, row.woken);
            buf.set_stringn(area.x, y, &prefix, PREFIX as usize, self.theme.dim());
            let mut x = area.x + PREFIX;
            let parts = [
                (HerdPart::Winner, '#', cells(1)),
                (HerdPart::Wasted, '+', cells(row.wasted)),
                (HerdPart::Asleep, '.', cells(row.not_notified)),
            ];
            for (part, ch, n) in parts {
                for _ in 0..n {
                    if x >= area.right() {
                        break;
                    }
                    buf[(x, y)].set_char(ch).set_style(self.theme.herd(part));
                    x += 1;
                }
            }
        }
        if shown < rows.len() {
            let text = self.more.replace("{}", &(rows.len() - shown).to_string());
            buf.set_stringn(
                area.x,
                area.y + shown as u16,
                &text,
                area.width as usize,
                Style::new(),
            );
        }
    }
}
