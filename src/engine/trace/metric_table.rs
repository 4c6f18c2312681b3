//! The one table of what a run's numbers are called: every metric a model question, a script
//! or a screen may ask for by name, with its unit, read off the family's metrics in one place.

use super::{Family, Metrics, Verdict};

/// A metric's value as a question asks for it.
#[derive(Debug, Clone, PartialEq)]
pub enum MetricValue {
    /// In the metric's [`Unit`].
    Number(f64),
    Verdict(Verdict),
    Bool(bool),
    /// Whose value the resource holds, if any.
    Value(Option<String>),
}

/// What a number counts or measures.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    Count,
    Seconds,
    Millis,
    Years,
    /// Not a number: a verdict, yes or no, or a writer's name.
    Answer,
}

/// A metric's name and unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MetricSpec {
    pub key: &'static str,
    pub unit: Unit,
}

const fn m(key: &'static str, unit: Unit) -> MetricSpec {
    MetricSpec { key, unit }
}

use Unit::{Answer, Count, Millis, Seconds, Years};

pub(crate) const FROZEN: [MetricSpec; 8] = [
    m("verdict", Answer),
    m("holder_write_accepted", Answer),
    m("final_value", Answer),
    m("lease_expiry", Seconds),
    m("successor_acquire", Seconds),
    m("handover_delay", Seconds),
    m("holder_write_arrival", Seconds),
    m("danger_window", Seconds),
];
pub(crate) const HERD: [MetricSpec; 3] = [
    m("total_notifications", Count),
    m("wasted_wakeups", Count),
    m("total_time_ms", Millis),
];
pub(crate) const ABC: [MetricSpec; 8] = [
    m("stale_writes_accepted", Count),
    m("stale_writes_rejected", Count),
    m("duplicate_nodes", Count),
    m("max_holders", Count),
    m("stuck_count", Count),
    m("believed_holders", Count),
    m("successor_acquire", Seconds),
    m("believers_overlap_ms", Millis),
];
pub(crate) const RWLOCK: [MetricSpec; 4] = [
    m("max_holders", Count),
    m("max_concurrent_readers", Count),
    m("writer_wait_ms", Millis),
    m("grants_before_writer", Count),
];
pub(crate) const SEMAPHORE: [MetricSpec; 1] = [m("max_holders", Count)];
pub(crate) const ELECTION: [MetricSpec; 4] = [
    m("stale_submits_accepted", Count),
    m("stale_submits_rejected", Count),
    m("final_epoch", Count),
    m("final_version", Count),
];
pub(crate) const TASKS: [MetricSpec; 9] = [
    m("effects_applied", Count),
    m("late_refused", Count),
    m("late_accepted", Count),
    m("claims_missed", Count),
    m("completed_after_lease", Count),
    m("final_version", Count),
    m("final_attempt", Count),
    m("tasks_waiting", Count),
    m("max_believers", Count),
];
pub(crate) const REDLOCK: [MetricSpec; 6] = [
    m("validity_ms", Millis),
    m("max_holders", Count),
    m("max_holders_nodes_view", Count),
    m("two_holders_ms", Millis),
    m("stale_writes_accepted", Count),
    m("foreign_deletes", Count),
];
pub(crate) const SNOWFLAKE: [MetricSpec; 6] = [
    m("ids_issued", Count),
    m("duplicate_ids", Count),
    m("max_wait_ms", Millis),
    m("waited", Count),
    m("refused", Count),
    m("years", Years),
];

pub(crate) const ETCD: [MetricSpec; 10] = [
    m("ttl_s", Seconds),
    m("keepalive_every_ms", Millis),
    m("first_expiry_ms", Millis),
    m("handover_ms", Millis),
    m("max_woken", Count),
    m("unaware_ms", Millis),
    m("stale_writes_accepted", Count),
    m("stale_writes_refused", Count),
    m("final_value", Answer),
    m("revision", Count),
];

/// The metrics a question on `family` may ask for (its registry entry's table).
pub fn metrics_of(family: Family) -> &'static [MetricSpec] {
    crate::engine::registry::entry(family).metrics()
}

fn count(n: impl Into<f64>) -> Option<MetricValue> {
    Some(MetricValue::Number(n.into()))
}

impl Metrics {
    /// The metric called `key`, or `None` when these metrics have no such metric or the run
    /// left it empty (A never wrote, no writer held).
    pub fn get(&self, key: &str) -> Option<MetricValue> {
        use MetricValue::{Bool, Number, Value};
        match self {
            Metrics::Frozen(m) => match key {
                "verdict" => Some(MetricValue::Verdict(m.verdict)),
                "holder_write_accepted" => m.holder_write_accepted.map(Bool),
                "final_value" => Some(Value(m.final_value.clone())),
                "lease_expiry" => m.lease_expiry.map(Number),
                "successor_acquire" => m.successor_acquire.map(Number),
                "handover_delay" => m.handover_delay.map(Number),
                "holder_write_arrival" => m.holder_write_arrival.map(Number),
                "danger_window" => count(m.danger_window),
                _ => None,
            },
            Metrics::Herd(m) => match key {
                "total_notifications" => count(m.total_notifications as f64),
                "wasted_wakeups" => count(m.wasted_wakeups as f64),
                "total_time_ms" => count(m.total_time_ms),
                _ => None,
            },
            Metrics::Abc(m) => match key {
                "stale_writes_accepted" => count(m.stale_writes_accepted),
                "stale_writes_rejected" => count(m.stale_writes_rejected),
                "duplicate_nodes" => count(m.duplicate_nodes),
                "max_holders" => count(m.max_holders),
                "stuck_count" => count(m.stuck_clients.len() as f64),
                "believed_holders" => count(m.believed_holders),
                "successor_acquire" => m.successor_acquire.map(Number),
                "believers_overlap_ms" => count(m.believers_overlap_ms as f64),
                _ => None,
            },
            Metrics::Queue(m) => match key {
                "max_holders" => count(m.max_holders),
                "max_concurrent_readers" => count(m.max_concurrent_readers),
                "writer_wait_ms" => m.writer_wait_ms.and_then(|w| count(w as f64)),
                "grants_before_writer" => m.grants_before_writer.and_then(count),
                _ => None,
            },
            Metrics::Election(m) => match key {
                "stale_submits_accepted" => count(m.stale_submits_accepted),
                "stale_submits_rejected" => count(m.stale_submits_rejected),
                "final_epoch" => count(m.final_epoch as f64),
                "final_version" => count(m.final_version as f64),
                _ => None,
            },
            Metrics::Tasks(m) => match key {
                "effects_applied" => count(m.effects_applied),
                "late_refused" => count(m.late_refused),
                "late_accepted" => count(m.late_accepted),
                "claims_missed" => count(m.claims_missed),
                "completed_after_lease" => count(m.completed_after_lease),
                "final_version" => count(m.final_version as f64),
                "final_attempt" => count(m.final_attempt),
                "tasks_waiting" => count(m.tasks_waiting),
                "max_believers" => count(m.max_believers),
                _ => None,
            },
            Metrics::Redlock(m) => match key {
                "validity_ms" => m.validity_ms.and_then(|v| count(v as f64)),
                "max_holders" => count(m.max_holders),
                "max_holders_nodes_view" => count(m.max_holders_nodes_view),
                "two_holders_ms" => count(m.two_holders_ms as f64),
                "stale_writes_accepted" => count(m.stale_writes_accepted),
                "foreign_deletes" => count(m.foreign_deletes),
                _ => None,
            },
            Metrics::Etcd(m) => match key {
                "ttl_s" => count(m.ttl_s as f64),
                "keepalive_every_ms" => count(m.keepalive_every_ms as f64),
                "first_expiry_ms" => m.first_expiry_ms.and_then(|v| count(v as f64)),
                "handover_ms" => m.handover_ms.and_then(|v| count(v as f64)),
                "max_woken" => count(m.max_woken),
                "unaware_ms" => count(m.unaware_ms as f64),
                "stale_writes_accepted" => count(m.stale_writes_accepted),
                "stale_writes_refused" => count(m.stale_writes_refused),
                "final_value" => Some(Value(m.final_value.clone())),
                "revision" => count(m.revision as f64),
                _ => None,
            },
            Metrics::Snowflake(m) => match key {
                "ids_issued" => count(m.ids_issued),
                "duplicate_ids" => count(m.duplicate_ids),
                "max_wait_ms" => count(m.max_wait_ms as f64),
                "waited" => count(m.waited),
                "refused" => count(m.refused),
                // As the lessons quote it: to a tenth of a year.
                "years" => count((m.layout.years * 10.0).round() / 10.0),
                _ => None,
            },
        }
    }
}
