//! A scenario's `[[script]]` read into steps, checked at load so nothing surprises a presenter
//! in front of a class.

use super::params::family_params;
use super::preset::run_end;
use super::raw::{RawPreset, RawStep};
use super::script::{Ask, Question, Step};
use super::table::{Refused, refuse};
use super::text::Text;
use crate::engine::time::from_secs;
use crate::engine::trace::Family;

/// Validates the script at load, so nothing surprises a presenter in front of a class: every
/// step's parameters are checked as the engine will run them, every time lies within the run,
/// and every question can be answered by this family's trace.
pub(super) fn script_steps(family: Family, raw: &RawPreset) -> Result<Vec<Step>, Refused> {
    let mut table = raw.params.clone();
    let mut steps = Vec::new();
    for raw_step in &raw.script {
        let step = raw_step.get_ref();
        for (k, v) in &step.set {
            table.insert(k.clone(), v.clone());
        }
        let params = family_params(family, &table, &raw.faults)?;
        let at_ms = match (&step.at, run_end(&params)) {
            (None, _) => None,
            (Some(at), None) => {
                return Err(refuse(
                    at.span(),
                    Some("at"),
                    "herd scripts have no time cursor",
                ));
            }
            (Some(at), Some(end)) => {
                let secs = *at.get_ref();
                let end_secs = end as f64 / 1000.0;
                if !(0.0..=end_secs).contains(&secs) {
                    let message = format!("must be within the run, 0 to {end_secs} s (got {secs})");
                    return Err(refuse(at.span(), Some("at"), message));
                }
                Some(from_secs(secs))
            }
        };
        if step.zh.trim().is_empty() || step.en.trim().is_empty() {
            let message = "every step needs a caption in zh and en";
            return Err(refuse(raw_step.span(), Some("script"), message));
        }
        let question = script_question(family, step, at_ms.is_some())?;
        steps.push(Step {
            at_ms,
            params,
            changes_params: !step.set.is_empty(),
            caption: Text {
                zh: step.zh.clone(),
                en: step.en.clone(),
            },
            question,
        });
    }
    Ok(steps)
}

fn script_question(
    family: Family,
    step: &RawStep,
    has_time: bool,
) -> Result<Option<Question>, Refused> {
    match (&step.ask, &step.question) {
        (None, None) => Ok(None),
        (Some(ask), Some(text)) => {
            let name = ask.get_ref();
            let Some(a) = Ask::parse(name) else {
                let names: Vec<&str> = Ask::ALL.iter().map(|(n, _)| *n).collect();
                let message = format!("`{name}` is not one of: {}", names.join(", "));
                return Err(refuse(ask.span(), Some("ask"), message));
            };
            if !a.families().contains(&family) {
                let message = format!("a {} scenario cannot answer `{name}`", family.name());
                return Err(refuse(ask.span(), Some("ask"), message));
            }
            if a.needs_time() && !has_time {
                return Err(refuse(
                    ask.span(),
                    Some("ask"),
                    "this question needs the step's `at` time",
                ));
            }
            Ok(Some(Question {
                ask: a,
                text: text.get_ref().clone(),
            }))
        }
        (Some(ask), None) => {
            let message = "a step with `ask` needs a `question` in zh and en";
            Err(refuse(ask.span(), Some("question"), message))
        }
        (None, Some(text)) => Err(refuse(
            text.span(),
            Some("ask"),
            "a step with a `question` needs `ask`",
        )),
    }
}
