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
    let mut r = Report::default();
    let presets = check_presets(source, &mut r);
    let lessons = match lesson::load_all(source) {
        Ok(l) => l,
        Err(e) => {
            r.problems.push(io_problem("content", &e));
            Vec::new()
        }
    };
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
    }
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

fn check_glossaries(source: &Source, lessons: &BTreeSet<&str>, r: &mut Report) -> Vec<Glossary> {
    let all = match lesson::load_glossaries(source) {
        Ok(g) => g,
        Err(e) => {
            r.problems.push(io_problem("content/glossary", &e));
            return Vec::new();
        }
    };
    let glossaries: Vec<Glossary> = all
        .into_iter()
        .filter_map(|g| g.map_err(|e| r.problems.push(e)).ok())
        .collect();
    // The glossary is the single source of terms: each name pairs with one name in the other
    // language, and no avoided variant is itself a term.
    let mut names: BTreeMap<(&'static str, String), (String, String)> = BTreeMap::new();
    for g in &glossaries {
        check_glossary(g, lessons, &mut names, r);
    }
    for g in &glossaries {
        for (at, t) in &g.terms {
            for lang in [Lang::Zh, Lang::En] {
                for v in t.avoid(lang) {
                    let message = if v.trim().is_empty() {
                        format!("term `{}` lists an empty variant to avoid", t.en)
                    } else if let Some((_, place)) =
                        names.get(&(lang.code(), v.trim().to_lowercase()))
                    {
                        format!(
                            "`{}` is listed as a variant to avoid but is a glossary term ({place})",
                            v.trim()
                        )
                    } else {
                        continue;
                    };
                    r.problems.push(line(&g.file, *at, message));
                }
            }
        }
    }
    glossaries
}

fn check_glossary(
    g: &Glossary,
    lessons: &BTreeSet<&str>,
    names: &mut BTreeMap<(&'static str, String), (String, String)>,
    r: &mut Report,
) {
    if !lessons.contains(g.id.as_str()) {
        r.problems
            .push(whole_file(&g.file, format!("no lesson named {}", g.id)));
    }
    if g.terms.is_empty() {
        r.problems
            .push(whole_file(&g.file, "the glossary has no [[term]]".into()));
    }
    let mut seen = BTreeSet::new();
    for (at, t) in &g.terms {
        r.glossary_terms += 1;
        let fields = [
            ("zh", &t.zh),
            ("en", &t.en),
            ("note_zh", &t.note_zh),
            ("note_en", &t.note_en),
        ];
        for (key, value) in fields {
            if value.trim().is_empty() {
                r.problems
                    .push(line(&g.file, *at, format!("term `{}` has no {key}", t.en)));
            }
        }
        if !seen.insert(t.en.to_lowercase()) {
            r.problems
                .push(line(&g.file, *at, format!("term `{}` appears twice", t.en)));
        }
        // A term may be listed by every lesson that uses it, but always with the same pair of
        // names: one idea, one word in each language.
        for (lang, other) in [(Lang::Zh, Lang::En), (Lang::En, Lang::Zh)] {
            let (name, partner) = (t.name(lang).trim(), t.name(other).trim());
            if name.is_empty() || partner.is_empty() {
                continue;
            }
            let key = (lang.code(), name.to_lowercase());
            match names.get(&key) {
                Some((first, place)) if first.to_lowercase() != partner.to_lowercase() => {
                    r.problems.push(line(
                        &g.file,
                        *at,
                        format!(
                            "`{name}` is paired with `{partner}` here but with `{first}` at {place}; one term, one pair of names"
                        ),
                    ))
                }
                Some(_) => {}
                None => {
                    names.insert(key, (partner.to_string(), format!("{}:{at}", g.file)));
                }
            }
        }
    }
}

/// Reports every avoided variant in lessons, deck texts, glossary notes and the interface.
fn check_vocabulary(
    vocab: &Vocabulary,
    lessons: &[Lesson],
    decks: &[DeckFile],
    glossaries: &[Glossary],
    scenarios: &[crate::source::SourceFile],
    r: &mut Report,
) {
    if vocab.variants().is_empty() {
        return;
    }
    let mut found = |file: &str, text: &str, offset: usize, v: &vocab::Variant| {
        r.problems
            .push(Located::at(file, text, offset, None, v.message()));
    };
    for l in lessons {
        for (at, v) in vocab.hits(l.lang, &l.text, &vocab::markdown_code(&l.text)) {
            found(&l.file, &l.text, at, v);
        }
    }
    for d in decks {
        for (lang, range) in vocab::toml_texts(&d.text) {
            let raw = &d.text[range.clone()];
            for (at, v) in vocab.hits(lang, raw, &vocab::backtick_spans(raw)) {
                found(&d.file, &d.text, range.start + at, v);
            }
        }
    }
    // Scenario texts (what a preset is about, its captions and questions) are content too.
    for f in scenarios {
        for (lang, range) in vocab::toml_texts(&f.text) {
            let raw = &f.text[range.clone()];
            for (at, v) in vocab.hits(lang, raw, &vocab::backtick_spans(raw)) {
                found(&f.display, &f.text, range.start + at, v);
            }
        }
    }
    for g in glossaries {
        for (lang, range) in vocab::toml_texts(&g.text) {
            let raw = &g.text[range.clone()];
            let at_line = crate::toml_place::line_col(&g.text, range.start).0;
            // An entry may explain its own variants in its note.
            let owner = g.terms.iter().rev().find(|(l, _)| *l <= at_line);
            let own = owner.map(|(l, _)| format!("{}:{l}", g.file));
            for (at, v) in vocab.hits(lang, raw, &vocab::backtick_spans(raw)) {
                if own.as_deref() != Some(v.origin.as_str()) {
                    found(&g.file, &g.text, range.start + at, v);
                }
            }
        }
    }
    for (file, src) in vocab::UI_SOURCES {
        for range in vocab::rust_strings(src) {
            let literal = &src[range.clone()];
            let lang = if vocab::is_chinese(literal) {
                Lang::Zh
            } else {
                Lang::En
            };
            for (at, v) in vocab.hits(lang, literal, &[]) {
                found(file, src, range.start + at, v);
            }
        }
    }
}

fn check_deck(
    d: &DeckFile,
    lessons: &[Lesson],
    presets: &[Preset],
    seen: &mut BTreeMap<String, (String, usize)>,
    r: &mut Report,
) {
    let deck = &d.deck;
    let id = deck.deck.get_ref();
    let p = |offset: usize, message: String| d.problem(offset, None, message);
    // The deck id is the file stem without its number: `05-fencing` -> `fencing`.
    let expected = d.stem.split_once('-').map_or(d.stem.as_str(), |(_, s)| s);
    if id != expected {
        r.problems.push(p(
            deck.deck.span().start,
            format!("deck id `{id}` does not match the file name (expected `{expected}`)"),
        ));
    }
    let lesson = deck.lesson.get_ref();
    for lang in [Lang::Zh, Lang::En] {
        if !lessons.iter().any(|l| l.lang == lang && &l.id == lesson) {
            r.problems.push(p(
                deck.lesson.span().start,
                format!("no {} lesson `{lesson}`", lang.code()),
            ));
        }
    }
    let title = deck.title.get_ref();
    if title.zh.trim().is_empty() || title.en.trim().is_empty() {
        r.problems.push(p(
            deck.title.span().start,
            "the title needs zh and en".into(),
        ));
    }
    if deck.questions.is_empty() {
        r.problems
            .push(whole_file(&d.file, "the deck has no questions".into()));
    }
    let mut summary = DeckSummary {
        deck: id.clone(),
        file: d.file.clone(),
        questions: LangCounts::default(),
        kinds: KindCounts::default(),
    };
    for q in &deck.questions {
        let qline = crate::toml_place::line_col(&d.text, q.id.span().start).0;
        let qid = q.id.get_ref();
        let at = q.id.span().start;
        if !qid.starts_with(&format!("{id}.")) || qid.len() <= id.len() + 1 {
            r.problems.push(p(
                at,
                format!("question id `{qid}` should start with `{id}.`"),
            ));
        }
        for name in std::iter::once(qid).chain(&q.aliases) {
            if let Some((file, first)) = seen.get(name) {
                r.problems.push(p(
                    at,
                    format!("id `{name}` of `{qid}` is already used at {file}:{first}"),
                ));
            } else {
                seen.insert(name.clone(), (d.file.clone(), qline));
            }
        }
        if q.topics.is_empty() || q.topics.iter().any(|t| t.trim().is_empty()) {
            r.problems
                .push(p(at, format!("`{qid}` needs topics, none empty")));
        }
        if !(1..=3).contains(q.difficulty.get_ref()) {
            r.problems.push(d.problem(
                q.difficulty.span().start,
                Some("difficulty"),
                "must be 1, 2 or 3".into(),
            ));
        }
        for lang in [Lang::Zh, Lang::En] {
            match q.text(lang) {
                Some(t) if complete(t) => {
                    summary.questions.add(lang);
                    r.questions.add(lang);
                }
                _ => r.problems.push(p(
                    at,
                    format!("`{qid}` needs a {} prompt and answer", lang.code()),
                )),
            }
        }
        let kinds = &mut summary.kinds;
        match q.kind {
            Kind::Recall => kinds.recall += 1,
            Kind::Choice => kinds.choice += 1,
            Kind::Order => kinds.order += 1,
            Kind::Model => kinds.model += 1,
        }
        check_kind(d, q, presets, r);
        r.problems
            .extend(super::check_quiz::extras(d, q, lessons, presets));
    }
    r.model_questions += summary.kinds.model;
    r.decks.push(summary);
}

fn complete(t: &Prompt) -> bool {
    !t.prompt.trim().is_empty() && !t.answer.trim().is_empty()
}

fn check_points(d: &DeckFile, q: &Question, points: &[Point], what: &str, r: &mut Report) {
    let qid = q.id.get_ref();
    if points.is_empty() {
        r.problems.push(d.problem(
            q.id.span().start,
            None,
            format!("recall question `{qid}` needs {what}points"),
        ));
    }
    for (i, pt) in points.iter().enumerate() {
        if !(1..=3).contains(pt.value.get_ref()) {
            r.problems.push(d.problem(
                pt.value.span().start,
                Some("value"),
                format!("{what}point {} of `{qid}` must be worth 1 to 3", i + 1),
            ));
        }
        if pt.zh.trim().is_empty() || pt.en.trim().is_empty() {
            r.problems.push(d.problem(
                pt.value.span().start,
                None,
                format!("{what}point {} of `{qid}` needs zh and en", i + 1),
            ));
        }
    }
}

fn check_kind(d: &DeckFile, q: &Question, presets: &[Preset], r: &mut Report) {
    let qid = q.id.get_ref();
    let at = q.id.span().start;
    let mut p = |message: String| r.problems.push(d.problem(at, None, message));
    // Fields that belong to another kind are a sign the kind is wrong.
    let stray = [
        ("points", !q.points.is_empty(), Kind::Recall),
        ("follow_up", q.follow_up.is_some(), Kind::Recall),
        ("follow_ups", !q.follow_ups.is_empty(), Kind::Recall),
        ("options", !q.options.is_empty(), Kind::Choice),
        ("steps", !q.steps.is_empty(), Kind::Order),
        ("model", q.model.is_some(), Kind::Model),
    ];
    for (field, present, owner) in stray {
        if present && q.kind != owner {
            p(format!(
                "`{qid}` is a {} question but has `{field}`, which only {} questions take",
                q.kind.name(),
                owner.name()
            ));
        }
    }
    match q.kind {
        Kind::Recall => {
            check_points(d, q, &q.points, "", r);
            if q.follow_up.is_some() && !q.follow_ups.is_empty() {
                r.problems.push(d.problem(
                    at,
                    None,
                    format!("`{qid}` has both `follow_up` and `follow_ups`; keep one form"),
                ));
            }
            if q.follow_ups.len() > 3 {
                r.problems.push(d.problem(
                    at,
                    None,
                    format!("`{qid}` has {} follow-ups; at most 3", q.follow_ups.len()),
                ));
            }
            for (round, f) in q.rounds().enumerate() {
                for (lang, t) in [("zh", &f.zh), ("en", &f.en)] {
                    if !t.as_ref().is_some_and(complete) {
                        r.problems.push(d.problem(
                            at,
                            None,
                            format!(
                                "follow-up {} of `{qid}` needs a {lang} prompt and answer",
                                round + 1
                            ),
                        ));
                    }
                }
                check_points(d, q, &f.points, "follow-up ", r);
            }
        }
        Kind::Choice => {
            if q.options.len() < 2 {
                p(format!("choice question `{qid}` needs at least 2 options"));
            }
            if !q.options.iter().any(|o| o.correct) {
                p(format!("choice question `{qid}` has no correct option"));
            }
            for (i, o) in q.options.iter().enumerate() {
                let fields = [
                    ("zh", &o.zh),
                    ("en", &o.en),
                    ("why_zh", &o.why_zh),
                    ("why_en", &o.why_en),
                ];
                for (key, value) in fields {
                    if value.trim().is_empty() {
                        p(format!("option {} of `{qid}` has no {key}", i + 1));
                    }
                }
            }
        }
        Kind::Order => {
            if q.steps.len() < 3 {
                p(format!(
                    "order question `{qid}` needs at least 3 steps (has {})",
                    q.steps.len()
                ));
            }
            for (i, s) in q.steps.iter().enumerate() {
                if s.zh.trim().is_empty() || s.en.trim().is_empty() {
                    p(format!("step {} of `{qid}` needs zh and en", i + 1));
                }
            }
        }
        Kind::Model => check_model(d, q, presets, r),
    }
}

fn check_model(d: &DeckFile, q: &Question, presets: &[Preset], r: &mut Report) {
    let qid = q.id.get_ref();
    let Some(spec) = &q.model else {
        r.problems.push(d.problem(
            q.id.span().start,
            None,
            format!("model question `{qid}` needs a [questions.model] table"),
        ));
        return;
    };
    let report = |e: model::ModelError, r: &mut Report| {
        let message = format!("question `{}`: {}", e.question, e.message);
        r.problems
            .push(d.problem(e.offset, e.key.as_deref(), message));
    };
    // Every seed a learner may get, and the whole grid when it is small, must compute.
    for seed in SEEDS {
        if let Err(e) = model::compute(q, seed, presets) {
            return report(e, r);
        }
    }
    match model::all_variants(q, presets, FULL_GRID) {
        Ok(Some(variants)) => {
            for v in &variants {
                if let Err(e) = model::answer(q, v) {
                    return report(e, r);
                }
            }
        }
        Ok(None) => {}
        Err(e) => return report(e, r),
    }
    let numeric = model::variant(q, 0, presets)
        .and_then(|v| model::answer(q, &v))
        .is_ok_and(|a| matches!(a, model::ModelAnswer::Number(_)));
    if let Some(t) = &spec.tolerance {
        if !numeric {
            r.problems.push(d.problem(
                t.span().start,
                Some("tolerance"),
                format!(
                    "`{qid}` asks `{}`, which is not a number",
                    spec.ask.get_ref()
                ),
            ));
        } else if t.get_ref().is_nan() || *t.get_ref() < 0.0 {
            r.problems.push(d.problem(
                t.span().start,
                Some("tolerance"),
                "must be 0 or more".into(),
            ));
        }
    }
    check_placeholders(d, q, spec, r);
    r.problems.extend(super::check_quiz::cases(d, q));
    if let Some(p) = super::check_quiz::answer_varies(d, q, presets) {
        r.problems.push(p);
    }
}

fn check_placeholders(d: &DeckFile, q: &Question, spec: &deck::ModelSpec, r: &mut Report) {
    let qid = q.id.get_ref();
    let known = model::param_keys(spec.family.get_ref());
    for (lang, t) in [("zh", &q.zh), ("en", &q.en)] {
        let Some(t) = t else { continue };
        for (field, text) in [("prompt", &t.prompt), ("answer", &t.answer)] {
            let used: Vec<&str> = model::placeholders(text)
                .into_iter()
                .map(|(_, n)| n)
                .collect();
            for name in &used {
                let message = if *name == model::CASE_PLACEHOLDER && !spec.cases.is_empty() {
                    continue;
                } else if !known.contains(name) {
                    format!(
                        "{lang} {field} of `{qid}` names `{{{name}}}`, which is not a parameter of {}",
                        spec.family.get_ref()
                    )
                } else if !spec.vary.contains_key(*name) {
                    format!(
                        "{lang} {field} of `{qid}` names `{{{name}}}`, which is not drawn in [questions.model.vary]"
                    )
                } else {
                    continue;
                };
                r.problems.push(d.problem(q.id.span().start, None, message));
            }
            if field == "prompt" {
                for key in spec.vary.keys() {
                    if !used.contains(&key.as_str()) {
                        r.problems.push(d.problem(
                            spec.vary[key].span().start,
                            Some(key),
                            format!("`{qid}` draws `{key}` but its {lang} prompt never shows `{{{key}}}`"),
                        ));
                    }
                }
            }
        }
    }
}
