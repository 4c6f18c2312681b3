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

/// One side of the herd-versus-chain picture: one row per release, placed on a time axis shared
/// with the other side, the reads the woken waiters cost first (wasted ones in red) and then
/// the winner's hold. The chain's thin staircase against the herd's wide one shows N against
/// N(N+1)/2 as areas, and where the last row ends shows the extra time.
pub struct HerdTimeline<'a> {
    pub metrics: &'a HerdMetrics,
    pub title: String,
    /// The axis's end, shared by both sides.
    pub end_ms: f64,
    /// The first row shown.
    pub top: usize,
    /// Column headers: release, woken, time.
    pub headers: [String; 3],
    pub theme: Theme,
}

/// Columns before the time track: release number and woken count.
const TL_PREFIX: u16 = 12;

impl HerdTimeline<'_> {
    /// Rows of releases an area of `height` shows (title and header take two).
    pub fn rows_shown(height: u16) -> usize {
        height.saturating_sub(3) as usize
    }
}

impl Widget for HerdTimeline<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let area = area.intersection(buf.area);
        if area.height < 4 || area.width <= TL_PREFIX + 8 {
            return;
        }
        let theme = self.theme;
        buf.set_stringn(
            area.x,
            area.y,
            &self.title,
            area.width as usize,
            theme.title(),
        );
        let track_x = area.x + TL_PREFIX;
        let track_w = area.width - TL_PREFIX;
        let end = self.end_ms.max(0.001);
        let col = |t: f64| {
            ((t / end) * f64::from(track_w))
                .floor()
                .clamp(0.0, f64::from(track_w - 1)) as u16
        };
        // Headers, then an axis under them: 0, the middle and the end.
        let hy = area.y + 1;
        let head = format!("{:>5} {:>5} ", self.headers[0], self.headers[1]);
        buf.set_stringn(
            area.x,
            hy,
            crate::tui::widgets::clip_cols(&head, TL_PREFIX as usize),
            TL_PREFIX as usize,
            theme.dim(),
        );
        let ticks = [0.0, end / 2.0, end];
        for t in ticks {
            let label = format!("╵{}", crate::tui::screens::secs(t / 1000.0));
            let x = track_x + col(t);
            let x = x.min(
                area.right()
                    .saturating_sub(crate::text::width(&label) as u16),
            );
            buf.set_stringn(
                x,
                hy,
                &label,
                area.right().saturating_sub(x) as usize,
                theme.dim(),
            );
        }
        let unit = format!("{} (s)", self.headers[2]);
        let ux = track_x + track_w / 4;
        if ux + (unit.len() as u16) < track_x + track_w / 2 {
            buf.set_stringn(ux, hy, &unit, unit.len(), theme.dim());
        }
        let rows = &self.metrics.rows;
        let shown = Self::rows_shown(area.height);
        let top = self.top.min(rows.len().saturating_sub(shown));
        for (i, row) in rows.iter().skip(top).take(shown).enumerate() {
            let y = area.y + 2 + i as u16;
            let prefix = format!("{:>5} {:>5} ", row.release, row.woken);
            buf.set_stringn(area.x, y, &prefix, TL_PREFIX as usize, theme.dim());
            let start = row.start_ms;
            let reads = row.reads_ms;
            let (c0, c1, c2) = (col(start), col(start + reads), col(start + row.duration_ms));
            let wasted_style = theme.herd(HerdPart::Wasted);
            let win_style = theme.herd(HerdPart::Winner);
            let (wasted_ch, win_ch) = if theme.mono {
                ('+', '#')
            } else {
                ('▒', '█')
            };
            for x in c0..c1.max(c0 + u16::from(row.wasted > 0)) {
                buf[(track_x + x.min(track_w - 1), y)]
                    .set_char(wasted_ch)
                    .set_style(wasted_style);
            }
            for x in c1..c2.max(c1 + 1) {
                buf[(track_x + x.min(track_w - 1), y)]
                    .set_char(win_ch)
                    .set_style(win_style);
            }
        }
        if rows.len() > shown {
            let text = format!(
                "{}-{}/{}",
                top + 1,
                (top + shown).min(rows.len()),
                rows.len()
            );
            let x = area.right().saturating_sub(text.len() as u16);
            buf.set_stringn(x, area.bottom() - 1, &text, text.len(), theme.dim());
        }
    }
}
