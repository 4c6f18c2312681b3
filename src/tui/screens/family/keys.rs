//! The family lab screen's own keys: one table drives both key handling and `?` help.

use crate::i18n::family::Fam;
use crate::tui::app::AppMsg;
use crate::tui::keys::{Binding, Ch, Code, F, b, info};
use crossterm::event::KeyCode;

/// The family lab: the knob panel and compare (with the family's correct or broken variant);
/// the timeline keys follow.
pub const KEYS: &[Binding] = &[
    b(
        &[Code(KeyCode::Up), Ch('k')],
        "Up k",
        F(Fam::KeyKnobSelect),
        AppMsg::Up,
    ),
    b(
        &[Code(KeyCode::Down), Ch('j')],
        "Down j",
        F(Fam::KeyKnobSelect),
        AppMsg::Down,
    ),
    b(
        &[Code(KeyCode::Left), Ch('h')],
        "Left h",
        F(Fam::KeyKnobChange),
        AppMsg::Adjust {
            dir: -1,
            coarse: false,
        },
    ),
    b(
        &[Code(KeyCode::Right), Ch('l')],
        "Right l",
        F(Fam::KeyKnobChange),
        AppMsg::Adjust {
            dir: 1,
            coarse: false,
        },
    ),
    b(&[Ch('c')], "c", F(Fam::KeyCompare), AppMsg::Compare),
    info("mouse", F(Fam::KeyKnobSelect)),
];
