//! Each family of scenarios: which actors, which faults, what to watch and what to measure.

pub mod abc;
pub mod election;
pub mod etcd;
pub mod etcd_facts;
pub mod frozen;
pub mod herd;
pub mod moments;
pub mod queue;
pub mod queue_checks;
pub mod redlock;
pub mod snowflake;
pub mod tasks;
pub mod zk_facts;

use crate::engine::time::Millis;
use crate::engine::trace::{EventKind, Trace};

/// How long after the model's last event a live run goes on: a real reply or report comes a
/// little later than the model's, and a run that ended on the model's instant would cut it off.
pub const LIVE_TAIL_MS: Millis = 1_000;

/// How long a live run of the story `model` tells needs to be: to the model's last event and
/// message, then [`LIVE_TAIL_MS`], never past the model's own end. A preset's duration leaves
/// room for any story its knobs allow; a live run that waited it out would wait seconds in
/// which nothing can happen.
pub fn live_duration(model: &Trace) -> Millis {
    let events = model
        .events
        .iter()
        .filter(|e| !matches!(e.kind, EventKind::RunEnded))
        .map(|e| e.at_ms);
    let messages = model
        .messages
        .iter()
        .map(|m| m.received_ms.unwrap_or(m.sent_ms));
    let last = events.chain(messages).max().unwrap_or(0);
    (last + LIVE_TAIL_MS).min(model.end_ms)
}

/// `p` ending when its story has settled, as the engine says (`run` is its family's, and
/// `duration_ms` its run's length): a live run and the model beside it stop a moment after the
/// model's last event rather than at the preset's end.
pub fn until_settled<P: Clone>(
    p: &P,
    run: fn(&P) -> Trace,
    duration_ms: fn(&mut P) -> &mut Millis,
) -> P {
    let mut settled = p.clone();
    *duration_ms(&mut settled) = live_duration(&run(p));
    settled
}
