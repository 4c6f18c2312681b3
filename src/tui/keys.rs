//! One key table for the simulation screens (frozen holder, A/B/C, herd, presenter, explore): the same
//! rows map a key press to a message and list the keys in `?` help, so the two cannot drift.

use crossterm::event::{KeyCode, KeyEvent};

use crate::i18n::family::{Fam, fam};
use crate::i18n::lab::{Lab, lab};
use crate::i18n::{Lang, Ui, ui};
use crate::tui::app::{Msg, ScreenId};
use crate::tui::screens::abc::Variant;

/// A key as the table names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Key {
    Ch(char),
    Code(KeyCode),
}

/// The words for a row of help.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Words {
    Ui(Ui),
    Lab(Lab),
    Fam(Fam),
}

impl Words {
    pub fn text(self, lang: Lang) -> &'static str {
        match self {
            Words::Ui(u) => ui(u, lang),
            Words::Lab(l) => lab(l, lang),
            Words::Fam(f) => fam(f, lang),
        }
    }
}

/// One row: the keys, how help shows them, what they do, and the message they send (`None` for
/// a help-only row such as the mouse).
#[derive(Debug, Clone, Copy)]
pub struct Binding {
    pub keys: &'static [Key],
    pub shown: &'static str,
    pub what: Words,
    pub msg: Option<Msg>,
}

const fn b(keys: &'static [Key], shown: &'static str, what: Words, msg: Msg) -> Binding {
    Binding {
        keys,
        shown,
        what,
        msg: Some(msg),
    }
}

const fn info(shown: &'static str, what: Words) -> Binding {
    Binding {
        keys: &[],
        shown,
        what,
        msg: None,
    }
}

use Key::{Ch, Code};
use Words::{Fam as F, Lab as L, Ui as U};

/// Playback, navigation and views, shared by the frozen-holder and A/B/C screens.
const TIMELINE: &[Binding] = &[
    b(&[Ch(' ')], "Space", U(Ui::KeyPlay), Msg::TogglePlay),
    b(&[Ch('e')], "e", L(Lab::KeyPace), Msg::TogglePace),
    b(&[Ch('+'), Ch('=')], "+", U(Ui::KeySpeed), Msg::Speed(1)),
    b(&[Ch('-'), Ch('_')], "-", U(Ui::KeySpeed), Msg::Speed(-1)),
    b(&[Ch(','), Ch('[')], ", [", U(Ui::KeyStep), Msg::Step(-1)),
    b(&[Ch('.'), Ch(']')], ". ]", U(Ui::KeyStep), Msg::Step(1)),
    b(
        &[Code(KeyCode::Home)],
        "Home",
        U(Ui::KeyJump),
        Msg::Jump(false),
    ),
    b(
        &[Code(KeyCode::End)],
        "End",
        U(Ui::KeyJump),
        Msg::Jump(true),
    ),
    b(&[Ch('n')], "n", L(Lab::KeyMoment), Msg::Moment(1)),
    b(&[Ch('N')], "N", L(Lab::KeyMoment), Msg::Moment(-1)),
    b(&[Ch('!')], "!", L(Lab::KeyViolation), Msg::FirstViolation),
    b(&[Ch('v')], "v", L(Lab::KeyReveal), Msg::Reveal),
    b(&[Ch('z')], "z", L(Lab::KeyZoom), Msg::Zoom(1)),
    b(&[Ch('Z')], "Z", L(Lab::KeyZoom), Msg::Zoom(-1)),
    b(&[Ch('0')], "0", L(Lab::KeyZoom), Msg::Zoom(0)),
    b(&[Ch('<')], "<", L(Lab::KeyPan), Msg::Pan(-1)),
    b(&[Ch('>')], ">", L(Lab::KeyPan), Msg::Pan(1)),
    b(&[Ch('m')], "m", L(Lab::KeySequence), Msg::ToggleSequence),
    b(
        &[Ch('H')],
        "H",
        L(Lab::KeyHeartbeats),
        Msg::ToggleHeartbeats,
    ),
    b(&[Ch('J')], "J", L(Lab::KeyLogMove), Msg::LogMove(1)),
    b(&[Ch('K')], "K", L(Lab::KeyLogMove), Msg::LogMove(-1)),
    b(
        &[Code(KeyCode::PageDown)],
        "PgDn",
        L(Lab::KeyLogPage),
        Msg::Scroll(1),
    ),
    b(
        &[Code(KeyCode::PageUp)],
        "PgUp",
        L(Lab::KeyLogPage),
        Msg::Scroll(-1),
    ),
    b(
        &[Code(KeyCode::Enter)],
        "Enter",
        L(Lab::KeyLogEnter),
        Msg::Enter,
    ),
];

/// Compare on the frozen-holder and A/B/C screens: the flipped switch.
const COMPARE: &[Binding] = &[b(&[Ch('c')], "c", U(Ui::KeyCompare), Msg::Compare)];

/// The mouse on the lanes and the event log.
const TIMELINE_MOUSE: &[Binding] = &[
    info("mouse", U(Ui::KeyMouseTimeline)),
    info("mouse", L(Lab::KeyMouseLog)),
];

const FROZEN: &[Binding] = &[
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

/// The family lab: the knob panel and compare (with the family's correct or broken variant);
/// the timeline keys follow.
const FAMILY: &[Binding] = &[
    b(
        &[Code(KeyCode::Up), Ch('k')],
        "Up k",
        F(Fam::KeyKnobSelect),
        Msg::Up,
    ),
    b(
        &[Code(KeyCode::Down), Ch('j')],
        "Down j",
        F(Fam::KeyKnobSelect),
        Msg::Down,
    ),
    b(
        &[Code(KeyCode::Left), Ch('h')],
        "Left h",
        F(Fam::KeyKnobChange),
        Msg::Adjust {
            dir: -1,
            coarse: false,
        },
    ),
    b(
        &[Code(KeyCode::Right), Ch('l')],
        "Right l",
        F(Fam::KeyKnobChange),
        Msg::Adjust {
            dir: 1,
            coarse: false,
        },
    ),
    b(&[Ch('c')], "c", F(Fam::KeyCompare), Msg::Compare),
    info("mouse", F(Fam::KeyKnobSelect)),
];

const ABC: &[Binding] = &[
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

const HERD: &[Binding] = &[
    b(&[Code(KeyCode::Up)], "Up", U(Ui::KeySliderSelect), Msg::Up),
    b(
        &[Code(KeyCode::Down)],
        "Down",
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
    b(&[Ch('j')], "j", L(Lab::KeyHerdRows), Msg::Rows(1)),
    b(&[Ch('k')], "k", L(Lab::KeyHerdRows), Msg::Rows(-1)),
    b(
        &[Code(KeyCode::PageDown)],
        "PgDn",
        L(Lab::KeyHerdRows),
        Msg::Scroll(1),
    ),
    b(
        &[Code(KeyCode::PageUp)],
        "PgUp",
        L(Lab::KeyHerdRows),
        Msg::Scroll(-1),
    ),
    info("mouse", U(Ui::KeyMouseSlider)),
];

const PRESENT: &[Binding] = &[
    b(
        &[
            Ch(' '),
            Code(KeyCode::Right),
            Ch('l'),
            Code(KeyCode::PageDown),
        ],
        "Space Right l",
        U(Ui::KeyPresentNext),
        Msg::Step(1),
    ),
    b(
        &[
            Code(KeyCode::Left),
            Ch('h'),
            Code(KeyCode::PageUp),
            Code(KeyCode::Backspace),
        ],
        "Left h",
        U(Ui::KeyPresentBack),
        Msg::Step(-1),
    ),
    b(&[Ch('r')], "r", L(Lab::KeyPresentReveal), Msg::Reveal),
    b(&[Ch('b')], "b", U(Ui::KeyBlank), Msg::Blank),
];

const EXPLORE: &[Binding] = &[
    b(
        &[Code(KeyCode::Up), Ch('k')],
        "Up/Down j/k",
        U(Ui::KeyExploreMove),
        Msg::Up,
    ),
    b(
        &[Code(KeyCode::Down), Ch('j')],
        "Up/Down j/k",
        U(Ui::KeyExploreMove),
        Msg::Down,
    ),
    b(
        &[Code(KeyCode::Left), Ch('h')],
        "Left/Right h/l",
        U(Ui::KeyExploreChange),
        Msg::Adjust {
            dir: -1,
            coarse: false,
        },
    ),
    b(
        &[Code(KeyCode::Right), Ch('l')],
        "Left/Right h/l",
        U(Ui::KeyExploreChange),
        Msg::Adjust {
            dir: 1,
            coarse: false,
        },
    ),
    b(
        &[Code(KeyCode::Enter)],
        "Enter",
        U(Ui::KeyExploreRun),
        Msg::Enter,
    ),
    b(&[Ch('x')], "x", U(Ui::KeyExploreCancel), Msg::Cancel),
];

/// The table of a simulation screen, own keys first; empty for the other screens.
pub fn table(screen: ScreenId) -> Vec<&'static Binding> {
    let parts: &[&[Binding]] = match screen {
        ScreenId::Frozen => &[FROZEN, TIMELINE, COMPARE, TIMELINE_MOUSE],
        ScreenId::Abc => &[ABC, TIMELINE, COMPARE, TIMELINE_MOUSE],
        ScreenId::Herd => &[HERD],
        ScreenId::Present => &[PRESENT],
        ScreenId::Explore => &[EXPLORE],
        ScreenId::Family => &[FAMILY, TIMELINE, TIMELINE_MOUSE],
        _ => &[],
    };
    parts.iter().flat_map(|p| p.iter()).collect()
}

/// Whether `screen`'s keys come from this table.
pub fn drives(screen: ScreenId) -> bool {
    matches!(
        screen,
        ScreenId::Frozen
            | ScreenId::Abc
            | ScreenId::Herd
            | ScreenId::Present
            | ScreenId::Explore
            | ScreenId::Family
    )
}

fn matches(k: Key, key: &KeyEvent) -> bool {
    match k {
        Ch(c) => key.code == KeyCode::Char(c),
        Code(code) => key.code == code,
    }
}

/// The message a key sends on `screen` (Shift makes a slider step coarse).
pub fn map(screen: ScreenId, key: &KeyEvent) -> Option<Msg> {
    let shift = key
        .modifiers
        .contains(crossterm::event::KeyModifiers::SHIFT);
    let msg = table(screen)
        .into_iter()
        .find(|b| b.keys.iter().any(|k| matches(*k, key)))?
        .msg?;
    Some(match msg {
        Msg::Adjust { dir, .. } => Msg::Adjust { dir, coarse: shift },
        m => m,
    })
}

/// Help rows for `screen`: bindings with the same words are merged into one row.
pub fn help_rows(screen: ScreenId) -> Vec<(String, Words)> {
    let mut rows: Vec<(String, Words)> = Vec::new();
    for b in table(screen) {
        match rows
            .iter_mut()
            .find(|(_, w)| *w == b.what && b.msg.is_some())
        {
            Some((shown, _)) if !shown.split(' ').any(|s| s == b.shown) => {
                shown.push(' ');
                shown.push_str(b.shown);
            }
            Some(_) => {}
            None => rows.push((b.shown.to_string(), b.what)),
        }
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;
    use crossterm::event::KeyModifiers;

    #[test]
    fn no_key_means_two_things_on_one_screen() {
        for screen in [
            ScreenId::Frozen,
            ScreenId::Abc,
            ScreenId::Herd,
            ScreenId::Present,
            ScreenId::Explore,
            ScreenId::Family,
        ] {
            let keys: Vec<Key> = table(screen)
                .iter()
                .flat_map(|b| b.keys.iter().copied())
                .collect();
            for (i, k) in keys.iter().enumerate() {
                assert!(!keys[i + 1..].contains(k), "{screen:?}: {k:?} twice");
            }
        }
    }

    #[test]
    fn shift_makes_a_slider_step_coarse() {
        let k = KeyEvent::new(KeyCode::Right, KeyModifiers::SHIFT);
        assert_eq!(
            map(ScreenId::Frozen, &k),
            Some(Msg::Adjust {
                dir: 1,
                coarse: true
            })
        );
    }
}
