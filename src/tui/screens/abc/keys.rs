//! The A/B/C screen's own keys: one table drives both key handling and `?` help.

use crate::i18n::Ui;
use crate::i18n::lab::Lab;
use crate::tui::app::AppMsg;
use crate::tui::keys::{Binding, Ch, Code, L, U, b};
use crate::tui::screens::abc::RecipeVariant;
use crossterm::event::KeyCode;

pub const KEYS: &[Binding] = &[
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
    b(
        &[Code(KeyCode::Left)],
        "Left",
        U(Ui::KeyStep),
        AppMsg::Step(-1),
    ),
    b(
        &[Code(KeyCode::Right)],
        "Right",
        U(Ui::KeyStep),
        AppMsg::Step(1),
    ),
    b(
        &[Code(KeyCode::Up)],
        "Up",
        L(Lab::KeyLogMove),
        AppMsg::LogMove(-1),
    ),
    b(
        &[Code(KeyCode::Down)],
        "Down",
        L(Lab::KeyLogMove),
        AppMsg::LogMove(1),
    ),
    b(
        &[Ch('w')],
        "w",
        U(Ui::KeyWatch),
        AppMsg::RecipeVariant(RecipeVariant::Watch),
    ),
    b(
        &[Ch('r')],
        "r",
        U(Ui::KeyRecovery),
        AppMsg::RecipeVariant(RecipeVariant::Recovery),
    ),
    b(
        &[Ch('a')],
        "a",
        U(Ui::KeyRegistration),
        AppMsg::RecipeVariant(RecipeVariant::Registration),
    ),
    b(
        &[Ch('f')],
        "f",
        U(Ui::KeyFencing),
        AppMsg::RecipeVariant(RecipeVariant::Fencing),
    ),
    b(
        &[Ch('d')],
        "d",
        L(Lab::KeyOnDisconnect),
        AppMsg::RecipeVariant(RecipeVariant::OnDisconnect),
    ),
    b(
        &[Ch('s')],
        "s",
        U(Ui::KeyOnLoss),
        AppMsg::RecipeVariant(RecipeVariant::OnLoss),
    ),
    b(
        &[Ch('t')],
        "t",
        L(Lab::KeyOnTimeout),
        AppMsg::RecipeVariant(RecipeVariant::OnTimeout),
    ),
    b(
        &[Ch('o')],
        "o",
        L(Lab::KeyToken),
        AppMsg::RecipeVariant(RecipeVariant::Token),
    ),
    b(
        &[Ch('u')],
        "u",
        L(Lab::KeyDataWrite),
        AppMsg::RecipeVariant(RecipeVariant::DataWrite),
    ),
];
