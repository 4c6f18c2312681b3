//! The story so far in one line: what the latest key moment at or before the cursor means,
//! told from the run's typed moments. It changes as the cursor passes each key moment and
//! never speaks of one that is not yet shown.

use crate::engine::time::{Millis, fmt_secs};
use crate::engine::trace::{Moment, MomentKind, Trace};
use crate::i18n::Lang;
use crate::i18n::lab::{Lab, lab};
use crate::tui::theme::Theme;
use ratatui::style::{Color, Modifier, Style};

/// The story line's look: apart from the event under it, readable without colour.
pub fn style(theme: Theme) -> Style {
    if theme.mono {
        Style::new().add_modifier(Modifier::ITALIC)
    } else {
        Style::new()
            .fg(Color::LightCyan)
            .add_modifier(Modifier::ITALIC)
    }
}

/// The moments a line tells at `cursor`: every one at the latest instant that is at or before
/// both the cursor and `shown_until`.
fn latest(trace: &Trace, cursor: Millis, shown_until: Millis) -> &[Moment] {
    let until = cursor.min(shown_until);
    let end = trace.moments.partition_point(|m| m.at_ms <= until);
    let Some(last) = end.checked_sub(1).map(|i| trace.moments[i].at_ms) else {
        return &[];
    };
    let start = trace.moments[..end].partition_point(|m| m.at_ms < last);
    &trace.moments[start..end]
}

/// One moment in words.
fn tell(m: &Moment, trace: &Trace, lang: Lang) -> String {
    let (key, who) = match m.kind {
        MomentKind::Grant { actor } => (Lab::StoryGrant, trace.name(actor).to_string()),
        MomentKind::Release { actor } => (Lab::StoryRelease, trace.name(actor).to_string()),
        MomentKind::Expiry { actor, .. } => (Lab::StoryExpiry, trace.name(actor).to_string()),
        MomentKind::LearnedLost { actor } => (Lab::StoryLearnedLost, trace.name(actor).to_string()),
        MomentKind::StaleWrite {
            actor,
            accepted: true,
        } => (Lab::StoryStaleAccepted, trace.name(actor).to_string()),
        MomentKind::StaleWrite {
            actor,
            accepted: false,
        } => (Lab::StoryStaleRefused, trace.name(actor).to_string()),
        MomentKind::FirstViolation { invariant } => (
            Lab::StoryBroken,
            crate::i18n::invariant_label(invariant, lang).to_string(),
        ),
    };
    lab(key, lang).replace("{a}", &who)
}

/// The line for the cursor at `cursor` with nothing after `shown_until` drawn; `None` before
/// the first key moment.
pub fn narration(trace: &Trace, cursor: Millis, shown_until: Millis, lang: Lang) -> Option<String> {
    let ms = latest(trace, cursor, shown_until);
    let first = ms.first()?;
    let mut told: Vec<String> = Vec::new();
    for m in ms {
        let t = tell(m, trace, lang);
        if !told.contains(&t) {
            told.push(t);
        }
    }
    let sep = lang.pick("；", "; ");
    Some(
        lab(Lab::StoryAt, lang)
            .replace("{t}", &fmt_secs(first.at_ms))
            .replace("{}", &told.join(sep)),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Params, run};

    fn frozen_defaults() -> Trace {
        run(&Params::Frozen(
            crate::engine::params::FrozenParams::default(),
        ))
    }

    #[test]
    fn the_frozen_holder_is_told_at_each_key_moment_and_never_ahead() {
        // The default frozen holder: A holds from 0 s, its lease runs out at 19 s and B is
        // granted the lock, A learns it lost at 26 s, A's fenced write is refused at 38 s.
        let t = frozen_defaults();
        let en = Lang::En;
        let at0 = narration(&t, 0, t.end_ms, en).expect("A's grant at 0 s");
        assert!(at0.starts_with("0 s") && at0.contains("A holds"), "{at0}");
        let at19 = narration(&t, 19_000, t.end_ms, en).expect("a moment at 19 s");
        assert!(at19.starts_with("19 s"), "{at19}");
        assert!(at19.contains("B holds"), "{at19}");
        assert!(at19.contains("A expires"), "{at19}");
        // Between moments the line keeps the last one.
        assert_eq!(
            narration(&t, 24_000, t.end_ms, en).as_deref(),
            Some(at19.as_str())
        );
        let at26 = narration(&t, 30_000, t.end_ms, en).expect("A learns at 26 s");
        assert!(
            at26.starts_with("26 s") && at26.contains("A learns"),
            "{at26}"
        );
        // What is not yet shown is not told, wherever the cursor is.
        assert_eq!(
            narration(&t, 38_000, 24_000, en).as_deref(),
            Some(at19.as_str())
        );
        let at38 = narration(&t, 38_000, t.end_ms, en).expect("the write at 38 s");
        assert!(at38.contains("A's stale write is refused"), "{at38}");
        let zh = narration(&t, 38_000, t.end_ms, Lang::Zh).expect("zh");
        assert!(zh.contains("陈旧写入被拒"), "{zh}");
    }
}
