//! Lanes: one row per actor, its state spans sampled into columns over the run, with an axis,
//! an optional danger-window row and the shared time cursor.
//!
//! The geometry helpers (`track`, `time_at`, `col_of`) are shared with mouse hit-testing, so a
//! click lands on exactly the instant the column shows.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::widgets::Widget;

use crate::engine::time::{Millis, fmt_secs};
use crate::engine::trace::{Lane, Trace};
use crate::export::text::glyph;
use crate::tui::theme::Theme;

/// Columns kept for the lane labels.
pub const LABEL_COLS: u16 = 12;

/// The columns that show time inside a lanes area.
pub fn track(area: Rect) -> Rect {
    let label = LABEL_COLS.min(area.width);
    Rect::new(area.x + label, area.y, area.width - label, area.height)
}

/// The instant shown by column `col` (absolute), clamped to the run.
pub fn time_at(track: Rect, end: Millis, col: u16) -> Millis {
    if track.width == 0 {
        return 0;
    }
    let i = col.saturating_sub(track.x).min(track.width - 1) as u64;
    end * i / track.width as u64
}

/// The column (relative to the track) whose time slot contains `t`.
pub fn col_of(track: Rect, end: Millis, t: Millis) -> u16 {
    if track.width == 0 || end == 0 {
        return 0;
    }
    let i = (t as u128 * track.width as u128 / end as u128) as u16;
    i.min(track.width - 1)
}

pub struct Lanes<'a> {
    pub trace: &'a Trace,
    pub rows: Vec<(String, &'a Lane)>,
    pub end_ms: Millis,
    pub cursor_ms: Millis,
    /// `[from, to)` in milliseconds, drawn as a row of `!` under the lanes.
    pub danger: Option<(Millis, Millis)>,
    pub danger_label: String,
    pub theme: Theme,
}

impl Lanes<'_> {
    /// Rows this widget wants: the axis, the lanes and the danger row if any.
    pub fn height(&self) -> u16 {
        1 + self.rows.len() as u16 + u16::from(self.danger.is_some())
    }
}

impl Widget for Lanes<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let area = area.intersection(buf.area);
        if area.height == 0 || area.width <= LABEL_COLS {
            return;
        }
        let tr = track(area);
        let end = self.end_ms.max(1);
        let cursor_col = tr.x + col_of(tr, end, self.cursor_ms);
        let label_w = (LABEL_COLS - 1) as usize;
        let dim = self.theme.dim();

        // Axis: a label every "nice" step, as many as fit without touching.
        let step = [
            1_000, 2_000, 5_000, 10_000, 20_000, 30_000, 60_000, 120_000, 300_000,
        ]
        .into_iter()
        .find(|s| (end / s) as u16 * 6 <= tr.width.max(1))
        .unwrap_or(600_000);
        let mut t = 0;
        while t <= end {
            let x = tr.x + col_of(tr, end, t);
            let text = format!("|{}", fmt_secs(t));
            let room = (tr.right() - x) as usize;
            if room >= text.len() {
                buf.set_stringn(x, area.y, &text, room, dim);
            }
            t += step;
        }
        buf.set_stringn(area.x, area.y, "s", label_w, dim);

        let mut y = area.y + 1;
        for (label, lane) in &self.rows {
            if y >= area.bottom() {
                return;
            }
            buf.set_stringn(area.x, y, label, label_w, ratatui::style::Style::new());
            for x in tr.x..tr.right() {
                let at = time_at(tr, end, x);
                if let Some(span) = lane.span_at(at) {
                    let g = glyph(span.state, self.trace);
                    buf[(x, y)]
                        .set_char(g)
                        .set_style(self.theme.state(span.state));
                }
            }
            y += 1;
        }
        if let Some((from, to)) = self.danger
            && y < area.bottom()
        {
            buf.set_stringn(area.x, y, &self.danger_label, label_w, self.theme.danger());
            for x in tr.x..tr.right() {
                let at = time_at(tr, end, x);
                if at >= from && at < to {
                    buf[(x, y)].set_char('!').set_style(self.theme.danger());
                }
            }
            y += 1;
        }
        // The cursor: reverse video down the lane rows, a caret on the axis.
        buf[(cursor_col, area.y)].set_char('v');
        for cy in area.y..y.min(area.bottom()) {
            let cell = &mut buf[(cursor_col, cy)];
            cell.set_style(self.theme.cursor());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn click_and_draw_agree_on_time() {
        let tr = Rect::new(12, 0, 80, 5);
        for col in 12..92 {
            let t = time_at(tr, 40_000, col);
            assert_eq!(tr.x + col_of(tr, 40_000, t), col);
        }
        assert_eq!(time_at(tr, 40_000, 0), 0);
        assert_eq!(time_at(tr, 40_000, 500), 40_000 * 79 / 80);
    }
}
