//! The choices a prediction offers for a script's question, drawn from the run itself: for a
//! question about an instant, every answer the run gives at some instant (who held the lock at
//! one time or another); a yes-or-no question offers both; a count offers its neighbours. The
//! right one is always among them, as the engine answers it.

use super::answers::answer;
use super::script::Ask;
use crate::engine::Trace;
use crate::engine::time::Millis;
use crate::i18n::Lang;

/// At most this many choices.
const MAX: usize = 5;

/// The choices for `ask` at `at`, in a fixed order, or none where the run offers no natural
/// alternatives (the verdict, lists of names): those are asked aloud, not predicted.
pub fn choices(ask: Ask, trace: &Trace, at: Millis, lang: Lang) -> Vec<String> {
    let right = answer(ask, trace, at, lang);
    let mut out: Vec<String> = if ask.needs_time() {
        let mut instants: Vec<Millis> = trace.events.iter().map(|e| e.at_ms).collect();
        instants.dedup();
        let mut seen: Vec<String> = Vec::new();
        for t in instants {
            let a = answer(ask, trace, t, lang);
            if !seen.contains(&a) {
                seen.push(a);
            }
        }
        // The others first met in the run, then the right one wherever it falls.
        let others: Vec<&String> = seen.iter().filter(|a| **a != right).take(MAX - 1).collect();
        seen.iter()
            .filter(|a| **a == right || others.contains(a))
            .cloned()
            .collect()
    } else if ask == Ask::WriteAccepted {
        vec![
            lang.pick("是", "yes").to_string(),
            lang.pick("否", "no").to_string(),
        ]
    } else {
        match right.parse::<u64>() {
            Ok(n) => {
                let lo = n.saturating_sub(2);
                (lo..lo + MAX as u64).map(|k| k.to_string()).collect()
            }
            Err(_) => return Vec::new(),
        }
    };
    if !out.contains(&right) {
        out.push(right);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_right_answer_is_among_the_choices_the_run_offers() {
        let p = crate::scenario::find("frozen-fenced").expect("a shipped preset");
        let t = crate::engine::run(&p.params);
        // Who holds at 24 s: A held, then B; "nobody" never comes up in this run.
        let c = choices(Ask::HolderAt, &t, 24_000, Lang::En);
        assert!(
            c.contains(&"B".to_string()) && c.contains(&"A".to_string()),
            "{c:?}"
        );
        assert_eq!(
            choices(Ask::WriteAccepted, &t, 38_000, Lang::Zh),
            ["是", "否"]
        );
        // A count offers its neighbours, the engine's answer among them.
        let herd = crate::scenario::find("herd-50").expect("a shipped preset");
        let t = crate::engine::run(&herd.params);
        let right = answer(Ask::WastedWakeups, &t, 0, Lang::En);
        let c = choices(Ask::WastedWakeups, &t, 0, Lang::En);
        assert_eq!(c.len(), MAX);
        assert!(c.contains(&right), "{right} not in {c:?}");
        // The verdict is asked aloud.
        assert!(choices(Ask::Verdict, &t, 0, Lang::En).is_empty());
    }
}
