//! A scenario's `[[faults]]`: what goes wrong, to which client, when and for how long.

use toml::Spanned;

use super::raw::RawFault;
use super::table::{Refused, refuse};
use crate::engine::params::{Fault, QUEUE_NAMES};
use crate::engine::time::from_secs;

const FAULT_KINDS: &str =
    "freeze, disconnect, crash, drop_create_response, delete_between, give_up";
pub(super) const CLIENTS: [&str; 3] = ["A", "B", "C"];

/// The faults of a queue family, whose clients are named A, B, C, ... in start order.
pub(super) fn queue_faults(
    faults: &[Spanned<RawFault>],
    clients: usize,
    duration_ms: u64,
) -> Result<Vec<Fault>, Refused> {
    faults
        .iter()
        .map(|f| {
            // These three are A/B/C stories the queue families' clients do not act out: refused,
            // rather than accepted and silently doing nothing.
            let kind = f.get_ref().kind.get_ref().as_str();
            if QUEUE_UNSUPPORTED_FAULTS.contains(&kind) {
                return Err(refuse(
                    f.get_ref().kind.span(),
                    Some("kind"),
                    format!(
                        "`{kind}` is an A/B/C fault; read-write locks and semaphores take: freeze, disconnect, crash"
                    ),
                ));
            }
            fault(f, duration_ms, &QUEUE_NAMES[..clients])
        })
        .collect()
}

/// Fault kinds only the A/B/C queue carries out.
const QUEUE_UNSUPPORTED_FAULTS: [&str; 3] = ["drop_create_response", "delete_between", "give_up"];

pub(super) fn fault(
    f: &Spanned<RawFault>,
    duration_ms: u64,
    clients: &[&str],
) -> Result<Fault, Refused> {
    let raw = f.get_ref();
    let client_named = |field: &Option<Spanned<String>>, key: &str| -> Result<String, Refused> {
        let v = field
            .as_ref()
            .ok_or_else(|| refuse(f.span(), Some(key), "this fault needs it"))?;
        let name = v.get_ref().to_ascii_uppercase();
        if clients.contains(&name.as_str()) {
            Ok(name)
        } else {
            Err(refuse(
                v.span(),
                Some(key),
                format!("`{}` is not one of: {}", v.get_ref(), clients.join(", ")),
            ))
        }
    };
    let time = |field: &Option<Spanned<f64>>, key: &str| -> Result<u64, Refused> {
        let v = field
            .as_ref()
            .ok_or_else(|| refuse(f.span(), Some(key), "this fault needs it"))?;
        let secs = *v.get_ref();
        let max = duration_ms as f64 / 1000.0;
        if !(0.0..=max).contains(&secs) {
            return Err(refuse(
                v.span(),
                Some(key),
                format!("must be 0 to {max} s, within the run (got {secs})"),
            ));
        }
        Ok(from_secs(secs))
    };
    let kind = raw.kind.get_ref().as_str();
    Ok(match kind {
        "freeze" => Fault::Freeze {
            client: client_named(&raw.client, "client")?,
            at_ms: time(&raw.at, "at")?,
            len_ms: time(&raw.len, "len")?,
        },
        "disconnect" => Fault::Disconnect {
            client: client_named(&raw.client, "client")?,
            at_ms: time(&raw.at, "at")?,
            len_ms: time(&raw.len, "len")?,
        },
        "crash" => Fault::Crash {
            client: client_named(&raw.client, "client")?,
            at_ms: time(&raw.at, "at")?,
        },
        "drop_create_response" => Fault::DropCreateResponse {
            client: client_named(&raw.client, "client")?,
        },
        "delete_between" => Fault::DeleteBetween {
            owner: client_named(&raw.owner, "owner")?,
            reader: client_named(&raw.reader, "reader")?,
        },
        "give_up" => Fault::GiveUp {
            client: client_named(&raw.client, "client")?,
            at_ms: time(&raw.at, "at")?,
        },
        other => {
            return Err(refuse(
                raw.kind.span(),
                Some("kind"),
                format!("unknown fault `{other}`; known faults: {FAULT_KINDS}"),
            ));
        }
    })
}
