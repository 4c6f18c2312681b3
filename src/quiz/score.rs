//! Scoring of the automatically marked kinds. Pure functions of the item and the response.
//!
//! - choice: one point per correct option picked, minus one per wrong option picked (never
//!   below 0); the maximum is the number of correct options.
//! - order: one point per step placed in its right position.
//! - model: one point when the number is within the tolerance or the option picked is the
//!   engine's answer.

use super::item::{Body, ModelInput, PreparedQuestion};
use crate::content::model::ModelAnswer;

/// A learner's response to a model question.
#[derive(Debug, Clone, PartialEq)]
pub enum ModelResponse {
    Number(f64),
    /// 0-based option index.
    Option(usize),
}

/// Why a response does not fit the question.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Invalid {
    /// The response is for another kind of question.
    WrongKind,
    /// An option or step number that does not exist.
    OutOfRange,
    /// A step named twice or left out.
    NotAPermutation,
    /// Nothing picked.
    Empty,
}

/// Scores a choice answer (`picked`: 0-based option indexes, any order, duplicates ignored).
pub fn choice(item: &PreparedQuestion, picked: &[usize]) -> Result<u32, Invalid> {
    let Body::Choice { options } = &item.body else {
        return Err(Invalid::WrongKind);
    };
    if picked.is_empty() {
        return Err(Invalid::Empty);
    }
    if picked.iter().any(|&i| i >= options.len()) {
        return Err(Invalid::OutOfRange);
    }
    let mut chosen = vec![false; options.len()];
    for &i in picked {
        chosen[i] = true;
    }
    let right = options
        .iter()
        .zip(&chosen)
        .filter(|(o, c)| **c && o.correct)
        .count();
    let wrong = options
        .iter()
        .zip(&chosen)
        .filter(|(o, c)| **c && !o.correct)
        .count();
    Ok(right.saturating_sub(wrong) as u32)
}

/// Scores an order answer: `sequence` lists the shown step numbers (0-based) in the order the
/// learner believes is right.
pub fn order(item: &PreparedQuestion, sequence: &[usize]) -> Result<u32, Invalid> {
    let Body::Order { shown, correct } = &item.body else {
        return Err(Invalid::WrongKind);
    };
    if sequence.iter().any(|&i| i >= shown.len()) {
        return Err(Invalid::OutOfRange);
    }
    let mut seen = vec![false; shown.len()];
    for &i in sequence {
        if std::mem::replace(&mut seen[i], true) {
            return Err(Invalid::NotAPermutation);
        }
    }
    if sequence.len() != shown.len() {
        return Err(Invalid::NotAPermutation);
    }
    Ok(sequence.iter().zip(correct).filter(|(a, b)| a == b).count() as u32)
}

/// Scores a model answer against the engine's.
pub fn model(item: &PreparedQuestion, response: &ModelResponse) -> Result<u32, Invalid> {
    let Body::Model { answer, input, .. } = &item.body else {
        return Err(Invalid::WrongKind);
    };
    let right = match (input, response, answer) {
        (ModelInput::Number { tolerance }, ModelResponse::Number(x), ModelAnswer::Number(a)) => {
            x.is_finite() && (x - a).abs() <= *tolerance
        }
        (ModelInput::Options(opts), ModelResponse::Option(i), _) => {
            let (_, value) = opts.get(*i).ok_or(Invalid::OutOfRange)?;
            value == answer
        }
        _ => return Err(Invalid::WrongKind),
    };
    Ok(u32::from(right))
}

/// The engine's answer as the learner would give it: the option index, or the number.
pub fn model_expected(item: &PreparedQuestion) -> Option<ModelResponse> {
    let Body::Model { answer, input, .. } = &item.body else {
        return None;
    };
    match (input, answer) {
        (ModelInput::Number { .. }, ModelAnswer::Number(a)) => Some(ModelResponse::Number(*a)),
        (ModelInput::Options(opts), _) => opts
            .iter()
            .position(|(_, v)| v == answer)
            .map(ModelResponse::Option),
        _ => None,
    }
}
