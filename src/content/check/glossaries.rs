//! The glossaries and the vocabulary: every term in both languages, pairs that agree, and no
//! avoided variant in lessons, deck texts, scenarios, glossary notes or the interface.

use super::*;

pub(super) fn check_glossaries(
    source: &Source,
    lessons: &BTreeSet<&str>,
    r: &mut Report,
) -> Vec<Glossary> {
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

pub(super) fn check_glossary(
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
pub(super) fn check_vocabulary(
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
    let mut found = |file: &str, text: &str, offset: usize, v: &vocab::AvoidWord| {
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
