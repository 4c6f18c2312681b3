//! Plain mode: the quiz line by line on any reader and writer, for screen readers and scripts.
//!
//! Each request for input is one line beginning with `> `; each answer is saved before the next
//! question, and a `saved N` line (N answers in the file) confirms the write. `q` stops and keeps
//! what was answered; the end of input ends the session the same way. A line that is not valid
//! UTF-8 is asked again like any reply that does not fit.

use std::io::{self, BufRead, Write};

use crate::content::lesson::Lesson;
use crate::i18n::Lang;
use crate::progress::store::Store;
use crate::progress::words as pwords;
use crate::quiz::item::{
    Body, FollowUpText, ModelInput, PointText, PreparedQuestion, hint_cap, letter,
};
use crate::quiz::report;
use crate::quiz::sched::{SelfRating, Time};
use crate::quiz::score::ModelResponse;
use crate::quiz::session::{Graded, Phase, Session, SessionError, SessionKind};
use crate::quiz::summary::Summary;
use crate::quiz::words::{self as text, Label};

/// What a line of input asked for.
enum Line {
    Text(String),
    Note(String),
    /// Not valid UTF-8.
    Garbled,
    Quit,
}

/// One line, at most [`LINE_LIMIT`](crate::source::LINE_LIMIT) bytes: a longer one is an
/// error (every answer before it is already saved).
fn read(input: &mut impl BufRead) -> io::Result<Line> {
    let Some(bytes) = crate::source::read_line(input, crate::source::LINE_LIMIT)? else {
        return Ok(Line::Quit);
    };
    let Ok(s) = String::from_utf8(bytes) else {
        return Ok(Line::Garbled);
    };
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

/// What the session needs besides its questions.
#[derive(Debug, Clone, Copy, Default)]
pub struct Options<'a> {
    /// An interview's time limit in seconds: once it runs out, the question in progress is the
    /// last (its rounds not yet asked are dropped).
    pub limit: Option<Time>,
    /// The lessons in the session's language, for the interview report's study links.
    pub lessons: &'a [Lesson],
}

/// How a session ended.
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    pub summary: Summary,
    /// Answers kept in memory only, because saving failed (0 when all reached the file or the
    /// file was read-only from the start).
    pub unsaved: usize,
}

/// Everything the question loop carries along.
struct Run<'a, R, W> {
    input: &'a mut R,
    out: &'a mut W,
    lang: Lang,
    clock: Clock<'a>,
    limit: Option<Time>,
    time_up: bool,
}

impl<R: BufRead, W: Write> Run<'_, R, W> {
    /// Whether an interview's time has run out (said once when it does).
    fn check_time(&mut self, session: &Session) -> io::Result<bool> {
        if let Some(limit) = self.limit
            && !self.time_up
            && (self.clock)() - session.started() >= limit
        {
            self.time_up = true;
            writeln!(self.out, "{}", text::label(Label::TimeUp, self.lang))?;
        }
        Ok(self.time_up)
    }

    /// Asks until `f` accepts a line; `None` when the learner stops. A line `n TEXT` at any
    /// prompt sets the note kept with the current question's answer; `h`, where `hint` is set,
    /// shows the hint.
    fn ask<T>(
        &mut self,
        session: &mut Session,
        prompt: &str,
        hint: bool,
        mut f: impl FnMut(&mut Session, &str, &mut dyn FnMut() -> Time) -> Option<T>,
    ) -> io::Result<Option<T>> {
        let lang = self.lang;
        loop {
            writeln!(self.out, "{prompt}")?;
            self.out.flush()?;
            match read(self.input)? {
                Line::Quit => return Ok(None),
                Line::Garbled => writeln!(self.out, "{}", text::invalid(lang))?,
                Line::Note(note) => {
                    session.set_note(note);
                    writeln!(self.out, "{}", text::noted(lang))?;
                }
                Line::Text(s) if hint && s.eq_ignore_ascii_case("h") => self.hint(session)?,
                Line::Text(s) => match f(session, &s, &mut *self.clock) {
                    Some(v) => return Ok(Some(v)),
                    None => writeln!(self.out, "{}", text::invalid(lang))?,
                },
            }
        }
    }

    fn hint(&mut self, session: &mut Session) -> io::Result<()> {
        let lang = self.lang;
        let Some(item) = session.current().cloned() else {
            return Ok(());
        };
        match session.take_hint() {
            Ok(h) => {
                let max = item.opening_max();
                writeln!(
                    self.out,
                    "{}",
                    text::hint_taken(&h, hint_cap(max), max, lang)
                )
            }
            Err(_) => writeln!(self.out, "{}", text::label(Label::NoHint, lang)),
        }
    }
}

/// Runs the session to its end, saving after every answer. The summary is also recorded in the
/// store.
pub fn run(
    input: &mut impl BufRead,
    out: &mut impl Write,
    session: &mut Session,
    store: &mut Store,
    lang: Lang,
    clock: Clock,
    opts: &Options,
) -> io::Result<Outcome> {
    let mut r = Run {
        input,
        out,
        lang,
        clock,
        limit: opts.limit,
        time_up: false,
    };
    let mut unsaved = 0;
    while let Some(item) = session.current().cloned() {
        if session.kind() == SessionKind::Interview
            && r.check_time(session)?
            && !session.results().is_empty()
        {
            break;
        }
        let (i, n) = session.position();
        writeln!(
            r.out,
            "\n{}",
            text::question_line(i, n, item.kind, item.difficulty, &item.id, lang)
        )?;
        if session.kind() == SessionKind::Interview {
            let elapsed = (r.clock)() - session.started();
            writeln!(r.out, "{}", text::clock(elapsed, r.limit))?;
        }
        writeln!(r.out, "{}", item.prompt)?;
        let done = match &item.body {
            Body::Recall { points, follow_ups } => {
                recall(&mut r, session, &item, points, follow_ups)?
            }
            Body::Choice { options } => {
                for (k, o) in options.iter().enumerate() {
                    writeln!(r.out, "  {}) {}", letter(k), o.text)?;
                }
                let p = text::prompts(lang);
                r.ask(session, p.letters, false, |session, s, clock| {
                    let picked = parse_letters(s)?;
                    session.answer_choice(&picked, clock()).ok().cloned()
                })?
            }
            Body::Order { shown, .. } => {
                for (k, s) in shown.iter().enumerate() {
                    writeln!(r.out, "  {}. {s}", k + 1)?;
                }
                let p = text::prompts(lang);
                r.ask(session, p.steps, false, |session, s, clock| {
                    let seq = parse_numbers(s)?;
                    session.answer_order(&seq, clock()).ok().cloned()
                })?
            }
            Body::Model { input: mi, .. } => model(&mut r, session, &item, mi)?,
        };
        let Some(graded) = done else {
            session.stop();
            break;
        };
        show_result(r.out, &item, &graded, lang)?;
        store.data_mut().record(&graded);
        unsaved = save(r.out, store, lang, unsaved + 1)?;
        if let Body::Model { variant, .. } = &item.body
            && !offer_run(&mut r, session, &variant.params)?
        {
            session.stop();
            break;
        }
        session.next();
    }
    session.stop();
    let summary = session.summary((r.clock)());
    show_summary(r.out, &summary, lang)?;
    if session.kind() == SessionKind::Interview {
        show_report(r.out, session, opts.lessons, lang)?;
    }
    if summary.answered > 0 {
        store.data_mut().record_session(&summary);
        match store.save() {
            Ok(_) => unsaved = 0,
            Err(e) => writeln!(r.out, "! {}", pwords::cannot_save(&e, lang))?,
        }
    }
    if session.kind() == SessionKind::SelfTest {
        show_self_tests(r.out, store, lang)?;
    }
    if unsaved > 0 {
        writeln!(r.out, "! {}", pwords::unsaved(unsaved, lang))?;
    }
    r.out.flush()?;
    Ok(Outcome { summary, unsaved })
}

/// After a model question: Enter goes on, `t` prints the run's text timeline and asks again.
/// `false` when the learner stops.
fn offer_run<R: BufRead, W: Write>(
    r: &mut Run<R, W>,
    session: &mut Session,
    params: &crate::engine::Params,
) -> io::Result<bool> {
    let lang = r.lang;
    let p = text::prompts(lang);
    loop {
        let reply = r.ask(session, p.after_model, false, |_, s, _| {
            (s.is_empty() || s.eq_ignore_ascii_case("t")).then_some(s.is_empty())
        })?;
        match reply {
            None => return Ok(false),
            Some(true) => return Ok(true),
            Some(false) => {
                let trace = crate::engine::run(params);
                let title = text::label(Label::TheRun, lang);
                let report = crate::export::text::report(title, None, params, &trace, lang);
                writeln!(r.out, "{report}")?;
            }
        }
    }
}

/// Saves, saying how it went; returns how many answers are still unsaved.
fn save(out: &mut impl Write, store: &mut Store, lang: Lang, pending: usize) -> io::Result<usize> {
    let left = match store.save() {
        Ok(true) => {
            writeln!(out, "{}", pwords::saved(store.data().answers.len(), lang))?;
            0
        }
        Ok(false) => {
            writeln!(out, "{}", pwords::not_saved(lang))?;
            0
        }
        // The answer stays in memory and the session goes on; the next save may succeed.
        Err(e) => {
            writeln!(out, "! {}", pwords::cannot_save(&e, lang))?;
            pending
        }
    };
    out.flush()?;
    Ok(left)
}

fn show_points(out: &mut impl Write, points: &[PointText], lang: Lang) -> io::Result<()> {
    writeln!(out, "{}", text::label(Label::ScoringPoints, lang))?;
    for (k, pt) in points.iter().enumerate() {
        writeln!(out, "  {}. [{}] {}", k + 1, pt.value, pt.text)?;
    }
    Ok(())
}

/// A question's reference answer and its scoring points.
fn show_reference(
    out: &mut impl Write,
    answer: &str,
    points: &[PointText],
    lang: Lang,
) -> io::Result<()> {
    writeln!(out, "{}{}", text::label(Label::Answer, lang), answer)?;
    show_points(out, points, lang)
}

/// The learner's notes, so they can be compared with the reference that follows.
fn show_notes(out: &mut impl Write, session: &Session, lang: Lang) -> io::Result<()> {
    if !session.note().is_empty() {
        writeln!(
            out,
            "{}{}",
            text::label(Label::YourNotes, lang),
            session.note()
        )?;
    }
    Ok(())
}

fn recall<R: BufRead, W: Write>(
    r: &mut Run<R, W>,
    session: &mut Session,
    item: &PreparedQuestion,
    points: &[PointText],
    follow_ups: &[FollowUpText],
) -> io::Result<Option<Graded>> {
    let lang = r.lang;
    let p = text::prompts(lang);
    let reveal = if item.hint.is_some() {
        p.reveal_or_hint
    } else {
        p.reveal
    };
    let tick = |r: &mut Run<R, W>, session: &mut Session| {
        r.ask(session, p.points, false, |session, s, _| {
            let covered = parse_numbers(s)?;
            session.set_points(&covered).ok()?;
            session.confirm_points().ok()
        })
    };
    // A follow-up's question, then its reveal; `None` when the learner stopped.
    let pose = |r: &mut Run<R, W>, session: &mut Session, f: &FollowUpText, round: usize| {
        writeln!(
            r.out,
            "{}",
            text::follow_up_line(&f.prompt, round, follow_ups.len(), lang)
        )?;
        r.ask(session, p.reveal, false, |session, _, _| {
            session.reveal().ok()
        })
    };
    if r.ask(session, reveal, item.hint.is_some(), |session, _, _| {
        session.reveal().ok()
    })?
    .is_none()
    {
        return Ok(None);
    }
    // An interview, and the self-test's closing rounds, ask every round before any reference.
    while session.phase() == Phase::FollowUpAsking && session.defers_rounds() {
        if r.check_time(session)? {
            session.cut_rounds();
            break;
        }
        let round = session.round();
        let Some(f) = follow_ups.get(round) else {
            break;
        };
        if pose(r, session, f, round)?.is_none() {
            return Ok(None);
        }
    }
    show_notes(r.out, session, lang)?;
    show_reference(r.out, &item.answer, points, lang)?;
    if tick(r, session)?.is_none() {
        return Ok(None);
    }
    while session.phase() == Phase::FollowUpTicking {
        let round = session.round();
        let Some(f) = follow_ups.get(round) else {
            break;
        };
        writeln!(
            r.out,
            "{}",
            text::follow_up_line(&f.prompt, round, follow_ups.len(), lang)
        )?;
        show_reference(r.out, &f.answer, &f.points, lang)?;
        if tick(r, session)?.is_none() {
            return Ok(None);
        }
    }
    while session.phase() == Phase::FollowUpAsking {
        if session.kind() == SessionKind::Interview && r.check_time(session)? {
            session.cut_rounds();
            break;
        }
        let round = session.round();
        let Some(f) = follow_ups.get(round) else {
            break;
        };
        if pose(r, session, f, round)?.is_none() {
            return Ok(None);
        }
        show_notes(r.out, session, lang)?;
        show_reference(r.out, &f.answer, &f.points, lang)?;
        if tick(r, session)?.is_none() {
            return Ok(None);
        }
    }
    r.ask(session, p.rate, false, |session, s, clock| {
        let rating = match s {
            "1" => SelfRating::Forgot,
            "2" => SelfRating::Partial,
            "3" => SelfRating::Solid,
            _ => return None,
        };
        match session.rate(rating, clock()) {
            Ok(g) => Some(g.clone()),
            Err(SessionError::WrongPhase(_) | SessionError::Invalid(_)) => None,
        }
    })
}

fn model<R: BufRead, W: Write>(
    r: &mut Run<R, W>,
    session: &mut Session,
    item: &PreparedQuestion,
    mi: &ModelInput,
) -> io::Result<Option<Graded>> {
    let p = text::prompts(r.lang);
    let hint = item.hint.is_some();
    let prompt = match mi {
        ModelInput::Number { .. } if hint => p.number_or_hint,
        ModelInput::Number { .. } => p.number,
        ModelInput::Options(opts) => {
            for (k, (label, _)) in opts.iter().enumerate() {
                writeln!(r.out, "  {}) {label}", letter(k))?;
            }
            if hint { p.letter_or_hint } else { p.letter }
        }
    };
    r.ask(session, prompt, hint, |session, s, clock| {
        let resp = match mi {
            ModelInput::Number { .. } => ModelResponse::Number(s.replace(',', ".").parse().ok()?),
            ModelInput::Options(_) => match parse_letters(s)?.as_slice() {
                [one] => ModelResponse::Option(*one),
                _ => return None,
            },
        };
        session.answer_model(&resp, clock()).ok().cloned()
    })
}

fn show_result(
    out: &mut impl Write,
    item: &PreparedQuestion,
    g: &Graded,
    lang: Lang,
) -> io::Result<()> {
    writeln!(out, "{}", text::result_line(g, lang))?;
    if g.rounds.len() > 1 {
        writeln!(out, "{}", text::rounds_line(&g.rounds, lang))?;
    }
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
        Body::Model {
            answer,
            input,
            worked,
            ..
        } => {
            let shown = input.show(answer);
            writeln!(out, "{}{shown}", text::label(Label::EngineComputes, lang))?;
            writeln!(out, "{}{worked}", text::label(Label::FromThisRun, lang))?;
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
    if s.kind != SessionKind::Quiz && s.answered > 0 {
        writeln!(
            out,
            "{}{}",
            text::label(Label::SelfRatings, lang),
            text::tiers(&s.tiers, lang)
        )?;
        writeln!(
            out,
            "{}{}",
            text::label(Label::ScoredTiers, lang),
            text::tiers(&s.scored, lang)
        )?;
        if let Some(line) = text::overrated(s.overrated, lang) {
            writeln!(out, "{line}")?;
        }
    }
    if !s.topics.is_empty() {
        writeln!(out, "{}", text::label(Label::ByTopic, lang))?;
        for t in &s.topics {
            writeln!(
                out,
                "  {} {}/{} ({:.0}%)",
                crate::text::pad(crate::i18n::topics::topic_name(&t.topic, lang), 24),
                t.score,
                t.max,
                crate::quiz::summary::percent(t.score, t.max)
            )?;
        }
    }
    if s.kind != SessionKind::Interview && !s.missed.is_empty() {
        writeln!(out, "{}", text::label(Label::PointsMissed, lang))?;
        for m in &s.missed {
            writeln!(out, "  {} #{}: {}", m.question, m.point + 1, m.text)?;
        }
    }
    Ok(())
}

/// The interview's report: every point missed, by topic, with where to study it.
fn show_report(
    out: &mut impl Write,
    session: &Session,
    lessons: &[Lesson],
    lang: Lang,
) -> io::Result<()> {
    if session.results().is_empty() {
        return Ok(());
    }
    let topics = report::by_topic(session.items(), session.results(), lessons, lang);
    if topics.is_empty() {
        return writeln!(out, "{}", text::label(Label::NothingMissed, lang));
    }
    writeln!(out, "{}", text::label(Label::MissedByTopic, lang))?;
    for t in &topics {
        writeln!(out, "  {}", crate::i18n::topics::topic_name(&t.topic, lang))?;
        for m in &t.missed {
            writeln!(out, "    - {m}")?;
        }
        let links: Vec<String> = t.links.iter().map(|l| l.words(lang)).collect();
        writeln!(
            out,
            "    {}{}",
            text::label(Label::StudyHere, lang),
            links.join(lang.pick("；", "; "))
        )?;
    }
    Ok(())
}

/// Every self-test taken, newest last, so this one can be compared with the others.
fn show_self_tests(out: &mut impl Write, store: &Store, lang: Lang) -> io::Result<()> {
    let runs = store.data().self_tests();
    if runs.is_empty() {
        return Ok(());
    }
    writeln!(out, "{}", text::label(Label::SelfTestHistory, lang))?;
    for s in runs.iter().rev().take(5).rev() {
        writeln!(out, "  {}", pwords::self_test_run(s, lang))?;
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

    #[test]
    fn a_line_that_is_not_utf8_is_garbled_not_an_error() {
        let mut input = io::Cursor::new(b"\xff\xfe\n2\n".to_vec());
        assert!(matches!(read(&mut input).unwrap(), Line::Garbled));
        assert!(matches!(read(&mut input).unwrap(), Line::Text(t) if t == "2"));
        assert!(matches!(read(&mut input).unwrap(), Line::Quit));
    }
}
