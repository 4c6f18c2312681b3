//! Lessons (`content/{zh,en}/NN-topic.md`) and glossaries (`content/glossary/NN-topic.toml`).
//!
//! A lesson is read for what the reader and the checker need: its title, its outline and the
//! links it turns into actions (`sim:`, `explore:`, `quiz:`, `lesson:`).

use pulldown_cmark::{Event, HeadingLevel, Options, Parser, Tag, TagEnd};
use serde::Deserialize;

use super::{Located, parse_toml};
use crate::i18n::Lang;
use crate::source::Source;

/// A heading in a lesson.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Heading {
    /// 1 for `#`, 2 for `##`, ...
    pub level: u8,
    pub text: String,
    pub line: usize,
}

/// A link in a lesson.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Link {
    pub target: String,
    pub line: usize,
}

/// What a link asks the reader to do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action<'a> {
    Sim(&'a str),
    /// The explorer, on an A/B/C preset.
    Explore(&'a str),
    Quiz(&'a str),
    Lesson(&'a str),
}

impl Link {
    /// The action behind a `sim:`, `explore:`, `quiz:` or `lesson:` link; `None` for an
    /// ordinary link.
    pub fn action(&self) -> Option<Action<'_>> {
        let (scheme, rest) = self.target.split_once(':')?;
        match scheme {
            "sim" => Some(Action::Sim(rest)),
            "explore" => Some(Action::Explore(rest)),
            "quiz" => Some(Action::Quiz(rest)),
            "lesson" => Some(Action::Lesson(rest)),
            _ => None,
        }
    }
}

#[derive(Debug, Clone)]
pub struct Lesson {
    pub lang: Lang,
    /// The lesson id, the file stem (`05-fencing`).
    pub id: String,
    pub file: String,
    pub text: String,
    /// The first level-1 heading, if there is one.
    pub title: Option<String>,
    pub headings: Vec<Heading>,
    pub links: Vec<Link>,
    /// Top-level list items after the last `##` heading (the key takeaways).
    pub last_section_items: usize,
}

impl Lesson {
    /// The `##` sections, in order.
    pub fn sections(&self) -> impl Iterator<Item = &Heading> {
        self.headings.iter().filter(|h| h.level == 2)
    }
}

/// A heading's level as a number, 1 to 6.
pub fn level_number(level: HeadingLevel) -> u8 {
    match level {
        HeadingLevel::H1 => 1,
        HeadingLevel::H2 => 2,
        HeadingLevel::H3 => 3,
        HeadingLevel::H4 => 4,
        HeadingLevel::H5 => 5,
        HeadingLevel::H6 => 6,
    }
}

/// Reads one lesson's outline and links.
pub fn parse(lang: Lang, id: &str, file: &str, text: &str) -> Lesson {
    let line_of = |offset: usize| crate::toml_place::line_col(text, offset).0;
    let mut headings = Vec::new();
    let mut links = Vec::new();
    // The heading being read: its level, text so far and where it starts.
    let mut open: Option<(u8, String, usize)> = None;
    let mut list_depth = 0usize;
    let mut last_section_items = 0;
    for (event, range) in Parser::new_ext(text, Options::ENABLE_TABLES).into_offset_iter() {
        match event {
            Event::Start(Tag::Heading { level, .. }) => {
                let level = level_number(level);
                if level == 2 {
                    last_section_items = 0;
                }
                open = Some((level, String::new(), range.start));
            }
            Event::Start(Tag::List(_)) => list_depth += 1,
            Event::End(TagEnd::List(_)) => list_depth = list_depth.saturating_sub(1),
            Event::Start(Tag::Item) if list_depth == 1 => last_section_items += 1,
            Event::End(TagEnd::Heading(_)) => {
                if let Some((level, text, start)) = open.take() {
                    headings.push(Heading {
                        level,
                        text: text.trim().to_string(),
                        line: line_of(start),
                    });
                }
            }
            Event::Text(t) | Event::Code(t) => {
                if let Some((_, buf, _)) = open.as_mut() {
                    buf.push_str(&t);
                }
            }
            Event::Start(Tag::Link { dest_url, .. }) => links.push(Link {
                target: dest_url.to_string(),
                line: line_of(range.start),
            }),
            _ => {}
        }
    }
    let title = headings
        .iter()
        .find(|h| h.level == 1)
        .map(|h| h.text.clone());
    Lesson {
        lang,
        id: id.to_string(),
        file: file.to_string(),
        text: text.to_string(),
        title,
        headings,
        links,
        last_section_items,
    }
}

/// Every lesson in both languages, sorted by language folder and file name.
pub fn load_all(source: &Source) -> std::io::Result<Vec<Lesson>> {
    let mut out = Vec::new();
    for lang in [Lang::Zh, Lang::En] {
        let folder = match lang {
            Lang::Zh => "content/zh",
            Lang::En => "content/en",
        };
        // An unreadable lesson is left out here; `check` names it.
        for f in source.files(folder, "md")? {
            if f.unreadable.is_none() {
                out.push(parse(lang, super::stem(&f.rel), &f.display, &f.text));
            }
        }
    }
    Ok(out)
}

/// One glossary entry: the term in both languages, a note, and the variants not to use.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Term {
    #[serde(default)]
    pub zh: String,
    #[serde(default)]
    pub en: String,
    #[serde(default)]
    pub note_zh: String,
    #[serde(default)]
    pub note_en: String,
    /// Other words for the same idea that lessons, questions and the interface must not use.
    #[serde(default)]
    pub avoid_zh: Vec<String>,
    #[serde(default)]
    pub avoid_en: Vec<String>,
    /// Longer phrases that contain an avoided variant but mean something else, and so are fine.
    #[serde(default)]
    pub allow_zh: Vec<String>,
    #[serde(default)]
    pub allow_en: Vec<String>,
}

impl Term {
    /// The term's name in one language.
    pub fn name(&self, lang: Lang) -> &str {
        lang.pick(&self.zh, &self.en)
    }

    /// The variants to avoid in one language.
    pub fn avoid(&self, lang: Lang) -> &[String] {
        match lang {
            Lang::Zh => &self.avoid_zh,
            Lang::En => &self.avoid_en,
        }
    }

    /// The phrases that may contain an avoided variant, in one language.
    pub fn allow(&self, lang: Lang) -> &[String] {
        match lang {
            Lang::Zh => &self.allow_zh,
            Lang::En => &self.allow_en,
        }
    }
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawGlossary {
    #[serde(default)]
    term: Vec<toml::Spanned<Term>>,
}

/// The terms one topic introduces.
#[derive(Debug, Clone)]
pub struct Glossary {
    /// The topic's lesson id (`05-fencing`).
    pub id: String,
    pub file: String,
    /// The file's text, to point at a place inside a note.
    pub text: String,
    /// Each term with the line it starts on.
    pub terms: Vec<(usize, Term)>,
}

/// Parses one glossary file.
pub fn parse_glossary(id: &str, file: &str, text: &str) -> Result<Glossary, Located> {
    let raw: RawGlossary = parse_toml(file, text)?;
    let terms = raw
        .term
        .into_iter()
        .map(|t| {
            let line = crate::toml_place::line_col(text, t.span().start).0;
            (line, t.into_inner())
        })
        .collect();
    Ok(Glossary {
        id: id.to_string(),
        file: file.to_string(),
        text: text.to_string(),
        terms,
    })
}

/// Every glossary, each parsed or with the problem that stopped it.
pub fn load_glossaries(source: &Source) -> std::io::Result<Vec<Result<Glossary, Located>>> {
    Ok(source
        .files("content/glossary", "toml")?
        .iter()
        .map(|f| {
            super::readable(f)?;
            parse_glossary(super::stem(&f.rel), &f.display, &f.text)
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outline_and_links_are_read() {
        let text = "# Fencing `tokens`\n\nIntro [watch](sim:frozen-fenced).\n\n## Why\n\n\
                    | a | b |\n|---|---|\n| [x](quiz:fencing) | 2 |\n\n```text\n## not a heading\n```\n\n\
                    ### Detail\n\n## Key takeaways\n\n- see [lesson 4](lesson:04-disconnect-expire)\n";
        let l = parse(Lang::En, "05-fencing", "f.md", text);
        assert_eq!(l.title.as_deref(), Some("Fencing tokens"));
        let sections: Vec<&str> = l.sections().map(|h| h.text.as_str()).collect();
        assert_eq!(sections, ["Why", "Key takeaways"]);
        let actions: Vec<_> = l.links.iter().filter_map(|k| k.action()).collect();
        assert_eq!(
            actions,
            [
                Action::Sim("frozen-fenced"),
                Action::Quiz("fencing"),
                Action::Lesson("04-disconnect-expire")
            ]
        );
        assert_eq!(l.links[0].line, 3);
        assert_eq!(l.links[1].line, 9);
        assert_eq!(l.last_section_items, 1);
    }

    #[test]
    fn glossary_terms_carry_their_line() {
        let text = "[[term]]\nzh = \"租约\"\nen = \"lease\"\nnote_zh = \"n\"\nnote_en = \"n\"\n\n\
                    [[term]]\nzh = \"续约\"\nen = \"keepalive\"\n";
        let g = parse_glossary("06-leases", "g.toml", text).unwrap();
        assert_eq!(g.terms.len(), 2);
        assert_eq!(g.terms[1].1.en, "keepalive");
        assert!(g.terms[1].0 >= 7, "{}", g.terms[1].0);
    }

    #[test]
    fn glossary_terms_may_list_variants_to_avoid() {
        let text = "[[term]]\nzh = \"任期号\"\nen = \"epoch\"\nnote_zh = \"n\"\nnote_en = \"n\"\n\
                    avoid_zh = [\"纪元\"]\nallow_en = [\"epoch time\"]\n";
        let g = parse_glossary("09-recipes", "g.toml", text).unwrap();
        let t = &g.terms[0].1;
        assert_eq!(t.avoid(Lang::Zh), ["纪元"]);
        assert!(t.avoid(Lang::En).is_empty());
        assert_eq!(t.allow(Lang::En), ["epoch time"]);
        assert_eq!(t.name(Lang::Zh), "任期号");
    }
}
