//! `?` help cannot drift from the keys: on every screen, each key that sends a message of the
//! screen's own is named in that screen's help, and each key help names does something there.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::{app, key, press};
use crate::i18n::Lang;
use crate::tui::app::{App, AppMsg, ScreenId, map_key};
use crate::tui::screens::family::FAMILIES;
use crate::tui::screens::help;
use crate::tui::screens::home::HomeRow;

/// The app on each screen, with what that screen needs to be open.
fn on_every_screen() -> Vec<App> {
    let mut apps = Vec::new();
    for id in [
        ScreenId::Home,
        ScreenId::Frozen,
        ScreenId::Abc,
        ScreenId::Herd,
        #[cfg(feature = "live")]
        ScreenId::Live,
        ScreenId::Reader,
        ScreenId::Stats,
        ScreenId::Explore,
    ] {
        apps.push(app(id, Lang::En, (140, 42)));
    }
    let mut a = app(ScreenId::Home, Lang::En, (140, 42));
    let p = crate::scenario::builtin()
        .iter()
        .find(|p| !p.script.is_empty())
        .expect("a scripted preset")
        .clone();
    a.present_preset(p, false);
    apps.push(a);
    let mut a = app(ScreenId::Home, Lang::En, (140, 42));
    a.open_family(FAMILIES[0], None);
    apps.push(a);
    let mut a = app(ScreenId::Home, Lang::En, (140, 42));
    a.home.selected = a
        .home
        .items
        .iter()
        .position(|i| *i == HomeRow::Exam)
        .unwrap();
    press(&mut a, KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE));
    apps.push(a);
    let on: Vec<ScreenId> = apps.iter().map(|a| a.screen).collect();
    for id in [ScreenId::Present, ScreenId::Family, ScreenId::Quiz] {
        assert!(on.contains(&id), "{id:?} did not open: {on:?}");
    }
    apps
}

/// Every key worth pressing, with the name help would give it.
fn candidates() -> Vec<(KeyEvent, String)> {
    let plain = |c| KeyEvent::new(c, KeyModifiers::NONE);
    let shift = |c| KeyEvent::new(c, KeyModifiers::SHIFT);
    let mut out: Vec<(KeyEvent, String)> = (' '..='~')
        .map(|c| {
            let name = if c == ' ' {
                "Space".into()
            } else {
                c.to_string()
            };
            (key(c), name)
        })
        .collect();
    let codes = [
        (KeyCode::Up, "Up"),
        (KeyCode::Down, "Down"),
        (KeyCode::Left, "Left"),
        (KeyCode::Right, "Right"),
        (KeyCode::PageUp, "PgUp"),
        (KeyCode::PageDown, "PgDn"),
        (KeyCode::Home, "Home"),
        (KeyCode::End, "End"),
        (KeyCode::Enter, "Enter"),
        (KeyCode::Tab, "Tab"),
        (KeyCode::BackTab, "Shift-Tab"),
        (KeyCode::Backspace, "Backspace"),
        (KeyCode::Delete, "Delete"),
        (KeyCode::F(1), "F1"),
    ];
    for (c, name) in codes {
        out.push((plain(c), name.to_string()));
        if c != KeyCode::BackTab {
            out.push((shift(c), format!("Shift-{name}")));
        }
    }
    out.push((shift(KeyCode::Char(' ')), "Shift-Space".into()));
    out
}

/// The key names a help row shows: "Up/Down j/k" names four, "Shift-Up/Down" two shifted ones, "1-9" the digits, "a b c ..." every option letter.
fn names(shown: &str) -> Vec<String> {
    let mut out = Vec::new();
    for word in shown.split(' ') {
        match word {
            "1-9" => out.extend(('1'..='9').map(String::from)),
            "..." => out.extend(('a'..='z').map(String::from)),
            w if w.starts_with("Shift-") => out.extend(
                w.trim_start_matches("Shift-")
                    .split('/')
                    .map(|k| format!("Shift-{k}")),
            ),
            w if w.len() > 1 && w.contains('/') => out.extend(w.split('/').map(String::from)),
            w => out.push(w.to_string()),
        }
    }
    out
}

fn global(m: AppMsg) -> bool {
    matches!(
        m,
        AppMsg::Quit | AppMsg::Back | AppMsg::ToggleHelp | AppMsg::ToggleLang
    )
}

#[test]
fn every_key_a_screen_takes_is_named_in_its_help() {
    for a in on_every_screen() {
        let shown: Vec<String> = help::keys(a.screen)
            .iter()
            .flat_map(|(k, _)| names(k))
            .collect();
        for (k, name) in candidates() {
            let Some(m) = map_key(k, &a) else { continue };
            if global(m) {
                continue;
            }
            // A plain row takes the key with Shift held too (a coarse slider step).
            let plain = name.trim_start_matches("Shift-").to_string();
            assert!(
                shown.contains(&name) || shown.contains(&plain),
                "{:?}: {name} sends {m:?} but help names only {shown:?}",
                a.screen
            );
        }
    }
}

#[test]
fn every_key_help_names_does_something() {
    for a in on_every_screen() {
        let keys = candidates();
        for (shown, what) in help::keys(a.screen) {
            for name in names(&shown) {
                let Some((k, _)) = keys.iter().find(|(_, n)| *n == name) else {
                    continue;
                };
                // The quiz takes the hint and the option letters only where the question has
                // them; the rest of its keys are held to the rule.
                let guarded = a.screen == ScreenId::Quiz
                    && (name == "h"
                        || (name.len() == 1 && name.as_bytes()[0].is_ascii_lowercase()));
                if guarded {
                    continue;
                }
                assert!(
                    map_key(*k, &a).is_some(),
                    "{:?}: help names {name} for {what:?}, which does nothing",
                    a.screen
                );
            }
        }
    }
}
