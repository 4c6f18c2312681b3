//! The text report's numbers for Redlock and Snowflake runs, and what the cursor line says about
//! them. Everything shown is read off the trace.

use std::fmt::Write as _;

use crate::engine::trace::etcd::EtcdMetrics;
use crate::engine::trace::redlock::RedlockMetrics;
use crate::engine::trace::snowflake::SnowflakeMetrics;
use crate::engine::trace::{Family, Metrics, Trace};
use crate::i18n::export::{self as words, Export, export};
use crate::i18n::{Lang, invariant_label};

use super::text::key;

fn list(v: &[String], lang: Lang) -> String {
    if v.is_empty() {
        "-".into()
    } else {
        v.join(export(Export::ListSep, lang))
    }
}

/// The metrics block of a Redlock or Snowflake report (empty for other families).
pub fn summary(trace: &Trace, lang: Lang) -> String {
    match &trace.metrics {
        Metrics::Redlock(m) => redlock(m, lang),
        Metrics::Snowflake(m) => snowflake(trace, m, lang),
        Metrics::Etcd(m) => etcd(m, lang),
        _ => String::new(),
    }
}

fn violations(v: &[crate::engine::trace::Invariant], lang: Lang) -> String {
    let labels: Vec<String> = v
        .iter()
        .map(|v| invariant_label(*v, lang).to_string())
        .collect();
    list(&labels, lang)
}

fn redlock(m: &RedlockMetrics, lang: Lang) -> String {
    let ms = export(Export::Millis, lang);
    let rows = [
        ("validity_ms", first_validity(m, lang)),
        ("failed_attempts", m.failed_attempts.to_string()),
        ("max_holders", m.max_holders.to_string()),
        (
            "max_holders_nodes_view",
            m.max_holders_nodes_view.to_string(),
        ),
        ("two_holders_ms", format!("{} {ms}", m.two_holders_ms)),
        ("stale_writes_accepted", m.stale_writes_accepted.to_string()),
        ("foreign_deletes", m.foreign_deletes.to_string()),
        (
            "final_value",
            m.final_value.clone().unwrap_or_else(|| "-".into()),
        ),
        ("violations", violations(&m.violations, lang)),
    ];
    let mut out = key_rows(&rows, lang);
    for a in &m.acquisitions {
        let _ = writeln!(out, "    {}", words::acquisition(a, lang));
    }
    out
}

/// The first acquisition's validity with its formula, `TTL − elapsed − drift = validity ms`.
fn first_validity(m: &RedlockMetrics, lang: Lang) -> String {
    m.acquisitions.first().map_or_else(
        || "-".into(),
        |a| {
            format!(
                "{} − {} − {} = {} {}",
                a.ttl_ms,
                a.elapsed_ms,
                a.drift_ms,
                a.validity_ms,
                export(Export::Millis, lang)
            )
        },
    )
}

/// A block of named rows, one a line, each name in the report's key column.
fn key_rows(rows: &[(&str, String)], lang: Lang) -> String {
    let mut out = String::new();
    for (k, v) in rows {
        out.push_str(&crate::text::wrap_indent(
            &format!("  {} {v}", key(k, lang)),
            100,
            25,
        ));
    }
    out
}

fn opt_ms(v: Option<u64>, lang: Lang) -> String {
    v.map_or_else(
        || "-".into(),
        |v| format!("{v} {}", export(Export::Millis, lang)),
    )
}

fn etcd(m: &EtcdMetrics, lang: Lang) -> String {
    let ms = export(Export::Millis, lang);
    let rows = [
        (
            "ttl_s",
            format!("{} {}", m.ttl_s, export(Export::Seconds, lang)),
        ),
        (
            "keepalive_every_ms",
            format!("{} {ms}", m.keepalive_every_ms),
        ),
        ("first_expiry_ms", opt_ms(m.first_expiry_ms, lang)),
        ("handover_ms", opt_ms(m.handover_ms, lang)),
        ("max_woken", m.max_woken.to_string()),
        ("unaware_ms", format!("{} {ms}", m.unaware_ms)),
        ("stale_writes_accepted", m.stale_writes_accepted.to_string()),
        ("stale_writes_refused", m.stale_writes_refused.to_string()),
        (
            "final_value",
            m.final_value.clone().unwrap_or_else(|| "-".into()),
        ),
        ("revision", m.revision.to_string()),
        ("violations", violations(&m.violations, lang)),
    ];
    let mut out = key_rows(&rows, lang);
    for h in &m.holds {
        let _ = writeln!(out, "    {}", words::etcd_hold(h, lang));
    }
    out
}

/// At most this many collisions are listed; the count says how many there were.
const COLLISIONS_SHOWN: usize = 12;

fn snowflake(trace: &Trace, m: &SnowflakeMetrics, lang: Lang) -> String {
    let ms = export(Export::Millis, lang);
    let l = &m.layout;
    let layout = words::id_layout(l, lang);
    let rows = [
        ("layout", layout),
        ("ids_issued", m.ids_issued.to_string()),
        ("duplicate_ids", m.duplicate_ids.to_string()),
        ("max_wait_ms", format!("{} {ms}", m.max_wait_ms)),
        ("waited", m.waited.to_string()),
        ("refused", m.refused.to_string()),
        ("pending_at_end", m.pending_at_end.to_string()),
        ("violations", violations(&m.violations, lang)),
    ];
    let mut out = key_rows(&rows, lang);
    if !m.collisions.is_empty() {
        let _ = writeln!(out, "  {}", key("collisions", lang).trim_end());
    }
    for c in m.collisions.iter().take(COLLISIONS_SHOWN) {
        let (first, again) = (trace.name(c.first), trace.name(c.again));
        let _ = writeln!(out, "    {}", words::collision(c, first, again, lang));
    }
    if m.collisions.len() > COLLISIONS_SHOWN {
        let more = m.collisions.len() - COLLISIONS_SHOWN;
        let _ = writeln!(out, "    {}", words::more(more, lang));
    }
    out
}

/// The cursor line's facts for the families that have no single holder: who holds and whose
/// key each node has (Redlock), the IDs issued at that instant (Snowflake).
pub fn cursor_facts(trace: &Trace, at: u64, lang: Lang) -> Option<String> {
    match trace.family {
        Family::Redlock => Some(format!(
            "{} {}; {} {}; {} {}",
            export(Export::HoldingWithValidity, lang),
            crate::scenario::answers::holders_at(trace, at, lang),
            export(Export::NodesColon, lang),
            crate::scenario::answers::keys_at(trace, at, lang),
            export(Export::ResourceColon, lang),
            crate::scenario::answers::value_at(trace, at, lang)
        )),
        Family::Snowflake => Some(format!(
            "{} {}",
            export(Export::IdsIssuedThisInstant, lang),
            crate::scenario::answers::ids_at(trace, at, lang)
        )),
        _ => None,
    }
}

/// The lines under an SVG's lanes for Redlock and Snowflake runs.
pub fn footer(trace: &Trace, lang: Lang) -> Vec<String> {
    let ms = export(Export::Millis, lang);
    match &trace.metrics {
        Metrics::Redlock(m) => {
            let validity = first_validity(m, lang);
            vec![
                format!(
                    "{} {validity}   {} {} {}{} {}{}",
                    export(Export::Validity, lang),
                    export(Export::MostBelieveAtOnce, lang),
                    m.max_holders,
                    export(Export::OpenParen, lang),
                    export(Export::NodesView, lang),
                    m.max_holders_nodes_view,
                    export(Export::CloseParen, lang)
                ),
                format!(
                    "{} {}   {} {}   {} {} {ms}",
                    export(Export::StaleWritesAccepted, lang),
                    m.stale_writes_accepted,
                    export(Export::KeysDeletedByAnotherClient, lang),
                    m.foreign_deletes,
                    export(Export::TwoHoldersFor, lang),
                    m.two_holders_ms
                ),
            ]
        }
        Metrics::Etcd(m) => vec![
            format!(
                "{} {} {}   {} {} {ms}   {} {}",
                export(Export::LeaseTtl, lang),
                m.ttl_s,
                export(Export::Seconds, lang),
                export(Export::KeepAliveEvery, lang),
                m.keepalive_every_ms,
                export(Export::MostWokenByOneDelete, lang),
                m.max_woken
            ),
            format!(
                "{} {}   {} {}   {} {} {ms}",
                export(Export::StaleWritesAccepted, lang),
                m.stale_writes_accepted,
                export(Export::StaleWritesRefused, lang),
                m.stale_writes_refused,
                export(Export::ActedWithoutLease, lang),
                m.unaware_ms
            ),
        ],
        Metrics::Snowflake(m) => {
            let mut lines = vec![format!(
                "{} {}   {} {}   {} {} {ms}   {} {}",
                export(Export::IdsIssued, lang),
                m.ids_issued,
                export(Export::DuplicateIds, lang),
                m.duplicate_ids,
                export(Export::LongestWait, lang),
                m.max_wait_ms,
                export(Export::RequestsRefused, lang),
                m.refused
            )];
            let (colon, comma) = (export(Export::Colon, lang), export(Export::Comma, lang));
            for c in m.collisions.iter().take(2) {
                lines.push(format!(
                    "{} {}|{}|{} = {}{colon}{} {} {ms}{comma}{} {} {ms}",
                    export(Export::Duplicate, lang),
                    c.time,
                    c.worker,
                    c.sequence,
                    c.id,
                    trace.name(c.first),
                    c.first_at_ms,
                    trace.name(c.again),
                    c.again_at_ms
                ));
            }
            lines
        }
        _ => Vec::new(),
    }
}

/// Which events a Redlock report leaves out: the routine part of every attempt that failed
/// (its start, each node's answer and refusal, the keys its cleanup left alone). What the
/// attempt got, its failure and anything it set or deleted stay.
pub fn routine_events(trace: &Trace) -> Vec<bool> {
    let mut hidden = vec![false; trace.events.len()];
    if trace.family != Family::Redlock {
        return hidden;
    }
    for g in trace.redlock_attempts() {
        if g.acquired == Some(false) {
            for &i in g.asks.iter().chain(&g.cleanup_kept) {
                hidden[i] = true;
            }
        }
    }
    hidden
}
