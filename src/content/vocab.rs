//! The vocabulary rule: the glossary names one term per idea, and an entry may list the other
//! words for that idea that locklab does not use. This module finds those avoided variants in
//! lessons, deck texts, glossary notes and the interface's string tables, each with its place.
//!
//! Matching is deliberately narrow so that a word inside another word is not an alarm:
//! - an avoided variant that begins or ends with an ASCII letter or digit only matches at an
//!   identifier boundary (`revision` does not match inside `mod_revision`), ignoring ASCII case;
//! - a variant written only in ASCII is not looked for inside code (Markdown code spans and
//!   blocks, backtick spans in deck texts), where it is an identifier rather than prose;
//! - an occurrence inside a longer phrase the entry allows (`allow_zh` / `allow_en`), or inside
//!   the name of any glossary term, is not drift.

use std::ops::Range;

use pulldown_cmark::{Event, Options, Parser, Tag};

use super::lesson::Glossary;
use crate::i18n::Lang;

/// The interface's string tables, checked as they are compiled into this binary (the live lab's
/// words live beside it, as its views' types are its own).
pub const UI_SOURCES: [(&str, &str); 14] = [
    ("src/live/words.rs", include_str!("../live/words.rs")),
    ("src/i18n/export.rs", include_str!("../i18n/export.rs")),
    ("src/i18n/present.rs", include_str!("../i18n/present.rs")),
    ("src/i18n/ui.rs", include_str!("../i18n/ui.rs")),
    ("src/i18n/sim/mod.rs", include_str!("../i18n/sim/mod.rs")),
    (
        "src/i18n/sim/describe/mod.rs",
        include_str!("../i18n/sim/describe/mod.rs"),
    ),
    (
        "src/i18n/sim/describe/tasks.rs",
        include_str!("../i18n/sim/describe/tasks.rs"),
    ),
    (
        "src/i18n/sim/params.rs",
        include_str!("../i18n/sim/params.rs"),
    ),
    ("src/i18n/sim/rows.rs", include_str!("../i18n/sim/rows.rs")),
    ("src/i18n/redlock.rs", include_str!("../i18n/redlock.rs")),
    (
        "src/i18n/snowflake.rs",
        include_str!("../i18n/snowflake.rs"),
    ),
    (
        "src/quiz/words/mod.rs",
        include_str!("../quiz/words/mod.rs"),
    ),
    (
        "src/quiz/words/lines.rs",
        include_str!("../quiz/words/lines.rs"),
    ),
    (
        "src/progress/words.rs",
        include_str!("../progress/words.rs"),
    ),
];

/// One word not to use, with the term to use instead.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AvoidWord {
    pub lang: Lang,
    pub text: String,
    /// The glossary term that replaces it.
    pub term: String,
    /// Where the glossary lists it, as `file:line`.
    pub origin: String,
    /// Longer phrases containing the variant that are not drift (lowercase ASCII).
    allowed: Vec<String>,
}

impl AvoidWord {
    /// What a report says about one occurrence.
    pub fn message(&self) -> String {
        let (open, close) = match self.lang {
            Lang::Zh => ("「", "」"),
            Lang::En => ("\"", "\""),
        };
        format!(
            "{open}{}{close} is a variant to avoid; the glossary term is {open}{}{close} ({})",
            self.text, self.term, self.origin
        )
    }
}

/// Every avoided variant the glossaries list.
#[derive(Debug, Clone, Default)]
pub struct Vocabulary {
    variants: Vec<AvoidWord>,
}

impl Vocabulary {
    pub fn from_glossaries(glossaries: &[Glossary]) -> Self {
        let terms: Vec<(&Glossary, usize, &super::lesson::Term)> = glossaries
            .iter()
            .flat_map(|g| g.terms.iter().map(move |(line, t)| (g, *line, t)))
            .collect();
        let mut variants = Vec::new();
        for (g, line, term) in &terms {
            for lang in [Lang::Zh, Lang::En] {
                for v in term.avoid(lang).iter().map(|v| v.trim()) {
                    if v.is_empty() {
                        continue;
                    }
                    let needle = v.to_ascii_lowercase();
                    // Any glossary term whose name contains the variant uses it legitimately.
                    let names = terms.iter().map(|(_, _, t)| t.name(lang));
                    let allowed = term
                        .allow(lang)
                        .iter()
                        .map(String::as_str)
                        .chain(names)
                        .map(str::to_ascii_lowercase)
                        .filter(|p| p.len() > needle.len() && p.contains(&needle))
                        .collect();
                    variants.push(AvoidWord {
                        lang,
                        text: v.to_string(),
                        term: term.name(lang).to_string(),
                        origin: format!("{}:{line}", g.file),
                        allowed,
                    });
                }
            }
        }
        Self { variants }
    }

    pub fn variants(&self) -> &[AvoidWord] {
        &self.variants
    }

    /// The avoided variants of `lang` found in `text`, in order, skipping ASCII variants inside
    /// the `code` ranges.
    pub fn hits(&self, lang: Lang, text: &str, code: &[Range<usize>]) -> Vec<(usize, &AvoidWord)> {
        let hay = text.to_ascii_lowercase();
        let mut out = Vec::new();
        for v in self.variants.iter().filter(|v| v.lang == lang) {
            let needle = v.text.to_ascii_lowercase();
            for (start, _) in hay.match_indices(&needle) {
                let end = start + needle.len();
                if !at_boundaries(&hay, start, end)
                    || (needle.is_ascii() && code.iter().any(|c| c.start <= start && end <= c.end))
                    || v.allowed.iter().any(|p| covers(&hay, start, &needle, p))
                {
                    continue;
                }
                out.push((start, v));
            }
        }
        out.sort_by_key(|(at, _)| *at);
        out
    }
}

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// An occurrence that starts (ends) with an identifier character must not continue one.
fn at_boundaries(hay: &str, start: usize, end: usize) -> bool {
    let inner = &hay[start..end];
    let first = inner.chars().next().is_some_and(is_ident);
    let last = inner.chars().next_back().is_some_and(is_ident);
    let before = hay[..start].chars().next_back().is_some_and(is_ident);
    let after = hay[end..].chars().next().is_some_and(is_ident);
    !((first && before) || (last && after))
}

/// Whether an occurrence of `phrase` in `hay` contains the occurrence of `needle` at `start`.
fn covers(hay: &str, start: usize, needle: &str, phrase: &str) -> bool {
    phrase
        .match_indices(needle)
        .any(|(k, _)| start >= k && hay.get(start - k..).is_some_and(|t| t.starts_with(phrase)))
}

/// Byte ranges of code in a Markdown text: inline code spans and code blocks.
pub fn markdown_code(text: &str) -> Vec<Range<usize>> {
    Parser::new_ext(text, Options::ENABLE_TABLES)
        .into_offset_iter()
        .filter_map(|(event, range)| match event {
            Event::Code(_) | Event::Start(Tag::CodeBlock(_)) => Some(range),
            _ => None,
        })
        .collect()
}

/// Byte ranges of backtick spans (`like this`) in a text.
pub fn backtick_spans(text: &str) -> Vec<Range<usize>> {
    let ticks: Vec<usize> = text.match_indices('`').map(|(i, _)| i).collect();
    ticks.chunks_exact(2).map(|p| p[0]..p[1] + 1).collect()
}

/// The language a TOML key's text is written in: `zh`, `en` and keys ending in `_zh` / `_en`
/// (`why_zh`, `note_en`), but not the glossary's own `avoid_*` and `allow_*` lists.
fn key_lang(key: &str) -> Option<Lang> {
    if key.starts_with("avoid_") || key.starts_with("allow_") {
        return None;
    }
    if key == "zh" || key.ends_with("_zh") {
        Some(Lang::Zh)
    } else if key == "en" || key.ends_with("_en") {
        Some(Lang::En)
    } else {
        None
    }
}

/// The raw byte ranges (quotes included) of every string in a TOML document that is written in
/// a language, found from the keys above it. A document that does not parse yields nothing: the
/// parse error is reported elsewhere.
pub fn toml_texts(text: &str) -> Vec<(Lang, Range<usize>)> {
    use toml::de::{DeTable, DeValue};
    fn walk(
        value: &toml::Spanned<DeValue<'_>>,
        lang: Option<Lang>,
        out: &mut Vec<(Lang, Range<usize>)>,
    ) {
        match value.get_ref() {
            DeValue::String(_) => {
                if let Some(lang) = lang {
                    out.push((lang, value.span()));
                }
            }
            DeValue::Array(items) => items.iter().for_each(|v| walk(v, lang, out)),
            DeValue::Table(table) => {
                for (k, v) in table.iter() {
                    walk(v, key_lang(k.get_ref()).or(lang), out);
                }
            }
            _ => {}
        }
    }
    let Ok(doc) = DeTable::parse(text) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (k, v) in doc.get_ref().iter() {
        walk(v, key_lang(k.get_ref()), &mut out);
    }
    out.sort_by_key(|(_, r)| r.start);
    out
}

/// Whether a string is written in Chinese: it holds a CJK ideograph or full-width punctuation.
pub fn is_chinese(s: &str) -> bool {
    s.chars().any(|c| {
        matches!(c, '\u{3000}'..='\u{303f}' | '\u{3400}'..='\u{9fff}' | '\u{ff00}'..='\u{ffef}')
    })
}

/// The byte ranges of the string literals in Rust source (contents between the quotes),
/// skipping comments and character literals.
pub fn rust_strings(src: &str) -> Vec<Range<usize>> {
    let b = src.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let ident = |i: usize| i > 0 && (b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_');
    while i < b.len() {
        match b[i] {
            b'/' if b.get(i + 1) == Some(&b'/') => {
                i = src[i..].find('\n').map_or(b.len(), |n| i + n);
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                i = src[i + 2..].find("*/").map_or(b.len(), |n| i + 2 + n + 2);
            }
            b'r' if !ident(i) && matches!(b.get(i + 1), Some(b'"' | b'#')) => {
                let hashes = b[i + 1..].iter().take_while(|&&c| c == b'#').count();
                let open = i + 1 + hashes;
                if b.get(open) != Some(&b'"') {
                    i += 1;
                    continue;
                }
                let close = format!("\"{}", "#".repeat(hashes));
                let end = src[open + 1..]
                    .find(&close)
                    .map_or(b.len(), |n| open + 1 + n);
                out.push(open + 1..end);
                i = end + close.len();
            }
            b'"' => {
                let start = i + 1;
                let mut j = start;
                while j < b.len() && b[j] != b'"' {
                    j += if b[j] == b'\\' { 2 } else { 1 };
                }
                out.push(start..j.min(b.len()));
                i = j + 1;
            }
            b'\'' => {
                // A character literal ('a', '\n', '"'), or a lifetime, which is skipped as code.
                if b.get(i + 1) == Some(&b'\\') {
                    i = src[i + 2..].find('\'').map_or(b.len(), |n| i + 2 + n + 1);
                } else {
                    let next = src[i + 1..].chars().next().map_or(0, char::len_utf8);
                    if b.get(i + 1 + next) == Some(&b'\'') {
                        i += 1 + next + 1;
                    } else {
                        i += 1;
                    }
                }
            }
            _ => i += 1,
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::lesson::parse_glossary;

    fn vocab(text: &str) -> Vocabulary {
        let g = parse_glossary("01-t", "g.toml", text).unwrap();
        Vocabulary::from_glossaries(&[g])
    }

    const GLOSSARY: &str = "[[term]]\nzh = \"任期号\"\nen = \"epoch\"\navoid_zh = [\"纪元\"]\n\
        \n[[term]]\nzh = \"修订号\"\nen = \"revision\"\navoid_zh = [\"revision\"]\n\
        \n[[term]]\nzh = \"凝固的持锁者\"\nen = \"frozen holder\"\navoid_zh = [\"停顿中\"]\n\
        allow_zh = [\"全停顿中\"]\navoid_en = [\"paused holder\"]\n\
        \n[[term]]\nzh = \"无效唤醒\"\nen = \"wasted wake-up\"\navoid_zh = [\"唤醒\"]\n";

    fn found<'a>(v: &'a Vocabulary, lang: Lang, text: &str) -> Vec<(usize, &'a str)> {
        v.hits(lang, text, &markdown_code(text))
            .into_iter()
            .map(|(at, v)| (at, v.text.as_str()))
            .collect()
    }

    #[test]
    fn a_variant_is_found_with_its_offset_and_the_term_to_use() {
        let v = vocab(GLOSSARY);
        let text = "令牌里带着纪元。";
        let hits = v.hits(Lang::Zh, text, &[]);
        assert_eq!(hits.len(), 1);
        assert_eq!(&text[hits[0].0..hits[0].0 + "纪元".len()], "纪元");
        let m = hits[0].1.message();
        assert!(
            m.contains("「纪元」") && m.contains("「任期号」") && m.contains("g.toml:1"),
            "{m}"
        );
        // Each language has its own list.
        assert!(v.hits(Lang::En, text, &[]).is_empty());
    }

    #[test]
    fn ascii_variants_match_whole_words_in_any_case_outside_code() {
        let v = vocab(GLOSSARY);
        assert_eq!(found(&v, Lang::Zh, "etcd 的 Revision 加一").len(), 1);
        assert!(found(&v, Lang::Zh, "比较 mod_revision 和 revisions").is_empty());
        assert!(found(&v, Lang::Zh, "比较 `revision` 字段").is_empty());
        assert!(found(&v, Lang::Zh, "```text\nrevision 200\n```\n").is_empty());
        // Chinese variants are prose even inside a code block's comment.
        assert_eq!(found(&v, Lang::Zh, "```text\n# 纪元加一\n```\n").len(), 1);
        assert_eq!(found(&v, Lang::En, "a Paused holder wakes").len(), 1);
    }

    #[test]
    fn a_variant_inside_an_allowed_phrase_or_another_term_is_not_drift() {
        let v = vocab(GLOSSARY);
        assert!(found(&v, Lang::Zh, "A 在全停顿中醒来").is_empty());
        assert_eq!(found(&v, Lang::Zh, "A 停顿中醒来").len(), 1);
        // 唤醒 is avoided here only to test this: inside the term 无效唤醒 it is fine.
        assert!(found(&v, Lang::Zh, "一次无效唤醒").is_empty());
        assert_eq!(found(&v, Lang::Zh, "被唤醒").len(), 1);
    }

    #[test]
    fn toml_texts_follow_the_language_keys() {
        let text = "deck = \"d\"\n[title]\nzh = \"标题\"\nen = \"Title\"\n[[questions]]\n\
                    id = \"d.revision\"\n[questions.zh]\nprompt = \"问\"\nanswer = \"\"\"答\"\"\"\n\
                    [[questions.options]]\nwhy_zh = \"因为\"\n[[term]]\navoid_zh = [\"x\"]\n";
        let texts = toml_texts(text);
        let got: Vec<(Lang, &str)> = texts.iter().map(|(l, r)| (*l, &text[r.clone()])).collect();
        assert_eq!(
            got,
            [
                (Lang::Zh, "\"标题\""),
                (Lang::En, "\"Title\""),
                (Lang::Zh, "\"问\""),
                (Lang::Zh, "\"\"\"答\"\"\""),
                (Lang::Zh, "\"因为\""),
            ]
        );
        assert!(toml_texts("not = [toml").is_empty());
    }

    #[test]
    fn rust_string_literals_are_found_outside_comments() {
        let src = "// \"注释里的纪元\"\nfn f<'a>(c: char) -> &'a str {\n    let q = '\"';\n    \
                   let e = '\\'';\n    /* \"block\" */ pick(\"纪元\", r#\"raw \"x\"\"#)\n}\n";
        let found: Vec<&str> = rust_strings(src).into_iter().map(|r| &src[r]).collect();
        assert_eq!(found, ["纪元", "raw \"x\""]);
        assert!(is_chinese("纪元") && is_chinese("（") && !is_chinese("epoch 1"));
    }

    #[test]
    fn backtick_spans_pair_up() {
        let t = "a `x` b `y` c `";
        let spans: Vec<&str> = backtick_spans(t).into_iter().map(|r| &t[r]).collect();
        assert_eq!(spans, ["`x`", "`y`"]);
    }
}
