//! The read-write lock and the semaphore: the scenario's first planned fault (a crash, a
//! pause, a cut link) strikes any client at any instant; its length stays as planned.

use toml::{Table, Value};

use super::FaultSite;
use crate::engine::Params;
use crate::engine::params::QUEUE_NAMES;
use crate::engine::time::{Millis, to_secs};

pub struct Queue;

impl FaultSite for Queue {
    fn targets(&self, p: &Params) -> u32 {
        let (clients, faults) = match p {
            Params::Rwlock(r) => (r.wants.len(), &r.common.faults),
            Params::Semaphore(s) => (s.clients as usize, &s.common.faults),
            _ => return 0,
        };
        if faults.is_empty() { 0 } else { clients as u32 }
    }

    fn calm(&self, file: &mut Table) {
        file.remove("faults");
    }

    fn strike(&self, file: &mut Table, _: &Params, t: u32, at: Millis) {
        let Some(first) = file
            .get_mut("faults")
            .and_then(Value::as_array_mut)
            .and_then(|a| a.first_mut())
            .and_then(Value::as_table_mut)
        else {
            return;
        };
        first.insert(
            "client".into(),
            Value::String(QUEUE_NAMES[t as usize].to_string()),
        );
        first.insert("at".into(), Value::Float(to_secs(at)));
    }

    fn target_name(&self, _: &Params, t: u32) -> String {
        QUEUE_NAMES[t as usize].to_string()
    }
}
