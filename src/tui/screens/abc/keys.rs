//! The A/B/C screen's own keys: one table drives both key handling and `?` help.

use crate::i18n::Ui;
use crate::i18n::lab::Lab;
use crate::tui::app::Msg;
use crate::tui::keys::{Binding, Ch, Code, L, U, b};
use crate::tui::screens::abc::Variant;
use crossterm::event::KeyCode;

pub const KEYS: &[Binding] = &[
    b(
        &[Ch('p'), Code(KeyCode::Tab)],
        "p Tab",
        U(Ui::KeyPreset),
        Msg::Preset(1),
    ),
    b(
        &[Ch('P'), Code(KeyCode::BackTab)],
        "P S-Tab",
        U(Ui::KeyPreset),
        Msg::Preset(-1),
    ),
    b(
        &[Code(KeyCode::Left)],
        "Left",
        U(Ui::KeyStep),
        Msg::Step(-1),
    ),
    b(
        &[Code(KeyCode::Right)],
        "Right",
        U(Ui::KeyStep),
        Msg::Step(1),
    ),
    b(
        &[Code(KeyCode::Up)],
        "Up",
        L(Lab::KeyLogMove),
        Msg::LogMove(-1),
    ),
    b(
        &[Code(KeyCode::Down)],
        "Down",
        L(Lab::KeyLogMove),
        Msg::LogMove(1),
    ),
    b(
        &[Ch('w')],
        "w",
        U(Ui::KeyWatch),
        Msg::Variant(Variant::Watch),
    ),
    b(
        &[Ch('r')],
        "r",
        U(Ui::KeyRecovery),
        Msg::Variant(Variant::Recovery),
    ),
    b(
        &[Ch('a')],
        "a",
        U(Ui::KeyRegistration),
        Msg::Variant(Variant::Registration),
    ),
    b(
        &[Ch('f')],
        "f",
        U(Ui::KeyFencing),
        Msg::Variant(Variant::Fencing),
    ),
    b(
        &[Ch('d')],
        "d",
        L(Lab::KeyOnDisconnect),
        Msg::Variant(Variant::OnDisconnect),
    ),
    b(
        &[Ch('s')],
        "s",
        U(Ui::KeyOnLoss),
        Msg::Variant(Variant::OnLoss),
    ),
    b(
        &[Ch('t')],
        "t",
        L(Lab::KeyOnTimeout),
        Msg::Variant(Variant::OnTimeout),
    ),
    b(
        &[Ch('o')],
        "o",
        L(Lab::KeyToken),
        Msg::Variant(Variant::Token),
    ),
    b(
        &[Ch('u')],
        "u",
        L(Lab::KeyDataWrite),
        Msg::Variant(Variant::DataWrite),
    ),
];
