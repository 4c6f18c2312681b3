//! Home: the simulations, each A/B/C preset with its one-sentence purpose, the quizzes (with
//! how many questions are due), then the lessons; Enter opens one.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;

mod keys;
pub use keys::{KEYS, SCROLL};

use super::{line, wrapped};
use crate::content::deck::Kind;
use crate::engine::trace::Family;
use crate::i18n::family::{Fam, fam, family_about, family_name};
use crate::i18n::{Lang, Ui, ui};
use crate::quiz::words::{self as qtext, Label};
use crate::scenario::{Catalogue, Preset};
use crate::tui::learn::Learning;
use crate::tui::screens::family::FAMILIES;
use crate::tui::theme::Theme;

/// What a home row opens.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HomeRow {
    Frozen,
    /// An index into the A/B/C presets.
    Abc(usize),
    Herd,
    /// The explorer.
    Explore,
    /// The live lab on real servers.
    #[cfg(feature = "live")]
    Live,
    /// The family lab, on the knob family Left/Right choose.
    Lab,
    /// A section's heading: shown, never selected.
    Heading(Section),
    /// An index into the reader's lessons.
    Lesson(usize),
    /// The presenter view of a scripted preset (an index into the home's presentations).
    Present(usize),
    /// A session of the questions due today.
    Review,
    /// A mixed exam of `quiz::EXAM_SIZE` questions.
    Exam,
    /// The stats screen.
    Progress,
    /// A quiz on one deck (an index into the bank's decks).
    Deck(usize),
    /// A mock interview: recall questions with their follow-up rounds.
    Interview,
    /// The fixed twelve-question self-test.
    SelfTest,
    /// The kind the review, the exam and the deck quizzes ask (Left/Right change it).
    KindFilter,
    /// The difficulty they ask.
    DifficultyFilter,
}

/// The sections of home, in the order shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Section {
    /// A first visit's path: the first lesson, its lab, its quiz.
    StartHere,
    Labs,
    Presentations,
    Lessons,
    Quizzes,
    Progress,
}

impl Section {
    fn words(self, lang: Lang) -> &'static str {
        ui(
            match self {
                Section::StartHere => Ui::HomeStartHere,
                Section::Labs => Ui::HomeLabs,
                Section::Presentations => Ui::HomePresentations,
                Section::Lessons => Ui::HomeLessons,
                Section::Quizzes => Ui::HomeQuizzes,
                Section::Progress => Ui::HomeProgressSection,
            },
            lang,
        )
    }
}

impl HomeRow {
    /// Headings are shown but never selected.
    pub fn heading(self) -> bool {
        matches!(self, HomeRow::Heading(_))
    }
}

/// The kinds the filter steps through; `None` is every kind.
const KIND_CHOICES: [Option<Kind>; 5] = [
    None,
    Some(Kind::Recall),
    Some(Kind::Choice),
    Some(Kind::Order),
    Some(Kind::Model),
];
const DIFFICULTY_CHOICES: [Option<u8>; 4] = [None, Some(1), Some(2), Some(3)];

/// The next value of a filter, wrapping around.
fn step<T: PartialEq + Copy>(choices: &[T], current: T, dir: i8) -> T {
    let n = choices.len() as i64;
    let i = choices.iter().position(|c| *c == current).unwrap_or(0) as i64;
    choices[(i + i64::from(dir)).rem_euclid(n) as usize]
}

/// What Home shows besides its own state.
pub struct Context<'a> {
    pub presets: &'a [&'a Preset],
    pub lessons: &'a [String],
    pub learn: &'a Learning,
}

#[derive(Debug, Clone, PartialEq)]
pub struct HomeState {
    pub items: Vec<HomeRow>,
    pub selected: usize,
    /// The quiz filters: kind and difficulty, `None` for all.
    pub kind: Option<Kind>,
    pub difficulty: Option<u8>,
    /// The knob family the lab row opens.
    pub family: Family,
    /// The catalogue's scripted presets, which the presentation rows open.
    pub presentations: Vec<&'static Preset>,
    /// How many steps of the start path have been opened (kept in the data folder).
    pub reached: usize,
}

impl HomeState {
    pub fn new(abc_presets: usize, lessons: usize, catalogue: &'static Catalogue) -> Self {
        let mut items = Vec::new();
        // The first lesson's story is the A/B/C queue, so a first visit reads it, watches it
        // and then tests itself on its deck (added with the quizzes).
        if lessons > 0 && abc_presets > 0 {
            items.extend([
                HomeRow::Heading(Section::StartHere),
                HomeRow::Lesson(0),
                HomeRow::Abc(0),
            ]);
        }
        items.extend([HomeRow::Heading(Section::Labs), HomeRow::Frozen]);
        items.extend((0..abc_presets).map(HomeRow::Abc));
        items.push(HomeRow::Herd);
        items.push(HomeRow::Explore);
        // One row for the seven knob families, so the list stays short.
        items.push(HomeRow::Lab);
        #[cfg(feature = "live")]
        items.push(HomeRow::Live);
        let presentations: Vec<&'static Preset> = catalogue
            .all()
            .iter()
            .filter(|p| !p.script.is_empty())
            .collect();
        if !presentations.is_empty() {
            items.push(HomeRow::Heading(Section::Presentations));
            items.extend((0..presentations.len()).map(HomeRow::Present));
        }
        if lessons > 0 {
            items.push(HomeRow::Heading(Section::Lessons));
            items.extend((0..lessons).map(HomeRow::Lesson));
        }
        let selected = usize::from(items.first().is_some_and(|i| i.heading()));
        Self {
            selected,
            presentations,
            items,
            kind: None,
            difficulty: None,
            family: FAMILIES[0],
            reached: 0,
        }
    }

    /// The rows of the start path, in order: those under its heading, up to the next heading.
    pub fn start_steps(&self) -> Vec<usize> {
        if self.items.first() != Some(&HomeRow::Heading(Section::StartHere)) {
            return Vec::new();
        }
        (1..self.items.len())
            .take_while(|&i| !self.items[i].heading())
            .collect()
    }

    /// Resumes the start path after `reached` steps: the next step is selected, or once all
    /// were opened, the first lab.
    pub fn resume(&mut self, reached: usize) {
        let steps = self.start_steps();
        self.reached = reached.min(steps.len());
        self.selected = match steps.get(self.reached) {
            Some(&i) => i,
            None => steps.last().map_or(self.selected, |&i| i + 2),
        }
        .min(self.items.len().saturating_sub(1));
        self.move_rows(0);
    }

    /// The selected row is opened: if it is a step of the start path further than any opened
    /// so far, the new count of steps reached, for saving.
    pub fn opened(&mut self) -> Option<usize> {
        // The same lesson, lab or quiz opened from its own section counts too.
        let row = self.current();
        let k = self
            .start_steps()
            .iter()
            .position(|&i| self.items[i] == row)?;
        (k + 1 > self.reached).then(|| {
            self.reached = k + 1;
            self.reached
        })
    }

    /// Left/Right on a filter row: the next kind or difficulty.
    pub fn adjust(&mut self, dir: i8) {
        match self.current() {
            HomeRow::KindFilter => self.kind = step(&KIND_CHOICES, self.kind, dir),
            HomeRow::DifficultyFilter => {
                self.difficulty = step(&DIFFICULTY_CHOICES, self.difficulty, dir)
            }
            HomeRow::Lab => self.family = step(&FAMILIES, self.family, dir),
            _ => {}
        }
    }

    /// Adds the quizzes after the lessons (review, exam, interview, self-test, the two
    /// filters, one entry per deck), the first deck's quiz to the start path, and progress.
    pub fn with_quizzes(mut self, decks: usize) -> Self {
        if decks == 0 {
            return self;
        }
        if let Some(p) = self.items.iter().position(|i| *i == HomeRow::Abc(0))
            && self.items.first() == Some(&HomeRow::Heading(Section::StartHere))
        {
            self.items.insert(p + 1, HomeRow::Deck(0));
        }
        self.items.extend([
            HomeRow::Heading(Section::Quizzes),
            HomeRow::Review,
            HomeRow::Exam,
            HomeRow::Interview,
            HomeRow::SelfTest,
            HomeRow::KindFilter,
            HomeRow::DifficultyFilter,
        ]);
        self.items.extend((0..decks).map(HomeRow::Deck));
        self.items
            .extend([HomeRow::Heading(Section::Progress), HomeRow::Progress]);
        self
    }

    /// Up/Down: the next row that is not a heading, wrapping around the list's ends.
    pub fn move_by(&mut self, dir: i8) {
        let n = self.items.len() as i64;
        let step = |i: usize| (i as i64 + i64::from(dir)).rem_euclid(n) as usize;
        self.selected = step(self.selected);
        // Headings are skipped; two in a row never happen, so one more step is enough.
        if self.current().heading() {
            self.selected = step(self.selected);
        }
    }

    /// The row `rows` away from the selection (PgUp/PgDn, the wheel), stopping at the ends and
    /// stepping off a heading in the direction moved.
    pub fn move_rows(&mut self, rows: i64) {
        let last = self.items.len().saturating_sub(1) as i64;
        let mut i = (self.selected as i64 + rows).clamp(0, last) as usize;
        let dir: i64 = if rows < 0 { -1 } else { 1 };
        while self.items.get(i).is_some_and(|it| it.heading()) {
            let next = i as i64 + dir;
            if !(0..=last).contains(&next) {
                // A heading at an end: step back the other way.
                i = (i as i64 - dir).clamp(0, last) as usize;
                break;
            }
            i = next as usize;
        }
        self.selected = i;
    }

    /// Home/`g`: the first row; End/`G`: the last.
    pub fn jump(&mut self, to_end: bool) {
        let n = self.items.len() as i64;
        self.selected = if to_end { n as usize - 1 } else { 0 };
        self.move_rows(0);
        if self.current().heading() {
            self.move_rows(if to_end { -1 } else { 1 });
        }
    }

    pub fn current(&self) -> HomeRow {
        self.items
            .get(self.selected)
            .copied()
            .unwrap_or(HomeRow::Frozen)
    }

    /// The list's rows and the first item shown, so the selection stays visible.
    /// The list starts under the title row (which also carries the due line) and leaves five
    /// rows below: the chosen entry's purpose (or a message and the purpose) and the hint.
    fn list_area(area: Rect) -> Rect {
        Rect::new(
            area.x,
            area.y + 1,
            area.width,
            area.height.saturating_sub(6),
        )
    }

    fn offset(&self, rows: u16) -> usize {
        let rows = rows.max(1) as usize;
        self.selected.saturating_sub(rows - 1)
    }

    /// Mouse: the row under a click, which the click selects; `None` off the rows and on a
    /// heading.
    pub fn click(&mut self, area: Rect, row: u16) -> Option<HomeRow> {
        let list = Self::list_area(area);
        if row >= list.y && row < list.bottom() {
            let i = self.offset(list.height) + (row - list.y) as usize;
            if i < self.items.len() && !self.items[i].heading() {
                self.selected = i;
                return Some(self.items[i]);
            }
        }
        None
    }

    /// How many rows the list shows in `area` (PgUp/PgDn move by that many).
    pub fn page(area: Rect) -> i64 {
        i64::from(Self::list_area(area).height.max(2) - 1)
    }
}

fn words(item: HomeRow, s: &HomeState, ctx: &Context, lang: Lang) -> (String, String) {
    let (presets, lessons) = (ctx.presets, ctx.lessons);
    let due = ctx.learn.overview.as_ref().map_or(0, |o| o.due_today);
    let all = qtext::label(Label::All, lang);
    match item {
        HomeRow::Interview => (
            qtext::label(Label::HomeInterview, lang).into(),
            qtext::label(Label::HomeInterviewAbout, lang).into(),
        ),
        HomeRow::SelfTest => (
            qtext::label(Label::HomeSelfTest, lang).into(),
            qtext::label(Label::HomeSelfTestAbout, lang).into(),
        ),
        HomeRow::KindFilter => (
            qtext::label(Label::HomeKindFilter, lang).replace(
                "{}",
                &format!("< {} >", s.kind.map_or(all, |k| qtext::kind(k, lang))),
            ),
            qtext::label(Label::HomeFilterAbout, lang).into(),
        ),
        HomeRow::DifficultyFilter => (
            qtext::label(Label::HomeDifficultyFilter, lang).replace(
                "{}",
                &format!(
                    "< {} >",
                    s.difficulty.map_or(all.to_string(), |d| d.to_string())
                ),
            ),
            qtext::label(Label::HomeFilterAbout, lang).into(),
        ),
        HomeRow::Heading(section) => (section.words(lang).into(), String::new()),
        HomeRow::Review => (
            ui(Ui::HomeReview, lang).replace("{}", &due.to_string()),
            ui(Ui::HomeReviewAbout, lang).into(),
        ),
        HomeRow::Exam => (
            ui(Ui::HomeExam, lang).replace("{}", &crate::tui::screens::quiz::EXAM_SIZE.to_string()),
            ui(Ui::HomeExamAbout, lang).into(),
        ),
        HomeRow::Progress => (
            ui(Ui::HomeProgress, lang).into(),
            ui(Ui::HomeProgressAbout, lang).into(),
        ),
        HomeRow::Deck(i) => (
            ui(Ui::HomeDeck, lang).replace(
                "{}",
                &ctx.learn
                    .deck_ids()
                    .get(i)
                    .map_or_else(String::new, |id| ctx.learn.deck_title(id, lang)),
            ),
            ui(Ui::HomeDeckAbout, lang).into(),
        ),
        HomeRow::Lab => (
            format!(
                "{}  < {} >",
                fam(Fam::Lab, lang),
                family_name(s.family, lang)
            ),
            family_about(s.family, lang).into(),
        ),
        HomeRow::Lesson(i) => (
            ui(Ui::HomeLesson, lang).replacen("{}", &(i + 1).to_string(), 1),
            lessons.get(i).cloned().unwrap_or_default(),
        ),
        HomeRow::Frozen => (
            ui(Ui::HomeFrozen, lang).into(),
            ui(Ui::HomeFrozenAbout, lang).into(),
        ),
        HomeRow::Herd => (
            ui(Ui::HomeHerd, lang).into(),
            ui(Ui::HomeHerdAbout, lang).into(),
        ),
        HomeRow::Explore => (
            ui(Ui::HomeExplore, lang).into(),
            ui(Ui::HomeExploreAbout, lang).into(),
        ),
        #[cfg(feature = "live")]
        HomeRow::Live => {
            let (name, about) = crate::live::words::home_entry(lang);
            (name.into(), about.into())
        }
        HomeRow::Present(i) => s.presentations.get(i).map_or_else(Default::default, |p| {
            (
                format!("{}  {}", ui(Ui::HomePresent, lang), p.name),
                lang.pick(&p.about.zh, &p.about.en).to_string(),
            )
        }),
        HomeRow::Abc(i) => presets.get(i).map_or_else(Default::default, |p| {
            (
                format!("A/B/C  {}", p.name),
                lang.pick(&p.about.zh, &p.about.en).to_string(),
            )
        }),
    }
}

/// The chosen entry in full, under the list.
fn detail_text(s: &HomeState, ctx: &Context, lang: Lang) -> String {
    let all = qtext::label(Label::All, lang);
    match s.current() {
        HomeRow::KindFilter => qtext::label(Label::HomeKindDetail, lang)
            .replace("{}", s.kind.map_or(all, |k| qtext::kind(k, lang))),
        HomeRow::DifficultyFilter => qtext::label(Label::HomeDifficultyDetail, lang).replace(
            "{}",
            &s.difficulty.map_or(all.to_string(), |d| d.to_string()),
        ),
        HomeRow::Lab => {
            let (name, about) = words(HomeRow::Lab, s, ctx, lang);
            format!(
                "{name}{}{about} {}",
                lang.pick("：", ": "),
                fam(Fam::HomeDetail, lang)
            )
        }
        item => {
            let (name, about) = words(item, s, ctx, lang);
            format!("{name}{}{about}", lang.pick("：", ": "))
        }
    }
}

/// The line under the title: due today and in the next 14 days, or why progress is not kept.
fn due_line(learn: &Learning, lang: Lang) -> String {
    match &learn.overview {
        Some(o) => ui(Ui::HomeDue, lang)
            .replacen("{}", &o.due_today.to_string(), 1)
            .replacen("{}", &o.forecast.iter().sum::<u32>().to_string(), 1),
        None if learn.bank.is_some() => ui(Ui::HomeNoProgress, lang).into(),
        None => String::new(),
    }
}

pub fn render(
    s: &HomeState,
    ctx: &Context,
    lang: Lang,
    theme: Theme,
    area: Rect,
    buf: &mut Buffer,
) {
    let title = ui(Ui::HomeTitle, lang);
    line(buf, area, title, theme.title());
    // The due line shares the title's row, so the list keeps that row for one more entry.
    let x = crate::text::width(title) as u16 + 3;
    let under = Rect::new(area.x + x, area.y, area.width.saturating_sub(x), 1);
    line(buf, under, &due_line(ctx.learn, lang), theme.dim());
    let list = HomeState::list_area(area);
    let first = s.offset(list.height);
    let name_cols = 30.min(list.width / 2);
    let steps = s.start_steps();
    for (row, (i, item)) in s
        .items
        .iter()
        .enumerate()
        .skip(first)
        .take(list.height as usize)
        .enumerate()
    {
        let (mut name, about) = words(*item, s, ctx, lang);
        let y = list.y + row as u16;
        if *item == HomeRow::Heading(Section::StartHere) {
            name = format!(
                "{name}{}",
                ui(Ui::HomeStartSteps, lang)
                    .replacen("{}", &s.reached.to_string(), 1)
                    .replacen("{}", &steps.len().to_string(), 1)
            );
        }
        if item.heading() {
            buf.set_stringn(list.x, y, &name, list.width as usize, theme.title());
            continue;
        }
        // A step of the start path already opened carries a tick.
        if steps
            .iter()
            .position(|&k| k == i)
            .is_some_and(|k| k < s.reached)
        {
            name = format!("✓ {name}");
        }
        let selected = i == s.selected;
        let style = if selected {
            theme.focus()
        } else {
            Style::new()
        };
        let marker = if selected { "> " } else { "  " };
        buf.set_stringn(list.x, y, marker, 2, Style::new());
        // A name cut to its column ends in "…"; the selected one is shown whole, its purpose
        // moving right to make room.
        // Marker, name and a two-column gap fill the name column, so every purpose starts at
        // the same column whatever the cut left.
        let room = name_cols.saturating_sub(4) as usize;
        let whole = crate::text::width(&name);
        let shown = if selected || whole <= room {
            crate::text::clip_cols(&name, list.width.saturating_sub(2) as usize)
        } else {
            crate::text::clip_cols(&name, room)
        };
        buf.set_string(list.x + 2, y, &shown, style);
        let used = 2 + crate::text::width(&shown) as u16 + 2;
        let ax = list.x + name_cols.max(used);
        if ax < list.right() {
            let about = crate::text::clip_cols(&about, (list.right() - ax) as usize);
            buf.set_string(ax, y, &about, theme.dim());
        }
    }
    // Rows above and below the fold, counted at the list's right edge.
    let last = (first + list.height as usize).min(s.items.len());
    for (more, y, key) in [
        (first, list.y, Ui::HomeMoreAbove),
        (
            s.items.len() - last,
            list.bottom().saturating_sub(1),
            Ui::HomeMoreBelow,
        ),
    ] {
        if more > 0 && list.height > 1 {
            let text = format!(" {} ", ui(key, lang).replace("{}", &more.to_string()));
            let w = crate::text::width(&text) as u16;
            let x = list.right().saturating_sub(w);
            buf.set_stringn(x, y, &text, w as usize, theme.cursor());
        }
    }
    // What the store said on opening (read-only, set aside ...), or why a quiz did not start,
    // takes the first row under the list when there is one.
    let message = ctx
        .learn
        .notice
        .clone()
        .or_else(|| ctx.learn.messages(lang).into_iter().next());
    let mut top = list.bottom();
    if let Some(m) = message {
        let row = Rect::new(area.x + 2, top, area.width.saturating_sub(4), 1);
        line(buf, row, &m, theme.bad());
        top += 1;
    }
    // The chosen simulation's purpose in full, wrapped, down to the hint.
    let detail = Rect::new(
        area.x + 2,
        top,
        area.width.saturating_sub(4),
        area.bottom().saturating_sub(1).saturating_sub(top),
    );
    wrapped(buf, detail, &detail_text(s, ctx, lang), Style::new());
    let hint = Rect::new(area.x, area.bottom().saturating_sub(1), area.width, 1);
    line(buf, hint, ui(Ui::HomeHint, lang), theme.dim());
}
