//! Lays a lesson's Markdown out as pre-wrapped lines of styled segments for one width.
//!
//! The layout is computed once per lesson, language and width and kept in the reader's state, so
//! drawing only copies lines. Segments carry a [`Kind`], not a colour: the theme decides the look.
//! Prose wraps CJK-aware (any character may end a Chinese line, closing punctuation never starts
//! one); code is never wrapped but cut with a marker; tables get column widths by display width
//! and wrap their cells when the table would not fit.

use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};

mod table;
#[cfg(test)]
mod tests;
mod wrap;

use wrap::expand_tabs;
pub use wrap::{cut, wrap};

use crate::content::lesson::level_number;

use crate::text::width;

/// What a piece of text is, so the screen can style it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Plain,
    Strong,
    Emph,
    /// Inline code.
    Code,
    /// A heading of this level (1 for `#`).
    Heading(u8),
    /// A line of a fenced or indented code block.
    CodeBlock,
    /// The marker at the end of a code line that was cut.
    Cut,
    /// Table rules and bullets: structure, not content.
    Frame,
    /// The text of the link with this index in [`Doc::links`].
    Link(usize),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Seg {
    pub text: String,
    pub kind: Kind,
}

/// One screen row of the laid-out lesson.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Line {
    pub segs: Vec<Seg>,
}

impl Line {
    /// The row as plain text (what search looks through).
    pub fn text(&self) -> String {
        self.segs.iter().map(|s| s.text.as_str()).collect()
    }

    pub fn width(&self) -> usize {
        self.segs.iter().map(|s| width(&s.text)).sum()
    }

    fn push(&mut self, text: impl Into<String>, kind: Kind) {
        let text = text.into();
        if text.is_empty() {
            return;
        }
        match self.segs.last_mut() {
            Some(last) if last.kind == kind => last.text.push_str(&text),
            _ => self.segs.push(Seg { text, kind }),
        }
    }
}

/// A heading and the row it starts on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Anchor {
    pub level: u8,
    pub text: String,
    pub line: usize,
}

/// A link and the first row it appears on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LinkAt {
    pub target: String,
    pub line: usize,
}

/// A lesson laid out for one width.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Doc {
    pub width: usize,
    pub lines: Vec<Line>,
    pub headings: Vec<Anchor>,
    pub links: Vec<LinkAt>,
}

impl Doc {
    /// The number of `##` headings at or above `line`: 0 before the first section.
    pub fn section_at(&self, line: usize) -> usize {
        self.headings
            .iter()
            .filter(|h| h.level == 2 && h.line <= line)
            .count()
    }

    /// The first row of section `n` (as counted by [`Doc::section_at`]).
    pub fn section_line(&self, n: usize) -> usize {
        if n == 0 {
            return 0;
        }
        self.headings
            .iter()
            .filter(|h| h.level == 2)
            .nth(n - 1)
            .map_or(0, |h| h.line)
    }
}

/// Columns of the tab stops in code blocks.
const TAB: usize = 4;
/// How far code blocks are indented.
const CODE_INDENT: usize = 2;
/// The narrowest a table column gets before the table is simply cut.
const MIN_COL: usize = 4;

/// A list being read: the next number for an ordered list.
struct List {
    next: Option<u64>,
}

#[derive(Default)]
struct Table {
    rows: Vec<Vec<Vec<Seg>>>,
    head_rows: usize,
}

struct Builder {
    width: usize,
    doc: Doc,
    /// Inline text of the block being read.
    inline: Vec<Seg>,
    strong: usize,
    emph: usize,
    link: Option<usize>,
    heading: Option<u8>,
    lists: Vec<List>,
    /// The bullet or number still to print before the current item's first line.
    marker: Option<String>,
    code: Option<String>,
    table: Option<Table>,
    in_head: bool,
}

/// Lays `markdown` out for `width` columns.
pub fn layout(markdown: &str, width: usize) -> Doc {
    let width = width.max(MIN_COL);
    let mut b = Builder {
        width,
        doc: Doc {
            width,
            ..Doc::default()
        },
        inline: Vec::new(),
        strong: 0,
        emph: 0,
        link: None,
        heading: None,
        lists: Vec::new(),
        marker: None,
        code: None,
        table: None,
        in_head: false,
    };
    for event in Parser::new_ext(markdown, Options::ENABLE_TABLES) {
        b.event(event);
    }
    b.flush_inline();
    while b.doc.lines.last().is_some_and(|l| l.segs.is_empty()) {
        b.doc.lines.pop();
    }
    // Where each link first appears, for Tab to scroll to it.
    for (i, line) in b.doc.lines.iter().enumerate() {
        for seg in &line.segs {
            if let Kind::Link(k) = seg.kind
                && let Some(l) = b.doc.links.get_mut(k)
                && l.line == usize::MAX
            {
                l.line = i;
            }
        }
    }
    for l in &mut b.doc.links {
        if l.line == usize::MAX {
            l.line = 0;
        }
    }
    b.doc
}

impl Builder {
    fn kind(&self) -> Kind {
        if let Some(i) = self.link {
            Kind::Link(i)
        } else if let Some(level) = self.heading {
            Kind::Heading(level)
        } else if self.strong > 0 {
            Kind::Strong
        } else if self.emph > 0 {
            Kind::Emph
        } else {
            Kind::Plain
        }
    }

    fn text(&mut self, text: &str, kind: Kind) {
        let text = text.replace('\t', "    ");
        match self.inline.last_mut() {
            Some(last) if last.kind == kind => last.text.push_str(&text),
            _ => self.inline.push(Seg { text, kind }),
        }
    }

    /// An empty row between blocks, never two in a row and never at the top.
    fn blank(&mut self) {
        if self.doc.lines.last().is_some_and(|l| !l.segs.is_empty()) {
            self.doc.lines.push(Line::default());
        }
    }

    fn event(&mut self, event: Event) {
        if let Some(code) = self.code.as_mut() {
            match event {
                Event::Text(t) => code.push_str(&t),
                Event::End(TagEnd::CodeBlock) => {
                    let code = self.code.take().unwrap_or_default();
                    self.code_block(&code);
                }
                _ => {}
            }
            return;
        }
        match event {
            Event::Start(tag) => self.start(tag),
            Event::End(tag) => self.end(tag),
            Event::Text(t) => {
                let kind = self.kind();
                self.text(&t, kind);
            }
            Event::Code(t) => {
                let kind = if self.link.is_some() {
                    self.kind()
                } else {
                    Kind::Code
                };
                self.text(&t, kind);
            }
            Event::SoftBreak => {
                let kind = self.kind();
                self.text(" ", kind);
            }
            Event::HardBreak => self.text("\n", Kind::Plain),
            Event::Rule => {
                self.flush_inline();
                self.blank();
                let mut line = Line::default();
                line.push("-".repeat(self.width.min(40)), Kind::Frame);
                self.doc.lines.push(line);
                self.blank();
            }
            Event::TaskListMarker(done) => {
                self.text(if done { "[x] " } else { "[ ] " }, Kind::Frame)
            }
            _ => {}
        }
    }

    fn start(&mut self, tag: Tag) {
        match tag {
            Tag::Heading { level, .. } => {
                self.flush_inline();
                self.blank();
                self.heading = Some(level_number(level));
            }
            Tag::Paragraph => self.flush_inline(),
            Tag::Strong => self.strong += 1,
            Tag::Emphasis => self.emph += 1,
            Tag::Link { dest_url, .. } => {
                self.doc.links.push(LinkAt {
                    target: dest_url.to_string(),
                    line: usize::MAX,
                });
                let i = self.doc.links.len() - 1;
                self.link = Some(i);
                self.text("[", Kind::Link(i));
            }
            Tag::List(first) => {
                self.flush_inline();
                if self.lists.is_empty() {
                    self.blank();
                }
                self.lists.push(List { next: first });
            }
            Tag::Item => {
                self.flush_inline();
                let marker = match self.lists.last_mut() {
                    Some(List { next: Some(n) }) => {
                        let m = format!("{n}. ");
                        *n += 1;
                        m
                    }
                    _ => "- ".to_string(),
                };
                self.marker = Some(marker);
            }
            Tag::CodeBlock(_) => {
                self.flush_inline();
                self.blank();
                self.code = Some(String::new());
            }
            Tag::Table(_) => {
                self.flush_inline();
                self.blank();
                self.table = Some(Table::default());
            }
            Tag::TableHead => {
                self.in_head = true;
                if let Some(t) = self.table.as_mut() {
                    t.rows.push(Vec::new());
                }
            }
            Tag::TableRow => {
                if let Some(t) = self.table.as_mut() {
                    t.rows.push(Vec::new());
                }
            }
            Tag::TableCell => self.inline.clear(),
            _ => {}
        }
    }

    fn end(&mut self, tag: TagEnd) {
        match tag {
            TagEnd::Heading(_) => {
                let level = self.heading.unwrap_or(1);
                let text: String = self.inline.iter().map(|s| s.text.as_str()).collect();
                let line = self.doc.lines.len();
                self.doc.headings.push(Anchor {
                    level,
                    text: text.trim().to_string(),
                    line,
                });
                self.flush_inline();
                self.heading = None;
                self.blank();
            }
            TagEnd::Paragraph => {
                self.flush_inline();
                if self.lists.is_empty() {
                    self.blank();
                }
            }
            TagEnd::Strong => self.strong = self.strong.saturating_sub(1),
            TagEnd::Emphasis => self.emph = self.emph.saturating_sub(1),
            TagEnd::Link => {
                if let Some(i) = self.link.take() {
                    self.text("]", Kind::Link(i));
                }
            }
            TagEnd::Item => self.flush_inline(),
            TagEnd::List(_) => {
                self.flush_inline();
                self.lists.pop();
                if self.lists.is_empty() {
                    self.blank();
                }
            }
            TagEnd::TableHead => {
                self.in_head = false;
                if let Some(t) = self.table.as_mut() {
                    t.head_rows = t.rows.len();
                }
            }
            TagEnd::TableCell => {
                let cell = std::mem::take(&mut self.inline);
                if let Some(row) = self.table.as_mut().and_then(|t| t.rows.last_mut()) {
                    row.push(cell);
                }
            }
            TagEnd::Table => {
                if let Some(t) = self.table.take() {
                    self.draw_table(t);
                }
                self.blank();
            }
            _ => {}
        }
    }

    /// Wraps the pending inline text into rows, with the list indent and marker if any.
    fn flush_inline(&mut self) {
        if self.table.is_some() {
            return;
        }
        let segs = std::mem::take(&mut self.inline);
        if segs.iter().all(|s| s.text.trim().is_empty()) {
            return;
        }
        let depth = self.lists.len();
        let outer = 2 * depth.saturating_sub(1);
        let marker = self.marker.take();
        let hang = if depth > 0 {
            2.max(marker.as_ref().map_or(2, |m| width(m)))
        } else {
            0
        };
        let cols = self.width.saturating_sub(outer + hang).max(MIN_COL);
        for (i, row) in wrap(&segs, cols).into_iter().enumerate() {
            let mut line = Line::default();
            if depth > 0 {
                line.push(" ".repeat(outer), Kind::Plain);
                match (&marker, i) {
                    (Some(m), 0) => line.push(format!("{m:<hang$}"), Kind::Frame),
                    _ => line.push(" ".repeat(hang), Kind::Plain),
                }
            }
            for seg in row {
                line.push(seg.text, seg.kind);
            }
            self.doc.lines.push(line);
        }
    }

    fn code_block(&mut self, code: &str) {
        let room = self.width.saturating_sub(CODE_INDENT);
        for raw in code.trim_end_matches('\n').split('\n') {
            let text = expand_tabs(raw);
            let mut line = Line::default();
            line.push(" ".repeat(CODE_INDENT), Kind::Plain);
            if width(&text) > room {
                line.push(cut(&text, room.saturating_sub(1)), Kind::CodeBlock);
                line.push(">", Kind::Cut);
            } else {
                line.push(text, Kind::CodeBlock);
            }
            self.doc.lines.push(line);
        }
        self.blank();
    }
}
