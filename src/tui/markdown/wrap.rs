//! Wrapping and cutting styled text by display width, CJK-aware.

use super::{Kind, Line, Seg, TAB};
use crate::text::{NO_LINE_START, split_words, width};

/// Expands tabs to the next multiple of [`TAB`] columns.
pub(super) fn expand_tabs(s: &str) -> String {
    let mut out = String::new();
    let mut col = 0;
    for ch in s.chars() {
        if ch == '\t' {
            let n = TAB - col % TAB;
            out.push_str(&" ".repeat(n));
            col += n;
        } else {
            out.push(ch);
            col += width(ch.encode_utf8(&mut [0; 4]));
        }
    }
    out
}

/// The longest prefix of `s` that fits in `cols` columns.
pub fn cut(s: &str, cols: usize) -> String {
    crate::text::fit_cols(s, cols).to_string()
}

fn glued(s: &str) -> bool {
    s.chars().next().is_some_and(|c| NO_LINE_START.contains(c))
}

/// Wraps styled text to `cols` columns: Latin breaks at spaces, CJK between any two characters,
/// and a closing punctuation mark that would start a row pulls the character before it down
/// with it, so no row starts with `，` or `。` and none is wider than `cols`.
pub fn wrap(segs: &[Seg], cols: usize) -> Vec<Vec<Seg>> {
    let cols = cols.max(2);
    let mut rows: Vec<Vec<(String, Kind)>> = Vec::new();
    let mut cur: Vec<(String, Kind)> = Vec::new();
    let mut cur_w = 0usize;
    let finish = |cur: &mut Vec<(String, Kind)>, rows: &mut Vec<Vec<(String, Kind)>>| {
        while cur.last().is_some_and(|(t, _)| t == " ") {
            cur.pop();
        }
        rows.push(std::mem::take(cur));
    };
    for seg in segs {
        for part in seg.text.split_inclusive('\n') {
            let (part, brk) = match part.strip_suffix('\n') {
                Some(p) => (p, true),
                None => (part, false),
            };
            for word in split_words(part) {
                let w = width(word);
                if word == " " && cur.is_empty() {
                    continue;
                }
                if cur_w + w > cols && !cur.is_empty() {
                    if word == " " {
                        finish(&mut cur, &mut rows);
                        cur_w = 0;
                        continue;
                    }
                    let mut carry = Vec::new();
                    if glued(word) {
                        while cur.last().is_some_and(|(t, _)| t == " ") {
                            cur.pop();
                        }
                        while let Some(last) = cur.pop() {
                            let g = glued(&last.0);
                            carry.insert(0, last);
                            if !g {
                                break;
                            }
                        }
                        if cur.is_empty() {
                            // Nothing left to break before: keep the row as it was.
                            cur = std::mem::take(&mut carry);
                        }
                    }
                    finish(&mut cur, &mut rows);
                    cur_w = carry.iter().map(|(t, _)| width(t)).sum();
                    cur = carry;
                }
                if w > cols {
                    for ch in word.chars() {
                        let s = ch.to_string();
                        let cw = width(&s);
                        if cur_w + cw > cols && !cur.is_empty() {
                            finish(&mut cur, &mut rows);
                            cur_w = 0;
                        }
                        cur.push((s, seg.kind));
                        cur_w += cw;
                    }
                    continue;
                }
                cur.push((word.to_string(), seg.kind));
                cur_w += w;
            }
            if brk {
                finish(&mut cur, &mut rows);
                cur_w = 0;
            }
        }
    }
    if !cur.is_empty() || rows.is_empty() {
        finish(&mut cur, &mut rows);
    }
    rows.into_iter()
        .map(|row| {
            let mut line = Line::default();
            for (t, k) in row {
                line.push(t, k);
            }
            line.segs
        })
        .collect()
}
