//! The lesson reader: rendering at both sizes and languages, its keys, links and the saved
//! reading position.

use super::*;
use crate::source::Source;
use crate::tui::screens::reader::{Notice, Overlay, ReaderState};

fn lesson_index(a: &App, id: &str) -> usize {
    a.reader
        .topics
        .iter()
        .position(|t| t.id == id)
        .expect("lesson shipped")
}

fn reading(lang: Lang, size: (u16, u16), id: &str) -> App {
    let mut a = app(ScreenId::Home, lang, size);
    let i = lesson_index(&a, id);
    update(&mut a, AppMsg::OpenLesson(i));
    assert_eq!(a.screen, ScreenId::Reader);
    a
}

fn code(c: KeyCode) -> KeyEvent {
    KeyEvent::new(c, KeyModifiers::NONE)
}

fn typed(a: &mut App, s: &str) {
    for c in s.chars() {
        press(a, key(c));
    }
}

/// Display columns of every `|` in a row.
fn bars(row: &str) -> Vec<usize> {
    let mut col = 0;
    let mut out = Vec::new();
    for ch in row.chars() {
        if ch == '|' {
            out.push(col);
        }
        col += crate::text::width(ch.encode_utf8(&mut [0; 4]));
    }
    out
}

/// Every screenful of the open lesson, paging from the top.
fn pages(a: &mut App) -> Vec<String> {
    press(a, code(KeyCode::Home));
    let mut out = vec![screen(a)];
    loop {
        let before = a.reader.top;
        press(a, code(KeyCode::PageDown));
        if a.reader.top == before {
            return out;
        }
        out.push(screen(a));
    }
}

#[test]
fn lessons_render_at_both_sizes_in_both_languages() {
    for size in SIZES {
        for lang in LANGS {
            let mut a = reading(lang, size, "05-fencing");
            let title = a.reader.topic().unwrap().title(lang);
            let first = screen(&a);
            assert!(first.contains(&title), "{title} missing:\n{first}");
            let cols = a.reader.doc.width;
            for l in &a.reader.doc.lines {
                let t = l.text();
                assert!(crate::text::width(&t) <= cols, "{cols}: {t}");
                let body = t.trim_start_matches([' ', '|']);
                assert!(!body.starts_with('，') && !body.starts_with('。'), "{t}");
            }
            let all = pages(&mut a);
            let rows: Vec<&str> = all.iter().flat_map(|p| p.lines()).collect();
            // The worked example's table: every row of it has its bars in the same columns.
            let row = rows
                .iter()
                .find(|r| r.contains("| 101") && r.contains("| 100"))
                .unwrap_or_else(|| panic!("table row missing:\n{}", all.join("\n")));
            let want = bars(row);
            assert_eq!(want.len(), 7, "{row}");
            let table: Vec<&&str> = rows
                .iter()
                .filter(|r| r.trim_start().starts_with('|') && r.contains("| 102"))
                .collect();
            assert!(table.len() >= 3);
            for r in table {
                assert_eq!(bars(r), want, "misaligned:\n{row}\n{r}");
            }
            assert!(
                rows.iter().any(|r| r.contains("UPDATE report_state")),
                "code block missing"
            );
            for r in &rows {
                let t = r.trim_start();
                assert!(!t.starts_with('，') && !t.starts_with('。'), "{r}");
            }
        }
    }
}

#[test]
fn scrolling_keys_move_through_the_lesson() {
    let mut a = reading(Lang::En, (80, 24), "05-fencing");
    assert_eq!(a.reader.top, 0);
    press(&mut a, key('j'));
    press(&mut a, code(KeyCode::Down));
    assert_eq!(a.reader.top, 2);
    press(&mut a, key('k'));
    assert_eq!(a.reader.top, 1);
    press(&mut a, code(KeyCode::PageDown));
    assert_eq!(a.reader.top, 1 + a.reader.rows - 1);
    press(&mut a, code(KeyCode::PageUp));
    assert_eq!(a.reader.top, 1);
    press(&mut a, key(' '));
    assert_eq!(a.reader.top, a.reader.rows);
    press(&mut a, code(KeyCode::End));
    let end = a.reader.top;
    assert_eq!(end, a.reader.doc.lines.len() - a.reader.rows);
    press(&mut a, key('j'));
    assert_eq!(a.reader.top, end, "scrolls no further than the end");
    let wheel = |dir| MouseEvent {
        kind: dir,
        column: 10,
        row: 10,
        modifiers: KeyModifiers::NONE,
    };
    update(&mut a, map_mouse(wheel(MouseEventKind::ScrollUp)).unwrap());
    assert_eq!(a.reader.top, end - 3);
    press(&mut a, code(KeyCode::Home));
    assert_eq!(a.reader.top, 0);
    // Back at the top, the lesson's first sentence is the first row of text, under the title.
    let s = screen(&a);
    let title = a.reader.topic().unwrap().title(Lang::En);
    assert!(s.lines().next().unwrap().contains(&title));
    assert!(s.lines().nth(2).unwrap().contains("Lesson 4 ended"), "{s}");
}

#[test]
fn the_outline_jumps_to_a_section() {
    let mut a = reading(Lang::En, (80, 24), "05-fencing");
    press(&mut a, key('o'));
    assert_eq!(a.reader.overlay, Some(Overlay::Outline(0)));
    let s = screen(&a);
    assert!(
        s.contains("Outline") && s.contains("Where tokens come from"),
        "{s}"
    );
    for _ in 0..4 {
        press(&mut a, key('j'));
    }
    press(&mut a, code(KeyCode::Enter));
    assert_eq!(a.reader.overlay, None);
    // The fifth `##`/`###` entry is at the top of the text now.
    let h = a.reader.outline()[4].clone();
    assert_eq!(
        a.reader.top,
        h.line.min(a.reader.doc.lines.len() - a.reader.rows)
    );
    assert!(screen(&a).contains(&h.text));
    // Esc closes the outline without leaving the reader.
    press(&mut a, key('o'));
    press(&mut a, code(KeyCode::Esc));
    assert_eq!((a.screen, a.reader.overlay), (ScreenId::Reader, None));
}

#[test]
fn search_finds_highlights_and_cycles() {
    let mut a = reading(Lang::En, (80, 24), "05-fencing");
    press(&mut a, key('/'));
    assert!(a.reader.typing());
    // Keys that mean something elsewhere are typed into the query.
    typed(&mut a, "qLxfence");
    press(&mut a, code(KeyCode::Backspace));
    typed(&mut a, "e");
    assert_eq!(a.reader.search.typing.as_deref(), Some("qLxfence"));
    press(&mut a, code(KeyCode::Esc));
    assert!(!a.reader.typing());
    assert_eq!(a.screen, ScreenId::Reader);

    press(&mut a, key('/'));
    typed(&mut a, "CONDITIONAL");
    press(&mut a, code(KeyCode::Enter));
    let n = a.reader.search.matches.len();
    assert!(n >= 1, "no match");
    let m = a.reader.search.matches[0];
    assert!(m.line >= a.reader.top && m.line < a.reader.top + a.reader.rows);
    // The current match is drawn in the cursor style.
    let mut term = Terminal::new(TestBackend::new(80, 24)).unwrap();
    term.draw(|f| draw(f, &a)).unwrap();
    let buf = term.backend().buffer();
    let y = 2 + (m.line - a.reader.top) as u16;
    let row: String = (0..80).map(|x| buf[(x, y)].symbol().to_string()).collect();
    let x = 2 + row[2..].to_ascii_lowercase().find("conditional").unwrap() as u16;
    assert!(
        buf[(x, y)]
            .modifier
            .contains(ratatui::style::Modifier::REVERSED),
        "{row}"
    );

    press(&mut a, key('/'));
    typed(&mut a, "token");
    press(&mut a, code(KeyCode::Enter));
    let n = a.reader.search.matches.len();
    assert!(n > 3);
    let first = a.reader.search.current.unwrap();
    press(&mut a, key('n'));
    assert_eq!(a.reader.search.current, Some((first + 1) % n));
    press(&mut a, key('N'));
    press(&mut a, key('N'));
    assert_eq!(a.reader.search.current, Some((first + n - 1) % n));
    assert!(screen(&a).contains(&format!("of {n}")));

    press(&mut a, key('/'));
    typed(&mut a, "zzzz-nothing");
    press(&mut a, code(KeyCode::Enter));
    assert!(matches!(a.reader.notice, Some(Notice::NoMatch(_))));
    assert!(screen(&a).contains("No match"));

    // Chinese text is found too, and the match is brought into view.
    let mut z = reading(Lang::Zh, (80, 24), "05-fencing");
    press(&mut z, key('/'));
    typed(&mut z, "幂等键");
    press(&mut z, code(KeyCode::Enter));
    let m = z.reader.search.matches[z.reader.search.current.unwrap()];
    assert!(m.line >= z.reader.top && m.line < z.reader.top + z.reader.rows);
}

/// Presses Tab until the selected link points at `target`.
fn select_link(a: &mut App, target: &str) {
    for _ in 0..=a.reader.doc.links.len() {
        press(a, code(KeyCode::Tab));
        let l = &a.reader.doc.links[a.reader.link.unwrap()];
        if l.target == target {
            assert!(l.line >= a.reader.top && l.line < a.reader.top + a.reader.rows);
            return;
        }
    }
    panic!("no link to {target}");
}

#[test]
fn links_open_simulations_lessons_and_quizzes() {
    for lang in LANGS {
        let mut a = reading(lang, (80, 24), "05-fencing");
        select_link(&mut a, "sim:frozen-fenced");
        assert!(screen(&a).contains("-> sim:frozen-fenced"));
        let top = a.reader.top;
        press(&mut a, code(KeyCode::Enter));
        assert_eq!(a.screen, ScreenId::Frozen);
        let p = crate::scenario::builtin()
            .iter()
            .find(|p| p.name == "frozen-fenced")
            .unwrap();
        let crate::engine::Params::Frozen(want) = &p.params else {
            panic!("frozen preset")
        };
        assert_eq!(&a.frozen.params, want);
        // Back returns to the lesson where it was.
        press(&mut a, key('q'));
        assert_eq!((a.screen, a.reader.top), (ScreenId::Reader, top));

        // Shift-Tab goes back one link.
        let at = a.reader.link.unwrap();
        press(&mut a, code(KeyCode::BackTab));
        let n = a.reader.doc.links.len();
        assert_eq!(a.reader.link, Some((at + n - 1) % n));

        // A quiz link starts a closed-book session on that deck; its end comes back here.
        select_link(&mut a, "quiz:fencing");
        press(&mut a, code(KeyCode::Enter));
        assert_eq!(a.screen, ScreenId::Quiz);
        let q = a.quiz.as_ref().unwrap();
        assert!(q.session.items().iter().all(|i| i.deck == "fencing"));
        assert!(screen(&a).contains(ui(Ui::QuizTitle, lang)));
        press(&mut a, key('q'));
        press(&mut a, key('y'));
        press(&mut a, code(KeyCode::Enter));
        assert_eq!(a.screen, ScreenId::Reader);
        assert!(a.quiz.is_none());

        select_link(&mut a, "lesson:06-leases");
        press(&mut a, code(KeyCode::Enter));
        assert_eq!(a.reader.topic().unwrap().id, "06-leases");
        assert_eq!(a.reader.top, 0);
        assert!(screen(&a).contains(&a.reader.topic().unwrap().title(lang)));
    }
}

#[test]
fn quiz_links_send_their_own_message() {
    let mut a = reading(Lang::En, (80, 24), "05-fencing");
    select_link(&mut a, "quiz:fencing");
    let deck = a.reader.decks.iter().position(|d| d == "fencing").unwrap();
    let Some(AppMsg::Reader(r)) = map_key(code(KeyCode::Enter), &a) else {
        panic!("Enter follows the link")
    };
    assert_eq!(a.reader.clone().update(r), Some(AppMsg::StartQuiz(deck)));
}

#[test]
fn language_switch_keeps_the_section_and_width_rewraps() {
    let mut a = reading(Lang::En, (80, 24), "05-fencing");
    press(&mut a, key('o'));
    for _ in 0..2 {
        press(&mut a, key('j'));
    }
    press(&mut a, code(KeyCode::Enter));
    let section = a.reader.position().section;
    assert_eq!(section, 3);
    press(&mut a, key('L'));
    assert_eq!((a.lang, a.reader.lang), (Lang::Zh, Lang::Zh));
    assert_eq!(a.reader.position().section, section);
    assert!(screen(&a).contains(">= 还是 >"), "{}", screen(&a));

    let narrow = a.reader.doc.lines.len();
    update(&mut a, AppMsg::Resize(160, 48));
    assert_eq!(a.reader.doc.width, 100);
    assert!(a.reader.doc.lines.len() < narrow);
    assert_eq!(a.reader.position().section, section);
    assert!(screen(&a).contains(">= 还是 >"));
}

#[test]
fn the_glossary_shows_both_languages() {
    for lang in LANGS {
        let mut a = reading(lang, (80, 24), "05-fencing");
        press(&mut a, key('g'));
        let s = screen(&a);
        assert!(s.contains("栅栏令牌 / fencing token"), "{s}");
        press(&mut a, key('j'));
        assert_eq!(a.reader.overlay, Some(Overlay::Glossary(1)));
        press(&mut a, key('g'));
        assert_eq!(a.reader.overlay, None);
    }
}

#[test]
fn home_lists_the_lessons_and_opens_the_reader() {
    for lang in LANGS {
        let mut a = app(ScreenId::Home, lang, (160, 48));
        use super::super::screens::home::HomeRow;
        // The lessons have their own section, under its heading.
        a.home.selected = a
            .home
            .items
            .iter()
            .rposition(|i| *i == HomeRow::Lesson(0))
            .unwrap();
        let s = screen(&a);
        assert!(s.contains(ui(Ui::HomeLessons, lang)), "{s}");
        assert_eq!(a.reader.topics.len(), 15);
        let last = a
            .home
            .items
            .iter()
            .position(|i| *i == HomeRow::Lesson(11))
            .unwrap();
        a.home.selected = last;
        let s = screen(&a);
        assert!(s.contains(&a.reader.topics[11].title(lang)), "{s}");
        press(&mut a, code(KeyCode::Enter));
        assert_eq!(a.screen, ScreenId::Reader);
        assert_eq!(a.reader.topic().unwrap().id, "12-task-leases");
        press(&mut a, key('q'));
        assert_eq!(a.screen, ScreenId::Home);
        // The heading is skipped when moving through the list.
        a.home.selected = a
            .home
            .items
            .iter()
            .rposition(|i| *i == HomeRow::Lesson(0))
            .unwrap();
        press(&mut a, code(KeyCode::Up));
        let last_presentation = a.home.presentations.len() - 1;
        assert_eq!(a.home.current(), HomeRow::Present(last_presentation));
    }
}

#[test]
fn the_position_is_kept_per_lesson_and_saved_to_the_data_dir() {
    let dir = tempfile::tempdir().unwrap();
    let with_dir = || {
        let r = ReaderState::new(&Source::Embedded, Some(dir.path().to_path_buf()));
        let mut a = App::with_reader(
            ScreenId::Home,
            None,
            Lang::En,
            Theme::default(),
            r,
            crate::scenario::Catalogue::embedded(),
        );
        a.size = (80, 24);
        a
    };
    let mut a = with_dir();
    let fencing = lesson_index(&a, "05-fencing");
    update(&mut a, AppMsg::OpenLesson(fencing));
    for _ in 0..40 {
        press(&mut a, key('j'));
    }
    let (top, pos) = (a.reader.top, a.reader.position());
    assert!(pos.section > 0);
    // Another lesson starts at its own position; coming back restores this one.
    update(&mut a, AppMsg::OpenLesson(fencing + 1));
    assert_eq!(a.reader.top, 0);
    press(&mut a, key('q'));
    update(&mut a, AppMsg::OpenLesson(fencing));
    assert_eq!(a.reader.top, top);
    press(&mut a, key('q'));
    assert!(dir.path().join(crate::tui::reading::FILE).exists());

    // A new run reads it back.
    let mut b = with_dir();
    update(&mut b, AppMsg::OpenLesson(fencing));
    assert_eq!((b.reader.top, b.reader.position()), (top, pos));

    // A broken file is ignored: the lesson opens at the top.
    std::fs::write(dir.path().join(crate::tui::reading::FILE), "\u{0}garbage[[").unwrap();
    let mut c = with_dir();
    update(&mut c, AppMsg::OpenLesson(fencing));
    assert_eq!(c.reader.top, 0);
}

#[test]
fn clicking_a_link_selects_it_and_a_second_click_opens_it() {
    let mut a = reading(Lang::En, (80, 24), "05-fencing");
    select_link(&mut a, "sim:frozen-fenced");
    let i = a.reader.link.unwrap();
    let l = a.reader.doc.links[i].line;
    a.reader.link = None;
    // Find the link's column in its row.
    let row = &a.reader.doc.lines[l];
    let mut col = 0;
    for seg in &row.segs {
        if seg.kind == crate::tui::markdown::Kind::Link(i) {
            break;
        }
        col += crate::text::width(&seg.text);
    }
    let (x, y) = (2 + col as u16 + 1, 2 + (l - a.reader.top) as u16);
    let click = MouseEvent {
        kind: MouseEventKind::Down(MouseButton::Left),
        column: x,
        row: y,
        modifiers: KeyModifiers::NONE,
    };
    update(&mut a, map_mouse(click).unwrap());
    assert_eq!((a.screen, a.reader.link), (ScreenId::Reader, Some(i)));
    update(&mut a, map_mouse(click).unwrap());
    assert_eq!(a.screen, ScreenId::Frozen);
}

#[test]
fn snapshots_of_the_reader() {
    for (name, lang) in [("reader_en", Lang::En), ("reader_zh", Lang::Zh)] {
        let a = reading(lang, (80, 24), "05-fencing");
        insta::assert_snapshot!(name, screen(&a));
    }
}

#[test]
fn redlock_and_snowflake_links_open_their_presets_in_the_presenter() {
    for lang in LANGS {
        for (lesson, target) in [
            ("07-redis-locks", "sim:redlock-restart"),
            ("11-distributed-ids", "sim:snowflake-rollback"),
        ] {
            let mut a = reading(lang, (80, 24), lesson);
            select_link(&mut a, target);
            press(&mut a, code(KeyCode::Enter));
            assert_eq!(a.screen, ScreenId::Present, "{target}");
            let name = target.trim_start_matches("sim:");
            assert_eq!(a.present.as_ref().unwrap().preset.name, name);
            press(&mut a, key('q'));
            assert_eq!(a.screen, ScreenId::Reader, "{target}");
        }
    }
}

/// The lessons that go beyond the first twelve: each renders within the width at both sizes
/// and in both languages, keeps its tables' columns aligned, and every link it holds names a
/// preset, a deck or a lesson that exists; a lesson link opens that lesson.
#[test]
fn the_advanced_lessons_render_and_every_link_resolves() {
    let presets: Vec<&str> = crate::scenario::builtin()
        .iter()
        .map(|p| p.name.as_str())
        .collect();
    for id in ["13-no-token-check", "14-etcd", "15-exact-guarantees"] {
        for size in SIZES {
            for lang in LANGS {
                let a = reading(lang, size, id);
                let title = a.reader.topic().unwrap().title(lang);
                assert!(
                    screen(&a).contains(&title),
                    "{id} {lang:?}: {title} missing"
                );
                let cols = a.reader.doc.width;
                let lines: Vec<String> = a.reader.doc.lines.iter().map(|l| l.text()).collect();
                for t in &lines {
                    assert!(crate::text::width(t) <= cols, "{id} {cols}: {t}");
                    let body = t.trim_start_matches([' ', '|']);
                    assert!(!body.starts_with('，') && !body.starts_with('。'), "{t}");
                }
                // Rows of one table follow each other; their bars stay in the same columns.
                let mut tables = 0;
                for group in lines.split(|t| !t.trim_start().starts_with('|')) {
                    let rows: Vec<&String> = group.iter().filter(|r| r.contains(" | ")).collect();
                    if rows.len() < 3 {
                        continue;
                    }
                    tables += 1;
                    let want = bars(rows[0]);
                    for r in &rows {
                        assert_eq!(bars(r), want, "{id} {lang:?} misaligned:\n{}\n{r}", rows[0]);
                    }
                }
                // Lesson 14 has no table; the other two have at least one each.
                assert!(
                    id == "14-etcd" || tables >= 1,
                    "{id} {lang:?}: {tables} tables"
                );
                let links = a.reader.doc.links.clone();
                assert!(links.len() >= 4, "{id}: {} links", links.len());
                for l in &links {
                    let t = l.target.as_str();
                    if let Some(p) = t.strip_prefix("sim:") {
                        assert!(presets.contains(&p), "{id}: no preset {p}");
                    } else if let Some(d) = t.strip_prefix("quiz:") {
                        assert!(a.reader.decks.iter().any(|x| x == d), "{id}: no deck {d}");
                    } else if let Some(l) = t.strip_prefix("lesson:") {
                        assert!(
                            a.reader.topics.iter().any(|x| x.id == l),
                            "{id}: no lesson {l}"
                        );
                    } else {
                        panic!("{id}: link {t} is none of sim:, quiz:, lesson:");
                    }
                }
            }
        }
        // Every lesson link of the English page opens its lesson.
        let first = reading(Lang::En, (80, 24), id);
        let targets: Vec<String> = first
            .reader
            .doc
            .links
            .iter()
            .map(|l| l.target.clone())
            .filter(|t| t.starts_with("lesson:"))
            .collect();
        for t in targets {
            let mut a = reading(Lang::En, (80, 24), id);
            select_link(&mut a, &t);
            press(&mut a, code(KeyCode::Enter));
            assert_eq!(
                format!("lesson:{}", a.reader.topic().unwrap().id),
                t,
                "{id}: {t} did not open"
            );
        }
    }
}
