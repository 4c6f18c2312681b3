//! Explanations for the model questions on the knob families (read-write locks, semaphores,
//! leader election, durable tasks), written from the very run the attempt drew: the drawn
//! parameters, who held when as the lanes recorded it, the statements the table judged as the
//! events recorded them, and the engine's metrics. Nothing here decides a protocol fact; the
//! sentences for single events are the simulation log's own ([`describe`]).

mod election;
mod rwlock;
mod semaphore;
mod tasks;
#[cfg(test)]
mod tests;

pub use self::election::election;
pub use self::rwlock::rwlock;
pub use self::semaphore::semaphore;
pub use self::tasks::tasks;

use crate::engine::params::QUEUE_NAMES;
use crate::engine::time::{Millis, fmt_secs};
use crate::engine::trace::{Event, EventKind, SpanState, Trace};
use crate::i18n::{Lang, describe};

fn s(ms: Millis) -> String {
    fmt_secs(ms)
}

/// Joins sentences the way each language writes them.
fn join(parts: Vec<String>, lang: Lang) -> String {
    let parts: Vec<String> = parts.into_iter().filter(|p| !p.is_empty()).collect();
    parts.join(lang.pick("", " "))
}

/// A list of names or items: `A、B 和 C` / `A, B and C`.
fn list(items: &[String], lang: Lang) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => {
            let (sep, and) = match lang {
                Lang::Zh => ("、", " 和 "),
                Lang::En => (", ", " and "),
            };
            format!("{}{and}{last}", init.join(sep))
        }
    }
}

/// An English count with its noun: `1 grant`, `2 grants`.
fn count(n: impl Into<u64>, one: &str, many: &str) -> String {
    let n = n.into();
    format!("{n} {}", if n == 1 { one } else { many })
}

/// English sentences start with a capital even when they start with a name's noun.
fn capitalise(text: &str) -> String {
    let mut c = text.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

/// When a client held, as its lane shows it: the first holding span and the holding spans
/// right after it, and whether it held to read.
fn held(trace: &Trace, who: &str) -> Option<(Millis, Millis, bool)> {
    let holding = |s: &SpanState| s.holds();
    let lane = trace.lane(who)?;
    let first = lane.spans.iter().position(|s| holding(&s.state))?;
    let last = lane.spans[first..]
        .iter()
        .take_while(|s| holding(&s.state))
        .last()?;
    let read = matches!(lane.spans[first].state, SpanState::HoldingRead { .. });
    Some((lane.spans[first].start_ms, last.end_ms, read))
}

/// The first instant at which exactly `n` of `who` hold in their lanes, and who they are.
fn crowd(trace: &Trace, who: &[String], n: u32) -> Option<(Millis, Vec<String>)> {
    let ids: Vec<_> = who.iter().filter_map(|w| trace.actor_named(w)).collect();
    // The number holding can only grow at the start of a holding span.
    let mut starts: Vec<Millis> = ids
        .iter()
        .filter_map(|id| trace.lane_of(*id))
        .flat_map(|l| {
            l.spans
                .iter()
                .filter(|s| s.state.holds())
                .map(|s| s.start_ms)
        })
        .collect();
    starts.sort_unstable();
    starts.dedup();
    starts.into_iter().find_map(|t| {
        let names: Vec<String> = trace
            .holders_at(t)
            .into_iter()
            .filter(|h| ids.contains(h))
            .map(|h| trace.name(h).to_string())
            .collect();
        (names.len() as u32 == n && n > 0).then_some((t, names))
    })
}

/// A queue family's clients in start order.
fn clients(n: usize) -> Vec<String> {
    QUEUE_NAMES[..n.min(QUEUE_NAMES.len())]
        .iter()
        .map(|c| c.to_string())
        .collect()
}

/// How the clients start: `每隔 0.1 秒依次启动` / `start 0.1 s apart`.
fn starts(gap: Millis, lang: Lang) -> String {
    match (gap, lang) {
        (0, Lang::Zh) => "同时启动".into(),
        (0, Lang::En) => "all start at once".into(),
        (g, Lang::Zh) => format!("每隔 {} 秒依次启动", s(g)),
        (g, Lang::En) => format!("start {} s apart", s(g)),
    }
}

/// What the most at once were doing.
#[derive(Clone, Copy)]
enum Crowd {
    Readers,
    LockHolders,
    PermitHolders,
}

/// The most holders at once, with who they were and from when, if a lane instant shows them.
fn most_sentence(n: u32, at: Option<(Millis, Vec<String>)>, what: Crowd, lang: Lang) -> String {
    let (zh_most, zh_all, zh_one, en_most) = match what {
        Crowd::Readers => (
            "个读者持有读锁",
            "同时在读",
            "在读",
            "readers holding at once",
        ),
        Crowd::LockHolders => (
            "个客户端持有锁",
            "都在锁里",
            "在锁里",
            "clients holding at once",
        ),
        Crowd::PermitHolders => (
            "个客户端持有许可",
            "都持有许可",
            "持有许可",
            "clients holding a permit at once",
        ),
    };
    match (at, lang) {
        (Some((t, names)), Lang::Zh) => format!(
            "同一时刻最多有 {n} {zh_most}：从 {} 秒起，{} {}。",
            s(t),
            list(&names, lang),
            if names.len() == 1 { zh_one } else { zh_all }
        ),
        (Some((t, names)), Lang::En) => format!(
            "The most {en_most}: {n}, from {} s on ({}).",
            s(t),
            list(&names, lang)
        ),
        (None, Lang::Zh) => format!("同一时刻最多有 {n} {zh_most}。"),
        (None, Lang::En) => format!("The most {en_most}: {n}."),
    }
}

/// How long the pause that starts with `froze` lasted, as the trace recorded its end, or that
/// the client was still frozen when the run ended.
fn pause_length(trace: &Trace, froze: &Event, lang: Lang) -> String {
    let woke = trace.pause_end(froze.actor, froze.at_ms);
    match (woke.map(|at| at - froze.at_ms), lang) {
        (Some(len), Lang::Zh) => format!("这次停顿持续了 {} 秒。", s(len)),
        (Some(len), Lang::En) => format!("The pause lasted {} s.", s(len)),
        (None, Lang::Zh) => format!("直到运行在 {} 秒结束都没醒来。", s(trace.end_ms)),
        (None, Lang::En) => format!(
            "It was still frozen when the run ended at {} s.",
            s(trace.end_ms)
        ),
    }
}

/// Each kept event as the simulation log words it, with its time, and a pause with how long it
/// lasted; runs of the same statement that affected no row and left the row as it was are told
/// once, with all their times.
fn timeline(trace: &Trace, keep: impl Fn(&EventKind) -> bool, lang: Lang) -> Vec<String> {
    let events: Vec<&Event> = trace.events.iter().filter(|e| keep(&e.kind)).collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < events.len() {
        let e = events[i];
        let mut times = vec![s(e.at_ms)];
        let mut j = i + 1;
        while j < events.len() && same_refusal(e, events[j]) {
            times.push(s(events[j].at_ms));
            j += 1;
        }
        let when = list(&times, lang);
        let mut what = describe(e, trace, lang);
        if matches!(e.kind, EventKind::Froze) {
            what = join(vec![what, pause_length(trace, e, lang)], lang);
        }
        out.push(match lang {
            Lang::Zh => format!("{when} 秒：{what}"),
            Lang::En => format!("{when} s: {what}"),
        });
        i = j;
    }
    out
}

/// Two statements by the same actor that both affected no row and left the same row.
fn same_refusal(a: &Event, b: &Event) -> bool {
    match (&a.kind, &b.kind) {
        (
            EventKind::RowUpdated {
                row: r1,
                op: o1,
                affected: 0,
                value: v1,
                cond: c1,
                ..
            },
            EventKind::RowUpdated {
                row: r2,
                op: o2,
                affected: 0,
                value: v2,
                cond: c2,
                ..
            },
        ) => a.actor == b.actor && r1 == r2 && o1 == o2 && v1 == v2 && c1 == c2,
        _ => false,
    }
}
