//! `locklab check --draws N`: whether a model question's answer has to be worked out. Each model
//! question is drawn N times (seeds 0 to N − 1, as attempts draw them) and its answers tallied.
//! A question fails when one answer covers more than half of the draws, since always giving it
//! would pass, or, for a numeric or verdict answer, when fewer than three different numbers or
//! verdicts occur at all. A yes/no or whose-value answer has only two to give, so only the first
//! rule applies to it.

use std::collections::BTreeMap;

use super::Located;
use super::deck::{DeckFile, Question};
use super::model::{self, ModelAnswer};
use crate::scenario::Preset;

/// The largest share of draws one answer may have.
pub const MAX_MODAL_SHARE: f64 = 0.5;
/// The fewest different answers the draws must show.
pub const MIN_DISTINCT: usize = 3;

/// What a question's answer is, for the rule on how many different answers it needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AnswerKind {
    Number,
    Verdict,
    /// Yes or no, or whose value: two answers at most, so no minimum count.
    TwoWay,
}

/// How a question's answers fell over its draws.
#[derive(Debug, Clone, PartialEq)]
pub struct Spread {
    pub draws: u64,
    /// Each answer as the report writes it, with how often it came.
    pub answers: BTreeMap<String, u64>,
    pub kind: AnswerKind,
}

impl Spread {
    pub fn distinct(&self) -> usize {
        self.answers.len()
    }

    /// The most frequent answer and its count.
    pub fn modal(&self) -> Option<(&str, u64)> {
        self.answers
            .iter()
            .max_by_key(|(_, n)| **n)
            .map(|(a, n)| (a.as_str(), *n))
    }

    /// Why the spread is too narrow, if it is.
    pub fn fault(&self) -> Option<String> {
        let (modal, n) = self.modal()?;
        let what = match self.kind {
            AnswerKind::Verdict => "verdicts",
            _ => "answers",
        };
        if self.kind != AnswerKind::TwoWay && self.distinct() < MIN_DISTINCT {
            return Some(format!(
                "{} {what} in {} draws (needs at least {MIN_DISTINCT})",
                self.distinct(),
                self.draws
            ));
        }
        if n as f64 > MAX_MODAL_SHARE * self.draws as f64 {
            return Some(format!(
                "`{modal}` in {n} of {} draws (more than {}%)",
                self.draws,
                (MAX_MODAL_SHARE * 100.0) as u32
            ));
        }
        None
    }
}

fn label(a: &ModelAnswer) -> String {
    match a {
        ModelAnswer::Number(x) => super::model_text::fmt_value(*x),
        ModelAnswer::Verdict(v) => v.name().to_string(),
        ModelAnswer::Bool(b) => b.to_string(),
        ModelAnswer::Value(v) => v.clone().unwrap_or_else(|| "none".into()),
    }
}

/// Draws `q` `draws` times. `None` for a question that is not a model question or does not
/// compute (the computation check reports that).
pub fn spread(q: &Question, presets: &[Preset], draws: u64) -> Option<Spread> {
    q.model.as_ref()?;
    let mut s = Spread {
        draws,
        answers: BTreeMap::new(),
        kind: AnswerKind::Number,
    };
    for seed in 0..draws {
        let v = model::variant(q, seed, presets).ok()?;
        let a = model::answer(q, &v).ok()?;
        s.kind = match a {
            ModelAnswer::Number(_) => AnswerKind::Number,
            ModelAnswer::Verdict(_) => AnswerKind::Verdict,
            ModelAnswer::Bool(_) | ModelAnswer::Value(_) => AnswerKind::TwoWay,
        };
        *s.answers.entry(label(&a)).or_default() += 1;
    }
    Some(s)
}

/// The spread problems of a deck's model questions.
pub fn deck(d: &DeckFile, presets: &[Preset], draws: u64) -> Vec<Located> {
    d.deck
        .questions
        .iter()
        .filter_map(|q| {
            let fault = spread(q, presets, draws)?.fault()?;
            let spec = q.model.as_ref()?;
            Some(d.problem(
                spec.ask.span().start,
                Some("ask"),
                format!(
                    "`{}` gives {fault}, so its answer can be guessed without working it out; widen [questions.model.vary] or add cases that change the outcome",
                    q.id.get_ref()
                ),
            ))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn of(pairs: &[(&str, u64)], kind: AnswerKind) -> Spread {
        Spread {
            draws: pairs.iter().map(|(_, n)| n).sum(),
            answers: pairs.iter().map(|(a, n)| (a.to_string(), *n)).collect(),
            kind,
        }
    }

    #[test]
    fn a_spread_needs_three_answers_and_no_majority() {
        use AnswerKind::*;
        assert_eq!(of(&[("0", 14), ("1", 13), ("2", 13)], Number).fault(), None);
        // Exactly half is allowed; one more is not.
        assert_eq!(of(&[("0", 20), ("1", 10), ("2", 10)], Number).fault(), None);
        let f = of(&[("0", 21), ("1", 10), ("2", 9)], Number)
            .fault()
            .unwrap();
        assert!(f.contains("`0` in 21 of 40"), "{f}");
        let f = of(&[("corruption", 20), ("no_incident", 20)], Verdict)
            .fault()
            .unwrap();
        assert!(f.contains("2 verdicts in 40 draws"), "{f}");
        let f = of(&[("0", 20), ("1", 20)], Number).fault().unwrap();
        assert!(f.contains("2 answers in 40 draws"), "{f}");
        // Yes or no can only give two answers: it needs only an even enough split.
        assert_eq!(of(&[("true", 20), ("false", 20)], TwoWay).fault(), None);
        let f = of(&[("true", 21), ("false", 19)], TwoWay).fault().unwrap();
        assert!(f.contains("`true` in 21 of 40"), "{f}");
    }
}
