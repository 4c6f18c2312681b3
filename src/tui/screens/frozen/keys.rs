//! The frozen-holder screen's own keys: one table drives both key handling and `?` help.

use crate::i18n::Ui;
use crate::tui::app::Msg;
use crate::tui::keys::{Binding, Ch, Code, U, b, info};
use crossterm::event::KeyCode;

pub const KEYS: &[Binding] = &[
    b(
        &[Code(KeyCode::Up), Ch('k')],
        "Up k",
        U(Ui::KeySliderSelect),
        Msg::Up,
    ),
    b(
        &[Code(KeyCode::Down), Ch('j')],
        "Down j",
        U(Ui::KeySliderSelect),
        Msg::Down,
    ),
    b(
        &[Code(KeyCode::Left), Ch('h')],
        "Left h",
        U(Ui::KeySliderAdjust),
        Msg::Adjust {
            dir: -1,
            coarse: false,
        },
    ),
    b(
        &[Code(KeyCode::Right), Ch('l')],
        "Right l",
        U(Ui::KeySliderAdjust),
        Msg::Adjust {
            dir: 1,
            coarse: false,
        },
    ),
    b(&[Ch('f')], "f", U(Ui::KeyFencing), Msg::ToggleFencing),
    b(&[Ch('s')], "s", U(Ui::KeyStopOnLoss), Msg::ToggleStopOnLoss),
    info("mouse", U(Ui::KeyMouseSlider)),
];
