//! The commands' error: the one [`UserError`] of the whole program.

pub use crate::error::UserError;
