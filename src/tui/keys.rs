//! One key table for every screen: the same rows map a key press to a message and list the
//! keys in `?` help, so the two cannot drift. Each screen's own rows live in that screen's
//! module (`KEYS`); this holds the row type, the rows the screens share, and the lookup. Keys
//! every screen shares (`?`, `L`, Back, Ctrl-C) and the text a prompt is typing are taken before
//! the table, in `input`.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use crate::i18n::family::{Fam, fam};
use crate::i18n::lab::{Lab, lab};
use crate::i18n::{Lang, Ui, ui};
use crate::tui::app::{AppMsg, ScreenId};
use crate::tui::screens::{abc, explore, family, frozen, herd, home, present, quiz, reader, stats};

/// A key as the table names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Key {
    Ch(char),
    Code(KeyCode),
    /// The key with Shift held; a plain row for the same key takes it too, so put this first.
    Shifted(KeyCode),
    /// Any of `1` to `9`: the message carries the digit.
    Digit,
    /// Any of `a` to `z`: the message carries the letter's place (`a` is 0).
    Letter,
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
    pub msg: Option<AppMsg>,
}

pub(crate) const fn b(
    keys: &'static [Key],
    shown: &'static str,
    what: Words,
    msg: AppMsg,
) -> Binding {
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

/// Moving through a list: a row, a page, either end. `rows` says what Up/Down move.
pub(crate) const fn scroll_rows(rows: Ui) -> [Binding; 6] {
    [
        b(
            &[Code(KeyCode::Up), Ch('k')],
            "Up/Down j/k",
            U(rows),
            AppMsg::Up,
        ),
        b(
            &[Code(KeyCode::Down), Ch('j')],
            "Up/Down j/k",
            U(rows),
            AppMsg::Down,
        ),
        b(
            &[Code(KeyCode::PageUp)],
            "PgUp/PgDn",
            U(Ui::KeyPage),
            AppMsg::Scroll(-1),
        ),
        b(
            &[Code(KeyCode::PageDown)],
            "PgUp/PgDn",
            U(Ui::KeyPage),
            AppMsg::Scroll(1),
        ),
        b(
            &[Code(KeyCode::Home), Ch('g')],
            "Home/End g/G",
            U(Ui::KeyTopBottom),
            AppMsg::Jump(false),
        ),
        b(
            &[Code(KeyCode::End), Ch('G')],
            "Home/End g/G",
            U(Ui::KeyTopBottom),
            AppMsg::Jump(true),
        ),
    ]
}

pub(crate) use Key::{Ch, Code, Digit, Letter, Shifted};
pub(crate) use Words::{Fam as F, Lab as L, Ui as U};

/// Playback, navigation and views, shared by the frozen-holder and A/B/C screens.
const TIMELINE: &[Binding] = &[
    b(&[Ch(' ')], "Space", U(Ui::KeyPlay), AppMsg::TogglePlay),
    b(&[Ch('e')], "e", L(Lab::KeyPace), AppMsg::TogglePace),
    b(
        &[Ch('+'), Ch('=')],
        "+/=",
        U(Ui::KeySpeed),
        AppMsg::Speed(1),
    ),
    b(
        &[Ch('-'), Ch('_')],
        "-/_",
        U(Ui::KeySpeed),
        AppMsg::Speed(-1),
    ),
    b(&[Ch(','), Ch('[')], ", [", U(Ui::KeyStep), AppMsg::Step(-1)),
    b(&[Ch('.'), Ch(']')], ". ]", U(Ui::KeyStep), AppMsg::Step(1)),
    b(
        &[Code(KeyCode::Home)],
        "Home",
        U(Ui::KeyJump),
        AppMsg::Jump(false),
    ),
    b(
        &[Code(KeyCode::End)],
        "End",
        U(Ui::KeyJump),
        AppMsg::Jump(true),
    ),
    b(&[Ch('n')], "n", L(Lab::KeyMoment), AppMsg::Moment(1)),
    b(&[Ch('N')], "N", L(Lab::KeyMoment), AppMsg::Moment(-1)),
    b(
        &[Ch('!')],
        "!",
        L(Lab::KeyViolation),
        AppMsg::FirstViolation,
    ),
    b(&[Ch('v')], "v", L(Lab::KeyReveal), AppMsg::Reveal),
    b(&[Ch('z')], "z", L(Lab::KeyZoom), AppMsg::Zoom(1)),
    b(&[Ch('Z')], "Z", L(Lab::KeyZoom), AppMsg::Zoom(-1)),
    b(&[Ch('0')], "0", L(Lab::KeyZoom), AppMsg::Zoom(0)),
    b(&[Ch('<')], "<", L(Lab::KeyPan), AppMsg::Pan(-1)),
    b(&[Ch('>')], ">", L(Lab::KeyPan), AppMsg::Pan(1)),
    b(&[Ch('m')], "m", L(Lab::KeySequence), AppMsg::ToggleSequence),
    b(
        &[Ch('H')],
        "H",
        L(Lab::KeyHeartbeats),
        AppMsg::ToggleHeartbeats,
    ),
    b(&[Ch('J')], "J", L(Lab::KeyLogMove), AppMsg::LogMove(1)),
    b(&[Ch('K')], "K", L(Lab::KeyLogMove), AppMsg::LogMove(-1)),
    b(
        &[Code(KeyCode::PageDown)],
        "PgDn",
        L(Lab::KeyLogPage),
        AppMsg::Scroll(1),
    ),
    b(
        &[Code(KeyCode::PageUp)],
        "PgUp",
        L(Lab::KeyLogPage),
        AppMsg::Scroll(-1),
    ),
    b(
        &[Code(KeyCode::Enter)],
        "Enter",
        L(Lab::KeyLogEnter),
        AppMsg::Enter,
    ),
];

/// Compare on the frozen-holder and A/B/C screens: the flipped switch.
const COMPARE: &[Binding] = &[b(&[Ch('c')], "c", U(Ui::KeyCompare), AppMsg::Compare)];

/// A prediction on the lab screens: `P` asks, a number picks.
const PREDICT: &[Binding] = &[
    b(
        &[Ch('P')],
        "P",
        L(Lab::KeyPredictLab),
        AppMsg::TogglePredict,
    ),
    b(&[Ch('1')], "1", L(Lab::KeyPredictPick), AppMsg::Predict(0)),
    b(&[Ch('2')], "2", L(Lab::KeyPredictPick), AppMsg::Predict(1)),
    b(&[Ch('3')], "3", L(Lab::KeyPredictPick), AppMsg::Predict(2)),
    b(&[Ch('4')], "4", L(Lab::KeyPredictPick), AppMsg::Predict(3)),
    b(&[Ch('5')], "5", L(Lab::KeyPredictPick), AppMsg::Predict(4)),
];

/// The mouse on the lanes and the event log.
const TIMELINE_MOUSE: &[Binding] = &[
    info("mouse", U(Ui::KeyMouseTimeline)),
    info("mouse", L(Lab::KeyMouseLog)),
];

/// The table of a screen, own keys first.
pub fn table(screen: ScreenId) -> Vec<&'static Binding> {
    let parts: &[&[Binding]] = match screen {
        ScreenId::Home => &[home::SCROLL, home::KEYS],
        ScreenId::Frozen => &[frozen::KEYS, TIMELINE, COMPARE, PREDICT, TIMELINE_MOUSE],
        ScreenId::Abc => &[abc::KEYS, TIMELINE, COMPARE, PREDICT, TIMELINE_MOUSE],
        ScreenId::Herd => &[herd::KEYS],
        #[cfg(feature = "live")]
        ScreenId::Live => &[crate::tui::screens::live::KEYS],
        ScreenId::Present => &[present::KEYS],
        ScreenId::Reader => &[reader::KEYS],
        ScreenId::Quiz => &[quiz::KEYS],
        ScreenId::Stats => &[stats::SCROLL, stats::KEYS],
        ScreenId::Explore => &[explore::KEYS],
        ScreenId::Family => &[family::KEYS, TIMELINE, PREDICT, TIMELINE_MOUSE],
    };
    parts.iter().flat_map(|p| p.iter()).collect()
}

fn matches(k: Key, key: &KeyEvent) -> bool {
    let shift = key.modifiers.contains(KeyModifiers::SHIFT);
    match (k, key.code) {
        (Ch(c), code) => code == KeyCode::Char(c),
        (Code(c), code) => code == c,
        (Shifted(c), code) => shift && code == c,
        (Digit, KeyCode::Char(c)) => ('1'..='9').contains(&c),
        (Letter, KeyCode::Char(c)) => c.is_ascii_lowercase(),
        (Digit | Letter, _) => false,
    }
}

/// The row's message for the key pressed: a digit or a letter row carries the key, and Shift
/// makes a slider step coarse.
fn fill(msg: AppMsg, key: &KeyEvent) -> AppMsg {
    use crate::tui::screens::quiz::QuizMsg;
    let shift = key.modifiers.contains(KeyModifiers::SHIFT);
    let ch = match key.code {
        KeyCode::Char(c) if c.is_ascii() => c as u8,
        _ => 0,
    };
    match msg {
        AppMsg::Adjust { dir, .. } => AppMsg::Adjust { dir, coarse: shift },
        AppMsg::Quiz(QuizMsg::Digit(_)) => AppMsg::Quiz(QuizMsg::Digit(ch.wrapping_sub(b'0'))),
        AppMsg::Quiz(QuizMsg::Letter(_)) => AppMsg::Quiz(QuizMsg::Letter(ch.wrapping_sub(b'a'))),
        m => m,
    }
}

/// The message a key sends on `screen`.
pub fn map(screen: ScreenId, key: &KeyEvent) -> Option<AppMsg> {
    map_with(screen, key, Some)
}

/// The message a key sends on `screen`, where `accept` says which messages the screen's state
/// takes now (and in what form); a key it turns down goes on to the next row that has it.
pub fn map_with(
    screen: ScreenId,
    key: &KeyEvent,
    accept: impl Fn(AppMsg) -> Option<AppMsg>,
) -> Option<AppMsg> {
    table(screen)
        .into_iter()
        .filter(|b| b.keys.iter().any(|k| matches(*k, key)))
        .filter_map(|b| b.msg)
        .find_map(|m| accept(fill(m, key)))
}

/// How help writes Shift held with a key, on every screen and in both languages.
pub const SHIFT: &str = "Shift-";

/// A row's key names with Shift spelt [`SHIFT`] however the row wrote it ("S-Tab").
fn spelt(shown: &str) -> String {
    shown
        .split(' ')
        .map(|w| match w.strip_prefix("S-") {
            Some(key) => format!("{SHIFT}{key}"),
            None => w.to_string(),
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Help rows for `screen`: bindings with the same words are merged into one row.
pub fn help_rows(screen: ScreenId) -> Vec<(String, Words)> {
    let mut rows: Vec<(String, Words)> = Vec::new();
    for b in table(screen) {
        let shown = spelt(b.shown);
        let shown = shown.as_str();
        match rows
            .iter_mut()
            .find(|(_, w)| *w == b.what && b.msg.is_some())
        {
            Some((row, _)) if row != shown && !row.split(' ').any(|s| s == shown) => {
                row.push(' ');
                row.push_str(shown);
            }
            Some(_) => {}
            None => rows.push((shown.to_string(), b.what)),
        }
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn help_spells_shift_one_way_on_every_screen() {
        // The live lab's screen is pushed only in a build that has it.
        #[cfg_attr(not(feature = "live"), allow(unused_mut))]
        let mut screens = vec![
            ScreenId::Home,
            ScreenId::Frozen,
            ScreenId::Abc,
            ScreenId::Herd,
            ScreenId::Present,
            ScreenId::Reader,
            ScreenId::Quiz,
            ScreenId::Stats,
            ScreenId::Explore,
            ScreenId::Family,
        ];
        #[cfg(feature = "live")]
        screens.push(ScreenId::Live);
        let mut shifted = 0;
        for screen in screens {
            for (shown, _) in help_rows(screen) {
                for word in shown.split([' ', '/']) {
                    assert!(!word.starts_with("S-"), "{screen:?}: {shown}");
                    shifted += usize::from(word.starts_with("Shift-"));
                }
            }
        }
        // The frozen holder and A/B/C step presets back with Shift-Tab, the quiz moves steps
        // with Shift-Up/Down, the reader goes back a link with Shift-Tab.
        assert!(shifted >= 4, "{shifted}");
        let frozen = help_rows(ScreenId::Frozen);
        assert!(
            frozen.iter().any(|(k, _)| k.contains("Shift-Tab")),
            "{frozen:?}"
        );
    }

    #[test]
    fn shift_makes_a_slider_step_coarse() {
        let k = KeyEvent::new(KeyCode::Right, KeyModifiers::SHIFT);
        assert_eq!(
            map(ScreenId::Frozen, &k),
            Some(AppMsg::Adjust {
                dir: 1,
                coarse: true
            })
        );
    }
}
