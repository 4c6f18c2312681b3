//! The checks for what makes quizzes hard to game and useful to learn from: a model question
//! whose answer actually changes from one attempt to the next, its cases worded in both
//! languages, hints only where they are allowed, `see` links that resolve, and the self-test's
//! list of questions.

use std::collections::BTreeMap;

use super::Located;
use super::deck::{DeckFile, Kind, Question};
use super::deck::{Target, parse_target};
use super::lesson::Lesson;
use super::model::{self, CASE_PLACEHOLDER, ModelAnswer};
use super::selftest;
use crate::i18n::Lang;
use crate::scenario::Preset;
use crate::source::Source;

/// Grids up to this many variants are computed whole; larger ones are sampled.
const WHOLE_GRID: usize = 256;
/// Seeds tried when the grid is too large to compute whole.
const SAMPLES: u64 = 64;

/// A problem when question `q`'s answer is the same for every draw: such a question can be
/// learnt by heart.
pub fn answer_varies(d: &DeckFile, q: &Question, presets: &[Preset]) -> Option<Located> {
    let spec = q.model.as_ref()?;
    let qid = q.id.get_ref();
    if spec.vary.is_empty() && spec.cases.is_empty() {
        return Some(d.problem(
            spec.ask.span().start,
            Some("ask"),
            format!(
                "`{qid}` draws nothing: every attempt asks the same run, so its answer can be memorised; add [questions.model.vary] ranges or [[questions.model.cases]]"
            ),
        ));
    }
    let variants = match model::all_variants(q, presets, WHOLE_GRID) {
        Ok(Some(v)) => v,
        Ok(None) => (0..SAMPLES)
            .filter_map(|seed| model::variant(q, seed, presets).ok())
            .collect(),
        // Reported by the computation check already.
        Err(_) => return None,
    };
    let mut answers: Vec<ModelAnswer> = Vec::new();
    for v in &variants {
        let a = model::answer(q, v).ok()?;
        if !answers.contains(&a) {
            answers.push(a);
        }
    }
    match answers.as_slice() {
        [one] => Some(d.problem(
            spec.ask.span().start,
            Some("ask"),
            format!(
                "`{qid}` has the same answer ({one:?}) for every draw of its ranges, so it can be memorised; widen [questions.model.vary] or add cases that change the outcome"
            ),
        )),
        _ => None,
    }
}

/// Each case needs words in both languages, and a question with cases shows `{case}` in both
/// prompts.
pub fn cases(d: &DeckFile, q: &Question) -> Vec<Located> {
    let mut out = Vec::new();
    let Some(spec) = &q.model else {
        return out;
    };
    let qid = q.id.get_ref();
    for (i, c) in spec.cases.iter().enumerate() {
        let words = c.get_ref();
        if words.zh.trim().is_empty() || words.en.trim().is_empty() {
            out.push(d.problem(
                c.span().start,
                Some("cases"),
                format!(
                    "case {} of `{qid}` needs zh and en words for {{case}}",
                    i + 1
                ),
            ));
        }
    }
    if spec.cases.len() == 1 {
        out.push(d.problem(
            spec.cases[0].span().start,
            Some("cases"),
            format!("`{qid}` has one case; a case is drawn among two or more"),
        ));
    }
    for (lang, t) in [(Lang::Zh, &q.zh), (Lang::En, &q.en)] {
        let shows = t.as_ref().is_some_and(|t| {
            model::placeholders(&t.prompt)
                .iter()
                .any(|(_, n)| *n == CASE_PLACEHOLDER)
        });
        if !spec.cases.is_empty() && !shows {
            out.push(d.problem(
                q.id.span().start,
                None,
                format!(
                    "`{qid}` draws a case but its {} prompt never shows `{{case}}`",
                    lang.code()
                ),
            ));
        }
    }
    out
}

/// A hint only on recall and model questions, in both languages; `see` links that exist.
pub fn extras(d: &DeckFile, q: &Question, lessons: &[Lesson], presets: &[Preset]) -> Vec<Located> {
    let mut out = Vec::new();
    let qid = q.id.get_ref();
    if let Some(h) = &q.hint {
        let at = h.span().start;
        if !matches!(q.kind, Kind::Recall | Kind::Model) {
            out.push(d.problem(
                at,
                Some("hint"),
                format!(
                    "`{qid}` is a {} question; only recall and model questions take a hint",
                    q.kind.name()
                ),
            ));
        }
        let h = h.get_ref();
        if h.zh.trim().is_empty() || h.en.trim().is_empty() {
            out.push(d.problem(
                at,
                Some("hint"),
                format!("the hint of `{qid}` needs zh and en"),
            ));
        }
    }
    for s in &q.see {
        let at = s.span().start;
        let target = s.get_ref();
        let problem = match parse_target(target) {
            None => Some(format!(
                "`{target}` is not a `lesson:NN-topic`, `lesson:NN-topic#N` or `sim:PRESET` link"
            )),
            Some(Target::Sim(p)) if !presets.iter().any(|x| x.name == p) => {
                Some(format!("no preset `{p}` for `{target}`"))
            }
            Some(Target::Lesson(id, n)) => {
                let found: Vec<&Lesson> = lessons.iter().filter(|l| l.id == id).collect();
                if found.is_empty() {
                    Some(format!("no lesson `{id}` for `{target}`"))
                } else {
                    n.and_then(|n| {
                        let fewest = found.iter().map(|l| l.sections().count()).min().unwrap_or(0);
                        (n > fewest).then(|| {
                            format!("lesson `{id}` has {fewest} `##` sections; `{target}` asks for section {n}")
                        })
                    })
                }
            }
            Some(Target::Sim(_)) => None,
        };
        if let Some(message) = problem {
            out.push(d.problem(at, Some("see"), message));
        }
    }
    out
}

/// The self-test's list against the decks.
pub fn self_test(source: &Source, decks: &[DeckFile]) -> Vec<Located> {
    let st = match selftest::load(source) {
        Ok(Some(st)) => st,
        Ok(None) => return Vec::new(),
        Err(e) => return vec![e],
    };
    let known: BTreeMap<&str, selftest::Known> = decks
        .iter()
        .flat_map(|d| {
            d.deck.questions.iter().map(move |q| {
                (
                    q.id.get_ref().as_str(),
                    selftest::Known {
                        kind: q.kind,
                        deck: d.deck.deck.get_ref().as_str(),
                        follow_ups: q.rounds().count(),
                    },
                )
            })
        })
        .collect();
    selftest::check(&st, &known)
}
