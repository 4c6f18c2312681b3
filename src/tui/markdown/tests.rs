//! Layout tests: Chinese wrapping, blocks, and wide tables.

use super::*;

fn texts(doc: &Doc) -> Vec<String> {
    doc.lines.iter().map(Line::text).collect()
}

#[test]
fn chinese_wraps_within_width_and_keeps_punctuation_on_the_line_before() {
    let text = "租约到期，锁从此刻起空闲。持锁者醒来后仍然以为自己持有锁，于是写入。".repeat(3);
    for cols in 6..30 {
        let rows = wrap(
            &[Seg {
                text: text.clone(),
                kind: Kind::Plain,
            }],
            cols,
        );
        for row in &rows {
            let s: String = row.iter().map(|s| s.text.as_str()).collect();
            assert!(width(&s) <= cols, "{cols}: {s}");
            assert!(!s.starts_with('，') && !s.starts_with('。'), "{cols}: {s}");
        }
    }
}

#[test]
fn blocks_are_laid_out() {
    let md = "# Title\n\nSome *text* with `code` and [a link](sim:frozen-fenced).\n\n\
              ## Section\n\n- one\n- two that is long enough to wrap onto a second row\n\n\
              1. first\n2. second\n\n| a | bb |\n|---|---|\n| long cell | 2 |\n\n\
              ```text\n\tindented\nxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n```\n";
    let doc = layout(md, 30);
    let t = texts(&doc);
    assert_eq!(t[0], "Title");
    assert!(t.join(" ").contains("[a link]."), "{t:#?}");
    assert_eq!(doc.links[0].target, "sim:frozen-fenced");
    assert!(t.iter().any(|l| l == "- one"), "{t:#?}");
    // The hanging indent: the wrapped bullet continues under its text.
    let i = t.iter().position(|l| l.starts_with("- two")).unwrap();
    assert!(
        t[i + 1].starts_with("  ") && !t[i + 1].starts_with("   "),
        "{t:#?}"
    );
    assert!(t.iter().any(|l| l == "2. second"), "{t:#?}");
    assert!(t.iter().any(|l| l == "| a         | bb |"), "{t:#?}");
    assert!(t.iter().any(|l| l == "|-----------|----|"), "{t:#?}");
    assert!(t.iter().any(|l| l == "      indented"), "{t:#?}");
    let cut_line = t.iter().find(|l| l.contains("xxxx")).unwrap();
    assert!(
        cut_line.ends_with('>') && width(cut_line) == 30,
        "{cut_line}"
    );
    assert_eq!(doc.section_at(doc.headings[1].line), 1);
    assert!(t.iter().all(|l| width(l) <= 30), "{t:#?}");
}

#[test]
fn wide_tables_wrap_their_cells_and_keep_the_separators_aligned() {
    let md = "| step | what happens |\n|---|---|\n| 1 | a long explanation of what the holder does next |\n";
    let doc = layout(md, 30);
    let t = texts(&doc);
    let bars: Vec<Vec<usize>> = t
        .iter()
        .map(|l| {
            l.char_indices()
                .filter(|(_, c)| *c == '|')
                .map(|(i, _)| i)
                .collect()
        })
        .collect();
    assert!(t.len() > 3, "{t:#?}");
    assert!(bars.iter().all(|b| b == &bars[0]), "{t:#?}");
    assert!(t.iter().all(|l| width(l) <= 30), "{t:#?}");
}
