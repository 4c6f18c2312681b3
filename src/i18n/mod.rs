//! Every user-facing word, in Simplified Chinese and English, by area: [`sim`] words what a run
//! did, [`quiz`] the quizzes and the progress file, [`lab`] the simulation screens; the other
//! terminal screens' words follow [`Ui`].

pub mod etcd;
pub mod explore;
pub mod export;
pub mod family;
pub mod knobs;
pub mod lab;
mod lang;
pub mod present;
pub mod redlock;
pub mod sim;
pub mod snowflake;
pub mod topics;
mod ui;
mod words;

pub use lang::Lang;
pub use sim::{describe, invariant_label, state_label, verdict_short, verdict_text};
pub use ui::{Ui, ui};
pub(crate) use words::words;
