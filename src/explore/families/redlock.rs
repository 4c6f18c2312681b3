//! Redlock: one Redis node crashes and restarts (what it had not synced is gone), or one
//! client pauses; any node or client, at any instant.

use toml::Table;

use super::{FaultSite, params, set_count, set_time};
use crate::engine::Params;
use crate::engine::time::Millis;
use crate::engine::trace::Family;

pub struct Redlock;

impl FaultSite for Redlock {
    fn targets(&self, p: &Params) -> u32 {
        match p {
            Params::Redlock(r) if r.crash_node > 0 => r.nodes,
            Params::Redlock(r) if r.pause_client.is_some() => r.clients,
            _ => 0,
        }
    }

    fn calm(&self, file: &mut Table) {
        let p = params(file);
        p.remove("pause_client");
        set_count(file, "crash_node", 0);
    }

    fn strike(&self, file: &mut Table, p: &Params, t: u32, at: Millis) {
        if matches!(p, Params::Redlock(r) if r.crash_node == 0) {
            let name = crate::engine::params::REDLOCK_CLIENTS[t as usize].to_string();
            params(file).insert("pause_client".into(), toml::Value::String(name));
            set_time(file, Family::Redlock, "pause_at", at);
        } else {
            set_count(file, "crash_node", t + 1);
            set_time(file, Family::Redlock, "crash_at", at);
        }
    }

    fn target_name(&self, _: &Params, t: u32) -> String {
        format!("N{}", t + 1)
    }
}
