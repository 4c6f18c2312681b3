//! The closed-book self-test's list (`quizzes/self-test.toml`): twelve recall questions on the
//! topics of the page the test comes from, asked in the same order every time, each scored
//! against its points and rated forgot / partial / solid, so one run can be compared with the
//! last; then one recall question whose three follow-up rounds are asked as an interviewer
//! asks them, every round answered before any reference shows. The list is content, so it is
//! read and checked here; the quiz asks it.

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
/// The most questions one deck may give, so no deck crowds out the page's other topics.
pub const PER_DECK: usize = 4;
/// How many follow-up rounds the closing interview question asks.
pub const ROUNDS: usize = 3;

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct Raw {
    questions: Vec<Spanned<String>>,
    /// The question whose follow-up rounds close the test, asked as in an interview.
    #[serde(default)]
    rounds: Option<Spanned<String>>,
}

/// The parsed list, with what is needed to point at an entry.
#[derive(Debug, Clone)]
pub struct SelfTestFile {
    pub file: String,
    pub text: String,
    pub ids: Vec<Spanned<String>>,
    pub rounds: Option<Spanned<String>>,
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
        rounds: raw.rounds,
    }))
}

/// What the checker knows about a question: its kind, deck and number of follow-up rounds.
pub struct Known<'a> {
    pub kind: Kind,
    pub deck: &'a str,
    pub follow_ups: usize,
}

/// The problems with the list: not twelve, an unknown or repeated id, a question that is not
/// recall, one deck giving more than [`PER_DECK`], or a closing question that is not a recall
/// question with [`ROUNDS`] follow-ups.
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
    if let Some(r) = &st.rounds {
        out.extend(check_rounds(st, r, known));
    }
    out
}

/// The closing question: a recall question with exactly [`ROUNDS`] follow-ups, not one of the
/// twelve.
fn check_rounds(
    st: &SelfTestFile,
    r: &Spanned<String>,
    known: &BTreeMap<&str, Known>,
) -> Option<Located> {
    let name = r.get_ref().as_str();
    let message = match known.get(name) {
        None => format!("no question has the id `{name}`"),
        Some(k) if k.kind != Kind::Recall => format!(
            "`{name}` is a {} question; the rounds are asked from a recall question",
            k.kind.name()
        ),
        Some(_) if st.ids().contains(&name) => {
            format!(
                "`{name}` is already one of the questions; its rounds need a question of their own"
            )
        }
        Some(k) if k.follow_ups != ROUNDS => format!(
            "`{name}` has {} follow-up round{}; the self-test closes with a question of {ROUNDS}",
            k.follow_ups,
            if k.follow_ups == 1 { "" } else { "s" }
        ),
        Some(_) => return None,
    };
    Some(Located::at(
        &st.file,
        &st.text,
        r.span().start,
        Some("rounds"),
        message,
    ))
}
