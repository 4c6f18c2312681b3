//! A scenario's `[params]` read into its family's parameters through the shared
//! parameter-table reader; the A/B/C family, with its recipe choices, has a file of its own.

mod abc;

use toml::Spanned;

use super::faults::queue_faults;
use super::raw::RawFault;
use super::table::{self, Refused, Table, refuse};
use crate::engine::params::knobs::Knobs;
use crate::engine::params::{ParamError, Params, RwLockParams, SemaphoreParams};
use crate::engine::registry;
use crate::engine::trace::Family;

pub(super) fn family_params(
    family: Family,
    table: &Table,
    faults: &[Spanned<RawFault>],
) -> Result<Params, Refused> {
    Ok(match family {
        Family::Frozen => Params::Frozen(knob_params(table)?),
        Family::Herd => Params::Herd(knob_params(table)?),
        Family::Abc => Params::Abc(abc::abc_params(table, faults)?),
        Family::Rwlock => {
            let mut p: RwLockParams = knob_params(table)?;
            p.common.faults = queue_faults(faults, p.wants.len(), p.common.duration_ms)?;
            Params::Rwlock(p)
        }
        Family::Semaphore => {
            let mut p: SemaphoreParams = knob_params(table)?;
            p.common.faults = queue_faults(faults, p.clients as usize, p.common.duration_ms)?;
            Params::Semaphore(p)
        }
        Family::Election => Params::Election(knob_params(table)?),
        Family::Tasks => Params::Tasks(knob_params(table)?),
        Family::Redlock => Params::Redlock(knob_params(table)?),
        Family::Snowflake => Params::Snowflake(knob_params(table)?),
        Family::Etcd => Params::Etcd(knob_params(table)?),
    })
}

pub(super) fn takes_faults(family: Family) -> bool {
    registry::entry(family).takes_faults()
}

/// The keys a file may name for this family in `locked`.
pub(super) fn valid_keys(family: Family) -> Vec<&'static str> {
    registry::entry(family).keys()
}

/// Reads a family's parameters through its table of knobs: each value is checked for its kind
/// here and for its range or options by the family, and every problem names its place.
fn knob_params<K: Knobs + Default>(table: &Table) -> Result<K, Refused> {
    let mut p = K::default();
    table::knobs(&mut p, table)?;
    p.validate().map_err(|e| {
        // Point at the key the problem names when the file sets it, else at the table.
        let named = match &e {
            ParamError::Invalid { key, .. } => Some(key.as_str()),
            ParamError::OutOfRange { key, .. } | ParamError::NotWhole { key, .. } => Some(*key),
            _ => None,
        };
        let at = named.and_then(|key| table.get(key).map(|v| (key.to_string(), v.span())));
        match at {
            Some((key, span)) => refuse(span, Some(&key), e.to_string()),
            None => {
                let span = table.values().next().map_or(0..0, |v| v.span());
                refuse(span, Some("params"), e.to_string())
            }
        }
    })?;
    Ok(p)
}
