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
pub enum RecipeVariant {
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

impl RecipeVariant {
    pub const ALL: [RecipeVariant; 9] = [
        RecipeVariant::Watch,
        RecipeVariant::Recovery,
        RecipeVariant::Registration,
        RecipeVariant::Fencing,
        RecipeVariant::OnDisconnect,
        RecipeVariant::OnLoss,
        RecipeVariant::OnTimeout,
        RecipeVariant::Token,
        RecipeVariant::DataWrite,
    ];

    /// The parameter's key in preset files (for locks).
    pub fn key(self) -> &'static str {
        match self {
            RecipeVariant::Watch => "watch",
            RecipeVariant::Recovery => "recovery",
            RecipeVariant::Registration => "registration",
            RecipeVariant::Fencing => "fencing",
            RecipeVariant::OnDisconnect => "on_disconnect",
            RecipeVariant::OnLoss => "on_loss",
            RecipeVariant::OnTimeout => "on_timeout",
            RecipeVariant::Token => "token",
            RecipeVariant::DataWrite => "data_write",
        }
    }

    pub fn flip(self, p: &mut AbcParams) {
        match self {
            RecipeVariant::Watch => {
                p.watch = match p.watch {
                    WatchMode::Children => WatchMode::Predecessor,
                    _ => WatchMode::Children,
                }
            }
            RecipeVariant::Recovery => {
                p.recovery = match p.recovery {
                    Recovery::Guid => Recovery::Blind,
                    Recovery::Blind => Recovery::Guid,
                }
            }
            RecipeVariant::Registration => {
                p.registration = match p.registration {
                    Registration::Atomic => Registration::TwoStep,
                    Registration::TwoStep => Registration::Atomic,
                }
            }
            RecipeVariant::Fencing => p.fencing = !p.fencing,
            RecipeVariant::OnDisconnect => {
                p.on_disconnect = match p.on_disconnect {
                    OnDisconnect::Suspend => OnDisconnect::CarryOn,
                    OnDisconnect::CarryOn => OnDisconnect::Suspend,
                }
            }
            RecipeVariant::OnLoss => {
                p.on_loss = match p.on_loss {
                    OnLoss::Stop => OnLoss::CarryOn,
                    OnLoss::CarryOn => OnLoss::Stop,
                }
            }
            RecipeVariant::OnTimeout => {
                p.on_timeout = match p.on_timeout {
                    OnTimeout::DeleteNode => OnTimeout::Forget,
                    OnTimeout::Forget => OnTimeout::DeleteNode,
                }
            }
            RecipeVariant::Token => {
                p.token = match p.token {
                    TokenSource::Czxid => TokenSource::Sequence,
                    TokenSource::Sequence => TokenSource::Czxid,
                }
            }
            // A run without a data node keeps none: there is nothing to write.
            RecipeVariant::DataWrite => {
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
            RecipeVariant::OnTimeout => {
                p.faults.iter().any(|f| matches!(f, Fault::GiveUp { .. }))
                    || p.on_timeout != OnTimeout::DeleteNode
            }
            RecipeVariant::Token => {
                p.container_check_ms.is_some() || p.token != AbcParams::default().token
            }
            RecipeVariant::DataWrite => p.data_write != DataWrite::Off,
            _ => true,
        }
    }

    /// The setting a preset teaches, for compare to flip first: a setting the preset changed
    /// from the default, else the one its fault is about, else the watch.
    pub fn taught(p: &AbcParams, trace: &Trace) -> RecipeVariant {
        let d = AbcParams::default();
        if p.data_write != DataWrite::Off {
            return RecipeVariant::DataWrite;
        }
        // A re-created directory restarts the sequence numbers: the token is the lesson.
        if p.token != d.token || p.container_check_ms.is_some() {
            return RecipeVariant::Token;
        }
        if p.recovery != d.recovery {
            return RecipeVariant::Recovery;
        }
        if p.registration != d.registration {
            return RecipeVariant::Registration;
        }
        if p.fencing != d.fencing {
            return RecipeVariant::Fencing;
        }
        if p.on_loss != d.on_loss {
            return RecipeVariant::OnLoss;
        }
        if p.on_disconnect != d.on_disconnect {
            return RecipeVariant::OnDisconnect;
        }
        if p.on_timeout != d.on_timeout {
            return RecipeVariant::OnTimeout;
        }
        let learned_expiry = trace
            .events
            .iter()
            .any(|e| e.kind == EventKind::LearnedSessionExpired);
        for f in &p.faults {
            match f {
                Fault::DropCreateResponse { .. } => return RecipeVariant::Recovery,
                Fault::DeleteBetween { .. } => return RecipeVariant::Registration,
                Fault::Freeze { .. } => return RecipeVariant::Fencing,
                Fault::Disconnect { .. } if learned_expiry => return RecipeVariant::OnLoss,
                Fault::Disconnect { .. } => return RecipeVariant::OnDisconnect,
                Fault::GiveUp { .. } => return RecipeVariant::OnTimeout,
                Fault::Crash { .. } => {}
            }
        }
        RecipeVariant::Watch
    }

    /// Why flipping this variant can leave a run unchanged.
    pub fn why_same(self) -> Lab {
        match self {
            RecipeVariant::Watch => Lab::WhyWatch,
            RecipeVariant::Recovery => Lab::WhyRecovery,
            RecipeVariant::Registration => Lab::WhyRegistration,
            RecipeVariant::Fencing => Lab::WhyFencing,
            RecipeVariant::OnDisconnect => Lab::WhyOnDisconnect,
            RecipeVariant::OnLoss => Lab::WhyOnLoss,
            RecipeVariant::OnTimeout => Lab::WhyOnTimeout,
            RecipeVariant::Token => Lab::WhyToken,
            RecipeVariant::DataWrite => Lab::WhyDataWrite,
        }
    }

    /// The key and the words for this variant's current setting in `p`.
    pub fn describe(self, p: &AbcParams, lang: Lang) -> (char, String) {
        let u = |t| ui(t, lang).to_string();
        match self {
            RecipeVariant::Watch => (
                'w',
                u(if p.watch == WatchMode::Children {
                    Ui::WatchHerd
                } else {
                    Ui::WatchChain
                }),
            ),
            RecipeVariant::Recovery => (
                'r',
                u(if p.recovery == Recovery::Guid {
                    Ui::RecoveryGuid
                } else {
                    Ui::RecoveryBlind
                }),
            ),
            RecipeVariant::Registration => (
                'a',
                u(if p.registration == Registration::Atomic {
                    Ui::RegAtomic
                } else {
                    Ui::RegTwoStep
                }),
            ),
            RecipeVariant::Fencing => (
                'f',
                format!(
                    "{} {}",
                    ui(Ui::Fencing, lang),
                    ui(if p.fencing { Ui::On } else { Ui::Off }, lang)
                ),
            ),
            RecipeVariant::OnDisconnect => (
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
            RecipeVariant::OnLoss => (
                's',
                u(if p.on_loss == OnLoss::Stop {
                    Ui::LossStop
                } else {
                    Ui::LossCarryOn
                }),
            ),
            RecipeVariant::OnTimeout => (
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
            RecipeVariant::Token => (
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
            RecipeVariant::DataWrite => (
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
