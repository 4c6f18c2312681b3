//! A prediction on a lab screen (frozen holder, A/B/C, the family labs): `P` asks the run's
//! question before it plays, the future hidden; a number picks an answer; the run then plays
//! to the instant the question is about, and the pick, scored against the engine's answer, is
//! saved in progress as an answer of its own kind. The presenter's predictions are graded by
//! the same [`graded`].

use ratatui::style::Style;

use crate::content::deck::Kind;
use crate::engine::time::fmt_secs;
use crate::engine::trace::Trace;
use crate::i18n::Lang;
use crate::i18n::present::{Present, present};
use crate::quiz::sched::{Rating, Time};
use crate::quiz::session::Graded;
use crate::scenario::Preset;
use crate::scenario::lab_question::{self, LabQuestion};
use crate::tui::theme::Theme;
use crate::tui::timeline::Timeline;

/// The deck name predictions are saved under in progress.
pub const PREDICTIONS: &str = "predictions";

/// A prediction asked on a lab screen: waiting for a pick, then playing to its answer.
#[derive(Debug, Clone, PartialEq)]
pub struct LabPrediction {
    pub question: LabQuestion,
    /// The choice picked, once predicted, and whether it was right.
    pub picked: Option<(String, bool)>,
    /// Whether the pick was saved, in words.
    pub saved: Option<String>,
    /// A key that would have shown the future was refused: the prompt says to pick first.
    pub nudged: bool,
}

impl LabPrediction {
    /// Asks the question of `trace` (the preset's own where `preset` ran it), rewinding the
    /// timeline and hiding the future; `None` where the run has no question with choices.
    pub fn ask(preset: Option<&Preset>, trace: &Trace, tl: &mut Timeline) -> Option<Self> {
        let question = lab_question::ask(preset, trace)?;
        tl.playing = false;
        tl.stop_at = None;
        tl.reveal = false;
        tl.log_pick = None;
        tl.set_cursor(trace, 0);
        Some(Self {
            question,
            picked: None,
            saved: None,
            nudged: false,
        })
    }

    pub fn waiting(&self) -> bool {
        self.picked.is_none()
    }

    /// Picks choice `n`: the run plays to the answer and the pick comes back graded, to save.
    pub fn pick(
        &mut self,
        trace: &Trace,
        tl: &mut Timeline,
        n: usize,
        now: Time,
        lang: Lang,
    ) -> Option<Graded> {
        if !self.waiting() {
            return None;
        }
        let pick = self.question.choices(trace, lang).get(n)?.clone();
        let right = pick == self.question.answer(trace, lang);
        self.picked = Some((pick.clone(), right));
        tl.play_to(trace, self.question.plays_to(trace));
        let asked = self.question.ask_key();
        let id = format!("predict/{}/{asked}", self.question.source);
        Some(graded(id, pick, right, now))
    }

    /// What the footer shows, in one or two parts (drawn on one row where they fit): the
    /// question and its numbered choices, then the pick while the run plays to the answer,
    /// then the question with the pick scored.
    pub fn parts(
        &self,
        trace: &Trace,
        tl: &Timeline,
        lang: Lang,
        theme: Theme,
    ) -> (Vec<String>, Style) {
        let q = lang.pick(&self.question.text.zh, &self.question.text.en);
        match &self.picked {
            None => {
                let listed: Vec<String> = self
                    .question
                    .choices(trace, lang)
                    .iter()
                    .enumerate()
                    .map(|(i, c)| format!("{}) {c}", i + 1))
                    .collect();
                let asked = if self.nudged {
                    present(Present::PredictPickFirst, lang).to_string()
                } else {
                    format!("{}{q}", present(Present::PredictAsk, lang))
                };
                (vec![asked, listed.join("   ")], theme.warn())
            }
            Some((pick, _)) if tl.playing => (
                vec![format!(
                    "{}{pick} · {}",
                    present(Present::Predicted, lang),
                    present(Present::PredictPlaying, lang)
                        .replace("{}", &fmt_secs(self.question.plays_to(trace)))
                )],
                theme.warn(),
            ),
            Some((pick, right)) => {
                let verdict = present(
                    if *right {
                        Present::PredictRight
                    } else {
                        Present::PredictWrong
                    },
                    lang,
                );
                let saved = self.saved.clone().unwrap_or_default();
                (
                    vec![
                        q.to_string(),
                        format!(
                            "{}{pick} · {verdict}   {saved}",
                            present(Present::Predicted, lang)
                        ),
                    ],
                    if *right { theme.good() } else { theme.bad() },
                )
            }
        }
    }
}

/// A prediction as progress saves it: one point, right or wrong, reviewed as a card.
pub fn graded(id: String, note: String, right: bool, now: Time) -> Graded {
    Graded {
        id,
        deck: PREDICTIONS.to_string(),
        kind: Kind::Prediction,
        topics: Vec::new(),
        score: u32::from(right),
        earned: u32::from(right),
        max: 1,
        rating: if right { Rating::Good } else { Rating::Again },
        self_rating: None,
        missed: Vec::new(),
        at: now,
        note,
        hint: false,
        rounds: Vec::new(),
    }
}
