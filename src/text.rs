//! Display width and wrapping that respect wide (CJK) characters.

use unicode_width::UnicodeWidthStr;

/// Columns a string takes in a terminal.
pub fn width(s: &str) -> usize {
    UnicodeWidthStr::width(s)
}

/// Spaces up to `columns` columns, then `s` (nothing added when it is already as wide).
pub fn pad_left(s: &str, columns: usize) -> String {
    format!("{}{s}", " ".repeat(columns.saturating_sub(width(s))))
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

/// A no-break space: words joined by it (see [`unbreakable`]) never wrap apart.
pub const NO_BREAK: char = '\u{a0}';

/// `s` as one wrap unit, in this module's wrapping and in ratatui's: its spaces become
/// no-break spaces, and the CJK characters after one are never split apart either.
pub fn unbreakable(s: &str) -> String {
    s.replace(' ', &NO_BREAK.to_string())
}

/// `s` with each number glued to the unit after it (`5 ms`, `12 s`, `5 毫秒`, `12 秒`) by a
/// no-break space, so that wrapping never leaves a unit at the start of the next line.
pub fn glue_units(s: &str) -> String {
    const UNITS: [&str; 4] = ["ms", "s", "毫秒", "秒"];
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(i) = rest.find(' ') {
        let (before, after) = (&rest[..i], &rest[i + 1..]);
        out.push_str(before);
        let number = before.chars().last().is_some_and(|c| c.is_ascii_digit());
        let unit = UNITS.iter().any(|u| {
            after.strip_prefix(u).is_some_and(|tail| {
                u.chars().all(|c| !c.is_ascii())
                    || !tail.chars().next().is_some_and(|c| c.is_alphanumeric())
            })
        });
        out.push(if number && unit { NO_BREAK } else { ' ' });
        rest = after;
    }
    out.push_str(rest);
    out
}

/// Splits into wrap units: runs of non-space Latin characters, single spaces, and single wide
/// characters (each CJK character may end a line). A run glued by a no-break space is one unit.
pub(crate) fn split_words(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    for (i, c) in s.char_indices() {
        if c == ' ' {
            split_run(&s[start..i], &mut out);
            out.push(&s[i..i + 1]);
            start = i + 1;
        }
    }
    split_run(&s[start..], &mut out);
    out
}

/// One run without spaces, as wrap units. From the Latin word before its first no-break space
/// to its end, the run is one unit: a badge ends at the next space, whatever its script.
fn split_run<'a>(s: &'a str, out: &mut Vec<&'a str>) {
    if let Some(glue) = s.find(NO_BREAK) {
        let begin = s[..glue]
            .char_indices()
            .rev()
            .find(|(_, c)| width(c.encode_utf8(&mut [0; 4])) > 1)
            .map_or(0, |(i, c)| i + c.len_utf8());
        split_run(&s[..begin], out);
        out.push(&s[begin..]);
        return;
    }
    let mut start = 0;
    let mut iter = s.char_indices().peekable();
    while let Some((i, c)) = iter.next() {
        if width(c.encode_utf8(&mut [0; 4])) > 1 {
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

/// The longest prefix of `s` that fits in `cols` display columns (wide characters count two).
pub fn fit_cols(s: &str, cols: usize) -> &str {
    let mut w = 0;
    for (i, ch) in s.char_indices() {
        let cw = unicode_width::UnicodeWidthChar::width(ch).unwrap_or(0);
        if w + cw > cols {
            return &s[..i];
        }
        w += cw;
    }
    s
}

/// `s` cut to `cols` display columns, ending in `…` when cut: what every screen uses where a
/// label may not fit.
pub fn clip_cols(s: &str, cols: usize) -> std::borrow::Cow<'_, str> {
    if width(s) <= cols {
        return std::borrow::Cow::Borrowed(s);
    }
    match cols {
        0 => std::borrow::Cow::Borrowed(""),
        _ => format!("{}…", fit_cols(s, cols - 1)).into(),
    }
}

/// At most `max` characters of `s`, with `…` when it was cut: a bound on length, for messages
/// (columns are [`clip_cols`]'s job).
pub fn clip(s: &str, max: usize) -> std::borrow::Cow<'_, str> {
    match s.char_indices().nth(max) {
        None => std::borrow::Cow::Borrowed(s),
        Some((i, _)) => format!("{}…", &s[..i]).into(),
    }
}

/// How many characters of a bad value an error message repeats.
pub const SHOWN_MAX: usize = 60;

/// A value as an error message repeats it: printable, on one line, and clipped to
/// [`SHOWN_MAX`] characters with the number left out, so a 100 KB value makes a short message.
pub fn shown(s: &str) -> String {
    let n = s.chars().count();
    let clipped = clip(s, SHOWN_MAX);
    let p = printable(&clipped, false).into_owned();
    if n > SHOWN_MAX {
        format!("{p} ({} characters in all)", n)
    } else {
        p
    }
}

/// The longest line an error message prints: room for every list of names locklab gives.
pub const MESSAGE_LINE_MAX: usize = 1000;

/// An error message made safe to print, every line at most [`MESSAGE_LINE_MAX`] characters: the
/// last guard for a value repeated in full from a file or the command line.
pub fn bounded_message(message: &str) -> String {
    let mut out = String::with_capacity(message.len().min(64 * 1024));
    for (i, line) in message.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        let n = line.chars().count();
        if n > MESSAGE_LINE_MAX {
            out.push_str(&printable(&clip(line, MESSAGE_LINE_MAX), true));
            out.push_str(&format!(" ({n} characters in all)"));
        } else {
            out.push_str(&printable(line, true));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clipping_counts_columns_so_chinese_fits_its_room() {
        // Each Chinese character takes two columns.
        assert_eq!(fit_cols("租约到期", 5), "租约");
        assert_eq!(clip_cols("租约到期", 5), "租约…");
        assert_eq!(clip_cols("租约到期", 8), "租约到期");
        assert_eq!(clip_cols("election-unconditional", 10), "election-…");
        assert!(width(&clip_cols("gc-pause-no-fencing", 7)) <= 7);
        assert_eq!(clip_cols("abc", 0), "");
    }

    #[test]
    fn a_100_kb_value_makes_a_short_message() {
        let value = "a".repeat(100_000);
        let short = shown(&value);
        assert!(short.chars().count() < SHOWN_MAX + 40, "{short}");
        assert!(short.contains("100000 characters in all"), "{short}");
        let m = bounded_message(&format!("bad value `{value}`\nsecond line"));
        let lines: Vec<&str> = m.lines().collect();
        assert_eq!(lines.len(), 2);
        assert!(lines[0].chars().count() < MESSAGE_LINE_MAX + 40);
        assert_eq!(lines[1], "second line");
        assert_eq!(shown("short\u{1b}"), "short\u{241b}", "still printable");
    }

    #[test]
    fn a_number_keeps_its_unit_on_its_line() {
        let nb = NO_BREAK;
        assert_eq!(
            glue_units("longest wait 0 ms   refused 0"),
            format!("longest wait 0{nb}ms   refused 0")
        );
        assert_eq!(glue_units("G1 5 毫秒，G1"), format!("G1 5{nb}毫秒，G1"));
        // Words that only begin like a unit, and numbers without one, keep their spaces.
        assert_eq!(glue_units("3 steps and 2 ids"), "3 steps and 2 ids");
        // 30 columns end right after the 0: plain, the unit starts the next line alone.
        let line = "IDs issued 17   longest wait 0 ms";
        assert_eq!(wrap(line, 30)[1].trim(), "ms");
        let glued = wrap(&glue_units(line), 30);
        assert_eq!(glued[1].replace(nb, " ").trim(), "0 ms", "{glued:?}");
    }

    #[test]
    fn an_unbreakable_unit_moves_down_whole() {
        let en = format!("invariants: {}", unbreakable("[ok] no orphan node"));
        assert_eq!(
            wrap(&en, 24),
            ["invariants:", "[ok]\u{a0}no\u{a0}orphan\u{a0}node"]
        );
        let zh = format!("不变量：{}", unbreakable("[!!] 无人卡死"));
        assert_eq!(wrap(&zh, 14), ["不变量：", "[!!]\u{a0}无人卡死"]);
    }

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
