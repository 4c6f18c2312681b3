//! etcd: one client pauses (its keep-alives stop with it), or one client's link to etcd goes
//! silent while its link to the resource stays up; any client, at any instant. The pause or the
//! cut keeps its planned length.

use toml::{Table, Value};

use super::{FaultSite, params, set_time};
use crate::engine::Params;
use crate::engine::params::ETCD_CLIENTS;
use crate::engine::time::Millis;
use crate::engine::trace::Family;

pub struct Etcd;

/// The keys of the scenario's fault: which client it strikes, and when.
fn keys(p: &Params) -> Option<(&'static str, &'static str)> {
    match p {
        Params::Etcd(e) if e.pause_client.is_some() && e.pause_len_ms > 0 => {
            Some(("pause_client", "pause_at"))
        }
        Params::Etcd(e) if e.cut_client.is_some() && e.cut_len_ms > 0 => {
            Some(("cut_client", "cut_at"))
        }
        _ => None,
    }
}

impl FaultSite for Etcd {
    fn targets(&self, p: &Params) -> u32 {
        match p {
            Params::Etcd(e) if keys(p).is_some() => e.clients,
            _ => 0,
        }
    }

    fn calm(&self, file: &mut Table) {
        let p = params(file);
        p.insert("pause_client".into(), Value::String("none".into()));
        p.insert("cut_client".into(), Value::String("none".into()));
    }

    fn strike(&self, file: &mut Table, p: &Params, t: u32, at: Millis) {
        let Some((client, at_key)) = keys(p) else {
            return;
        };
        let name = ETCD_CLIENTS[t as usize].to_string();
        params(file).insert(client.into(), Value::String(name));
        set_time(file, Family::Etcd, at_key, at);
    }

    fn target_name(&self, _: &Params, t: u32) -> String {
        ETCD_CLIENTS[t as usize].to_string()
    }
}
