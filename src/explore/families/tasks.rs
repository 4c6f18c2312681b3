//! Durable tasks: worker A pauses at any instant, or, in a scenario about cancelling, the
//! operator cancels at any instant.

use toml::Table;

use super::{FaultSite, set_time};
use crate::engine::Params;
use crate::engine::time::Millis;
use crate::engine::trace::Family;

pub struct Tasks;

/// The key of the instant the scenario's disturbance comes at.
fn at_key(p: &Params) -> Option<&'static str> {
    match p {
        Params::Tasks(t) if t.pause_len_ms > 0 => Some("pause_at"),
        Params::Tasks(t) if t.cancel => Some("cancel_at"),
        _ => None,
    }
}

impl FaultSite for Tasks {
    fn targets(&self, p: &Params) -> u32 {
        u32::from(at_key(p).is_some())
    }

    fn calm(&self, file: &mut Table) {
        set_time(file, Family::Tasks, "pause_len", 0);
        super::params(file).insert("cancel".into(), toml::Value::Boolean(false));
    }

    fn strike(&self, file: &mut Table, p: &Params, _: u32, at: Millis) {
        if let Some(key) = at_key(p) {
            set_time(file, Family::Tasks, key, at);
        }
    }

    fn target_name(&self, p: &Params, _: u32) -> String {
        match at_key(p) {
            Some("cancel_at") => "operator".into(),
            _ => "A".into(),
        }
    }
}
