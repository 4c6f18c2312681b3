//! A scenario as the engine and the screens use it: its family, parameters, what it teaches,
//! what a presenter may not change, and its script.

use super::script::Step;
use super::text::Text;
use crate::engine::params::Params;
use crate::engine::trace::Family;

#[derive(Debug, Clone, PartialEq)]
pub struct Preset {
    pub name: String,
    pub family: Family,
    pub about: Text,
    pub params: Params,
    /// Parameters a presenter cannot change, so a demonstration cannot drift.
    pub locked: Vec<String>,
    /// The instructor's script, if any.
    pub script: Vec<Step>,
    /// The presenter opens in prediction mode: each question asks for a pick first.
    pub predict: bool,
    /// Where it came from, for messages.
    pub origin: String,
}

impl Preset {
    /// A run with no file behind it (a model question's variant), for the presenter.
    pub fn of_run(params: Params, about: Text) -> Self {
        let family = params.family();
        Self {
            name: family.name().to_string(),
            family,
            about,
            params,
            locked: Vec::new(),
            script: Vec::new(),
            predict: false,
            origin: String::new(),
        }
    }
}

/// The run's last instant for these parameters (`None` for the herd, which has no time cursor).
pub fn run_end(params: &Params) -> Option<u64> {
    match params {
        Params::Frozen(_) => Some(crate::engine::params::frozen_fixed::RUN_MS),
        Params::Abc(p) => Some(p.duration_ms),
        Params::Herd(_) => None,
        Params::Rwlock(p) => Some(p.common.duration_ms),
        Params::Semaphore(p) => Some(p.common.duration_ms),
        Params::Election(p) => Some(p.duration_ms),
        Params::Tasks(p) => Some(p.duration_ms),
        Params::Redlock(p) => Some(p.duration_ms),
        Params::Snowflake(p) => Some(p.duration_ms),
        Params::Etcd(p) => Some(p.duration_ms),
    }
}
