//! A leader election's run: the setup, A's pause and expiry, the election, every statement on
//! the job's row, and how the row ends.

use super::{join, s, timeline};
use crate::engine::msg::RowState;
use crate::engine::params::ElectionParams;
use crate::engine::trace::{ElectionMetrics, EventKind, Trace};
use crate::i18n::Lang;
use crate::i18n::sim::row_state;
use crate::quiz::facts;

pub fn election(p: &ElectionParams, m: &ElectionMetrics, trace: &Trace, lang: Lang) -> String {
    let (epoch, version, until) = (p.first_epoch, p.row_version, s(p.lease_until_ms));
    let mut out = vec![match (p.conditional, lang) {
        (true, Lang::Zh) => format!(
            "A 以任期号 {epoch} 担任领导者；作业行在版本 {version}，A 对它的租约到 {until} 秒。提交结果的语句以版本和任期号为条件。"
        ),
        (false, Lang::Zh) => format!(
            "A 以任期号 {epoch} 担任领导者；作业行在版本 {version}，A 对它的租约到 {until} 秒。提交结果的语句不带任何条件。"
        ),
        (true, Lang::En) => format!(
            "A leads with epoch {epoch}; the job's row is at version {version}, with A's lease on it until {until} s. Submitting a result is conditioned on version and epoch."
        ),
        (false, Lang::En) => format!(
            "A leads with epoch {epoch}; the job's row is at version {version}, with A's lease on it until {until} s. Submitting a result carries no condition."
        ),
    }];
    out.extend(timeline(
        trace,
        |k| {
            matches!(
                k,
                EventKind::Froze
                    | EventKind::Woke
                    | EventKind::SessionExpired { .. }
                    | EventKind::Elected { .. }
                    | EventKind::RowUpdated { .. }
            )
        },
        lang,
    ));
    if facts::session_expired(trace, "A").is_none() {
        out.push(
            lang.pick("A 的会话没有过期。", "A's session never expired.")
                .into(),
        );
    }
    if !trace
        .events
        .iter()
        .any(|e| matches!(e.kind, EventKind::Elected { .. }))
    {
        out.push(
            lang.pick("没有新的领导者当选。", "No new leader was elected.")
                .into(),
        );
    }
    out.push(ending(m, lang));
    join(out, lang)
}

/// The row as the table shows it (`DONE/B/27/v5`), whose result it holds, and the stale
/// submissions.
fn ending(m: &ElectionMetrics, lang: Lang) -> String {
    let row = row_words(m.final_state, m.final_owner.as_deref(), m, lang);
    let (epoch, version) = (m.final_epoch, m.final_version);
    let (refused, accepted) = (m.stale_submits_rejected, m.stale_submits_accepted);
    let holds = match (m.result.as_deref(), lang) {
        (Some(r), Lang::Zh) => format!("留下的是 {r} 的结果"),
        (None, Lang::Zh) => "还没有任何结果".to_string(),
        (Some(r), Lang::En) => format!("holding {r}'s result"),
        (None, Lang::En) => "holding no result yet".to_string(),
    };
    match lang {
        Lang::Zh => format!(
            "运行结束时作业行是 {row}，{holds}：任期号 {epoch}，版本 {version}。陈旧的提交（任期号比最新领导者的旧）被拒 {refused} 次、被接受 {accepted} 次。"
        ),
        Lang::En => format!(
            "The row ends as {row}, {holds}: epoch {epoch}, version {version}. Stale submissions (with an epoch older than the newest leader's): {refused} refused, {accepted} accepted."
        ),
    }
}

fn row_words(state: RowState, owner: Option<&str>, m: &ElectionMetrics, lang: Lang) -> String {
    format!(
        "{}/{}/{}/v{}",
        row_state(state, lang),
        owner.unwrap_or("-"),
        m.final_epoch,
        m.final_version
    )
}
