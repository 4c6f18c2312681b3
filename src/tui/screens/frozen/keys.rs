//! The frozen-holder screen's own keys: one table drives both key handling and `?` help.

use crate::i18n::Ui;
use crate::tui::app::AppMsg;
use crate::tui::keys::{Binding, Ch, Code, U, b, info};
use crossterm::event::KeyCode;

pub const KEYS: &[Binding] = &[
    b(
        &[Code(KeyCode::Up), Ch('k')],
        "Up k",
        U(Ui::KeySliderSelect),
        AppMsg::Up,
    ),
    b(
        &[Code(KeyCode::Down), Ch('j')],
        "Down j",
        U(Ui::KeySliderSelect),
        AppMsg::Down,
    ),
    b(
        &[Code(KeyCode::Left), Ch('h')],
        "Left h",
        U(Ui::KeySliderAdjust),
        AppMsg::Adjust {
            dir: -1,
            coarse: false,
        },
    ),
    b(
        &[Code(KeyCode::Right), Ch('l')],
        "Right l",
        U(Ui::KeySliderAdjust),
        AppMsg::Adjust {
            dir: 1,
            coarse: false,
        },
    ),
    b(
        &[Ch('p'), Code(KeyCode::Tab)],
        "p Tab",
        U(Ui::KeyPreset),
        AppMsg::Preset(1),
    ),
    b(
        &[Code(KeyCode::BackTab)],
        "S-Tab",
        U(Ui::KeyPreset),
        AppMsg::Preset(-1),
    ),
    b(&[Ch('f')], "f", U(Ui::KeyFencing), AppMsg::ToggleFencing),
    b(
        &[Ch('s')],
        "s",
        U(Ui::KeyStopOnLoss),
        AppMsg::ToggleStopOnLoss,
    ),
    info("mouse", U(Ui::KeyMouseSlider)),
];
