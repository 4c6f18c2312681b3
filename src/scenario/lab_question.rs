//! The question a lab screen asks before its run plays: the preset's own (the first question
//! of its script asked about the preset's own run whose choices read at a glance), else one
//! drawn from the family (will A's
//! write be accepted, who holds at an instant between two key moments, how many stale
//! submissions were accepted). The engine answers it, as it answers a script's questions.

use super::answers::answer;
use super::choices::choices;
use super::script::Ask;
use super::{Preset, Text};
use crate::engine::Trace;
use crate::engine::time::{Millis, fmt_secs};
use crate::engine::trace::Family;
use crate::i18n::Lang;

/// A question to predict on a lab screen.
#[derive(Debug, Clone, PartialEq)]
pub struct LabQuestion {
    pub ask: Ask,
    /// The instant the question is about; `None` asks about the whole run.
    pub at_ms: Option<Millis>,
    pub text: Text,
    /// Where the question comes from, for the id its answers are saved under.
    pub source: String,
}

impl LabQuestion {
    /// The instant the run plays to before the answer shows: the asked one, else the end.
    pub fn plays_to(&self, trace: &Trace) -> Millis {
        self.at_ms.unwrap_or(trace.end_ms).min(trace.end_ms)
    }

    /// The choices to pick from, drawn from the run; never empty for a question [`ask`] gives.
    pub fn choices(&self, trace: &Trace, lang: Lang) -> Vec<String> {
        choices(self.ask, trace, self.plays_to(trace), lang)
    }

    /// The question's name in a script (`holder_at`), for the id its answers are saved under.
    pub fn ask_key(&self) -> &'static str {
        Ask::ALL
            .iter()
            .find(|(_, a)| *a == self.ask)
            .map_or("", |(n, _)| n)
    }

    /// The engine's answer on `trace`.
    pub fn answer(&self, trace: &Trace, lang: Lang) -> String {
        answer(self.ask, trace, self.plays_to(trace), lang)
    }
}

/// The question for `trace`, the run of `preset` (or of its family when the run is no preset's).
/// `None` where neither the preset nor the family has one with choices to pick.
pub fn ask(preset: Option<&Preset>, trace: &Trace) -> Option<LabQuestion> {
    let own = preset.and_then(|p| {
        p.script
            .iter()
            .filter(|st| st.params == p.params)
            .find_map(|st| {
                let q = st.question.as_ref()?;
                let lq = LabQuestion {
                    ask: q.ask,
                    at_ms: st.at_ms.filter(|_| q.ask.needs_time()),
                    text: q.text.clone(),
                    source: p.name.clone(),
                };
                readable(&lq.choices(trace, Lang::En)).then_some(lq)
            })
    });
    own.or_else(|| drawn(trace))
        .filter(|q| q.choices(trace, Lang::En).len() > 1)
}

/// Whether the choices read at a glance on one footer row (a list of every node's key does
/// not): a preset question whose choices do not gives way to the family's.
fn readable(choices: &[String]) -> bool {
    !choices.is_empty()
        && choices
            .iter()
            .map(|c| crate::text::width(c) + 6)
            .sum::<usize>()
            <= 72
}

/// A question drawn from the family.
fn drawn(trace: &Trace) -> Option<LabQuestion> {
    let family = trace.family;
    let (ask, text) = match family {
        Family::Frozen => (
            Ask::WriteAccepted,
            text(
                "资源会接受 A 的写入吗？",
                "Will the resource accept A's write?",
            ),
        ),
        Family::Abc => {
            let t = calm_instant(trace)?;
            let s = fmt_secs(t);
            (
                Ask::HolderAt,
                Text {
                    zh: format!("在协调服务看来，{s} 秒时谁持有锁？"),
                    en: format!("In the service's view, who holds the lock at {s} s?"),
                },
            )
        }
        Family::Rwlock | Family::Semaphore => {
            let t = calm_instant(trace)?;
            let s = fmt_secs(t);
            (
                Ask::HoldersAt,
                Text {
                    zh: format!("{s} 秒时哪些客户端持有锁？"),
                    en: format!("Who holds the lock at {s} s?"),
                },
            )
        }
        Family::Election => (
            Ask::StaleSubmitsAccepted,
            text(
                "作业行会接受几次过期领导者的提交？",
                "How many submissions from a stale leader will the job's row accept?",
            ),
        ),
        Family::Tasks => (
            Ask::EffectsApplied,
            text(
                "外部副作用一共会执行几次？",
                "How many times will the side effect be applied?",
            ),
        ),
        Family::Redlock => (
            Ask::MaxHolders,
            text(
                "同一时刻最多有几个客户端认为自己持有锁？",
                "At most how many clients believe they hold the lock at once?",
            ),
        ),
        Family::Snowflake => (
            Ask::DuplicateIds,
            text(
                "会发出几个重复的 ID？",
                "How many duplicate IDs will be issued?",
            ),
        ),
        Family::Etcd => (
            Ask::StaleWritesAccepted,
            text(
                "资源会接受几次过期的写入？",
                "How many stale writes will the resource accept?",
            ),
        ),
        Family::Herd => (
            Ask::WastedWakeups,
            text("会有几次无效唤醒？", "How many wake-ups will be wasted?"),
        ),
    };
    let at_ms = ask.needs_time().then(|| calm_instant(trace)).flatten();
    Some(LabQuestion {
        ask,
        at_ms,
        text,
        source: family.name().to_string(),
    })
}

fn text(zh: &str, en: &str) -> Text {
    Text {
        zh: zh.to_string(),
        en: en.to_string(),
    }
}

/// An instant in the middle of the story where nothing happens: halfway between the two key
/// moments either side of the story's midpoint, rounded to a tenth of a second where the gap
/// allows, so the question does not ask about the very instant something changes.
fn calm_instant(trace: &Trace) -> Option<Millis> {
    let mut at: Vec<Millis> = trace.moments.iter().map(|m| m.at_ms).collect();
    at.dedup();
    if at.len() < 2 {
        return None;
    }
    let i = at.len() / 2;
    let (a, b) = (at[i - 1], at[i]);
    let mid = a + (b - a) / 2;
    let grain = match b - a {
        g if g >= 2_000 => 100,
        g if g >= 200 => 10,
        _ => 1,
    };
    Some((mid / grain * grain).clamp(a + 1, b.saturating_sub(1).max(a + 1)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_preset_asks_its_own_question_and_a_family_run_one_of_its_family() {
        let p = crate::scenario::find("frozen-fenced").expect("a shipped preset");
        let t = crate::engine::run(&p.params);
        let q = ask(Some(p), &t).expect("a question");
        assert_eq!(q.source, "frozen-fenced");
        // The script's first question about the preset's own run: who holds at 24 s.
        assert_eq!((q.ask, q.at_ms), (Ask::HolderAt, Some(24_000)));
        // In the protocol, A's lease ran out at 19 s and B was granted it: B holds at 24 s.
        assert_eq!(q.answer(&t, Lang::En), "B");
        let drawn = ask(None, &t).expect("the family's question");
        assert_eq!(drawn.ask, Ask::WriteAccepted);
        // With fencing, A's write under the old token is refused.
        assert_eq!(drawn.answer(&t, Lang::En), "no");
    }

    #[test]
    fn a_drawn_instant_falls_between_two_key_moments() {
        for name in ["rwlock-starved", "watch-race", "chain"] {
            let p = crate::scenario::find(name).expect("a shipped preset");
            let t = crate::engine::run(&p.params);
            let at = calm_instant(&t).expect("an instant");
            assert!(
                t.moments.iter().all(|m| m.at_ms != at),
                "{name}: {at} is a key moment"
            );
            assert!(at > 0 && at < t.end_ms, "{name}: {at}");
        }
    }
}
