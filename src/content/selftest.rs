//! The closed-book self-test's list: twelve recall questions across the topic map
//! (`quizzes/self-test.toml`), asked in the same order every time, each scored against its
//! points and rated forgot / partial / solid, so one run can be compared with the last. The
//! list is content, so it is read and checked here; the quiz asks it.

use std::collections::BTreeMap;

use serde::Deserialize;
use toml::Spanned;

use crate::content::Located;
use crate::content::deck::Kind;
use crate::source::Source;

/// Where the list lives, relative to the content root.
pub const FILE: &str = "quizzes/self-test.toml";
/// How many questions the self-test asks.
pub const SIZE: usize = 12;
/// The most questions one deck may give, so the test spans the topic map.
pub const PER_DECK: usize = 2;

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct Raw {
    questions: Vec<Spanned<String>>,
}

/// The parsed list, with what is needed to point at an entry.
#[derive(Debug, Clone)]
pub struct SelfTestFile {
    pub file: String,
    pub text: String,
    pub ids: Vec<Spanned<String>>,
}

impl SelfTestFile {
    /// The question ids in the order asked.
    pub fn ids(&self) -> Vec<&str> {
        self.ids.iter().map(|s| s.get_ref().as_str()).collect()
    }
}

/// Reads the list; `Ok(None)` when the content has none.
pub fn load(source: &Source) -> Result<Option<SelfTestFile>, Located> {
    let files = source
        .files("quizzes", "toml")
        .map_err(|e| Located::at(FILE, "", 0, None, e.to_string()))?;
    let Some(f) = files.into_iter().find(|f| f.rel == FILE) else {
        return Ok(None);
    };
    crate::content::readable(&f)?;
    let raw: Raw = crate::content::parse_toml(&f.display, &f.text)?;
    Ok(Some(SelfTestFile {
        file: f.display.clone(),
        text: f.text.to_string(),
        ids: raw.questions,
    }))
}

/// What the checker knows about a question: its kind and deck.
pub struct Known<'a> {
    pub kind: Kind,
    pub deck: &'a str,
}

/// The problems with the list: not twelve, an unknown or repeated id, a question that is not
/// recall, or one deck giving more than [`PER_DECK`].
pub fn check(st: &SelfTestFile, known: &BTreeMap<&str, Known>) -> Vec<Located> {
    let at =
        |offset: usize, message: String| Located::at(&st.file, &st.text, offset, None, message);
    let mut out = Vec::new();
    if st.ids.len() != SIZE {
        out.push(Located::at(
            &st.file,
            &st.text,
            0,
            Some("questions"),
            format!(
                "the self-test lists {} questions; it needs {SIZE}",
                st.ids.len()
            ),
        ));
    }
    let mut seen = BTreeMap::new();
    let mut per_deck: BTreeMap<&str, usize> = BTreeMap::new();
    for id in &st.ids {
        let name = id.get_ref().as_str();
        let offset = id.span().start;
        if seen.insert(name, ()).is_some() {
            out.push(at(offset, format!("`{name}` is listed twice")));
            continue;
        }
        match known.get(name) {
            None => out.push(at(offset, format!("no question has the id `{name}`"))),
            Some(k) if k.kind != Kind::Recall => out.push(at(
                offset,
                format!(
                    "`{name}` is a {} question; the self-test asks recall questions only",
                    k.kind.name()
                ),
            )),
            Some(k) => {
                let n = per_deck.entry(k.deck).or_default();
                *n += 1;
                if *n > PER_DECK {
                    out.push(at(
                        offset,
                        format!(
                            "`{name}` is question {n} from deck `{}`; at most {PER_DECK} per deck keep the test across the topic map",
                            k.deck
                        ),
                    ));
                }
            }
        }
    }
    out
}
