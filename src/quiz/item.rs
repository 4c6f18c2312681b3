//! A question made ready to ask: text in one language, model variant drawn and its answer
//! computed by the engine (with an explanation written from that run), choice options and order
//! steps shuffled for this attempt. Everything a screen or plain mode shows.

use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;
use rand::seq::SliceRandom;

use crate::content::deck::{DeckFile, Kind, Question};
use crate::content::model::{self, ModelAnswer, ModelDraw};
use crate::engine::trace::Verdict;
use crate::i18n::Lang;
use crate::quiz::words::{Label, label};
use crate::scenario::Preset;

/// Absolute tolerance for a numeric model answer whose question names none.
pub const DEFAULT_TOLERANCE: f64 = 1e-6;

/// A scoring point: what it is worth and the statement to tick.
#[derive(Debug, Clone, PartialEq)]
pub struct PointText {
    pub value: u32,
    pub text: String,
}

/// A choice option as shown.
#[derive(Debug, Clone, PartialEq)]
pub struct OptionText {
    pub text: String,
    pub correct: bool,
    pub why: String,
}

/// One round of an interviewer's follow-ups to a recall question.
#[derive(Debug, Clone, PartialEq)]
pub struct FollowUpText {
    pub prompt: String,
    pub answer: String,
    pub points: Vec<PointText>,
}

/// How a model question is answered.
#[derive(Debug, Clone, PartialEq)]
pub enum ModelInput {
    /// A number within `tolerance` of the engine's.
    Number { tolerance: f64 },
    /// One of these options; the answer is the option equal to the engine's answer.
    Options(Vec<(String, ModelAnswer)>),
}

/// The letter shown for option `i`: `a`, `b`, `c` ...
pub fn letter(i: usize) -> char {
    char::from(b'a' + (i % 26) as u8)
}

impl ModelInput {
    /// The engine's answer as a learner sees it: a number with its tolerance, or the option
    /// that matches it, with its letter.
    pub fn show(&self, answer: &ModelAnswer) -> String {
        use crate::content::model::fmt_value;
        match (answer, self) {
            (ModelAnswer::Number(x), ModelInput::Number { tolerance })
                if *tolerance > DEFAULT_TOLERANCE =>
            {
                format!("{} (± {})", fmt_value(*x), fmt_value(*tolerance))
            }
            (ModelAnswer::Number(x), ModelInput::Number { .. }) => fmt_value(*x),
            (_, ModelInput::Options(opts)) => opts
                .iter()
                .position(|(_, v)| v == answer)
                .map(|k| format!("{}) {}", letter(k), opts[k].0))
                .unwrap_or_default(),
            _ => String::new(),
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub enum Body {
    Recall {
        points: Vec<PointText>,
        /// The follow-up rounds asked in this attempt, each deeper than the last.
        follow_ups: Vec<FollowUpText>,
    },
    Choice {
        /// The options in the order shown, shuffled for this attempt.
        options: Vec<OptionText>,
    },
    Order {
        /// The steps in the order shown.
        shown: Vec<String>,
        /// `correct[i]` is the shown number (0-based) of the i-th step of the right order.
        correct: Vec<usize>,
    },
    Model {
        variant: Box<ModelDraw>,
        answer: ModelAnswer,
        input: ModelInput,
        /// The explanation written from this attempt's run, with its numbers.
        worked: String,
    },
}

/// How many follow-up rounds of a recall question an attempt asks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rounds {
    /// The opening question only (the self-test).
    None,
    /// The opening question and the first round (a quiz).
    First,
    /// Every round (an interview).
    All,
}

/// One question ready to ask.
#[derive(Debug, Clone, PartialEq)]
pub struct PreparedQuestion {
    pub id: String,
    pub deck: String,
    pub kind: Kind,
    pub topics: Vec<String>,
    pub difficulty: u8,
    /// The seed this attempt's variant and step order were drawn with.
    pub seed: u64,
    pub prompt: String,
    /// Recall: the reference answer; other kinds: the explanation shown after answering.
    pub answer: String,
    /// One hint the learner may take (recall and model); taking it caps the score.
    pub hint: Option<String>,
    /// The lesson of the question's deck (`06-leases`).
    pub lesson: String,
    /// Where the question is taught (`lesson:06-leases#2`, `sim:frozen-fenced`), if it says.
    pub see: Vec<String>,
    pub body: Body,
}

impl PreparedQuestion {
    /// The most points this question can earn (the follow-up rounds asked included).
    pub fn max_score(&self) -> u32 {
        match &self.body {
            Body::Recall { points, follow_ups } => {
                sum(points) + follow_ups.iter().map(|f| sum(&f.points)).sum::<u32>()
            }
            Body::Choice { options } => options.iter().filter(|o| o.correct).count() as u32,
            Body::Order { shown, .. } => shown.len() as u32,
            Body::Model { .. } => 1,
        }
    }

    /// The most points the opening question (without its follow-ups) can earn.
    pub fn opening_max(&self) -> u32 {
        match &self.body {
            Body::Recall { points, .. } => sum(points),
            _ => self.max_score(),
        }
    }

    /// The scoring points of every round asked, the opening question first: the numbering
    /// `missed` uses.
    pub fn all_points(&self) -> Vec<&PointText> {
        match &self.body {
            Body::Recall { points, follow_ups } => points
                .iter()
                .chain(follow_ups.iter().flat_map(|f| f.points.iter()))
                .collect(),
            _ => Vec::new(),
        }
    }
}

fn sum(points: &[PointText]) -> u32 {
    points.iter().map(|p| p.value).sum()
}

/// The most a score may be once the hint was taken: half the points, rounded down.
pub fn hint_cap(max: u32) -> u32 {
    max / 2
}

/// Why a question could not be prepared.
#[derive(Debug, Clone, PartialEq)]
pub struct PrepareError {
    pub id: String,
    pub message: String,
}

impl std::fmt::Display for PrepareError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "question `{}`: {}", self.id, self.message)
    }
}

/// The per-question seed: the session seed mixed with the question id, so a question's variant
/// does not depend on where it falls in the session.
pub fn item_seed(session_seed: u64, id: &str) -> u64 {
    // FNV-1a, then SplitMix64's finaliser: both fixed, so a seed means the same draw forever.
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in id.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    let mut z = h ^ session_seed.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

fn pick(lang: Lang, zh: &str, en: &str) -> String {
    lang.pick(zh, en).to_string()
}

fn points(ps: &[crate::content::deck::Point], lang: Lang) -> Vec<PointText> {
    ps.iter()
        .map(|p| PointText {
            value: u32::from(*p.value.get_ref()),
            text: pick(lang, &p.zh, &p.en),
        })
        .collect()
}

/// Prepares question `q` of `deck` for one attempt drawn with `session_seed`, asking `rounds`
/// of its follow-ups.
pub fn prepare(
    deck: &DeckFile,
    q: &Question,
    session_seed: u64,
    lang: Lang,
    presets: &[Preset],
    rounds: Rounds,
) -> Result<PreparedQuestion, PrepareError> {
    let id = q.id.get_ref().clone();
    let err = |message: String| PrepareError {
        id: id.clone(),
        message,
    };
    let seed = item_seed(session_seed, &id);
    let text = q
        .text(lang)
        .or_else(|| q.text(lang.toggle()))
        .cloned()
        .unwrap_or_default();
    let mut prompt = text.prompt;
    let mut answer = text.answer;
    let asked = match rounds {
        Rounds::None => 0,
        Rounds::First => 1,
        Rounds::All => usize::MAX,
    };
    let body = match q.kind {
        Kind::Recall => Body::Recall {
            points: points(&q.points, lang),
            follow_ups: q
                .rounds()
                .take(asked)
                .map(|f| {
                    let t = match lang {
                        Lang::Zh => f.zh.as_ref().or(f.en.as_ref()),
                        Lang::En => f.en.as_ref().or(f.zh.as_ref()),
                    }
                    .cloned()
                    .unwrap_or_default();
                    FollowUpText {
                        prompt: t.prompt,
                        answer: t.answer,
                        points: points(&f.points, lang),
                    }
                })
                .collect(),
        },
        Kind::Choice => {
            let mut options: Vec<OptionText> = q
                .options
                .iter()
                .map(|o| OptionText {
                    text: pick(lang, &o.zh, &o.en),
                    correct: o.correct,
                    why: pick(lang, &o.why_zh, &o.why_en),
                })
                .collect();
            // The bank lists the right option first more often than not; the position must
            // tell nothing. A stream of its own, so order questions keep their draws.
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed ^ OPTION_STREAM);
            options.shuffle(&mut rng);
            Body::Choice { options }
        }
        Kind::Order => {
            let n = q.steps.len();
            let mut order: Vec<usize> = (0..n).collect();
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
            order.shuffle(&mut rng);
            // Asking a sequence in its answer order gives it away.
            if n > 1 && order.iter().enumerate().all(|(i, o)| i == *o) {
                order.rotate_left(1);
            }
            let shown = order
                .iter()
                .map(|&i| pick(lang, &q.steps[i].zh, &q.steps[i].en))
                .collect();
            let mut correct = vec![0; n];
            for (pos, &step) in order.iter().enumerate() {
                correct[step] = pos;
            }
            Body::Order { shown, correct }
        }
        Kind::Prediction => {
            return Err(err(
                "a prediction is made in the lab, not asked from a deck".to_string(),
            ));
        }
        Kind::Model => {
            let variant = model::variant(q, seed, presets).map_err(|e| err(e.to_string()))?;
            let (computed, trace) = model::run(q, &variant).map_err(|e| err(e.to_string()))?;
            // The prompt and its explanation speak of the numbers drawn for this attempt.
            let case = model::case_text(q, &variant, lang);
            prompt = model::fill_case(&prompt, &variant, case);
            answer = model::fill_case(&answer, &variant, model::case_text(q, &variant, lang));
            let input = model_input(q, &computed, lang);
            let worked = super::explain::worked(q, &variant, &trace, lang);
            Body::Model {
                variant: Box::new(variant),
                answer: computed,
                input,
                worked,
            }
        }
    };
    let hint = q.hint.as_ref().map(|h| {
        let h = h.get_ref();
        let (mine, other) = match lang {
            Lang::Zh => (&h.zh, &h.en),
            Lang::En => (&h.en, &h.zh),
        };
        if mine.trim().is_empty() { other } else { mine }.clone()
    });
    Ok(PreparedQuestion {
        id: id.clone(),
        deck: deck.deck.deck.get_ref().clone(),
        kind: q.kind,
        topics: q.topics.clone(),
        difficulty: *q.difficulty.get_ref(),
        seed,
        prompt,
        answer,
        hint,
        lesson: deck.deck.lesson.get_ref().clone(),
        see: q.see.iter().map(|s| s.get_ref().clone()).collect(),
        body,
    })
}

/// Mixed into an item's seed for the option shuffle.
const OPTION_STREAM: u64 = 0x6f70_7469_6f6e_7321;

fn model_input(q: &Question, answer: &ModelAnswer, lang: Lang) -> ModelInput {
    match answer {
        ModelAnswer::Number(_) => ModelInput::Number {
            tolerance: q
                .model
                .as_ref()
                .and_then(|m| m.tolerance.as_ref())
                .map_or(DEFAULT_TOLERANCE, |t| {
                    t.get_ref().abs().max(DEFAULT_TOLERANCE)
                }),
        },
        ModelAnswer::Verdict(_) => ModelInput::Options(
            Verdict::ALL
                .iter()
                .map(|v| {
                    (
                        crate::i18n::verdict_short(*v, lang).to_string(),
                        ModelAnswer::Verdict(*v),
                    )
                })
                .collect(),
        ),
        ModelAnswer::Bool(_) => ModelInput::Options(vec![
            (label(Label::Yes, lang).to_string(), ModelAnswer::Bool(true)),
            (label(Label::No, lang).to_string(), ModelAnswer::Bool(false)),
        ]),
        ModelAnswer::Value(_) => ModelInput::Options(vec![
            (
                label(Label::ValueA, lang).to_string(),
                ModelAnswer::Value(Some("A".into())),
            ),
            (
                label(Label::ValueB, lang).to_string(),
                ModelAnswer::Value(Some("B".into())),
            ),
            (
                label(Label::NoValue, lang).to_string(),
                ModelAnswer::Value(None),
            ),
        ]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn item_seeds_depend_on_seed_and_id_only() {
        assert_eq!(item_seed(7, "a.b"), item_seed(7, "a.b"));
        assert_ne!(item_seed(7, "a.b"), item_seed(8, "a.b"));
        assert_ne!(item_seed(7, "a.b"), item_seed(7, "a.c"));
    }
}
