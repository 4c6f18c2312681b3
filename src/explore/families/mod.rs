//! Every family but A/B/C, explored with its clock kept. Their guarantees are about time (a
//! lease's validity, a session's timeout, one millisecond of IDs), so the explorer does not
//! abstract it: it searches where and when the scenario's own fault strikes. Every actor the
//! fault can hit, at every instant something happens in the run without it, each placement
//! run by the ordinary engine, whose invariant checks decide. The shortest counterexample is
//! the placement whose run fails earliest (fewest events first at the same instant).
//!
//! A family's model ([`FaultSite`]) only says what the fault is in its scenario file: how to
//! take it out and how to put it on an actor at an instant. A placement is a scenario file,
//! so every counterexample replays and saves as one.

mod election;
mod etcd;
mod frozen;
mod queue;
mod redlock;
mod snowflake;
mod tasks;

pub mod report;
pub mod search;

use toml::{Table, Value};

use crate::engine::Params;
use crate::engine::params::Unit;
use crate::engine::registry;
use crate::engine::time::{Millis, to_secs};
use crate::engine::trace::Family;

/// What a family's scenario file says of its fault.
pub trait FaultSite: Sync {
    /// How many actors the scenario's fault could strike (0: it plans none).
    fn targets(&self, params: &Params) -> u32;
    /// The same file with the fault taken out.
    fn calm(&self, file: &mut Table);
    /// The file (of a scenario with parameters `p`) with its fault striking target `t` (from
    /// 0) at `at`.
    fn strike(&self, file: &mut Table, p: &Params, t: u32, at: Millis);
    /// Target `t` of a scenario with parameters `p`, as the screens name it.
    fn target_name(&self, p: &Params, t: u32) -> String;
}

/// The model of a family the explorer keeps the clock for; `None` for A/B/C (searched
/// without a clock, see [`crate::explore::search`]) and the herd (no fault to place).
pub fn site(family: Family) -> Option<&'static dyn FaultSite> {
    match family {
        Family::Frozen => Some(&frozen::Frozen),
        Family::Rwlock | Family::Semaphore => Some(&queue::Queue),
        Family::Election => Some(&election::Election),
        Family::Tasks => Some(&tasks::Tasks),
        Family::Redlock => Some(&redlock::Redlock),
        Family::Snowflake => Some(&snowflake::Snowflake),
        Family::Etcd => Some(&etcd::Etcd),
        Family::Abc | Family::Herd => None,
    }
}

/// The `[params]` table of a scenario file, made if missing.
fn params(file: &mut Table) -> &mut Table {
    let v = file
        .entry("params")
        .or_insert_with(|| Value::Table(Table::new()));
    if !v.is_table() {
        *v = Value::Table(Table::new());
    }
    v.as_table_mut().expect("made a table")
}

/// Sets an instant or a length in `[params]`, in the unit the family's knob takes.
fn set_time(file: &mut Table, family: Family, key: &str, ms: Millis) {
    let unit = registry::entry(family)
        .knobs()
        .iter()
        .find_map(|k| match k {
            crate::engine::params::knobs::Knob::Num(s) if s.key == key => Some(s.unit),
            _ => None,
        })
        .unwrap_or(Unit::Seconds);
    let v = match unit {
        Unit::Milliseconds | Unit::Count => Value::Integer(ms as i64),
        Unit::Seconds => Value::Float(to_secs(ms)),
    };
    params(file).insert(key.into(), v);
}

fn set_count(file: &mut Table, key: &str, n: u32) {
    params(file).insert(key.into(), Value::Integer(i64::from(n)));
}
