//! One quiz deck: unique ids, both languages, the rules of each question kind, scoring points,
//! and model questions that compute for every seed and grid point.

use super::*;

pub(super) fn check_deck(
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
            Kind::Prediction => {}
        }
        check_kind(d, q, presets, r);
        r.problems
            .extend(crate::content::check_quiz::extras(d, q, lessons, presets));
        r.problems
            .extend(crate::content::check_cues::question(d, q));
        r.problems
            .extend(crate::content::check_order::question(d, q));
    }
    r.problems.extend(crate::content::check_cues::deck(d));
    r.model_questions += summary.kinds.model;
    r.decks.push(summary);
}

pub(super) fn complete(t: &Prompt) -> bool {
    !t.prompt.trim().is_empty() && !t.answer.trim().is_empty()
}

pub(super) fn check_points(
    d: &DeckFile,
    q: &Question,
    points: &[Point],
    what: &str,
    r: &mut Report,
) {
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

pub(super) fn check_kind(d: &DeckFile, q: &Question, presets: &[Preset], r: &mut Report) {
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
        // The lab makes predictions; a deck cannot hold one.
        Kind::Prediction => p(format!(
            "`{qid}`: \"prediction\" is the kind of the lab's predictions, not of a deck's question"
        )),
    }
}

pub(super) fn check_model(d: &DeckFile, q: &Question, presets: &[Preset], r: &mut Report) {
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
    r.problems.extend(crate::content::check_quiz::cases(d, q));
    if let Some(p) = crate::content::check_quiz::answer_varies(d, q, presets) {
        r.problems.push(p);
    }
}

pub(super) fn check_placeholders(
    d: &DeckFile,
    q: &Question,
    spec: &deck::ModelSpec,
    r: &mut Report,
) {
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
