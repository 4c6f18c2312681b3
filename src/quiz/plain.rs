//! Plain mode: the quiz line by line on any reader and writer, for screen readers and scripts.
//!
//! Each request for input is one line beginning with `> `; each answer is saved before the next
//! question, and a `saved N` line (N answers in the file) confirms the write. `q` stops and keeps
//! what was answered; the end of input ends the session the same way.

use std::io::{self, BufRead, Write};

use super::item::{Body, Item, ModelInput, PointText, letter};
use super::sched::{SelfRating, Time};
use super::score::ModelResponse;
use super::session::{Graded, Phase, Session, SessionError};
use super::summary::Summary;
use super::text::{self, Label};
use crate::i18n::Lang;
use crate::progress::store::Store;

/// What a line of input asked for.
enum Line {
    Text(String),
    Note(String),
    Quit,
}

fn read(input: &mut impl BufRead) -> io::Result<Line> {
    let mut s = String::new();
    if input.read_line(&mut s)? == 0 {
        return Ok(Line::Quit);
    }
    let t = s.trim();
    if t.eq_ignore_ascii_case("q") {
        Ok(Line::Quit)
    } else if let Some(note) = t.strip_prefix("n ") {
        Ok(Line::Note(note.trim().to_string()))
    } else {
        Ok(Line::Text(t.to_string()))
    }
}

/// Splits `1,3` / `1 3` / `1, 3` into numbers (1-based in, 0-based out).
pub fn parse_numbers(s: &str) -> Option<Vec<usize>> {
    s.split(|c: char| c == ',' || c == '，' || c.is_whitespace())
        .filter(|p| !p.is_empty())
        .map(|p| p.parse::<usize>().ok().filter(|n| *n >= 1).map(|n| n - 1))
        .collect()
}

/// Reads option letters: `a,c`, `ac`, `A C` (0-based out).
pub fn parse_letters(s: &str) -> Option<Vec<usize>> {
    let mut out = Vec::new();
    for c in s.chars() {
        if c == ',' || c == '，' || c.is_whitespace() {
            continue;
        }
        let l = c.to_ascii_lowercase();
        if !l.is_ascii_lowercase() {
            return None;
        }
        out.push((l as u8 - b'a') as usize);
    }
    Some(out)
}

/// The clock plain mode reads; tests pass a fixed one.
pub type Clock<'a> = &'a mut dyn FnMut() -> Time;

/// Runs the session to its end, saving after every answer. Returns the summary, which is also
/// recorded in the store.
pub fn run(
    input: &mut impl BufRead,
    out: &mut impl Write,
    session: &mut Session,
    store: &mut Store,
    lang: Lang,
    clock: Clock,
) -> io::Result<Summary> {
    let p = text::prompts(lang);
    while let Some(item) = session.current().cloned() {
        let (i, n) = session.position();
        writeln!(
            out,
            "\n{} {}/{} · {} · {}",
            text::label(Label::Question, lang),
            i + 1,
            n,
            text::kind(item.kind, lang),
            item.id
        )?;
        writeln!(out, "{}", item.prompt)?;
        let done = match &item.body {
            Body::Recall { points, follow_up } => recall(
                input,
                out,
                session,
                &item,
                points,
                follow_up.as_ref(),
                lang,
                clock,
            )?,
            Body::Choice { options } => {
                for (k, o) in options.iter().enumerate() {
                    writeln!(out, "  {}) {}", letter(k), o.text)?;
                }
                let prompt = if options.iter().filter(|o| o.correct).count() > 1 {
                    p.letters
                } else {
                    p.letter
                };
                ask(input, out, session, prompt, lang, |session, s| {
                    let picked = parse_letters(s)?;
                    session.answer_choice(&picked, clock()).ok().cloned()
                })?
            }
            Body::Order { shown, .. } => {
                for (k, s) in shown.iter().enumerate() {
                    writeln!(out, "  {}. {s}", k + 1)?;
                }
                ask(input, out, session, p.steps, lang, |session, s| {
                    let seq = parse_numbers(s)?;
                    session.answer_order(&seq, clock()).ok().cloned()
                })?
            }
            Body::Model { input: mi, .. } => {
                let prompt = match mi {
                    ModelInput::Number { .. } => p.number,
                    ModelInput::Options(opts) => {
                        for (k, (label, _)) in opts.iter().enumerate() {
                            writeln!(out, "  {}) {label}", letter(k))?;
                        }
                        p.letter
                    }
                };
                ask(input, out, session, prompt, lang, |session, s| {
                    let r = match mi {
                        ModelInput::Number { .. } => {
                            ModelResponse::Number(s.replace(',', ".").parse().ok()?)
                        }
                        ModelInput::Options(_) => match parse_letters(s)?.as_slice() {
                            [one] => ModelResponse::Option(*one),
                            _ => return None,
                        },
                    };
                    session.answer_model(&r, clock()).ok().cloned()
                })?
            }
        };
        let Some(graded) = done else {
            session.stop();
            break;
        };
        show_result(out, &item, &graded, lang)?;
        store.data_mut().record(&graded);
        save(out, store, lang)?;
        session.next();
    }
    session.stop();
    let summary = session.summary(clock());
    show_summary(out, &summary, lang)?;
    if summary.answered > 0 {
        store.data_mut().record_session(&summary);
        if let Err(e) = store.save() {
            writeln!(out, "! {}", text::cannot_save(&e, lang))?;
        }
    }
    out.flush()?;
    Ok(summary)
}

fn save(out: &mut impl Write, store: &mut Store, lang: Lang) -> io::Result<()> {
    match store.save() {
        Ok(true) => writeln!(out, "{}", text::saved(store.data().answers.len(), lang))?,
        Ok(false) => writeln!(out, "{}", text::not_saved(lang))?,
        // The answer stays in memory and the session goes on; the next save may succeed.
        Err(e) => writeln!(out, "! {}", text::cannot_save(&e, lang))?,
    }
    out.flush()
}

/// Asks until `f` accepts a line; `None` when the learner stops. A line `n TEXT` at any prompt
/// sets the note kept with the current question's answer.
fn ask<T>(
    input: &mut impl BufRead,
    out: &mut impl Write,
    session: &mut Session,
    prompt: &str,
    lang: Lang,
    mut f: impl FnMut(&mut Session, &str) -> Option<T>,
) -> io::Result<Option<T>> {
    loop {
        writeln!(out, "{prompt}")?;
        out.flush()?;
        match read(input)? {
            Line::Quit => return Ok(None),
            Line::Note(note) => {
                session.set_note(note);
                writeln!(out, "{}", text::noted(lang))?;
            }
            Line::Text(s) => match f(session, &s) {
                Some(v) => return Ok(Some(v)),
                None => writeln!(out, "{}", text::invalid(lang))?,
            },
        }
    }
}

fn show_points(out: &mut impl Write, points: &[PointText], lang: Lang) -> io::Result<()> {
    writeln!(out, "{}", text::label(Label::ScoringPoints, lang))?;
    for (k, pt) in points.iter().enumerate() {
        writeln!(out, "  {}. [{}] {}", k + 1, pt.value, pt.text)?;
    }
    Ok(())
}

#[allow(clippy::too_many_arguments)]
fn recall(
    input: &mut impl BufRead,
    out: &mut impl Write,
    session: &mut Session,
    item: &Item,
    points: &[PointText],
    follow_up: Option<&super::item::FollowUpText>,
    lang: Lang,
    clock: Clock,
) -> io::Result<Option<Graded>> {
    let p = text::prompts(lang);
    let tick = |input: &mut _, out: &mut _, session: &mut Session| {
        ask(input, out, session, p.points, lang, |session, s| {
            let covered = parse_numbers(s)?;
            session.set_points(&covered).ok()?;
            session.confirm_points().ok()
        })
    };
    if ask(input, out, session, p.reveal, lang, |session, _| {
        session.reveal().ok()
    })?
    .is_none()
    {
        return Ok(None);
    }
    writeln!(out, "{}{}", text::label(Label::Answer, lang), item.answer)?;
    show_points(out, points, lang)?;
    if tick(input, out, session)?.is_none() {
        return Ok(None);
    }
    if let (Some(f), Phase::FollowUpAsking) = (follow_up, session.phase()) {
        // Most banks already open the follow-up with "Follow-up:" / "追问：".
        let label = text::label(Label::FollowUp, lang);
        let labelled = ["追问", "Follow-up", "面试官追问"]
            .iter()
            .any(|l| f.prompt.starts_with(l));
        if labelled {
            writeln!(out, "{}", f.prompt)?;
        } else {
            writeln!(out, "{label}{}", f.prompt)?;
        }
        if ask(input, out, session, p.reveal, lang, |session, _| {
            session.reveal().ok()
        })?
        .is_none()
        {
            return Ok(None);
        }
        writeln!(out, "{}{}", text::label(Label::Answer, lang), f.answer)?;
        show_points(out, &f.points, lang)?;
        if tick(input, out, session)?.is_none() {
            return Ok(None);
        }
    }
    ask(input, out, session, p.rate, lang, |session, s| {
        let r = match s {
            "1" => SelfRating::Forgot,
            "2" => SelfRating::Partial,
            "3" => SelfRating::Solid,
            _ => return None,
        };
        match session.rate(r, clock()) {
            Ok(g) => Some(g.clone()),
            Err(SessionError::WrongPhase(_) | SessionError::Invalid(_)) => None,
        }
    })
}

fn show_result(out: &mut impl Write, item: &Item, g: &Graded, lang: Lang) -> io::Result<()> {
    let verdict = if g.score == g.max {
        text::label(Label::Right, lang)
    } else if g.score == 0 {
        text::label(Label::Wrong, lang)
    } else {
        text::label(Label::PartlyRight, lang)
    };
    writeln!(
        out,
        "{verdict}. {} {}/{} ({})",
        text::label(Label::Score, lang),
        g.score,
        g.max,
        text::rating(g.rating, lang)
    )?;
    match &item.body {
        Body::Recall { .. } => return Ok(()),
        Body::Choice { options } => {
            for (k, o) in options.iter().enumerate() {
                let mark = if o.correct { "+" } else { "-" };
                writeln!(out, "  {mark} {}) {}", letter(k), o.why)?;
            }
        }
        Body::Order { shown, correct } => {
            let seq: Vec<String> = correct.iter().map(|i| (i + 1).to_string()).collect();
            writeln!(
                out,
                "{}{}",
                text::label(Label::RightOrder, lang),
                seq.join(",")
            )?;
            for &i in correct {
                writeln!(out, "  {}. {}", i + 1, shown[i])?;
            }
        }
        Body::Model { answer, input, .. } => {
            let shown = input.show(answer);
            writeln!(out, "{}{shown}", text::label(Label::EngineComputes, lang))?;
        }
    }
    writeln!(
        out,
        "{}{}",
        text::label(Label::Explanation, lang),
        item.answer
    )
}

fn show_summary(out: &mut impl Write, s: &Summary, lang: Lang) -> io::Result<()> {
    writeln!(
        out,
        "\n{} {}/{} · {}/{} ({:.0}%) · {}",
        text::label(Label::SessionAnswered, lang),
        s.answered,
        s.questions,
        s.score,
        s.max,
        s.percent,
        text::duration(s.seconds, lang)
    )?;
    if !s.topics.is_empty() {
        writeln!(out, "{}", text::label(Label::ByTopic, lang))?;
        for t in &s.topics {
            writeln!(
                out,
                "  {:<24} {}/{} ({:.0}%)",
                t.topic,
                t.score,
                t.max,
                super::summary::percent(t.score, t.max)
            )?;
        }
    }
    if !s.missed.is_empty() {
        writeln!(out, "{}", text::label(Label::PointsMissed, lang))?;
        for m in &s.missed {
            writeln!(out, "  {} #{}: {}", m.question, m.point + 1, m.text)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_and_letters_parse_loosely() {
        assert_eq!(parse_numbers("1,3"), Some(vec![0, 2]));
        assert_eq!(parse_numbers(" 2 1 ，3 "), Some(vec![1, 0, 2]));
        assert_eq!(parse_numbers(""), Some(vec![]));
        assert_eq!(parse_numbers("0"), None);
        assert_eq!(parse_numbers("x"), None);
        assert_eq!(parse_letters("a,c"), Some(vec![0, 2]));
        assert_eq!(parse_letters("AC"), Some(vec![0, 2]));
        assert_eq!(parse_letters("1"), None);
    }
}
