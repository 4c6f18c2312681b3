//! The lesson reader: a lesson laid out for the terminal's width, with scrolling, an outline,
//! search, links that open simulations, quizzes and other lessons, and the lesson's glossary.
//!
//! The layout ([`Doc`]) is recomputed in [`ReaderState::sync`] when the width or language
//! changes, never while drawing. The reading position of each lesson is remembered as a section
//! and an offset in it (see [`crate::tui::reading`]), so it survives both.

use std::collections::BTreeMap;
use std::path::PathBuf;

use ratatui::layout::Rect;

use crate::content::lesson::{self, Action, Glossary, Lesson, Link};
use crate::i18n::Lang;
use crate::scenario::Catalogue;
use crate::source::Source;
use crate::text::width;
use crate::tui::app::AppMsg;
use crate::tui::markdown::{self, Doc, Kind};
use crate::tui::reading::{self, Position};

mod keys;
mod view;

pub use keys::{KEYS, map_modal, wheel};
pub use view::render;

/// The widest the text gets, so lines stay readable on a wide terminal.
const MAX_TEXT_COLS: u16 = 100;
/// One lesson in both languages.
#[derive(Debug, Clone)]
pub struct Topic {
    pub id: String,
    pub zh: Option<Lesson>,
    pub en: Option<Lesson>,
}

impl Topic {
    /// The lesson in `lang`, or in the other language when that one is missing.
    pub fn lesson(&self, lang: Lang) -> Option<&Lesson> {
        let (want, other) = match lang {
            Lang::Zh => (&self.zh, &self.en),
            Lang::En => (&self.en, &self.zh),
        };
        want.as_ref().or(other.as_ref())
    }

    pub fn title(&self, lang: Lang) -> String {
        self.lesson(lang)
            .and_then(|l| l.title.clone())
            .unwrap_or_else(|| self.id.clone())
    }
}

/// What the reader does with a key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReaderMsg {
    /// Scroll by this many rows.
    Scroll(i32),
    /// Scroll by pages.
    Page(i8),
    /// Go to the top (`false`) or the bottom (`true`).
    Edge(bool),
    Outline,
    Glossary,
    /// Close the open overlay.
    Close,
    /// Move in the open overlay.
    Move(i8),
    /// Jump to the heading chosen in the outline.
    Pick,
    SearchStart,
    SearchChar(char),
    SearchBack,
    SearchSubmit,
    SearchCancel,
    /// The next (1) or previous (-1) search match.
    SearchNext(i8),
    /// Select the next (1) or previous (-1) link.
    Link(i8),
    /// Open the selected link.
    Follow,
    /// A click at a cell: selects the link there, or opens it when it is already selected.
    Click {
        col: u16,
        row: u16,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Overlay {
    /// The outline with the selected entry.
    Outline(usize),
    /// The glossary from this term on.
    Glossary(usize),
}

/// A search match: row and byte range within the row's text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Match {
    pub line: usize,
    pub start: usize,
    pub end: usize,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Search {
    /// The query being typed, while the prompt is open.
    pub typing: Option<String>,
    pub query: String,
    pub matches: Vec<Match>,
    pub current: Option<usize>,
}

/// A one-line message in the status row, until the next key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Notice {
    NoMatch(String),
    NoLinks,
    Unknown(String),
    /// A quiz link was followed: the deck's id.
    Quiz(String),
}

#[derive(Debug, Clone)]
pub struct ReaderState {
    pub topics: Vec<Topic>,
    pub glossaries: Vec<Glossary>,
    /// Deck ids, in the order of [`crate::content::deck::load_all`].
    pub decks: Vec<String>,
    /// The open lesson (an index into `topics`).
    pub open: Option<usize>,
    /// The language and layout of the open lesson.
    pub lang: Lang,
    pub doc: Doc,
    /// The first row shown.
    pub top: usize,
    /// Rows of text on screen, for paging and keeping things in view.
    pub rows: usize,
    /// The terminal size the layout follows, to place clicks.
    pub size: (u16, u16),
    /// The selected link (an index into `doc.links`).
    pub link: Option<usize>,
    pub overlay: Option<Overlay>,
    pub search: Search,
    pub notice: Option<Notice>,
    /// Where each lesson was left, by lesson id.
    pub positions: BTreeMap<String, Position>,
    /// Where positions are saved; `None` keeps them for this run only.
    pub data_dir: Option<PathBuf>,
    /// The presets the lessons' `sim:` and `explore:` links open, the app's own.
    pub catalogue: &'static Catalogue,
}

/// The lesson without its `# title` line, which the title row already shows.
fn body(markdown: &str) -> &str {
    match markdown.strip_prefix("# ") {
        Some(rest) => rest.split_once('\n').map_or("", |(_, r)| r),
        None => markdown,
    }
}

/// The text area: a title row above, a status row below, at most [`MAX_TEXT_COLS`] wide.
pub fn text_area(area: Rect) -> Rect {
    let w = area.width.saturating_sub(4).min(MAX_TEXT_COLS);
    Rect::new(area.x + 2, area.y + 2, w, area.height.saturating_sub(3))
}

fn text_cols(size: (u16, u16)) -> usize {
    // The layout never goes below a few columns; keep this the same number `layout` stores.
    (text_area(Rect::new(0, 0, size.0, size.1)).width as usize).max(4)
}

/// The lessons by topic, the glossaries and the deck ids of a source.
type Library = (Vec<Topic>, Vec<Glossary>, Vec<String>);

fn library(source: &Source) -> Library {
    let mut topics: Vec<Topic> = Vec::new();
    for l in lesson::load_all(source).unwrap_or_default() {
        let i = match topics.iter().position(|t| t.id == l.id) {
            Some(i) => i,
            None => {
                topics.push(Topic {
                    id: l.id.clone(),
                    zh: None,
                    en: None,
                });
                topics.len() - 1
            }
        };
        match l.lang {
            Lang::Zh => topics[i].zh = Some(l),
            Lang::En => topics[i].en = Some(l),
        }
    }
    topics.sort_by(|a, b| a.id.cmp(&b.id));
    let glossaries = lesson::load_glossaries(source)
        .unwrap_or_default()
        .into_iter()
        .flatten()
        .collect();
    let decks = crate::content::deck::load_all(source)
        .unwrap_or_default()
        .into_iter()
        .map(|d| d.map(|d| d.deck.deck.get_ref().clone()).unwrap_or_default())
        .collect();
    (topics, glossaries, decks)
}

impl ReaderState {
    /// Loads the lessons, glossaries and deck ids from `source`, and the saved positions from
    /// `data_dir` if one is given. Content that fails to load leaves the reader empty, not broken.
    pub fn new(source: &Source, data_dir: Option<PathBuf>) -> Self {
        let (topics, glossaries, decks) = if matches!(source, Source::Embedded) {
            // The embedded lessons cannot change while locklab runs, and each screen that reads
            // them starts here: parse them (and every deck, for its name) once.
            static EMBEDDED: std::sync::OnceLock<Library> = std::sync::OnceLock::new();
            EMBEDDED.get_or_init(|| library(source)).clone()
        } else {
            library(source)
        };
        let positions = data_dir.as_deref().map(reading::load).unwrap_or_default();
        Self {
            topics,
            glossaries,
            decks,
            open: None,
            lang: Lang::En,
            doc: Doc::default(),
            top: 0,
            rows: 1,
            size: (0, 0),
            link: None,
            overlay: None,
            search: Search::default(),
            notice: None,
            positions,
            data_dir,
            catalogue: Catalogue::embedded(),
        }
    }

    pub fn topic(&self) -> Option<&Topic> {
        self.open.and_then(|i| self.topics.get(i))
    }

    /// The lesson titles in `lang`, in topic order.
    pub fn titles(&self, lang: Lang) -> Vec<String> {
        self.topics.iter().map(|t| t.title(lang)).collect()
    }

    /// Whether the search prompt is taking the keys.
    pub fn typing(&self) -> bool {
        self.search.typing.is_some()
    }

    /// The reading position of the open lesson.
    pub fn position(&self) -> Position {
        let section = self.doc.section_at(self.top);
        Position {
            section,
            offset: self.top.saturating_sub(self.doc.section_line(section)),
        }
    }

    fn restore(&mut self, pos: Position) {
        self.top = self.doc.section_line(pos.section) + pos.offset;
        self.clamp();
    }

    fn max_top(&self) -> usize {
        self.doc.lines.len().saturating_sub(self.rows)
    }

    fn clamp(&mut self) {
        self.top = self.top.min(self.max_top());
    }

    /// Opens topic `index` in `lang` at its remembered position, remembering the current one.
    pub fn open(&mut self, index: usize, lang: Lang, size: (u16, u16)) {
        if index >= self.topics.len() {
            return;
        }
        self.leave();
        self.open = Some(index);
        self.lang = lang;
        self.size = size;
        self.rows = size.1.saturating_sub(3).max(1) as usize;
        self.relayout(text_cols(size));
        self.search = Search::default();
        self.overlay = None;
        self.notice = None;
        self.link = None;
        let pos = self
            .topic()
            .and_then(|t| self.positions.get(&t.id))
            .copied()
            .unwrap_or_default();
        self.restore(pos);
    }

    fn relayout(&mut self, cols: usize) {
        let text = self
            .topic()
            .and_then(|t| t.lesson(self.lang))
            .map_or("", |l| body(&l.text));
        self.doc = markdown::layout(text, cols);
    }

    /// Remembers where the open lesson was left and saves all positions if there is a data
    /// folder. A failed save only loses the position, so it is not an error worth stopping for.
    pub fn leave(&mut self) {
        let Some(id) = self.topic().map(|t| t.id.clone()) else {
            return;
        };
        let pos = self.position();
        self.positions.insert(id, pos);
        if let Some(dir) = &self.data_dir {
            let _ = reading::save(dir, &self.positions);
        }
    }

    /// Follows the app's language and terminal size: re-lays the lesson out when either changed,
    /// keeping the section (and, for a width change, the offset in it).
    pub fn sync(&mut self, lang: Lang, size: (u16, u16)) {
        self.size = size;
        self.rows = size.1.saturating_sub(3).max(1) as usize;
        let cols = text_cols(size);
        if self.open.is_none() || (self.doc.width == cols && self.lang == lang) {
            self.clamp();
            return;
        }
        let mut pos = self.position();
        if self.lang != lang {
            // The other language has other rows: the section is what corresponds.
            pos.offset = 0;
            self.link = None;
            self.lang = lang;
        }
        self.relayout(cols);
        self.restore(pos);
        if self.link.is_some_and(|l| l >= self.doc.links.len()) {
            self.link = None;
        }
        self.find();
    }

    /// The `##` and `###` headings the outline lists.
    pub fn outline(&self) -> Vec<&markdown::Anchor> {
        self.doc
            .headings
            .iter()
            .filter(|h| h.level == 2 || h.level == 3)
            .collect()
    }

    pub fn glossary(&self) -> Option<&Glossary> {
        let id = &self.topic()?.id;
        self.glossaries.iter().find(|g| &g.id == id)
    }

    fn show(&mut self, row: usize) {
        if row < self.top || row >= self.top + self.rows {
            self.top = row.saturating_sub(self.rows / 3);
            self.clamp();
        }
    }

    fn scroll(&mut self, by: i64) {
        self.top = (self.top as i64 + by).max(0) as usize;
        self.clamp();
    }

    /// Finds the query in the laid-out rows (case-insensitive for Latin letters).
    fn find(&mut self) {
        self.search.matches.clear();
        self.search.current = None;
        let q = self.search.query.to_ascii_lowercase();
        if q.is_empty() {
            return;
        }
        for (i, l) in self.doc.lines.iter().enumerate() {
            let text = l.text().to_ascii_lowercase();
            let mut from = 0;
            while let Some(at) = text[from..].find(&q) {
                let start = from + at;
                self.search.matches.push(Match {
                    line: i,
                    start,
                    end: start + q.len(),
                });
                from = start + q.len();
            }
        }
        self.search.current = self
            .search
            .matches
            .iter()
            .position(|m| m.line >= self.top)
            .or((!self.search.matches.is_empty()).then_some(0));
    }

    /// Applies a reader message; returns what the app must do when a link leads elsewhere.
    pub fn update(&mut self, msg: ReaderMsg) -> Option<AppMsg> {
        self.notice = None;
        match msg {
            ReaderMsg::Scroll(n) => self.scroll(i64::from(n)),
            ReaderMsg::Page(d) => {
                self.scroll(i64::from(d) * self.rows.saturating_sub(1).max(1) as i64)
            }
            ReaderMsg::Edge(end) => self.top = if end { self.max_top() } else { 0 },
            ReaderMsg::Outline => {
                self.overlay = match self.overlay {
                    Some(Overlay::Outline(_)) => None,
                    _ => {
                        let here = self.outline().iter().rposition(|h| h.line <= self.top);
                        Some(Overlay::Outline(here.unwrap_or(0)))
                    }
                }
            }
            ReaderMsg::Glossary => {
                self.overlay = match self.overlay {
                    Some(Overlay::Glossary(_)) => None,
                    _ => Some(Overlay::Glossary(0)),
                }
            }
            ReaderMsg::Close => self.overlay = None,
            ReaderMsg::Move(d) => {
                let (n, i) = match self.overlay {
                    Some(Overlay::Outline(i)) => (self.outline().len(), i),
                    Some(Overlay::Glossary(i)) => (self.glossary().map_or(0, |g| g.terms.len()), i),
                    None => return None,
                };
                let i = (i as i64 + i64::from(d)).clamp(0, n.saturating_sub(1) as i64) as usize;
                self.overlay = match self.overlay {
                    Some(Overlay::Outline(_)) => Some(Overlay::Outline(i)),
                    _ => Some(Overlay::Glossary(i)),
                };
            }
            ReaderMsg::Pick => {
                if let Some(Overlay::Outline(i)) = self.overlay {
                    if let Some(h) = self.outline().get(i) {
                        self.top = h.line;
                        self.clamp();
                    }
                    self.overlay = None;
                }
            }
            ReaderMsg::SearchStart => self.search.typing = Some(String::new()),
            ReaderMsg::SearchChar(c) => {
                if let Some(t) = self.search.typing.as_mut() {
                    t.push(c);
                }
            }
            ReaderMsg::SearchBack => {
                if let Some(t) = self.search.typing.as_mut() {
                    t.pop();
                }
            }
            ReaderMsg::SearchCancel => self.search.typing = None,
            ReaderMsg::SearchSubmit => {
                self.search.query = self.search.typing.take().unwrap_or_default();
                self.find();
                match self.search.current.and_then(|i| self.search.matches.get(i)) {
                    Some(m) => self.show(m.line),
                    None if !self.search.query.is_empty() => {
                        self.notice = Some(Notice::NoMatch(self.search.query.clone()));
                    }
                    None => {}
                }
            }
            ReaderMsg::SearchNext(d) => {
                let n = self.search.matches.len();
                if n == 0 {
                    if !self.search.query.is_empty() {
                        self.notice = Some(Notice::NoMatch(self.search.query.clone()));
                    }
                    return None;
                }
                let i = match self.search.current {
                    Some(i) => (i as i64 + i64::from(d)).rem_euclid(n as i64) as usize,
                    None => 0,
                };
                self.search.current = Some(i);
                self.show(self.search.matches[i].line);
            }
            ReaderMsg::Link(d) => {
                let links = &self.doc.links;
                if links.is_empty() {
                    self.notice = Some(Notice::NoLinks);
                    return None;
                }
                let n = links.len();
                let next = match self.link {
                    Some(i) => (i as i64 + i64::from(d)).rem_euclid(n as i64) as usize,
                    // Start from what is on screen rather than from the top of the lesson.
                    None if d > 0 => links.iter().position(|l| l.line >= self.top).unwrap_or(0),
                    None => links
                        .iter()
                        .rposition(|l| l.line < self.top + self.rows)
                        .unwrap_or(n - 1),
                };
                self.link = Some(next);
                let row = links[next].line;
                self.show(row);
            }
            ReaderMsg::Follow => return self.follow(),
            ReaderMsg::Click { col, row } => {
                let hit = self.link_at(col, row);
                if hit.is_some() && hit == self.link {
                    return self.follow();
                }
                if hit.is_some() {
                    self.link = hit;
                }
            }
        }
        None
    }

    /// The link drawn at a cell of a screen of `size`, if any.
    fn link_at(&self, col: u16, row: u16) -> Option<usize> {
        let text = text_area(Rect::new(0, 0, self.size.0, self.size.1));
        if row < text.y || row >= text.bottom() || col < text.x {
            return None;
        }
        let line = self.doc.lines.get(self.top + (row - text.y) as usize)?;
        let want = (col - text.x) as usize;
        let mut x = 0;
        for seg in &line.segs {
            let w = width(&seg.text);
            if want < x + w {
                return match seg.kind {
                    Kind::Link(i) => Some(i),
                    _ => None,
                };
            }
            x += w;
        }
        None
    }

    /// The message that opens the selected link, remembering the position first.
    fn follow(&mut self) -> Option<AppMsg> {
        let target = self.doc.links.get(self.link?)?.target.clone();
        let link = Link {
            target: target.clone(),
            line: 0,
        };
        let msg = match link.action() {
            Some(Action::Sim(name)) => self
                .catalogue
                .all()
                .iter()
                .position(|p| p.name == name)
                .map(AppMsg::OpenPreset),
            Some(Action::Explore(name)) => self
                .catalogue
                .of_family(crate::engine::trace::Family::Abc)
                .iter()
                .position(|p| p.name == name)
                .map(AppMsg::OpenExplore),
            Some(Action::Lesson(id)) => self
                .topics
                .iter()
                .position(|t| t.id == id)
                .map(AppMsg::OpenLesson),
            Some(Action::Quiz(deck)) => self
                .decks
                .iter()
                .position(|d| d == deck)
                .map(AppMsg::StartQuiz),
            None => None,
        };
        match msg {
            Some(m) => {
                self.leave();
                Some(m)
            }
            None => {
                self.notice = Some(Notice::Unknown(target));
                None
            }
        }
    }

    /// The placeholder for a quiz link until quizzes open from here.
    pub fn quiz_pending(&mut self, deck: usize) {
        let id = self.decks.get(deck).cloned().unwrap_or_default();
        self.notice = Some(Notice::Quiz(id));
    }
}
