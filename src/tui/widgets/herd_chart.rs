//! The herd chart: one row per release, the winner solid at the left, then the waiters woken for
//! nothing, then those left asleep, scaled so the widest row fits.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::widgets::Widget;

use ratatui::text::{Line, Span};

use crate::engine::trace::HerdMetrics;
use crate::i18n::Lang;
use crate::i18n::lab::{Lab, lab};
use crate::tui::theme::{HerdPart, Theme};

pub struct HerdChart<'a> {
    pub metrics: &'a HerdMetrics,
    /// Shown instead of the last row when rows are left off; `{}` is replaced by the count.
    pub more: String,
    /// Whether the heading row also says what each glyph means (where no key is drawn beside).
    pub key: bool,
    pub lang: Lang,
    pub theme: Theme,
}

/// Columns for the release number and the woken count.
const PREFIX: u16 = 12;

impl Widget for HerdChart<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let area = area.intersection(buf.area);
        if area.height < 2 || area.width <= PREFIX + 1 {
            return;
        }
        // The heading row: what the two number columns count, then the glyphs' key.
        let mut heading = format!(
            "{} {} ",
            crate::text::pad_left(lab(Lab::Release, self.lang), 5),
            crate::text::pad_left(lab(Lab::Woken, self.lang), 5)
        );
        if self.key {
            heading.push_str(crate::i18n::ui(crate::i18n::Ui::HerdLegend, self.lang));
        }
        buf.set_stringn(
            area.x,
            area.y,
            crate::tui::widgets::clip_cols(&heading, area.width as usize),
            area.width as usize,
            self.theme.dim(),
        );
        let area = Rect::new(area.x, area.y + 1, area.width, area.height - 1);
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

/// The glyphs of a wasted read and of the winner's read and hold.
pub fn herd_glyphs(theme: Theme) -> (char, char) {
    if theme.mono {
        ('+', '#')
    } else {
        ('▒', '█')
    }
}

/// The chart's key: what the two fills mean and what the woken column counts.
pub fn herd_legend(lang: Lang, theme: Theme) -> Line<'static> {
    let (wasted, winner) = herd_glyphs(theme);
    Line::from(vec![
        // Each entry is one wrap unit, so a narrow key breaks between entries.
        Span::styled(
            format!("{wasted}{}", crate::text::NO_BREAK),
            theme.herd(HerdPart::Wasted),
        ),
        Span::raw(format!(
            "{}   ",
            crate::text::unbreakable(lab(Lab::HerdKeyWasted, lang))
        )),
        Span::styled(
            format!("{winner}{}", crate::text::NO_BREAK),
            theme.herd(HerdPart::Winner),
        ),
        Span::raw(format!(
            "{}   ",
            crate::text::unbreakable(lab(Lab::HerdKeyWinner, lang))
        )),
        Span::styled(
            crate::text::unbreakable(lab(Lab::HerdKeyWoken, lang)),
            theme.dim(),
        ),
    ])
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
        // Padded by columns, so a Chinese heading keeps its place.
        let head = format!(
            "{} {} ",
            crate::text::pad_left(&self.headers[0], 5),
            crate::text::pad_left(&self.headers[1], 5)
        );
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
        // The time heading, with its unit, between the first tick and the middle one.
        let unit = &self.headers[2];
        let unit_w = crate::text::width(unit) as u16;
        let ux = track_x + track_w / 4;
        if ux + unit_w < track_x + track_w / 2 {
            buf.set_stringn(ux, hy, unit, unit_w as usize, theme.dim());
        }
        let rows = &self.metrics.rows;
        let shown = Self::rows_shown(area.height);
        let top = self.top.min(rows.len().saturating_sub(shown));
        for (i, row) in rows.iter().skip(top).take(shown).enumerate() {
            let y = area.y + 2 + i as u16;
            let prefix = format!("{:>5} {:>5} ", row.release, row.woken);
            buf.set_stringn(area.x, y, &prefix, TL_PREFIX as usize, theme.dim());
            let (wasted_ch, win_ch) = herd_glyphs(theme);
            // The reads split as the row counts them: the wasted ones first (in red, at least
            // one cell whenever any was wasted, none when none was), then the winner's own
            // read and its hold (at least one cell, never over a wasted one).
            let start = row.start_ms;
            let per_read = row.reads_ms / f64::from(row.woken.max(1));
            let wasted_end = start + per_read * f64::from(row.wasted);
            let c0 = col(start);
            let c1 = if row.wasted > 0 {
                col(wasted_end).max(c0 + 1)
            } else {
                c0
            };
            let c2 = col(start + row.duration_ms).max(c1 + 1);
            // At the right edge the row moves left rather than lose a cell to the clamp.
            let back = c2.saturating_sub(track_w);
            let (c0, c1, c2) = (
                c0.saturating_sub(back),
                c1.saturating_sub(back),
                c2.saturating_sub(back),
            );
            for x in c0..c1 {
                buf[(track_x + x.min(track_w - 1), y)]
                    .set_char(wasted_ch)
                    .set_style(theme.herd(HerdPart::Wasted));
            }
            for x in c1..c2 {
                buf[(track_x + x.min(track_w - 1), y)]
                    .set_char(win_ch)
                    .set_style(theme.herd(HerdPart::Winner));
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::params::HerdParams;
    use crate::engine::trace::Metrics;
    use crate::engine::{Params, run};

    fn metrics(fanout: u32, grab_ms: f64) -> HerdMetrics {
        let p = HerdParams {
            fanout,
            grab_cost_ms: grab_ms,
            ..HerdParams::default()
        };
        match run(&Params::Herd(p)).metrics {
            Metrics::Herd(m) => m,
            other => panic!("not a herd run: {other:?}"),
        }
    }

    /// A row shows a wasted read exactly when its count says one was wasted, and always
    /// shows its winner: on the chain (none wasted) and on the herd (most wasted), at a cheap
    /// and a dear grab.
    #[test]
    fn the_cells_of_each_row_match_its_counts() {
        for grab in [2.0, 52.0] {
            for fanout in [1, 50] {
                let m = metrics(fanout, grab);
                let theme = Theme { mono: false };
                let (wasted, winner) = herd_glyphs(theme);
                let h = m.rows.len() as u16 + 3;
                let area = Rect::new(0, 0, 90, h);
                let mut buf = Buffer::empty(area);
                HerdTimeline {
                    metrics: &m,
                    title: String::new(),
                    end_ms: m.total_time_ms,
                    top: 0,
                    headers: ["#".into(), "woken".into(), "time (s)".into()],
                    theme,
                }
                .render(area, &mut buf);
                for (i, row) in m.rows.iter().enumerate() {
                    let y = 2 + i as u16;
                    let cells: String = (0..area.width).map(|x| buf[(x, y)].symbol()).collect();
                    assert_eq!(
                        cells.contains(wasted),
                        row.wasted > 0,
                        "k={fanout} grab {grab}: row {} wasted {}: {cells}",
                        row.release,
                        row.wasted
                    );
                    assert!(cells.contains(winner), "row {}: {cells}", row.release);
                }
            }
        }
    }
}
