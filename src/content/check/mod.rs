//! `locklab check`: validates lessons, glossaries, quiz decks and presets together.
//!
//! Each file is checked on its own (both languages present, nothing empty, the rules of each
//! question kind) and against the others (every link resolves, every model question computes,
//! ids are unique across decks). The result is a [`Report`] with counts and located problems.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use super::deck::{self, DeckFile, Kind, Point, Prompt, Question};
use super::lesson::{self, Action, Glossary, Lesson};
use super::model;
use super::vocab::{self, Vocabulary};
use super::{Located, stem};
use crate::i18n::Lang;
use crate::scenario::{self, Preset};
use crate::source::Source;

mod decks;
mod glossaries;

use decks::check_deck;
use glossaries::{check_glossaries, check_vocabulary};

/// Seeds every model question is computed with, besides every point of a small grid.
pub const SEEDS: std::ops::Range<u64> = 0..5;
/// Grids up to this many variants are checked point by point.
const FULL_GRID: usize = 256;

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct LangCounts {
    pub zh: usize,
    pub en: usize,
}

impl LangCounts {
    fn add(&mut self, lang: Lang) {
        match lang {
            Lang::Zh => self.zh += 1,
            Lang::En => self.en += 1,
        }
    }
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct KindCounts {
    pub recall: usize,
    pub choice: usize,
    pub order: usize,
    pub model: usize,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DeckSummary {
    pub deck: String,
    pub file: String,
    /// Questions with a prompt and answer in each language.
    pub questions: LangCounts,
    pub kinds: KindCounts,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Report {
    pub lessons: LangCounts,
    pub questions: LangCounts,
    pub decks: Vec<DeckSummary>,
    pub model_questions: usize,
    pub presets: usize,
    pub glossary_terms: usize,
    pub problems: Vec<Located>,
}

impl Report {
    pub fn ok(&self) -> bool {
        self.problems.is_empty()
    }

    /// The report as text: counts per deck and language, then each problem on its own line.
    pub fn render(&self, lang: Lang) -> String {
        use std::fmt::Write as _;
        let mut out = String::new();
        let _ = writeln!(
            out,
            "{} zh {}, en {}",
            lang.pick("课文：", "lessons:"),
            self.lessons.zh,
            self.lessons.en
        );
        let _ = writeln!(
            out,
            "{} {}  {} zh {}, en {}  ({} {})",
            lang.pick("题组：", "decks:"),
            self.decks.len(),
            lang.pick("题目：", "questions:"),
            self.questions.zh,
            self.questions.en,
            lang.pick("模型题", "model"),
            self.model_questions
        );
        let _ = writeln!(
            out,
            "{} {}  {} {}",
            lang.pick("预设：", "presets:"),
            self.presets,
            lang.pick("术语：", "glossary terms:"),
            self.glossary_terms
        );
        for d in &self.decks {
            let k = &d.kinds;
            let _ = writeln!(
                out,
                "  {:<24} zh {:>3}  en {:>3}   recall {} choice {} order {} model {}",
                d.deck, d.questions.zh, d.questions.en, k.recall, k.choice, k.order, k.model
            );
        }
        if self.problems.is_empty() {
            let _ = writeln!(out, "{}", lang.pick("没有发现问题。", "no problems found."));
        } else {
            for p in &self.problems {
                let _ = writeln!(out, "{p}");
            }
            let _ = writeln!(
                out,
                "{} {}",
                self.problems.len(),
                lang.pick("个问题", "problem(s)")
            );
        }
        out
    }
}

/// Checks everything `source` holds.
pub fn check(source: &Source) -> Report {
    check_with(source, None)
}

/// Like [`check`]; with `draws`, also draws each model question that many times and refuses an
/// answer that can be guessed from how the draws fall ([`super::check_spread`]).
pub fn check_with(source: &Source, draws: Option<u64>) -> Report {
    let mut r = Report::default();
    let presets = check_presets(source, &mut r);
    let lessons = match lesson::load_all(source) {
        Ok(l) => l,
        Err(e) => {
            r.problems.push(io_problem("content", &e));
            Vec::new()
        }
    };
    // The lessons left out above because they are not readable text.
    for folder in ["content/zh", "content/en"] {
        for f in source.files(folder, "md").unwrap_or_default() {
            if let Err(p) = super::readable(&f) {
                r.problems.push(p);
            }
        }
    }
    let decks: Vec<DeckFile> = match deck::load_all(source) {
        Ok(all) => all
            .into_iter()
            .filter_map(|d| d.map_err(|e| r.problems.push(e)).ok())
            .collect(),
        Err(e) => {
            r.problems.push(io_problem("quizzes", &e));
            Vec::new()
        }
    };
    let deck_ids: BTreeSet<&str> = decks
        .iter()
        .map(|d| d.deck.deck.get_ref().as_str())
        .collect();
    let lesson_ids: BTreeSet<&str> = lessons.iter().map(|l| l.id.as_str()).collect();
    let preset_names: BTreeSet<&str> = presets.iter().map(|p| p.name.as_str()).collect();
    let abc_names: BTreeSet<&str> = presets
        .iter()
        .filter(|p| p.family == crate::engine::trace::Family::Abc)
        .map(|p| p.name.as_str())
        .collect();

    check_lessons(&lessons, &mut r);
    for l in &lessons {
        check_links(l, &preset_names, &abc_names, &deck_ids, &lesson_ids, &mut r);
    }
    let glossaries = check_glossaries(source, &lesson_ids, &mut r);

    let mut seen: BTreeMap<String, (String, usize)> = BTreeMap::new();
    for d in &decks {
        check_deck(d, &lessons, &presets, &mut seen, &mut r);
        if let Some(n) = draws {
            r.problems.extend(super::check_spread::deck(d, &presets, n));
        }
    }
    r.problems.extend(super::check_cues::course(&decks));
    let scenarios = source.files("assets/scenarios", "toml").unwrap_or_default();
    check_vocabulary(
        &Vocabulary::from_glossaries(&glossaries),
        &lessons,
        &decks,
        &glossaries,
        &scenarios,
        &mut r,
    );
    r.problems
        .extend(super::check_quiz::self_test(source, &decks));
    r
}

fn io_problem(folder: &str, e: &std::io::Error) -> Located {
    Located {
        file: folder.to_string(),
        line: 0,
        column: 0,
        key: None,
        message: format!("cannot read: {e}"),
    }
}

fn whole_file(file: &str, message: String) -> Located {
    Located {
        file: file.to_string(),
        line: 1,
        column: 1,
        key: None,
        message,
    }
}

fn line(file: &str, line: usize, message: String) -> Located {
    Located {
        file: file.to_string(),
        line,
        column: 1,
        key: None,
        message,
    }
}

fn check_presets(source: &Source, r: &mut Report) -> Vec<Preset> {
    let files = match source.files("assets/scenarios", "toml") {
        Ok(f) => f,
        Err(e) => {
            r.problems.push(io_problem("assets/scenarios", &e));
            return Vec::new();
        }
    };
    let mut out = Vec::new();
    // Each file is parsed on its own so one broken preset does not hide the others.
    for f in &files {
        if let Err(p) = super::readable(f) {
            r.problems.push(p);
            continue;
        }
        match scenario::parse(stem(&f.rel), &f.display, &f.text) {
            Ok(p) => out.push(p),
            Err(e) => r.problems.push(Located {
                file: e.file,
                line: e.line,
                column: e.column,
                key: e.key,
                message: e.message,
            }),
        }
    }
    r.presets = out.len();
    out
}

fn check_lessons(lessons: &[Lesson], r: &mut Report) {
    for l in lessons {
        r.lessons.add(l.lang);
        if l.text.trim().is_empty() {
            r.problems
                .push(whole_file(&l.file, "the lesson is empty".into()));
            continue;
        }
        match l.headings.first() {
            Some(h) if h.level == 1 && !h.text.is_empty() => {}
            _ => r.problems.push(whole_file(
                &l.file,
                "a lesson starts with its title as a `# ` heading".into(),
            )),
        }
        if l.sections().next().is_none() {
            r.problems.push(whole_file(
                &l.file,
                "the lesson has no `##` sections".into(),
            ));
        }
        let takeaways = l.lang.pick("要点", "Key takeaways");
        match l.sections().last() {
            Some(h) if h.text == takeaways && !(4..=7).contains(&l.last_section_items) => {
                r.problems.push(line(
                    &l.file,
                    h.line,
                    format!(
                        "`## {takeaways}` has {} bullets; it takes 4 to 7",
                        l.last_section_items
                    ),
                ));
            }
            Some(h) if h.text == takeaways => {}
            Some(h) => r.problems.push(line(
                &l.file,
                h.line,
                format!(
                    "the last section is `## {}`; a lesson ends with `## {takeaways}`",
                    h.text
                ),
            )),
            None => {}
        }
        for h in l.headings.iter().filter(|h| h.text.is_empty()) {
            r.problems
                .push(line(&l.file, h.line, "empty heading".into()));
        }
        let other_lang = match l.lang {
            Lang::Zh => Lang::En,
            Lang::En => Lang::Zh,
        };
        match lessons
            .iter()
            .find(|o| o.lang == other_lang && o.id == l.id)
        {
            None => r.problems.push(whole_file(
                &l.file,
                format!("no {} version of lesson {}", other_lang.code(), l.id),
            )),
            // Reported once, from the zh side, so a mismatch is one problem.
            Some(other) if l.lang == Lang::Zh => {
                let (mine, theirs) = (l.sections().count(), other.sections().count());
                if mine != theirs {
                    r.problems.push(whole_file(
                        &l.file,
                        format!(
                            "{mine} `##` sections here but {theirs} in {}; both languages keep the same sections",
                            other.file
                        ),
                    ));
                }
            }
            Some(_) => {}
        }
    }
}

fn check_links(
    l: &Lesson,
    presets: &BTreeSet<&str>,
    abc: &BTreeSet<&str>,
    decks: &BTreeSet<&str>,
    lessons: &BTreeSet<&str>,
    r: &mut Report,
) {
    for link in &l.links {
        let (ok, what) = match link.action() {
            Some(Action::Sim(p)) => (presets.contains(p), "preset"),
            Some(Action::Explore(p)) => (abc.contains(p), "A/B/C preset"),
            Some(Action::Quiz(d)) => (decks.contains(d), "deck"),
            Some(Action::Lesson(id)) => (lessons.contains(id), "lesson"),
            None => continue,
        };
        if !ok {
            r.problems.push(line(
                &l.file,
                link.line,
                format!("link `{}` names no {what}", link.target),
            ));
        }
    }
}
