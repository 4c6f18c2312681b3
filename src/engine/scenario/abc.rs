//! The A/B/C queue (in progress).
use crate::engine::params::AbcParams;
use crate::engine::trace::Trace;

pub fn run(_p: &AbcParams) -> Trace {
    todo!()
}
