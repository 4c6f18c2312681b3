//! Closed book in the presenter: at a question step, before `r`, nothing on screen answers the
//! question or gives away the run's outcome. Every shipped script is walked step by step in
//! both languages; each answer is the engine's, asked exactly as the script asks it.

use super::{LANGS, app, key, press, screen};
use crate::tui::app::{App, ScreenId};

const SIZES: [(u16, u16); 2] = [(80, 24), (140, 42)];

/// Whether `hay` contains `needle` as a whole: no letter or digit runs on at either side, and
/// it is not one part of a longer list ("I, J" is not in "H, I, J").
fn has_word(hay: &str, needle: &str) -> bool {
    let joins = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric());
    let lists = [", ", "、", "，"];
    hay.match_indices(needle).any(|(i, _)| {
        let (before, after) = (&hay[..i], &hay[i + needle.len()..]);
        !joins(before.chars().next_back())
            && !joins(after.chars().next())
            && !lists
                .iter()
                .any(|l| before.ends_with(l) || after.starts_with(l))
    })
}

/// Whether an answer can be told apart from the rest of a screen: a single name, a bare number
/// or a yes or no is written all over a run's lanes (lane names, tokens, counters), so those
/// are checked against the engine instead (see below).
fn distinctive(answer: &str) -> bool {
    let several = answer.contains([' ', ',', '、', '，', '|', '(', '（']);
    let number = answer.chars().all(|c| c.is_ascii_digit());
    let short = answer.chars().count() < 3;
    several || !(number || short || ["yes", "no"].contains(&answer))
}

/// The rows of a presenter screen that the run draws: not the axis, and not the script's own
/// words (the caption and the question, which the instructor wrote and the class reads).
fn drawn_rows<'a>(screen: &'a str, script_words: &[&str]) -> Vec<&'a str> {
    screen
        .lines()
        .skip(1)
        .filter(|row| {
            // A caption in a box: its border is not part of its words.
            let t = row.trim().trim_matches('│').trim();
            let axis = t.contains('╵');
            let scripted = script_words.iter().any(|w| w.contains(t));
            !t.is_empty() && !axis && !scripted
        })
        .collect()
}

fn presenting(a: &App) -> &crate::tui::screens::present::PresentState {
    a.present.as_ref().expect("presenting")
}

#[test]
fn nothing_before_the_reveal_answers_a_question_or_tells_the_outcome() {
    let mut leaks = Vec::new();
    for p in crate::scenario::builtin()
        .iter()
        .filter(|p| p.script.iter().any(|s| s.question.is_some()))
    {
        for lang in LANGS {
            for size in SIZES {
                let mut a = app(ScreenId::Home, lang, size);
                a.present_preset(p.clone(), false);
                for (n, step) in p.script.iter().enumerate() {
                    let st = presenting(&a);
                    let last = n + 1 == p.script.len();
                    let trace = &st.trace;
                    let s = screen(&a);
                    let caption = lang.pick(&step.caption.zh, &step.caption.en);
                    let mut words = vec![caption];
                    let mut answer = None;
                    if let Some(q) = &step.question {
                        let question = lang.pick(&q.text.zh, &q.text.en);
                        words.push(question);
                        let at = step.at_ms.unwrap_or(trace.end_ms);
                        answer = Some(crate::scenario::answers::answer(q.ask, trace, at, lang));
                    }
                    // As drawn: the badges' no-break spaces reach the screen as plain ones.
                    let outcome: Vec<String> =
                        crate::tui::screens::present::outcome_lines(trace, lang)
                            .iter()
                            .map(|o| o.replace(crate::text::NO_BREAK, " "))
                            .collect();
                    let rows = drawn_rows(&s, &words);
                    let here = format!("{} {lang:?} {size:?} step {}", p.name, n + 1);
                    // An instant's answer: the last instant the lanes draw does not have it yet.
                    if let Some(q) = &step.question
                        && q.ask.needs_time()
                    {
                        let at = step.at_ms.unwrap_or(trace.end_ms);
                        let asked = crate::scenario::answers::answer(q.ask, trace, at, lang);
                        let drawn = st.shown_until();
                        let then = crate::scenario::answers::answer(q.ask, trace, drawn, lang);
                        if drawn > 0 && then == asked {
                            leaks.push(format!(
                                "{here}: the lanes reach {drawn} ms, where the answer is already \"{asked}\"\n{s}"
                            ));
                        }
                    }
                    if let Some(ans) = answer.as_ref().filter(|a| distinctive(a))
                        && let Some(row) = rows.iter().find(|r| has_word(r, ans))
                    {
                        leaks.push(format!(
                            "{here}: the answer \"{ans}\" shows in «{}»\n{s}",
                            row.trim()
                        ));
                    }
                    // The outcome waits for the end, wherever a question is still open.
                    if answer.is_some() || !last {
                        for o in &outcome {
                            if s.contains(o.as_str()) {
                                leaks.push(format!("{here}: the outcome \"{o}\" shows\n{s}"));
                            }
                        }
                    }
                    if answer.is_some() {
                        press(&mut a, key('r'));
                        let r = screen(&a);
                        let ans = answer.as_deref().unwrap_or_default();
                        let flat = |t: &str| t.split_whitespace().collect::<String>();
                        if !flat(&r).contains(&flat(ans)) {
                            leaks.push(format!("{here}: the reveal lacks \"{ans}\"\n{r}"));
                        }
                        // A reveal answers its own question, not a later one.
                        let verdict = step
                            .question
                            .as_ref()
                            .is_some_and(|q| q.ask == crate::scenario::script::Ask::Verdict);
                        if !last && !verdict {
                            for o in &outcome {
                                if r.contains(o.as_str()) {
                                    leaks.push(format!("{here}: the reveal tells \"{o}\"\n{r}"));
                                }
                            }
                        }
                    }
                    press(&mut a, key(' '));
                }
            }
        }
    }
    let heads: Vec<&str> = leaks.iter().filter_map(|l| l.lines().next()).collect();
    assert!(
        leaks.is_empty(),
        "{} leaks:\n{}\nthe first in full:\n{}",
        leaks.len(),
        heads.join("\n"),
        leaks.first().map_or("", String::as_str)
    );
}

#[test]
fn the_frozen_holders_danger_band_keeps_its_length_until_the_write_shows() {
    use crate::i18n::lab::{Lab, lab};
    for lang in LANGS {
        for size in [(80, 24), (120, 30), (140, 42)] {
            let mut a = app(ScreenId::Frozen, lang, size);
            press(&mut a, key('n'));
            for _ in 0..6 {
                press(&mut a, key('.'));
            }
            let trace = &a.frozen.runs.trace;
            let danger = trace.danger().expect("the defaults have a danger window");
            let length = lab(Lab::DangerBand, lang).replace(
                "{}",
                &crate::engine::time::fmt_secs(danger.to_ms - danger.from_ms),
            );
            let cursor = a.frozen.view.tl.cursor_ms;
            assert!(
                cursor > danger.from_ms && cursor < danger.to_ms,
                "{lang:?} {size:?}: the cursor at {cursor} ms is not inside the window"
            );
            let s = screen(&a);
            assert!(
                !s.contains(&length) && s.contains(lab(Lab::DangerBandOpen, lang)),
                "{lang:?} {size:?}: the band tells its length at {cursor} ms:\n{s}"
            );
            press(&mut a, key('v'));
            let s = screen(&a);
            assert!(s.contains(&length), "{lang:?} {size:?}: {s}");
        }
    }
}
