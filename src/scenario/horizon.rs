//! How much of a run a question step may show before its answer is revealed. The step defines
//! it: a question about an instant hides everything from the moment its answer last changed
//! (who holds at 24 s stays hidden back to the grant that made it so); a question about the
//! whole run hides its own instant, or the first moment that decides it if that comes sooner
//! (a stale write's judgement, an invariant's first failure).

use super::answers::answer;
use super::script::Step;
use crate::engine::Trace;
use crate::engine::time::Millis;
use crate::engine::trace::MomentKind;
use crate::i18n::Lang;

/// The first instant a question step hides until its answer is revealed, or `None` for a step
/// that asks nothing. `cursor` is the instant the step stands at.
pub fn hidden_from(step: &Step, trace: &Trace, cursor: Millis) -> Option<Millis> {
    let q = step.question.as_ref()?;
    if !q.ask.needs_time() {
        let decided = trace
            .moments
            .iter()
            .find(|m| {
                matches!(
                    m.kind,
                    MomentKind::StaleWrite { .. } | MomentKind::FirstViolation { .. }
                )
            })
            .map_or(cursor, |m| m.at_ms);
        return Some(decided.min(cursor));
    }
    let at = step.at_ms.unwrap_or(cursor);
    let asked = answer(q.ask, trace, at, Lang::En);
    // The answer can only change where something happens: walk back over the instants at
    // which events fall until the answer just before one differs from the one asked about.
    let upto = trace.events.partition_point(|e| e.at_ms <= at);
    let mut instants: Vec<Millis> = trace.events[..upto].iter().map(|e| e.at_ms).collect();
    instants.dedup();
    let changed = instants
        .iter()
        .rev()
        .find(|&&t| t == 0 || answer(q.ask, trace, t - 1, Lang::En) != asked);
    Some(changed.copied().unwrap_or(0).min(at))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn step_of(preset: &str, n: usize) -> (Step, Trace) {
        let p = crate::scenario::find(preset).expect("a shipped preset");
        let s = p.script[n].clone();
        let t = crate::engine::run(&s.params);
        (s, t)
    }

    #[test]
    fn who_holds_at_24_s_is_hidden_back_to_the_grant_at_19_s() {
        // frozen-fenced: the lease runs out at 19 s and B is granted it then (ttl 10 after
        // the keepalive at 9 s), so the service's holder at 24 s shows from 19 s on.
        let (s, t) = step_of("frozen-fenced", 3);
        assert_eq!(hidden_from(&s, &t, 24_000), Some(19_000));
    }

    #[test]
    fn a_question_about_the_whole_run_hides_its_own_instant() {
        let (s, t) = step_of("frozen-fenced", 5);
        assert_eq!(hidden_from(&s, &t, 38_000), Some(38_000));
        let (s, t) = step_of("frozen-fenced", 0);
        assert_eq!(hidden_from(&s, &t, 9_000), None);
    }
}
