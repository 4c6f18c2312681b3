//! Tables: column widths by display width, cells wrapped when the table would not fit, and the
//! separators kept aligned.

use super::wrap;
use super::{Builder, Kind, Line, MIN_COL, Seg, Table, cut};
use crate::text::width;

impl Builder {
    pub(super) fn draw_table(&mut self, t: Table) {
        let ncols = t.rows.iter().map(Vec::len).max().unwrap_or(0);
        if ncols == 0 {
            return;
        }
        let mut widths = vec![1usize; ncols];
        for row in &t.rows {
            for (c, cell) in row.iter().enumerate() {
                let w: usize = cell.iter().map(|s| width(s.text.trim())).sum();
                widths[c] = widths[c].max(w);
            }
        }
        // `| a | b |`: three columns of frame per cell and one at the end.
        let frame = 3 * ncols + 1;
        let room = self.width.saturating_sub(frame);
        // Too wide: narrow the widest column, one column at a time, so short ones stay whole.
        while widths.iter().sum::<usize>() > room {
            let Some((i, w)) = widths.iter().copied().enumerate().max_by_key(|(_, w)| *w) else {
                break;
            };
            if w <= MIN_COL {
                break;
            }
            widths[i] = w - 1;
        }
        let rule = |b: &mut Builder| {
            let mut line = Line::default();
            let mut s = String::from("|");
            for w in &widths {
                s.push_str(&"-".repeat(w + 2));
                s.push('|');
            }
            line.push(cut(&s, b.width), Kind::Frame);
            b.doc.lines.push(line);
        };
        for (r, row) in t.rows.iter().enumerate() {
            let cells: Vec<Vec<Vec<Seg>>> = (0..ncols)
                .map(|c| {
                    let cell = row.get(c).map(|cell| trim_segs(cell)).unwrap_or_default();
                    wrap(&cell, widths[c])
                })
                .collect();
            let height = cells.iter().map(Vec::len).max().unwrap_or(1).max(1);
            for k in 0..height {
                let mut line = Line::default();
                line.push("|", Kind::Frame);
                for (c, cell) in cells.iter().enumerate() {
                    line.push(" ", Kind::Plain);
                    let mut used = 0;
                    if let Some(segs) = cell.get(k) {
                        for seg in segs {
                            used += width(&seg.text);
                            let kind = if r < t.head_rows && seg.kind == Kind::Plain {
                                Kind::Strong
                            } else {
                                seg.kind
                            };
                            line.push(seg.text.clone(), kind);
                        }
                    }
                    line.push(" ".repeat(widths[c].saturating_sub(used) + 1), Kind::Plain);
                    line.push("|", Kind::Frame);
                }
                // A table narrower than its frame at a tiny width is cut, never overflows.
                if line.width() > self.width {
                    let text = cut(&line.text(), self.width);
                    line = Line::default();
                    line.push(text, Kind::Plain);
                }
                self.doc.lines.push(line);
            }
            if r + 1 == t.head_rows {
                rule(self);
            }
        }
    }
}

fn trim_segs(cell: &[Seg]) -> Vec<Seg> {
    let mut out = cell.to_vec();
    if let Some(first) = out.first_mut() {
        first.text = first.text.trim_start().to_string();
    }
    if let Some(last) = out.last_mut() {
        last.text = last.text.trim_end().to_string();
    }
    out
}
