//! The frozen holder: its pause starts at any instant.

use toml::Table;

use super::{FaultSite, set_time};
use crate::engine::Params;
use crate::engine::time::Millis;
use crate::engine::trace::Family;

pub struct Frozen;

impl FaultSite for Frozen {
    fn targets(&self, p: &Params) -> u32 {
        match p {
            Params::Frozen(f) if f.pause_len_ms > 0 => 1,
            _ => 0,
        }
    }

    fn calm(&self, file: &mut Table) {
        set_time(file, Family::Frozen, "pause_len", 0);
    }

    fn strike(&self, file: &mut Table, _: &Params, _: u32, at: Millis) {
        set_time(file, Family::Frozen, "pause_start", at);
    }

    fn target_name(&self, _: &Params, _: u32) -> String {
        "A".into()
    }
}
