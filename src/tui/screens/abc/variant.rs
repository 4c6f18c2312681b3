//! The recipe variants the A/B/C screen can flip, their keys and words, and the one a preset
//! teaches.

use crate::engine::params::{
    AbcParams, DataWrite, Fault, OnDisconnect, OnLoss, OnTimeout, Recovery, Registration,
    TokenSource, WatchMode,
};
use crate::engine::trace::{EventKind, Trace};
use crate::i18n::lab::{Lab, lab};
use crate::i18n::{Lang, Ui, ui};

/// A recipe variant the screen can flip.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Variant {
    Watch,
    Recovery,
    Registration,
    Fencing,
    OnDisconnect,
    OnLoss,
    /// What an acquire that times out does with its node.
    OnTimeout,
    /// Where the fencing token comes from: the czxid or the sequence number.
    Token,
    /// The expected version a holder's `setData` on the data node carries.
    DataWrite,
}

impl Variant {
    pub const ALL: [Variant; 9] = [
        Variant::Watch,
        Variant::Recovery,
        Variant::Registration,
        Variant::Fencing,
        Variant::OnDisconnect,
        Variant::OnLoss,
        Variant::OnTimeout,
        Variant::Token,
        Variant::DataWrite,
    ];

    /// The parameter's key in preset files (for locks).
    pub fn key(self) -> &'static str {
        match self {
            Variant::Watch => "watch",
            Variant::Recovery => "recovery",
            Variant::Registration => "registration",
            Variant::Fencing => "fencing",
            Variant::OnDisconnect => "on_disconnect",
            Variant::OnLoss => "on_loss",
            Variant::OnTimeout => "on_timeout",
            Variant::Token => "token",
            Variant::DataWrite => "data_write",
        }
    }

    pub fn flip(self, p: &mut AbcParams) {
        match self {
            Variant::Watch => {
                p.watch = match p.watch {
                    WatchMode::Children => WatchMode::Predecessor,
                    _ => WatchMode::Children,
                }
            }
            Variant::Recovery => {
                p.recovery = match p.recovery {
                    Recovery::Guid => Recovery::Blind,
                    Recovery::Blind => Recovery::Guid,
                }
            }
            Variant::Registration => {
                p.registration = match p.registration {
                    Registration::Atomic => Registration::TwoStep,
                    Registration::TwoStep => Registration::Atomic,
                }
            }
            Variant::Fencing => p.fencing = !p.fencing,
            Variant::OnDisconnect => {
                p.on_disconnect = match p.on_disconnect {
                    OnDisconnect::Suspend => OnDisconnect::CarryOn,
                    OnDisconnect::CarryOn => OnDisconnect::Suspend,
                }
            }
            Variant::OnLoss => {
                p.on_loss = match p.on_loss {
                    OnLoss::Stop => OnLoss::CarryOn,
                    OnLoss::CarryOn => OnLoss::Stop,
                }
            }
            Variant::OnTimeout => {
                p.on_timeout = match p.on_timeout {
                    OnTimeout::DeleteNode => OnTimeout::Forget,
                    OnTimeout::Forget => OnTimeout::DeleteNode,
                }
            }
            Variant::Token => {
                p.token = match p.token {
                    TokenSource::Czxid => TokenSource::Sequence,
                    TokenSource::Sequence => TokenSource::Czxid,
                }
            }
            // A run without a data node keeps none: there is nothing to write.
            Variant::DataWrite => {
                p.data_write = match p.data_write {
                    DataWrite::Off => DataWrite::Off,
                    DataWrite::Unconditional => DataWrite::Conditional,
                    DataWrite::Conditional => DataWrite::Unconditional,
                }
            }
        }
    }

    /// Whether the recipe line shows this variant for `p`: the timeout, token and data-write
    /// settings only where the run has something for them to change.
    pub fn shown(self, p: &AbcParams) -> bool {
        match self {
            Variant::OnTimeout => {
                p.faults.iter().any(|f| matches!(f, Fault::GiveUp { .. }))
                    || p.on_timeout != OnTimeout::DeleteNode
            }
            Variant::Token => {
                p.container_check_ms.is_some() || p.token != AbcParams::default().token
            }
            Variant::DataWrite => p.data_write != DataWrite::Off,
            _ => true,
        }
    }

    /// The setting a preset teaches, for compare to flip first: a setting the preset changed
    /// from the default, else the one its fault is about, else the watch.
    pub fn taught(p: &AbcParams, trace: &Trace) -> Variant {
        let d = AbcParams::default();
        if p.data_write != DataWrite::Off {
            return Variant::DataWrite;
        }
        // A re-created directory restarts the sequence numbers: the token is the lesson.
        if p.token != d.token || p.container_check_ms.is_some() {
            return Variant::Token;
        }
        if p.recovery != d.recovery {
            return Variant::Recovery;
        }
        if p.registration != d.registration {
            return Variant::Registration;
        }
        if p.fencing != d.fencing {
            return Variant::Fencing;
        }
        if p.on_loss != d.on_loss {
            return Variant::OnLoss;
        }
        if p.on_disconnect != d.on_disconnect {
            return Variant::OnDisconnect;
        }
        if p.on_timeout != d.on_timeout {
            return Variant::OnTimeout;
        }
        let learned_expiry = trace
            .events
            .iter()
            .any(|e| e.kind == EventKind::LearnedSessionExpired);
        for f in &p.faults {
            match f {
                Fault::DropCreateResponse { .. } => return Variant::Recovery,
                Fault::DeleteBetween { .. } => return Variant::Registration,
                Fault::Freeze { .. } => return Variant::Fencing,
                Fault::Disconnect { .. } if learned_expiry => return Variant::OnLoss,
                Fault::Disconnect { .. } => return Variant::OnDisconnect,
                Fault::GiveUp { .. } => return Variant::OnTimeout,
                Fault::Crash { .. } => {}
            }
        }
        Variant::Watch
    }

    /// Why flipping this variant can leave a run unchanged.
    pub fn why_same(self) -> Lab {
        match self {
            Variant::Watch => Lab::WhyWatch,
            Variant::Recovery => Lab::WhyRecovery,
            Variant::Registration => Lab::WhyRegistration,
            Variant::Fencing => Lab::WhyFencing,
            Variant::OnDisconnect => Lab::WhyOnDisconnect,
            Variant::OnLoss => Lab::WhyOnLoss,
            Variant::OnTimeout => Lab::WhyOnTimeout,
            Variant::Token => Lab::WhyToken,
            Variant::DataWrite => Lab::WhyDataWrite,
        }
    }

    /// The key and the words for this variant's current setting in `p`.
    pub fn describe(self, p: &AbcParams, lang: Lang) -> (char, String) {
        let u = |t| ui(t, lang).to_string();
        match self {
            Variant::Watch => (
                'w',
                u(if p.watch == WatchMode::Children {
                    Ui::WatchHerd
                } else {
                    Ui::WatchChain
                }),
            ),
            Variant::Recovery => (
                'r',
                u(if p.recovery == Recovery::Guid {
                    Ui::RecoveryGuid
                } else {
                    Ui::RecoveryBlind
                }),
            ),
            Variant::Registration => (
                'a',
                u(if p.registration == Registration::Atomic {
                    Ui::RegAtomic
                } else {
                    Ui::RegTwoStep
                }),
            ),
            Variant::Fencing => (
                'f',
                format!(
                    "{} {}",
                    ui(Ui::Fencing, lang),
                    ui(if p.fencing { Ui::On } else { Ui::Off }, lang)
                ),
            ),
            Variant::OnDisconnect => (
                'd',
                lab(
                    if p.on_disconnect == OnDisconnect::Suspend {
                        Lab::DiscSuspend
                    } else {
                        Lab::DiscCarryOn
                    },
                    lang,
                )
                .to_string(),
            ),
            Variant::OnLoss => (
                's',
                u(if p.on_loss == OnLoss::Stop {
                    Ui::LossStop
                } else {
                    Ui::LossCarryOn
                }),
            ),
            Variant::OnTimeout => (
                't',
                lab(
                    if p.on_timeout == OnTimeout::DeleteNode {
                        Lab::TimeoutDelete
                    } else {
                        Lab::TimeoutForget
                    },
                    lang,
                )
                .to_string(),
            ),
            Variant::Token => (
                'o',
                lab(
                    if p.token == TokenSource::Czxid {
                        Lab::TokenCzxid
                    } else {
                        Lab::TokenSequence
                    },
                    lang,
                )
                .to_string(),
            ),
            Variant::DataWrite => (
                'u',
                lab(
                    if p.data_write == DataWrite::Conditional {
                        Lab::DataConditional
                    } else {
                        Lab::DataUnconditional
                    },
                    lang,
                )
                .to_string(),
            ),
        }
    }
}
