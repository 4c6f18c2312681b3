//! One key table for the simulation screens (frozen holder, A/B/C, herd, presenter, explore,
//! family): the same rows map a key press to a message and list the keys in `?` help, so the
//! two cannot drift. Each screen's own rows live in that screen's module (`KEYS`); this holds
//! the row type, the rows the screens share, and the lookup.

use crossterm::event::{KeyCode, KeyEvent};

use crate::i18n::family::{Fam, fam};
use crate::i18n::lab::{Lab, lab};
use crate::i18n::{Lang, Ui, ui};
use crate::tui::app::{Msg, ScreenId};
use crate::tui::screens::{abc, explore, family, frozen, herd, present};

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

pub(crate) const fn b(keys: &'static [Key], shown: &'static str, what: Words, msg: Msg) -> Binding {
    Binding {
        keys,
        shown,
        what,
        msg: Some(msg),
    }
}

pub(crate) const fn info(shown: &'static str, what: Words) -> Binding {
    Binding {
        keys: &[],
        shown,
        what,
        msg: None,
    }
}

pub(crate) use Key::{Ch, Code};
pub(crate) use Words::{Fam as F, Lab as L, Ui as U};

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

/// The table of a simulation screen, own keys first; empty for the other screens.
pub fn table(screen: ScreenId) -> Vec<&'static Binding> {
    let parts: &[&[Binding]] = match screen {
        ScreenId::Frozen => &[frozen::KEYS, TIMELINE, COMPARE, TIMELINE_MOUSE],
        ScreenId::Abc => &[abc::KEYS, TIMELINE, COMPARE, TIMELINE_MOUSE],
        ScreenId::Herd => &[herd::KEYS],
        ScreenId::Present => &[present::KEYS],
        ScreenId::Explore => &[explore::KEYS],
        ScreenId::Family => &[family::KEYS, TIMELINE, TIMELINE_MOUSE],
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
