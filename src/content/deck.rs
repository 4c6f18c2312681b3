//! Quiz decks (`quizzes/NN-topic.toml`): one deck per topic, with recall, choice, order and
//! model questions in both languages. See `docs/src/reference/content-format.md` for the format.

use std::collections::BTreeMap;

use serde::Deserialize;
use toml::Spanned;

use super::{Located, parse_toml};
use crate::source::{Source, SourceFile};

/// A deck as written, with the positions needed to point at a question.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Deck {
    pub deck: Spanned<String>,
    pub lesson: Spanned<String>,
    pub title: Spanned<Bilingual>,
    #[serde(default)]
    pub questions: Vec<Question>,
}

/// A short text in both languages.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Bilingual {
    #[serde(default)]
    pub zh: String,
    #[serde(default)]
    pub en: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    Recall,
    Choice,
    Order,
    Model,
    /// A prediction made in the lab before a run played (never a deck's question).
    Prediction,
}

impl Kind {
    pub fn name(self) -> &'static str {
        match self {
            Kind::Recall => "recall",
            Kind::Choice => "choice",
            Kind::Order => "order",
            Kind::Model => "model",
            Kind::Prediction => "prediction",
        }
    }
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Question {
    pub id: Spanned<String>,
    pub kind: Kind,
    #[serde(default)]
    pub topics: Vec<String>,
    pub difficulty: Spanned<u8>,
    #[serde(default)]
    pub aliases: Vec<String>,
    pub zh: Option<Prompt>,
    pub en: Option<Prompt>,
    /// Recall only: the scoring points.
    #[serde(default)]
    pub points: Vec<Point>,
    /// Recall only: an interviewer's follow-up (the older, single form).
    pub follow_up: Option<FollowUp>,
    /// Recall only: up to three rounds of follow-ups, each deeper than the last.
    #[serde(default)]
    pub follow_ups: Vec<FollowUp>,
    /// Choice only.
    #[serde(default)]
    pub options: Vec<ChoiceOption>,
    /// Order only, in the correct order.
    #[serde(default)]
    pub steps: Vec<Step>,
    /// Model only.
    pub model: Option<ModelSpec>,
    /// Recall and model: one hint a learner may take; taking it caps the score.
    pub hint: Option<Spanned<Bilingual>>,
    /// Where this question is taught: `lesson:NN-topic#N` (the N-th `##` section) and
    /// `sim:PRESET` links, shown beside the points missed in an interview report.
    #[serde(default)]
    pub see: Vec<Spanned<String>>,
}

impl Question {
    /// The follow-up rounds in order, whichever form the file used.
    pub fn rounds(&self) -> impl Iterator<Item = &FollowUp> {
        self.follow_up.iter().chain(self.follow_ups.iter())
    }

    /// Every scoring point, the opening question's first and then each round's, in the order
    /// a progress file numbers them (`missed`).
    pub fn all_points(&self) -> impl Iterator<Item = &Point> {
        self.points
            .iter()
            .chain(self.rounds().flat_map(|f| f.points.iter()))
    }

    /// The prompt and answer in one language.
    pub fn text(&self, lang: crate::i18n::Lang) -> Option<&Prompt> {
        match lang {
            crate::i18n::Lang::Zh => self.zh.as_ref(),
            crate::i18n::Lang::En => self.en.as_ref(),
        }
    }
}

/// A prompt and its answer (for recall) or explanation (for the other kinds).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Prompt {
    #[serde(default)]
    pub prompt: String,
    #[serde(default)]
    pub answer: String,
}

/// A checkable statement worth `value` points.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Point {
    pub value: Spanned<u8>,
    #[serde(default)]
    pub zh: String,
    #[serde(default)]
    pub en: String,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FollowUp {
    pub zh: Option<Prompt>,
    pub en: Option<Prompt>,
    #[serde(default)]
    pub points: Vec<Point>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChoiceOption {
    pub correct: bool,
    #[serde(default)]
    pub zh: String,
    #[serde(default)]
    pub en: String,
    #[serde(default)]
    pub why_zh: String,
    #[serde(default)]
    pub why_en: String,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Step {
    #[serde(default)]
    pub zh: String,
    #[serde(default)]
    pub en: String,
    /// The author's note that this step could as well come before the one above it; `locklab
    /// check` refuses it, since an order question must have one valid order.
    #[serde(default)]
    pub swaps_with_previous: bool,
}

/// How the engine computes a model question's answer.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ModelSpec {
    pub family: Spanned<String>,
    pub ask: Spanned<String>,
    /// For numeric answers: how far off an answer may be and still count (absolute).
    pub tolerance: Option<Spanned<f64>>,
    /// Fixed parameters; omitted ones take the family defaults.
    #[serde(default)]
    pub params: BTreeMap<String, Spanned<toml::Value>>,
    /// Parameters drawn per attempt: `[min, max, step]`.
    #[serde(default)]
    pub vary: BTreeMap<String, Spanned<Vec<f64>>>,
    /// Alternatives drawn per attempt, each a set of parameters and the words that fill the
    /// prompt's `{case}`.
    #[serde(default)]
    pub cases: Vec<Spanned<Case>>,
}

/// One alternative of a model question: parameters set together, and how the prompt says it.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Case {
    pub params: BTreeMap<String, Spanned<toml::Value>>,
    #[serde(default)]
    pub zh: String,
    #[serde(default)]
    pub en: String,
}

/// A parsed deck with the file it came from.
#[derive(Debug, Clone)]
pub struct DeckFile {
    /// The file's stem (`05-fencing`).
    pub stem: String,
    /// What to call the file in messages.
    pub file: String,
    /// The file's text, to turn positions into lines.
    pub text: String,
    pub deck: Deck,
}

impl DeckFile {
    /// A problem at byte `offset` of this deck.
    pub fn problem(&self, offset: usize, key: Option<&str>, message: String) -> Located {
        Located::at(&self.file, &self.text, offset, key, message)
    }
}

/// Parses one deck. `file` names it in messages.
pub fn parse(stem: &str, file: &str, text: &str) -> Result<DeckFile, Located> {
    let deck: Deck = parse_toml(file, text)?;
    Ok(DeckFile {
        stem: stem.to_string(),
        file: file.to_string(),
        text: text.to_string(),
        deck,
    })
}

fn parse_file(f: &SourceFile) -> Result<DeckFile, Located> {
    super::readable(f)?;
    parse(super::stem(&f.rel), &f.display, &f.text)
}

/// Every deck under `quizzes/`, each parsed or with the problem that stopped it. The
/// self-test's list ([`super::selftest::FILE`]) is not a deck.
pub fn load_all(source: &Source) -> std::io::Result<Vec<Result<DeckFile, Located>>> {
    Ok(source
        .files("quizzes", "toml")?
        .iter()
        .filter(|f| f.rel != super::selftest::FILE)
        .map(parse_file)
        .collect())
}

/// A `see` entry split into its lesson id and optional section number, or a preset name.
pub enum Target<'a> {
    Lesson(&'a str, Option<usize>),
    Sim(&'a str),
}

/// Reads a `see` entry; `None` when it is neither form.
pub fn parse_target(s: &str) -> Option<Target<'_>> {
    if let Some(p) = s.strip_prefix("sim:") {
        return (!p.is_empty()).then_some(Target::Sim(p));
    }
    let rest = s.strip_prefix("lesson:")?;
    match rest.split_once('#') {
        None => (!rest.is_empty()).then_some(Target::Lesson(rest, None)),
        Some((id, n)) => {
            let n: usize = n.parse().ok().filter(|n| *n >= 1)?;
            (!id.is_empty()).then_some(Target::Lesson(id, Some(n)))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEAD: &str = "deck = \"d\"\nlesson = \"01-d\"\n[title]\nzh = \"标题\"\nen = \"Title\"\n";

    #[test]
    fn a_deck_with_every_kind_parses() {
        let text = format!(
            "{HEAD}\n[[questions]]\nid = \"d.a\"\nkind = \"model\"\ndifficulty = 2\n\
             [questions.model]\nfamily = \"frozen\"\nask = \"verdict\"\n\
             [questions.model.vary]\npause_len = [4.0, 12.0, 0.5]\n\n\
             [[questions]]\nid = \"d.b\"\nkind = \"choice\"\ndifficulty = 1\n\
             [[questions.options]]\ncorrect = true\nzh = \"是\"\nen = \"yes\"\n"
        );
        let d = parse("01-d", "d.toml", &text).unwrap();
        assert_eq!(d.deck.questions.len(), 2);
        let m = d.deck.questions[0].model.as_ref().unwrap();
        assert_eq!(m.vary["pause_len"].get_ref(), &vec![4.0, 12.0, 0.5]);
        assert_eq!(d.deck.questions[1].kind, Kind::Choice);
        assert!(d.deck.questions[1].options[0].correct);
    }

    #[test]
    fn errors_name_file_line_and_key() {
        let text = format!(
            "{HEAD}\n[[questions]]\nid = \"d.a\"\nkind = \"recall\"\ndifficulty = 1\ncolour = 3\n"
        );
        let err = parse("01-d", "d.toml", &text).unwrap_err();
        assert_eq!((err.file.as_str(), err.line), ("d.toml", 11));
        assert_eq!(err.key.as_deref(), Some("questions[0].colour"));

        let text =
            format!("{HEAD}\n[[questions]]\nid = \"d.a\"\nkind = \"essay\"\ndifficulty = 1\n");
        let err = parse("01-d", "d.toml", &text).unwrap_err();
        assert_eq!(err.line, 9, "{err}");
    }
}
