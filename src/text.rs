//! Display width and wrapping that respect wide (CJK) characters.

use unicode_width::UnicodeWidthStr;

/// Columns a string takes in a terminal.
pub fn width(s: &str) -> usize {
    UnicodeWidthStr::width(s)
}

/// `s` followed by spaces up to `columns` columns (none when it is already as wide).
pub fn pad(s: &str, columns: usize) -> String {
    format!("{s}{}", " ".repeat(columns.saturating_sub(width(s))))
}

/// Characters that must not start a line in Chinese text: they stay with the line before.
pub(crate) const NO_LINE_START: &str = "，。、；：？！）」』》〉】,.;:?!)]}%";

/// Wraps `text` to `cols` display columns, breaking at spaces for Latin text and between any
/// two characters for CJK text. Closing punctuation never starts a line: when it does not fit,
/// the character before it moves down with it. From four columns up, no line is wider than
/// `cols`.
pub fn wrap(text: &str, cols: usize) -> Vec<String> {
    let cols = cols.max(2);
    let mut lines = Vec::new();
    for para in text.split('\n') {
        // The current line as wrap units, so the last one can move down with a punctuation mark.
        let mut line: Vec<&str> = Vec::new();
        let mut line_w = 0;
        for word in split_words(para) {
            let w = width(word);
            if line_w + w > cols && !line.is_empty() {
                let glued = word
                    .chars()
                    .next()
                    .is_some_and(|c| NO_LINE_START.contains(c));
                let carried = match line.last() {
                    Some(last) if glued && line.len() > 1 && *last != " " => line.pop(),
                    _ => None,
                };
                lines.push(line.concat().trim_end().to_string());
                line.clear();
                line_w = 0;
                if let Some(c) = carried {
                    line.push(c);
                    line_w = width(c);
                }
                if word == " " {
                    continue;
                }
            }
            if w > cols {
                // A single word wider than the line: break it by characters.
                let mut start = 0;
                for (i, ch) in word.char_indices() {
                    let cw = width(ch.encode_utf8(&mut [0; 4]));
                    if line_w + cw > cols && (!line.is_empty() || i > start) {
                        line.push(&word[start..i]);
                        lines.push(line.concat());
                        line.clear();
                        line_w = 0;
                        start = i;
                    }
                    line_w += cw;
                }
                line.push(&word[start..]);
                continue;
            }
            line.push(word);
            line_w += w;
        }
        lines.push(line.concat().trim_end().to_string());
    }
    lines
}

/// Splits into wrap units: runs of non-space Latin characters, single spaces, and single wide
/// characters (each CJK character may end a line).
pub(crate) fn split_words(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut iter = s.char_indices().peekable();
    while let Some((i, c)) = iter.next() {
        let wide = width(c.encode_utf8(&mut [0; 4])) > 1;
        if c == ' ' || wide {
            if start < i {
                out.push(&s[start..i]);
            }
            out.push(&s[i..i + c.len_utf8()]);
            start = i + c.len_utf8();
        } else if iter
            .peek()
            .is_some_and(|(_, n)| width(n.encode_utf8(&mut [0; 4])) > 1)
        {
            out.push(&s[start..i + c.len_utf8()]);
            start = i + c.len_utf8();
        }
    }
    if start < s.len() {
        out.push(&s[start..]);
    }
    out
}

/// Wraps a line and indents the continuation lines by `indent` columns.
pub fn wrap_indent(text: &str, cols: usize, indent: usize) -> String {
    let mut out = String::new();
    let first_cols = cols;
    let lines = wrap(text, first_cols);
    let (first, rest) = lines
        .split_first()
        .map_or((String::new(), Vec::new()), |(f, r)| {
            (f.clone(), r.to_vec())
        });
    out.push_str(&first);
    out.push('\n');
    let rest_text = rest.join(" ");
    if !rest_text.is_empty() {
        for l in wrap(&rest_text, cols.saturating_sub(indent)) {
            out.push_str(&" ".repeat(indent));
            out.push_str(&l);
            out.push('\n');
        }
    }
    out
}

/// `s` safe to print on a terminal or put in a file another tool shows: control characters
/// (which could move the cursor, change colours or retitle the window) become visible symbols,
/// C0 ones as their Unicode control pictures (`\x1b` as `␛`), the rest as U+FFFD. Line breaks
/// and tabs are kept when `lines` is true.
pub fn printable(s: &str, lines: bool) -> std::borrow::Cow<'_, str> {
    let bad = |c: char| c.is_control() && !(lines && matches!(c, '\n' | '\t'));
    if !s.chars().any(bad) {
        return std::borrow::Cow::Borrowed(s);
    }
    s.chars()
        .map(|c| match c {
            c if !bad(c) => c,
            '\u{0}'..='\u{1f}' => char::from_u32(0x2400 + c as u32).unwrap_or('\u{fffd}'),
            '\u{7f}' => '\u{2421}',
            _ => '\u{fffd}',
        })
        .collect::<String>()
        .into()
}

/// At most `max` characters of `s`, with `…` when it was cut.
pub fn clip(s: &str, max: usize) -> std::borrow::Cow<'_, str> {
    match s.char_indices().nth(max) {
        None => std::borrow::Cow::Borrowed(s),
        Some((i, _)) => format!("{}…", &s[..i]).into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wraps_latin_at_spaces_and_cjk_anywhere() {
        assert_eq!(
            wrap("the lock is free now", 10),
            ["the lock", "is free", "now"]
        );
        let zh = wrap("租约到期，锁从此刻起空闲。", 8);
        assert!(zh.iter().all(|l| width(l) <= 8), "{zh:?}");
        assert_eq!(zh.concat(), "租约到期，锁从此刻起空闲。");
        for cols in 4..30 {
            for l in wrap(
                "持锁者停顿超过会话超时，B 带着更大的令牌拿锁并写入；A 醒来后用旧令牌写入，被拒绝。",
                cols,
            ) {
                assert!(width(&l) <= cols.max(2), "{cols}: {l}");
                assert!(
                    !l.starts_with('，') && !l.starts_with('。') && !l.starts_with('；'),
                    "{cols}: {l}"
                );
            }
        }
        assert_eq!(wrap("abcdefghij", 4), ["abcd", "efgh", "ij"]);
        assert!(
            !zh.iter()
                .any(|l| l.starts_with('，') || l.starts_with('。')),
            "{zh:?}"
        );
        assert_eq!(width("中文ab"), 6);
    }
}
