//! Where a place in a TOML text is, for error messages: its line, column and key path
//! (`params.ttl`, `faults[1].at`, `answers[3].score`), and where its top-level table headers are.
//!
//! Both walk the tokens of `toml_parser`'s lexer one at a time, so they cost no memory for the
//! text's size and never fail: on a text that does not parse they give their best reading.

use toml_parser::Source;
use toml_parser::lexer::{Token, TokenKind};

/// 1-based line and column (in characters) of a byte offset.
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    (line, before[line_start..].chars().count() + 1)
}

/// Where a TOML error is and the key path there: `invalid type` and `duplicate key` name no key
/// themselves, and an error without a span is placed at the start of the file.
pub fn toml_error_place(
    text: &str,
    e: &toml::de::Error,
) -> (std::ops::Range<usize>, Option<String>) {
    let span = e.span().unwrap_or(0..0);
    let path = key_path(text, span.start);
    // A missing field is reported at its table; the key at fault is the field in it.
    let missing = e
        .message()
        .split("missing field `")
        .nth(1)
        .and_then(|rest| rest.split('`').next());
    let key = match missing {
        Some(m) => match table_path(text, span.start) {
            Some(table) => Some(format!("{table}.{m}")),
            None => Some(m.to_string()),
        },
        None => path.or_else(|| unknown_key(e.message())),
    };
    (span, key)
}

/// The key a toml "unknown field" error names, so the message can point at it.
fn unknown_key(message: &str) -> Option<String> {
    let rest = message.split("unknown field `").nth(1)?;
    Some(rest.split('`').next()?.to_string())
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Seg {
    Key(String),
    Index(usize),
}

/// Past this many parts a path is cut short: a deeply nested value needs no more to be found.
const MAX_SEGS: usize = 12;

fn render(path: &[Seg]) -> String {
    let mut out = String::new();
    for (n, seg) in path.iter().enumerate() {
        if n == MAX_SEGS {
            out.push('…');
            break;
        }
        match seg {
            Seg::Key(k) if out.is_empty() => out.push_str(k),
            Seg::Key(k) => {
                out.push('.');
                out.push_str(k);
            }
            Seg::Index(i) => out.push_str(&format!("[{i}]")),
        }
    }
    out
}

/// The text of a key token: a bare key as written, a quoted one without its quotes.
fn key_text(text: &str, t: &Token) -> String {
    let raw = text.get(t.span().start()..t.span().end()).unwrap_or("");
    match t.kind() {
        TokenKind::BasicString | TokenKind::LiteralString => {
            let inner = raw.get(1..raw.len().saturating_sub(1)).unwrap_or("");
            inner.to_string()
        }
        _ => raw.to_string(),
    }
}

fn is_key(kind: TokenKind) -> bool {
    matches!(
        kind,
        TokenKind::Atom | TokenKind::BasicString | TokenKind::LiteralString
    )
}

/// A value that opened inside a key/value pair.
enum Frame {
    /// An array: the path length at its opening; its last segment is the element index.
    Array(usize),
    /// An inline table: the path length at its opening, and whether a value is being read.
    Inline(usize, bool),
}

/// A top-level table header: `[name]` or `[[name]]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Header {
    /// Byte offset of the line the header is on.
    pub line_start: usize,
    /// Byte offset just after the closing bracket(s).
    pub end: usize,
    /// `[[...]]`, an element of an array of tables.
    pub array: bool,
    /// The dotted key, one element a part.
    pub keys: Vec<String>,
}

/// Everything a walk over the tokens knows at one point.
struct Walk {
    /// The path of the current table header, with array indexes.
    table: Vec<Seg>,
    /// The full path at the current token.
    path: Vec<Seg>,
    frames: Vec<Frame>,
    /// Only whitespace seen since the last newline outside any value.
    line_start: Option<usize>,
    /// Reading a header: whether it is an array header, its keys so far, where its line starts.
    header: Option<(bool, Vec<String>, usize)>,
    /// After `=` at the top level of a table.
    in_value: bool,
    /// How many `[[x]]` headers each path has had, for the element index.
    counts: std::collections::BTreeMap<String, usize>,
    /// The last bracket of a header was seen; a second one may follow for `]]`.
    closing: Option<usize>,
}

impl Walk {
    fn new() -> Self {
        Self {
            table: Vec::new(),
            path: Vec::new(),
            frames: Vec::new(),
            line_start: Some(0),
            header: None,
            in_value: false,
            counts: Default::default(),
            closing: None,
        }
    }

    /// Takes one token; returns a header when this token closed one.
    fn step(&mut self, text: &str, t: &Token) -> Option<Header> {
        let kind = t.kind();
        if let Some((array, keys, start)) = self.header.as_mut() {
            match kind {
                TokenKind::LeftSquareBracket if keys.is_empty() && !*array => *array = true,
                k if is_key(k) => keys.push(key_text(text, t)),
                TokenKind::RightSquareBracket => {
                    let (array, keys, start) = (*array, std::mem::take(keys), *start);
                    if array && self.closing.is_none() {
                        self.closing = Some(start);
                        self.header = Some((array, keys, start));
                        return None;
                    }
                    self.header = None;
                    self.closing = None;
                    return Some(self.open_table(array, keys, start, t.span().end()));
                }
                TokenKind::Newline => {
                    // A header cut short: keep what it named.
                    let (array, keys, start) = (*array, std::mem::take(keys), *start);
                    self.header = None;
                    self.closing = None;
                    let header = self.open_table(array, keys, start, t.span().start());
                    self.line_start = Some(t.span().end());
                    return Some(header);
                }
                _ => {}
            }
            return None;
        }
        match kind {
            TokenKind::Whitespace | TokenKind::Comment => {}
            TokenKind::Newline if self.frames.is_empty() => {
                self.in_value = false;
                self.path = self.table.clone();
                self.line_start = Some(t.span().end());
            }
            TokenKind::Newline => {}
            TokenKind::LeftSquareBracket if self.frames.is_empty() && !self.in_value => {
                let start = self.line_start.unwrap_or(t.span().start());
                self.header = Some((false, Vec::new(), start));
            }
            TokenKind::LeftSquareBracket => {
                self.frames.push(Frame::Array(self.path.len()));
                self.path.push(Seg::Index(0));
            }
            TokenKind::RightSquareBracket => {
                if let Some(Frame::Array(len)) = self.frames.last() {
                    self.path.truncate(*len);
                    self.frames.pop();
                }
            }
            TokenKind::LeftCurlyBracket => {
                self.frames.push(Frame::Inline(self.path.len(), false));
            }
            TokenKind::RightCurlyBracket => {
                if let Some(Frame::Inline(len, _)) = self.frames.last() {
                    self.path.truncate(*len);
                    self.frames.pop();
                }
            }
            TokenKind::Comma => match self.frames.last_mut() {
                Some(Frame::Array(_)) => {
                    if let Some(Seg::Index(i)) = self.path.last_mut() {
                        *i += 1;
                    }
                }
                Some(Frame::Inline(len, reading)) => {
                    self.path.truncate(*len);
                    *reading = false;
                }
                None => {}
            },
            TokenKind::Equals => match self.frames.last_mut() {
                Some(Frame::Inline(_, reading)) => *reading = true,
                Some(Frame::Array(_)) => {}
                None => self.in_value = true,
            },
            k if is_key(k) => match self.frames.last() {
                Some(Frame::Inline(_, false)) => self.path.push(Seg::Key(key_text(text, t))),
                None if !self.in_value => self.path.push(Seg::Key(key_text(text, t))),
                _ => {}
            },
            _ => {}
        }
        if !matches!(kind, TokenKind::Whitespace | TokenKind::Newline) {
            self.line_start = None;
        }
        None
    }

    fn open_table(&mut self, array: bool, keys: Vec<String>, start: usize, end: usize) -> Header {
        let mut table: Vec<Seg> = keys.iter().cloned().map(Seg::Key).collect();
        if array {
            let n = self.counts.entry(keys.join(".")).or_insert(0);
            table.push(Seg::Index(*n));
            *n += 1;
        }
        self.table = table;
        self.path = self.table.clone();
        self.in_value = false;
        self.frames.clear();
        Header {
            line_start: start,
            end,
            array,
            keys,
        }
    }
}

/// The key path at byte `offset` of `text`, when the place is under a key.
pub fn key_path(text: &str, offset: usize) -> Option<String> {
    let walk = walk_to(text, offset);
    if let Some((_, keys, _)) = &walk.header {
        return (!keys.is_empty()).then(|| keys.join("."));
    }
    let path = render(&walk.path);
    (!path.is_empty()).then_some(path)
}

/// The path of the table that byte `offset` of `text` is in (a header counts as its table);
/// `None` at the top level.
pub fn table_path(text: &str, offset: usize) -> Option<String> {
    let walk = walk_to(text, offset);
    let path = render(&walk.table);
    (!path.is_empty()).then_some(path)
}

/// The walk up to the token at `offset`, finishing a table header that the offset falls on.
fn walk_to(text: &str, offset: usize) -> Walk {
    let mut walk = Walk::new();
    let mut tokens = Source::new(text).lex();
    for t in tokens.by_ref() {
        if t.kind() == TokenKind::Eof {
            break;
        }
        if t.span().start() > offset {
            // A place on a table header (where a missing field is reported) is that table:
            // read on to the header's end.
            if walk.header.is_some() {
                walk.step(text, &t);
                for t in tokens.by_ref() {
                    if walk.header.is_none() || t.kind() == TokenKind::Eof {
                        break;
                    }
                    walk.step(text, &t);
                }
            }
            break;
        }
        walk.step(text, &t);
    }
    // On a header being read, its keys are the place.
    if let Some((array, keys, _)) = &walk.header {
        let mut table: Vec<Seg> = keys.iter().cloned().map(Seg::Key).collect();
        if *array {
            let n = walk.counts.get(&keys.join(".")).copied().unwrap_or(0);
            table.push(Seg::Index(n));
        }
        walk.table = table;
    }
    walk
}

/// Calls `f` with every top-level table header of `text`, in order, holding none of them.
pub fn each_header(text: &str, mut f: impl FnMut(Header)) {
    let mut walk = Walk::new();
    for t in Source::new(text).lex() {
        if t.kind() == TokenKind::Eof {
            break;
        }
        if let Some(h) = walk.step(text, &t) {
            f(h);
        }
    }
}

/// Every top-level table header of `text`, in order.
pub fn headers(text: &str) -> Vec<Header> {
    let mut out = Vec::new();
    each_header(text, |h| out.push(h));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(text: &str, needle: &str) -> Option<String> {
        key_path(text, text.find(needle).expect("needle"))
    }

    #[test]
    fn paths_name_tables_array_elements_and_inline_keys() {
        let text = "family = \"abc\"\n[params]\nttl = 45\n\n[[faults]]\nkind = \"x\"\n\n\
                    [[faults]]\nat = { a = [1, 2, 'three'] }\n[[script]]\nset = { ttl = 3 }\n";
        assert_eq!(at(text, "\"abc\"").as_deref(), Some("family"));
        assert_eq!(at(text, "45").as_deref(), Some("params.ttl"));
        assert_eq!(at(text, "\"x\"").as_deref(), Some("faults[0].kind"));
        assert_eq!(at(text, "'three'").as_deref(), Some("faults[1].at.a[2]"));
        assert_eq!(at(text, "3 }").as_deref(), Some("script[0].set.ttl"));
        assert_eq!(key_path(text, 0).as_deref(), Some("family"));
        // On a header itself (where toml puts a missing field), the place is that table.
        assert_eq!(at(text, "[[script]]").as_deref(), Some("script[0]"));
        let dotted = "[a]\nb.\"c d\" = 1\n";
        assert_eq!(at(dotted, "1").as_deref(), Some("a.b.c d"));
    }

    #[test]
    fn headers_skip_brackets_inside_strings_and_values() {
        let text =
            "x = [\n[1],\n]\ns = \"\"\"\n[[answers]]\n\"\"\"\n[[answers]]\nat = 1\n  [cards.q]\n";
        let hs = headers(text);
        assert_eq!(hs.len(), 2, "{hs:?}");
        assert!(hs[0].array && hs[0].keys == ["answers"]);
        assert_eq!(&text[hs[0].line_start..hs[0].end], "[[answers]]");
        assert!(!hs[1].array && hs[1].keys == ["cards", "q"]);
        assert_eq!(&text[hs[1].line_start..hs[1].end], "  [cards.q]");
    }

    #[test]
    fn broken_texts_never_panic() {
        for text in [
            "[", "[[", "]]", "a = [", "a = {", "}", "[a\nb=1", "\"", "é = 1", "",
        ] {
            for offset in 0..=text.len() + 1 {
                let _ = key_path(text, offset);
            }
            let _ = headers(text);
        }
        assert_eq!(line_col("ab\n中文x", 9), (2, 3));
        assert_eq!(line_col("中", 1), (1, 1));
    }
}
