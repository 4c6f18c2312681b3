//! The README and the guide in `docs/`: every relative link (and its `#anchor`) leads somewhere,
//! every chapter is in the book's summary, every subcommand clap knows is in the Reference's
//! command list, and every shipped preset is on the Presets page.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use pulldown_cmark::{Event, Parser, Tag, TagEnd};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// README.md and every Markdown file under docs/.
fn documents() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).expect("docs/ is readable").flatten() {
            let path = entry.path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "md") {
                out.push(path);
            }
        }
    }
    let mut out = vec![root().join("README.md")];
    walk(&root().join("docs"), &mut out);
    out.sort();
    out
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The link and image targets of a Markdown text.
fn links(text: &str) -> Vec<String> {
    Parser::new(text)
        .filter_map(|e| match e {
            Event::Start(Tag::Link { dest_url, .. } | Tag::Image { dest_url, .. }) => {
                Some(dest_url.to_string())
            }
            _ => None,
        })
        .collect()
}

/// The anchors GitHub (and mdBook) give a document's headings: lower case, punctuation dropped,
/// spaces as hyphens, a repeated heading numbered.
fn anchors(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut heading: Option<String> = None;
    for e in Parser::new(text) {
        match e {
            Event::Start(Tag::Heading { .. }) => heading = Some(String::new()),
            Event::Text(t) | Event::Code(t) => {
                if let Some(h) = heading.as_mut() {
                    h.push_str(&t);
                }
            }
            Event::End(TagEnd::Heading(_)) => {
                let h = heading.take().unwrap_or_default();
                let slug: String = h
                    .to_lowercase()
                    .chars()
                    .filter(|c| c.is_alphanumeric() || *c == ' ' || *c == '-' || *c == '_')
                    .map(|c| if c == ' ' { '-' } else { c })
                    .collect();
                let mut name = slug.clone();
                let mut n = 1;
                while out.contains(&name) {
                    name = format!("{slug}-{n}");
                    n += 1;
                }
                out.insert(name);
            }
            _ => {}
        }
    }
    out
}

#[test]
fn anchors_follow_githubs_rule() {
    let text = "# Headless simulations: `locklab sim`\n## Keys\n## Keys\n### Interviews and the self-test\n";
    let got = anchors(text);
    let want = [
        "headless-simulations-locklab-sim",
        "keys",
        "keys-1",
        "interviews-and-the-self-test",
    ];
    assert_eq!(got, want.iter().map(|s| s.to_string()).collect());
}

#[test]
fn every_relative_link_in_the_readme_and_the_guide_resolves() {
    let docs = documents();
    assert!(docs.len() > 20, "the guide has its chapters: {docs:?}");
    let mut broken = Vec::new();
    let mut checked = 0;
    for doc in &docs {
        let text = read(doc);
        for link in links(&text) {
            if link.contains("://") || link.starts_with("mailto:") {
                continue;
            }
            checked += 1;
            let (file, anchor) = match link.split_once('#') {
                Some((f, a)) => (f, Some(a)),
                None => (link.as_str(), None),
            };
            let target = if file.is_empty() {
                doc.clone()
            } else {
                doc.parent().unwrap().join(file)
            };
            if !target.exists() {
                broken.push(format!("{}: {link} (no such file)", doc.display()));
                continue;
            }
            if let Some(a) = anchor
                && !anchors(&read(&target)).contains(a)
            {
                broken.push(format!("{}: {link} (no heading #{a})", doc.display()));
            }
        }
    }
    assert!(checked > 50, "only {checked} links checked");
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn every_chapter_is_in_the_summary() {
    let src = root().join("docs/src");
    let summary = read(&src.join("SUMMARY.md"));
    let listed: BTreeSet<PathBuf> = links(&summary).iter().map(|l| src.join(l)).collect();
    let missing: Vec<_> = documents()
        .into_iter()
        .filter(|d| d.starts_with(&src) && !d.ends_with("SUMMARY.md") && !listed.contains(d))
        .collect();
    assert!(
        missing.is_empty(),
        "chapters not in SUMMARY.md: {missing:?}"
    );
    assert!(root().join("docs/book.toml").is_file());
}

/// Every subcommand path clap knows, such as `sim frozen` and `progress merge`.
fn subcommand_paths(cmd: &clap::Command, prefix: &str, out: &mut Vec<String>) {
    // A hidden subcommand is locklab's own (a live run's client process), not the user's.
    for sub in cmd
        .get_subcommands()
        .filter(|s| s.get_name() != "help" && !s.is_hide_set())
    {
        let path = format!("{prefix}{}", sub.get_name());
        out.push(path.clone());
        subcommand_paths(sub, &format!("{path} "), out);
    }
}

#[test]
fn every_subcommand_is_in_the_reference() {
    let reference = read(&root().join("docs/src/reference/commands.md"));
    let mut paths = Vec::new();
    subcommand_paths(&locklab::cli::command(), "", &mut paths);
    assert!(paths.len() > 25, "{paths:?}");
    let missing: Vec<_> = paths
        .iter()
        .filter(|p| {
            let named = format!("`locklab {p}");
            !reference.match_indices(&named).any(|(i, _)| {
                matches!(reference[i + named.len()..].chars().next(), Some(' ' | '`'))
            })
        })
        .collect();
    assert!(
        missing.is_empty(),
        "not in docs/src/reference/commands.md: {missing:?}"
    );
}

#[test]
fn every_shipped_preset_is_on_the_presets_page() {
    let page = read(&root().join("docs/src/instructors/presets.md"));
    let missing: Vec<_> = locklab::scenario::builtin()
        .iter()
        .map(|p| p.name.clone())
        .filter(|n| !page.contains(&format!("`{n}`")))
        .collect();
    assert!(
        missing.is_empty(),
        "not in docs/src/instructors/presets.md: {missing:?}"
    );
}

#[test]
fn the_readme_stays_a_front_door() {
    let lines = read(&root().join("README.md")).lines().count();
    assert!(
        lines <= 220,
        "README.md has {lines} lines; the manual belongs in docs/"
    );
}
