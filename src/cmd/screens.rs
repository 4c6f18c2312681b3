//! The commands that open the terminal screens: home, a lab, the presenter, a quiz.

use std::path::Path;

use crate::i18n::Lang;
use crate::source::Source;
use crate::tui::{self, Ended, Start};

use super::error::UserError;

/// Opens the terminal screens, turning failures into a message and exit status.
pub fn open(
    start: Start,
    lang: Lang,
    source: &Source,
    data_dir: Option<&Path>,
) -> Result<(), UserError> {
    // The screens, Home and the lessons' `sim:` links all use the presets of this source.
    let catalogue =
        crate::scenario::Catalogue::load(source).map_err(|e| UserError::usage(e.to_string()))?;
    tui::check_start(&start, catalogue)?;
    let dir = crate::progress::store::resolve_dir(data_dir);
    match tui::run(start, lang, source, catalogue, dir) {
        Ok(Ended::Quit) => Ok(()),
        // Ended by a signal: the terminal is restored; end the way the signal would have.
        Ok(Ended::Signal(sig)) => tui::signals::end_with(sig),
        Err(e) => Err(UserError::failed(e.message(lang))),
    }
}
