//! Drawing the reader: the title, the laid-out lesson with its links, the status row, and the
//! outline and glossary overlays. Drawing only reads state.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::widgets::{Block, Borders, Clear, Widget};

use super::{Notice, Overlay, ReaderState, body, text_area};
use crate::i18n::{Lang, Ui, ui};
use crate::text::width;
use crate::tui::markdown::{self, Kind, Seg};
use crate::tui::screens::line;
use crate::tui::theme::Theme;

fn style(kind: Kind, selected_link: Option<usize>, theme: Theme) -> Style {
    match kind {
        Kind::Plain => Style::new(),
        Kind::Strong => Style::new().add_modifier(Modifier::BOLD),
        Kind::Emph => Style::new().add_modifier(Modifier::ITALIC),
        Kind::Code | Kind::CodeBlock => theme.code(),
        Kind::Heading(level) => theme.heading(level),
        Kind::Cut | Kind::Frame => theme.dim(),
        Kind::Link(i) if Some(i) == selected_link => theme.focus(),
        Kind::Link(_) => theme.link(),
    }
}

pub fn render(s: &ReaderState, lang: Lang, theme: Theme, area: Rect, buf: &mut Buffer) {
    let Some(topic) = s.topic() else {
        crate::tui::screens::wrapped(buf, area, ui(Ui::ReaderNoLesson, lang), theme.bad());
        return;
    };
    let text = text_area(area);
    // `sync` keeps the layout in step; until it has run for this size, lay out a copy.
    let fresh;
    let (doc, top) = if s.doc.width == (text.width as usize).max(4) && s.lang == lang {
        (&s.doc, s.top)
    } else {
        let md = topic.lesson(lang).map_or("", |l| body(&l.text));
        fresh = markdown::layout(md, text.width as usize);
        let pos = s.position();
        (&fresh, fresh.section_line(pos.section))
    };

    let title = topic.title(lang);
    let total = doc.lines.len().max(1);
    let at = format!(" {}/{} ", (top + text.height as usize).min(total), total);
    let title_cols = area.width.saturating_sub(width(&at) as u16 + 1);
    line(
        buf,
        Rect::new(area.x, area.y, title_cols, 1),
        &title,
        theme.title(),
    );
    let ax = area.right().saturating_sub(width(&at) as u16);
    line(
        buf,
        Rect::new(ax, area.y, area.right() - ax, 1),
        &at,
        theme.dim(),
    );

    let same = std::ptr::eq(doc, &s.doc);
    for (row, (i, l)) in doc
        .lines
        .iter()
        .enumerate()
        .skip(top)
        .take(text.height as usize)
        .enumerate()
    {
        let y = text.y + row as u16;
        let matches: Vec<(usize, usize, bool)> = if same {
            s.search
                .matches
                .iter()
                .enumerate()
                .filter(|(_, m)| m.line == i)
                .map(|(k, m)| (m.start, m.end, Some(k) == s.search.current))
                .collect()
        } else {
            Vec::new()
        };
        let mut x = text.x;
        let mut byte = 0;
        for seg in &l.segs {
            let base = style(seg.kind, if same { s.link } else { None }, theme);
            for ch in seg.text.chars() {
                let cs = ch.encode_utf8(&mut [0; 4]).to_string();
                let cw = width(&cs) as u16;
                if x + cw > text.right() {
                    break;
                }
                let hit = matches.iter().find(|(a, b, _)| byte >= *a && byte < *b);
                let st = match hit {
                    Some((_, _, true)) => theme.cursor(),
                    Some(_) => base.patch(theme.mark()),
                    None => base,
                };
                buf.set_stringn(x, y, &cs, cw as usize, st);
                x += cw;
                byte += ch.len_utf8();
            }
        }
    }

    let status = Rect::new(area.x, area.bottom().saturating_sub(1), area.width, 1);
    let (msg, st) = status_text(s, lang, theme);
    line(buf, status, &msg, st);

    match s.overlay {
        Some(Overlay::Outline(sel)) => outline(s, sel, lang, theme, area, buf),
        Some(Overlay::Glossary(first)) => glossary(s, first, lang, theme, area, buf),
        None => {}
    }
}

fn status_text(s: &ReaderState, lang: Lang, theme: Theme) -> (String, Style) {
    if let Some(t) = &s.search.typing {
        return (format!("/{t}_"), Style::new());
    }
    let fill = |u: Ui, v: &str| ui(u, lang).replacen("{}", v, 1);
    match &s.notice {
        Some(Notice::NoMatch(q)) => return (fill(Ui::SearchNone, q), theme.bad()),
        Some(Notice::NoLinks) => return (ui(Ui::LinkNone, lang).to_string(), theme.dim()),
        Some(Notice::Unknown(t)) => return (fill(Ui::LinkUnknown, t), theme.bad()),
        Some(Notice::Quiz(d)) => return (fill(Ui::QuizPending, d), theme.title()),
        None => {}
    }
    if let Some(i) = s.link
        && let Some(l) = s.doc.links.get(i)
    {
        return (format!("-> {}", l.target), theme.link());
    }
    if let Some(c) = s.search.current {
        let text = ui(Ui::SearchCount, lang)
            .replacen("{}", &(c + 1).to_string(), 1)
            .replacen("{}", &s.search.matches.len().to_string(), 1);
        return (text, Style::new());
    }
    (ui(Ui::ReaderHint, lang).to_string(), theme.dim())
}

/// A centred box with a border and title; returns the inside.
fn boxed(area: Rect, w: u16, h: u16, title: &str, bottom: &str, buf: &mut Buffer) -> Rect {
    let w = w.min(area.width);
    let h = h.min(area.height);
    let r = Rect::new(
        area.x + (area.width - w) / 2,
        area.y + (area.height - h) / 2,
        w,
        h,
    );
    Clear.render(r, buf);
    let block = Block::default()
        .borders(Borders::ALL)
        .title(title.to_string())
        .title_bottom(bottom.to_string());
    let inner = block.inner(r);
    block.render(r, buf);
    inner
}

fn outline(s: &ReaderState, sel: usize, lang: Lang, theme: Theme, area: Rect, buf: &mut Buffer) {
    let items = s.outline();
    let h = (items.len() as u16 + 2).max(3);
    let inner = boxed(
        area,
        70,
        h.min(area.height.saturating_sub(2)),
        ui(Ui::OutlineTitle, lang),
        ui(Ui::OutlineClose, lang),
        buf,
    );
    let rows = inner.height.max(1) as usize;
    let first = sel.saturating_sub(rows - 1);
    for (row, (i, h)) in items.iter().enumerate().skip(first).take(rows).enumerate() {
        let indent = if h.level == 3 { 4 } else { 1 };
        let st = if i == sel {
            theme.focus()
        } else {
            theme.heading(h.level.max(2))
        };
        let r = Rect::new(
            inner.x + indent,
            inner.y + row as u16,
            inner.width.saturating_sub(indent + 1),
            1,
        );
        line(buf, r, &h.text, st);
    }
}

fn glossary(s: &ReaderState, first: usize, lang: Lang, theme: Theme, area: Rect, buf: &mut Buffer) {
    let inner = boxed(
        area,
        90,
        area.height.saturating_sub(2),
        ui(Ui::GlossaryTitle, lang),
        ui(Ui::GlossaryClose, lang),
        buf,
    );
    let Some(g) = s.glossary().filter(|g| !g.terms.is_empty()) else {
        crate::tui::screens::wrapped(buf, inner, ui(Ui::GlossaryEmpty, lang), theme.dim());
        return;
    };
    let cols = inner.width.saturating_sub(4) as usize;
    let mut y = inner.y;
    for (_, term) in g.terms.iter().skip(first) {
        if y >= inner.bottom() {
            break;
        }
        let name = format!("{} / {}", term.zh, term.en);
        line(
            buf,
            Rect::new(inner.x + 1, y, inner.width.saturating_sub(2), 1),
            &name,
            theme.title(),
        );
        y += 1;
        let note = lang.pick(&term.note_zh, &term.note_en);
        let seg = [Seg {
            text: note.to_string(),
            kind: Kind::Plain,
        }];
        for row in markdown::wrap(&seg, cols) {
            if y >= inner.bottom() {
                break;
            }
            let text: String = row.iter().map(|s| s.text.as_str()).collect();
            line(
                buf,
                Rect::new(inner.x + 3, y, cols as u16, 1),
                &text,
                Style::new(),
            );
            y += 1;
        }
        y += 1;
    }
}
