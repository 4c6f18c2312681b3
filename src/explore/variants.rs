//! The recipe variants the explorer is checked and measured on: the correct recipe, and each
//! broken one with the fault kinds that break it and the invariant that fails.

use crate::engine::actors::recipe::{
    DataWrite, OnDisconnect, OnLoss, OnTimeout, Recovery, Registration, TokenSource, WatchMode,
};
use crate::engine::params::{AbcParams, Fault};
use crate::engine::trace::{Invariant, invariant};
use crate::engine::world::step::{FaultKind, FaultKinds};

#[derive(Debug, Clone)]
pub struct Variant {
    pub name: &'static str,
    pub params: AbcParams,
    pub kinds: FaultKinds,
    pub faults: u8,
    /// The invariant a shortest counterexample breaks, or `None` for a recipe that holds.
    pub breaks: Option<Invariant>,
}

fn kinds(k: &[FaultKind]) -> FaultKinds {
    k.iter().copied().collect()
}

/// B's acquire has a deadline (without a clock it may pass at any moment of B's wait).
fn give_up_b() -> Fault {
    Fault::GiveUp {
        client: "B".into(),
        at_ms: 2_000,
    }
}

/// Every variant, with the smallest budget that shows what it does.
pub fn all() -> Vec<Variant> {
    let base = AbcParams::default();
    vec![
        Variant {
            name: "two_step_watch",
            params: AbcParams {
                registration: Registration::TwoStep,
                ..base.clone()
            },
            kinds: kinds(&[FaultKind::ReleaseEarly]),
            faults: 0,
            breaks: Some(invariant::NOBODY_STUCK),
        },
        Variant {
            name: "blind_retry",
            params: AbcParams {
                recovery: Recovery::Blind,
                ..base.clone()
            },
            kinds: kinds(&[FaultKind::LostResponse]),
            faults: 1,
            breaks: Some(invariant::NOBODY_STUCK),
        },
        Variant {
            name: "carry_on_after_loss",
            params: AbcParams {
                on_disconnect: OnDisconnect::CarryOn,
                on_loss: OnLoss::CarryOn,
                fencing: false,
                ..base.clone()
            },
            kinds: kinds(&[FaultKind::Disconnect]),
            faults: 1,
            breaks: Some(invariant::TOKENS_NON_DECREASING),
        },
        Variant {
            name: "no_fencing",
            params: AbcParams {
                fencing: false,
                ..base.clone()
            },
            kinds: kinds(&[FaultKind::Freeze]),
            faults: 1,
            breaks: Some(invariant::TOKENS_NON_DECREASING),
        },
        Variant {
            name: "timeout_forgets_node",
            params: AbcParams {
                on_timeout: OnTimeout::Forget,
                faults: vec![give_up_b()],
                ..base.clone()
            },
            kinds: FaultKinds::default(),
            faults: 0,
            breaks: Some(invariant::NOBODY_STUCK),
        },
        Variant {
            name: "timeout_deletes_node",
            params: AbcParams {
                on_timeout: OnTimeout::DeleteNode,
                faults: vec![give_up_b()],
                ..base.clone()
            },
            kinds: FaultKinds::default(),
            faults: 0,
            breaks: None,
        },
        Variant {
            name: "herd",
            params: AbcParams {
                watch: WatchMode::Children,
                ..base.clone()
            },
            kinds: kinds(&[FaultKind::Crash, FaultKind::ReleaseEarly]),
            faults: 1,
            breaks: None,
        },
        Variant {
            name: "sequence_tokens_in_a_container",
            params: AbcParams {
                token: TokenSource::Sequence,
                container_check_ms: Some(1_000),
                ..base.clone()
            },
            kinds: FaultKinds::default(),
            faults: 0,
            breaks: Some(invariant::TOKENS_NON_DECREASING),
        },
        Variant {
            // Without a fault every write reads the last one: nothing is lost (the freeze that
            // loses an update is searched in tests/it/explore.rs, too big for the cross-check).
            name: "set_data_any_version",
            params: AbcParams {
                data_write: DataWrite::Unconditional,
                ..base.clone()
            },
            kinds: kinds(&[FaultKind::Freeze]),
            faults: 0,
            breaks: None,
        },
        Variant {
            name: "correct",
            params: base,
            kinds: FaultKinds::all(),
            faults: 1,
            breaks: None,
        },
    ]
}
