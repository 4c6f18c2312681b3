//! Every screen in Chinese names things in Chinese: rendered at 80x24 and 140x42, no screen may
//! show an identifier from the content or the engine (a deck or lesson id, a topic tag, a metric
//! key, a knob name) nor any snake_case name. The forbidden words come from the content and the
//! engine themselves, so a new deck, metric or knob is held to the rule without a change here.

use std::collections::{BTreeMap, BTreeSet};

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::quiz_session::answer_current;
use super::{app, key, press, screen};
use crate::engine::params::{FROZEN_SPECS, HERD_SPECS};
use crate::i18n::Lang;
use crate::quiz::select::Bank;
use crate::source::Source;
use crate::tui::app::{App, ScreenId};
use crate::tui::screens::family::{FAMILIES, knob_values};
use crate::tui::screens::home::HomeRow;

const SIZES: [(u16, u16); 2] = [(80, 24), (140, 42)];

/// Names a Chinese technical text writes as they are: system calls, libraries, ZooKeeper's
/// own terms (its sessions expire on a `tick`), systems named as they are (etcd), and
/// PostgreSQL's own functions (`statement_timestamp()`, set beside `now()`).
const ALLOWED: &[&str] = &[
    "fsync",
    "Curator",
    "ephemeralOwner",
    "tick",
    "etcd",
    "statement_timestamp",
];

fn code(c: KeyCode) -> KeyEvent {
    KeyEvent::new(c, KeyModifiers::NONE)
}

/// How much a screen is held to. Lessons, questions and captions quote code (`task_id`,
/// `claim_version`) and mention English words in prose, so they are held to the content's own
/// ids only; the screens locklab words itself also to no snake_case name, and the labs to no
/// knob or metric key at all.
#[derive(Clone, Copy, PartialEq, PartialOrd)]
enum Rule {
    Ids,
    Names,
    Keys,
}

/// The ids of the content (decks, lessons, topic tags) and the keys of the engine (knobs,
/// metrics). Preset names are left out: screens show them as the name a command takes.
struct Forbidden {
    ids: BTreeSet<String>,
    keys: BTreeSet<String>,
}

fn forbidden(a: &App) -> Forbidden {
    let bank = Bank::load(&Source::Embedded).expect("embedded decks load");
    let mut ids: BTreeSet<String> = bank.deck_ids().into_iter().map(String::from).collect();
    for (_, q) in bank.questions() {
        ids.extend(q.topics.iter().filter(|t| t.contains('-')).cloned());
    }
    ids.extend(a.reader.topics.iter().map(|t| t.id.clone()));
    let mut keys = BTreeSet::new();
    for f in FAMILIES {
        keys.extend(knob_values::knobs(f).iter().map(|k| k.key().to_string()));
    }
    keys.extend(
        FROZEN_SPECS
            .iter()
            .chain(&HERD_SPECS)
            .map(|s| s.key.to_string()),
    );
    for p in crate::scenario::builtin() {
        let trace = crate::engine::run(&p.params);
        if let Ok(serde_json::Value::Object(m)) = serde_json::to_value(&trace.metrics) {
            keys.extend(m.keys().cloned());
        }
    }
    for p in crate::scenario::builtin() {
        ids.remove(&p.name);
        keys.remove(&p.name);
    }
    for w in ALLOWED {
        ids.remove(*w);
        keys.remove(*w);
    }
    Forbidden { ids, keys }
}

/// ASCII words on the screen, split where a character cannot be part of an identifier. A
/// command-line flag (`--session-timeout`) is what the learner types, so it is left out.
fn ascii_words(s: &str) -> impl Iterator<Item = &str> {
    s.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
        .filter(|w| !w.starts_with("--"))
        .map(|w| w.trim_matches('-'))
        .filter(|w| !w.is_empty())
}

fn snake_case(w: &str) -> bool {
    let parts: Vec<&str> = w.split('_').collect();
    parts.len() > 1
        && parts
            .iter()
            .all(|p| p.len() > 1 && p.chars().all(|c| c.is_ascii_lowercase()))
}

/// A number followed by an English unit of time (`40 s`, `5 ms`): a Chinese screen writes
/// 秒 and 毫秒, so one screen never mixes the two.
fn english_unit(s: &str) -> Option<&str> {
    s.lines().find(|line| {
        let b = line.as_bytes();
        (0..b.len()).any(|i| {
            let unit_at = |j: usize, u: &[u8]| {
                b[j..].starts_with(u)
                    && b.get(j + u.len())
                        .is_none_or(|c| !c.is_ascii_alphanumeric())
            };
            b[i].is_ascii_digit()
                && b.get(i + 1) == Some(&b' ')
                && (unit_at(i + 2, b"s") || unit_at(i + 2, b"ms"))
        })
    })
}

/// Records every forbidden word on the screens looked at, with where it was first seen.
struct Findings<'a> {
    forbidden: &'a Forbidden,
    seen: BTreeMap<String, String>,
}

impl Findings<'_> {
    fn look(&mut self, a: &App, what: &str, rule: Rule) {
        let s = screen(a);
        for w in ascii_words(&s) {
            let bad = self.forbidden.ids.contains(w)
                || (rule >= Rule::Names && snake_case(w))
                || (rule >= Rule::Keys && self.forbidden.keys.contains(w));
            if bad {
                self.seen.entry(w.to_string()).or_insert_with(|| {
                    let line = s.lines().find(|l| l.contains(w)).unwrap_or("");
                    format!("{what} at {}x{}: {line}\n{s}", a.size.0, a.size.1)
                });
            }
        }
        if rule >= Rule::Names
            && let Some(line) = english_unit(&s)
        {
            self.seen
                .entry(format!("unit in {line}"))
                .or_insert_with(|| format!("{what} at {}x{}: {line}\n{s}", a.size.0, a.size.1));
        }
    }
}

fn home_rows(f: &mut Findings, size: (u16, u16)) {
    let mut a = app(ScreenId::Home, Lang::Zh, size);
    for i in 0..a.home.items.len() {
        a.home.selected = i;
        f.look(&a, "home", Rule::Names);
    }
}

fn labs(f: &mut Findings, size: (u16, u16)) {
    let screens = [
        ScreenId::Frozen,
        ScreenId::Herd,
        #[cfg(feature = "live")]
        ScreenId::Live,
    ];
    for id in screens {
        let mut a = app(id, Lang::Zh, size);
        f.look(&a, "lab", Rule::Keys);
        press(&mut a, key('v'));
        f.look(&a, "lab, whole run", Rule::Keys);
    }
    let a = app(ScreenId::Home, Lang::Zh, size);
    for i in 0..a.presets.len() {
        let mut a = app(ScreenId::Home, Lang::Zh, size);
        a.open_preset_named(&a.presets[i].name.clone());
        press(&mut a, key('v'));
        f.look(&a, &format!("preset {}", a.presets[i].name), Rule::Keys);
    }
    for fam in FAMILIES {
        let mut a = app(ScreenId::Home, Lang::Zh, size);
        a.open_family(fam, None);
        press(&mut a, key('v'));
        for _ in 0..knob_values::knobs(fam).len() {
            f.look(&a, &format!("family {fam:?}"), Rule::Keys);
            press(&mut a, code(KeyCode::Down));
        }
        press(&mut a, key('c'));
        f.look(&a, &format!("family {fam:?}, compared"), Rule::Keys);
    }
}

fn presentations(f: &mut Findings, size: (u16, u16)) {
    for p in crate::scenario::builtin()
        .iter()
        .filter(|p| !p.script.is_empty())
    {
        let mut a = app(ScreenId::Home, Lang::Zh, size);
        a.present_preset(p.clone(), false);
        for _ in 0..=p.script.len() {
            f.look(&a, &format!("present {}", p.name), Rule::Ids);
            press(&mut a, key(' '));
            press(&mut a, key('r'));
        }
    }
}

fn lessons(f: &mut Findings, size: (u16, u16)) {
    let a = app(ScreenId::Home, Lang::Zh, size);
    for i in 0..a.reader.topics.len() {
        let mut a = app(ScreenId::Home, Lang::Zh, size);
        a.open_lesson(i);
        f.look(&a, "lesson", Rule::Ids);
    }
}

/// Each quiz entry of home, answered to its end screen, and progress after it, with a
/// progress file so the screens show the saved cards and the decks' mastery.
fn quizzes(f: &mut Findings, size: (u16, u16)) {
    let dir = tempfile::tempdir().expect("temp dir");
    for entry in [HomeRow::Exam, HomeRow::Interview, HomeRow::SelfTest] {
        let mut a = app(ScreenId::Home, Lang::Zh, size);
        a.set_learning(crate::tui::learn::Learning::open(
            &Source::Embedded,
            Some(dir.path()),
            super::quiz::NOW,
            crate::quiz::sched::Calendar::UTC,
        ));
        a.home.selected = a.home.items.iter().position(|i| *i == entry).unwrap();
        press(&mut a, code(KeyCode::Enter));
        for _ in 0..40 {
            if a.screen != ScreenId::Quiz || a.quiz.as_ref().is_some_and(|q| q.summary.is_some()) {
                break;
            }
            f.look(&a, &format!("{entry:?} question"), Rule::Ids);
            answer_current(&mut a);
            f.look(&a, &format!("{entry:?} answered"), Rule::Ids);
            press(&mut a, code(KeyCode::Enter));
        }
        f.look(&a, &format!("{entry:?} result"), Rule::Names);
        let p = a
            .home
            .items
            .iter()
            .position(|i| *i == HomeRow::Progress)
            .unwrap();
        press(&mut a, key('q'));
        a.home.selected = p;
        press(&mut a, code(KeyCode::Enter));
        f.look(&a, "progress", Rule::Names);
    }
}

/// The explorer, and `?` help over every screen: its keys and, over the lanes, the legend.
fn explore_and_help(f: &mut Findings, size: (u16, u16)) {
    let mut a = app(ScreenId::Explore, Lang::Zh, size);
    f.look(&a, "explore", Rule::Names);
    press(&mut a, key('?'));
    f.look(&a, "explore, help", Rule::Names);
    for id in [
        ScreenId::Home,
        ScreenId::Frozen,
        ScreenId::Abc,
        ScreenId::Herd,
        ScreenId::Reader,
        ScreenId::Stats,
        #[cfg(feature = "live")]
        ScreenId::Live,
    ] {
        let mut a = app(id, Lang::Zh, size);
        press(&mut a, key('?'));
        f.look(&a, &format!("{id:?}, help"), Rule::Names);
    }
}

#[test]
fn chinese_screens_show_no_identifier_of_the_content_or_the_engine() {
    let forbidden = forbidden(&app(ScreenId::Home, Lang::Zh, (80, 24)));
    assert!(forbidden.keys.contains("effects_applied") && forbidden.keys.contains("lower_to"));
    assert!(forbidden.ids.contains("gc-pause") && forbidden.ids.len() > 50);
    let mut f = Findings {
        forbidden: &forbidden,
        seen: BTreeMap::new(),
    };
    for size in SIZES {
        home_rows(&mut f, size);
        labs(&mut f, size);
        presentations(&mut f, size);
        lessons(&mut f, size);
        quizzes(&mut f, size);
        explore_and_help(&mut f, size);
    }
    let words: Vec<&String> = f.seen.keys().collect();
    for (w, at) in &f.seen {
        eprintln!("WORD {w} :: {}", at.lines().next().unwrap_or(""));
    }
    let first = f.seen.values().next().cloned().unwrap_or_default();
    assert!(
        words.is_empty(),
        "{} identifiers on Chinese screens: {words:?}\nfirst seen on {first}",
        words.len()
    );
}
