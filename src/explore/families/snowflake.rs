//! Snowflake: one generator crashes and restarts, any generator, at any instant.

use toml::Table;

use super::{FaultSite, set_count, set_time};
use crate::engine::Params;
use crate::engine::time::Millis;
use crate::engine::trace::Family;

pub struct Snowflake;

impl FaultSite for Snowflake {
    fn targets(&self, p: &Params) -> u32 {
        match p {
            Params::Snowflake(s) if s.crash_generator > 0 => s.workers.len() as u32,
            _ => 0,
        }
    }

    fn calm(&self, file: &mut Table) {
        set_count(file, "crash_generator", 0);
    }

    fn strike(&self, file: &mut Table, _: &Params, t: u32, at: Millis) {
        set_count(file, "crash_generator", t + 1);
        set_time(file, Family::Snowflake, "crash_at", at);
    }

    fn target_name(&self, _: &Params, t: u32) -> String {
        format!("G{}", t + 1)
    }
}
