//! Home: the simulations, each A/B/C preset with its one-sentence purpose, then the lessons;
//! Enter opens one.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;

use super::{line, wrapped};
use crate::i18n::{Lang, Ui, ui};
use crate::preset::Preset;
use crate::tui::theme::Theme;

/// What a home row opens.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Item {
    Frozen,
    /// An index into the A/B/C presets.
    Abc(usize),
    Herd,
    /// The heading of the lessons: shown, never selected.
    Lessons,
    /// An index into the reader's lessons.
    Lesson(usize),
    /// The presenter view of a scripted preset (an index into `preset::builtin()`).
    Present(usize),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HomeState {
    pub items: Vec<Item>,
    pub selected: usize,
}

impl HomeState {
    pub fn new(abc_presets: usize, lessons: usize) -> Self {
        let mut items = vec![Item::Frozen];
        items.extend((0..abc_presets).map(Item::Abc));
        items.push(Item::Herd);
        if lessons > 0 {
            items.push(Item::Lessons);
            items.extend((0..lessons).map(Item::Lesson));
        }
        items.extend(
            crate::preset::builtin()
                .iter()
                .enumerate()
                .filter(|(_, p)| !p.script.is_empty())
                .map(|(i, _)| Item::Present(i)),
        );
        Self { items, selected: 0 }
    }

    pub fn move_by(&mut self, dir: i8) {
        let n = self.items.len() as i64;
        let step = |i: usize| (i as i64 + i64::from(dir)).rem_euclid(n) as usize;
        self.selected = step(self.selected);
        // Headings are skipped; two in a row never happen, so one more step is enough.
        if self.current() == Item::Lessons {
            self.selected = step(self.selected);
        }
    }

    pub fn current(&self) -> Item {
        self.items
            .get(self.selected)
            .copied()
            .unwrap_or(Item::Frozen)
    }

    /// The list's rows and the first item shown, so the selection stays visible.
    fn list_area(area: Rect) -> Rect {
        Rect::new(
            area.x,
            area.y + 2,
            area.width,
            area.height.saturating_sub(8),
        )
    }

    fn offset(&self, rows: u16) -> usize {
        let rows = rows.max(1) as usize;
        self.selected.saturating_sub(rows - 1)
    }

    /// Mouse: a click on a row selects it.
    pub fn click(&mut self, area: Rect, row: u16) {
        let list = Self::list_area(area);
        if row >= list.y && row < list.bottom() {
            let i = self.offset(list.height) + (row - list.y) as usize;
            if i < self.items.len() && self.items[i] != Item::Lessons {
                self.selected = i;
            }
        }
    }
}

fn words(item: Item, presets: &[&Preset], lessons: &[String], lang: Lang) -> (String, String) {
    match item {
        Item::Lessons => (ui(Ui::HomeLessons, lang).into(), String::new()),
        Item::Lesson(i) => (
            ui(Ui::HomeLesson, lang).replacen("{}", &(i + 1).to_string(), 1),
            lessons.get(i).cloned().unwrap_or_default(),
        ),
        Item::Frozen => (
            ui(Ui::HomeFrozen, lang).into(),
            ui(Ui::HomeFrozenAbout, lang).into(),
        ),
        Item::Herd => (
            ui(Ui::HomeHerd, lang).into(),
            ui(Ui::HomeHerdAbout, lang).into(),
        ),
        Item::Present(i) => crate::preset::builtin()
            .get(i)
            .map_or_else(Default::default, |p| {
                (
                    format!("{}  {}", ui(Ui::HomePresent, lang), p.name),
                    lang.pick(&p.about.zh, &p.about.en).to_string(),
                )
            }),
        Item::Abc(i) => presets.get(i).map_or_else(Default::default, |p| {
            (
                format!("A/B/C  {}", p.name),
                lang.pick(&p.about.zh, &p.about.en).to_string(),
            )
        }),
    }
}

pub fn render(
    s: &HomeState,
    presets: &[&Preset],
    lessons: &[String],
    lang: Lang,
    theme: Theme,
    area: Rect,
    buf: &mut Buffer,
) {
    line(buf, area, ui(Ui::HomeTitle, lang), theme.title());
    let list = HomeState::list_area(area);
    let first = s.offset(list.height);
    let name_cols = 30.min(list.width / 2);
    for (row, (i, item)) in s
        .items
        .iter()
        .enumerate()
        .skip(first)
        .take(list.height as usize)
        .enumerate()
    {
        let (name, about) = words(*item, presets, lessons, lang);
        let y = list.y + row as u16;
        if *item == Item::Lessons {
            buf.set_stringn(list.x, y, &name, list.width as usize, theme.title());
            continue;
        }
        let selected = i == s.selected;
        let style = if selected {
            theme.focus()
        } else {
            Style::new()
        };
        let marker = if selected { "> " } else { "  " };
        buf.set_stringn(list.x, y, marker, 2, Style::new());
        buf.set_stringn(
            list.x + 2,
            y,
            &name,
            name_cols.saturating_sub(3) as usize,
            style,
        );
        let ax = list.x + name_cols;
        if ax < list.right() {
            buf.set_stringn(ax, y, &about, (list.right() - ax) as usize, theme.dim());
        }
    }
    // The chosen simulation's purpose in full, wrapped.
    let detail = Rect::new(
        area.x + 2,
        list.bottom() + 1,
        area.width.saturating_sub(4),
        4,
    );
    let (name, about) = words(s.current(), presets, lessons, lang);
    wrapped(
        buf,
        detail,
        &format!("{name}：{about}").replace("：", lang.pick("：", ": ")),
        Style::new(),
    );
    let hint = Rect::new(area.x, area.bottom().saturating_sub(1), area.width, 1);
    line(buf, hint, ui(Ui::HomeHint, lang), theme.dim());
}
