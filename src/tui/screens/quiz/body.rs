//! What the quiz screen shows under the prompt, as rows ready to draw: the reference answer
//! and its points while ticking, the follow-up rounds, the options or steps, and after answering
//! the verdict, the marked answer and the explanations. Building rows only reads state.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;

use super::super::line;
use super::QuizState;
use crate::content::deck::Kind;
use crate::i18n::{Lang, Ui, ui};
use crate::quiz::item::{Body, ModelInput, PointText, PreparedQuestion, hint_cap, letter};
use crate::quiz::session::{Graded, Phase};
use crate::quiz::words::{self as qtext, Label};
use crate::tui::theme::Theme;

/// Lines to draw, each with its style; long texts are wrapped first.
pub(super) struct Lines {
    width: usize,
    pub(super) rows: Vec<(String, Style)>,
}

impl Lines {
    pub(super) fn new(width: u16) -> Self {
        Self {
            width: width.max(1) as usize,
            rows: Vec::new(),
        }
    }

    pub(super) fn push(&mut self, text: &str, style: Style) {
        for l in text.split('\n') {
            let wrapped = crate::text::wrap(l, self.width);
            if wrapped.is_empty() {
                self.rows.push((String::new(), style));
            }
            for w in wrapped {
                self.rows.push((w, style));
            }
        }
    }

    /// Text after a fixed prefix, continuation rows indented under the text.
    pub(super) fn item(&mut self, prefix: &str, text: &str, style: Style) {
        let indent = crate::text::width(prefix);
        let cols = self.width.saturating_sub(indent).max(1);
        for (k, w) in crate::text::wrap(text, cols).into_iter().enumerate() {
            let lead = if k == 0 {
                prefix.to_string()
            } else {
                " ".repeat(indent)
            };
            self.rows.push((format!("{lead}{w}"), style));
        }
    }

    pub(super) fn blank(&mut self) {
        self.rows.push((String::new(), Style::new()));
    }

    pub(super) fn len(&self) -> usize {
        self.rows.len()
    }

    /// Keeps at most `n` rows, the last kept one marked as cut.
    pub(super) fn cap(&mut self, n: usize) {
        if self.rows.len() > n {
            self.rows.truncate(n.max(1));
            let width = self.width;
            if let Some(last) = self.rows.last_mut() {
                // The mark must fit on the row, or the terminal cuts it.
                while !last.0.is_empty() && crate::text::width(&last.0) + 4 > width {
                    last.0.pop();
                }
                last.0.push_str(" ...");
            }
        }
    }

    pub(super) fn draw(&self, buf: &mut Buffer, area: Rect, y: &mut u16) {
        for (text, style) in &self.rows {
            if *y >= area.bottom() {
                return;
            }
            line(buf, Rect::new(area.x, *y, area.width, 1), text, *style);
            *y += 1;
        }
    }
}

fn verdict(g: &Graded, lang: Lang, theme: Theme) -> (String, Style) {
    let style = match qtext::verdict_label(g) {
        Label::Right => theme.good(),
        Label::Wrong => theme.bad(),
        _ => theme.title(),
    };
    (qtext::result_line(g, lang), style)
}

fn points_list(
    out: &mut Lines,
    points: &[PointText],
    ticked: &[bool],
    cursor: Option<usize>,
    theme: Theme,
) {
    for (k, p) in points.iter().enumerate() {
        let mark = if ticked.get(k).copied().unwrap_or(false) {
            "[x]"
        } else {
            "[ ]"
        };
        let sel = cursor == Some(k);
        let prefix = format!(
            "{}{mark} {}. ({}) ",
            if sel { "> " } else { "  " },
            k + 1,
            p.value
        );
        let style = if sel { theme.focus() } else { Style::new() };
        out.item(&prefix, &p.text, style);
    }
}

/// The body under the prompt: what the learner works with in this phase.
pub(super) fn body(
    s: &QuizState,
    item: &PreparedQuestion,
    lang: Lang,
    theme: Theme,
    width: u16,
) -> (Lines, Lines) {
    // (flexible text that may be cut, the rest that must stay whole)
    let mut text = Lines::new(width);
    let mut fixed = Lines::new(width);
    let phase = s.session.phase();
    let last = s.session.last();
    let label = |l| qtext::label(l, lang);
    if let Some(g) = last {
        let (v, style) = verdict(g, lang, theme);
        fixed.push(&v, style);
        if g.rounds.len() > 1 {
            fixed.push(&qtext::rounds_line(&g.rounds, lang), Style::new());
        }
    }
    match &item.body {
        Body::Recall { points, follow_ups } => match phase {
            Phase::Asking => {
                let max = item.opening_max();
                if s.session.hint_taken()
                    && let Some(h) = &item.hint
                {
                    text.push(
                        &qtext::hint_taken(h, hint_cap(max), max, lang),
                        theme.title(),
                    );
                } else if item.hint.is_some() {
                    text.push(label(Label::HintOffer), theme.dim());
                }
            }
            Phase::Ticking => {
                text.push(
                    &format!("{}{}", label(Label::Answer), item.answer),
                    Style::new(),
                );
                fixed.push(label(Label::ScoringPoints), theme.title());
                points_list(
                    &mut fixed,
                    points,
                    s.session.ticked(),
                    Some(s.cursor),
                    theme,
                );
            }
            Phase::FollowUpAsking | Phase::FollowUpTicking | Phase::Rating => {
                let round = if phase == Phase::Rating {
                    follow_ups.len().checked_sub(1)
                } else {
                    Some(s.session.round())
                };
                match round.and_then(|r| follow_ups.get(r).map(|f| (r, f))) {
                    Some((r, f)) => {
                        text.push(
                            &qtext::follow_up_line(&f.prompt, r, follow_ups.len(), lang),
                            theme.title(),
                        );
                        if phase != Phase::FollowUpAsking {
                            text.push(
                                &format!("{}{}", label(Label::Answer), f.answer),
                                Style::new(),
                            );
                            fixed.push(label(Label::ScoringPoints), theme.title());
                            let cur = (phase == Phase::FollowUpTicking).then_some(s.cursor);
                            points_list(
                                &mut fixed,
                                &f.points,
                                s.session.round_ticked(r),
                                cur,
                                theme,
                            );
                        }
                    }
                    None => {
                        text.push(
                            &format!("{}{}", label(Label::Answer), item.answer),
                            Style::new(),
                        );
                        fixed.push(label(Label::ScoringPoints), theme.title());
                        points_list(&mut fixed, points, s.session.ticked(), None, theme);
                    }
                }
                if phase == Phase::Rating {
                    let (score, max) = ticked_score(s, item);
                    fixed.push(
                        &ui(Ui::QuizTickedScore, lang)
                            .replacen("{}", &score.to_string(), 1)
                            .replacen("{}", &max.to_string(), 1),
                        Style::new(),
                    );
                    fixed.push(ui(Ui::QuizRate, lang), theme.title());
                }
            }
            Phase::Answered => {
                text.push(
                    &format!("{}{}", label(Label::Answer), item.answer),
                    Style::new(),
                );
                if let Some(g) = last {
                    for (k, p) in item.all_points().iter().enumerate() {
                        let got = !g.missed.contains(&k);
                        let (mark, style) = if got {
                            ("[x]", theme.good())
                        } else {
                            ("[ ]", theme.bad())
                        };
                        fixed.item(
                            &format!("  {mark} {}. ({}) ", k + 1, p.value),
                            &p.text,
                            style,
                        );
                    }
                }
            }
            Phase::Finished => {}
        },
        Body::Choice { options } => {
            for (k, o) in options.iter().enumerate() {
                let picked = if phase == Phase::Answered {
                    s.answered_with.contains(&k)
                } else {
                    s.picked.get(k).copied().unwrap_or(false)
                };
                let mark = if picked { "[x]" } else { "[ ]" };
                if phase == Phase::Answered {
                    // A right option left unpicked is a miss, drawn and named as one.
                    let (sign, style, missed) = match (o.correct, picked) {
                        (true, true) => ("+", theme.good(), ""),
                        (true, false) => ("!", theme.warn(), qtext::label(Label::Missed, lang)),
                        (false, true) => ("-", theme.bad(), ""),
                        (false, false) => ("-", theme.dim(), ""),
                    };
                    fixed.item(
                        &format!("{sign} {mark} {}) {missed}", letter(k)),
                        &o.text,
                        style,
                    );
                    fixed.item("        ", &o.why, Style::new());
                } else {
                    let sel = k == s.cursor;
                    let style = if sel { theme.focus() } else { Style::new() };
                    let pre = format!("{}{mark} {}) ", if sel { "> " } else { "  " }, letter(k));
                    fixed.item(&pre, &o.text, style);
                }
            }
        }
        Body::Order { shown, correct } => {
            if phase == Phase::Answered {
                fixed.push(ui(Ui::QuizYourOrder, lang), theme.title());
                for (pos, &i) in s.answered_with.iter().enumerate() {
                    let right = correct.get(pos) == Some(&i);
                    let style = if right { theme.good() } else { theme.bad() };
                    let sign = if right { "+" } else { "-" };
                    fixed.item(&format!("{sign} {}. ", pos + 1), &shown[i], style);
                }
                fixed.push(label(Label::RightOrder), theme.title());
                for (pos, &i) in correct.iter().enumerate() {
                    fixed.item(&format!("  {}. ", pos + 1), &shown[i], Style::new());
                }
            } else {
                for (pos, &i) in s.order.iter().enumerate() {
                    let sel = pos == s.cursor;
                    let style = if sel { theme.focus() } else { Style::new() };
                    let pre = format!("{}{}. ", if sel { "> " } else { "  " }, pos + 1);
                    fixed.item(&pre, &shown[i], style);
                }
            }
        }
        Body::Model {
            answer,
            input,
            worked,
            ..
        } => {
            if phase == Phase::Asking {
                if s.session.hint_taken()
                    && let Some(h) = &item.hint
                {
                    text.push(&qtext::hint_taken(h, hint_cap(1), 1, lang), theme.title());
                } else if item.hint.is_some() {
                    text.push(label(Label::HintOffer), theme.dim());
                }
            }
            if phase == Phase::Answered {
                text.push(
                    &format!("{}{worked}", label(Label::FromThisRun)),
                    Style::new(),
                );
            }
            match input {
                ModelInput::Number { .. } if phase == Phase::Asking => {
                    fixed.push(
                        &format!("{}{}_", ui(Ui::QuizYourAnswer, lang), s.number),
                        theme.focus(),
                    );
                }
                ModelInput::Number { .. } => {}
                ModelInput::Options(opts) => {
                    for (k, (name, value)) in opts.iter().enumerate() {
                        let picked = if phase == Phase::Answered {
                            s.answered_with.contains(&k)
                        } else {
                            s.picked.get(k).copied().unwrap_or(false)
                        };
                        let mark = if picked { "(*)" } else { "( )" };
                        let sel = phase == Phase::Asking && k == s.cursor;
                        let style = if sel {
                            theme.focus()
                        } else if phase == Phase::Answered && value == answer {
                            theme.good()
                        } else {
                            Style::new()
                        };
                        let pre =
                            format!("{}{mark} {}) ", if sel { "> " } else { "  " }, letter(k));
                        fixed.item(&pre, name, style);
                    }
                }
            }
            if phase == Phase::Answered {
                let shown = input.show(answer);
                if let ModelInput::Number { .. } = input {
                    fixed.push(
                        &format!("{}{}", ui(Ui::QuizYourAnswer, lang), s.number),
                        Style::new(),
                    );
                }
                fixed.push(
                    &format!("{}{shown}", label(Label::EngineComputes),),
                    theme.title(),
                );
                fixed.push(ui(Ui::QuizOpenRun, lang), theme.dim());
            }
        }
    }
    if phase == Phase::Answered && item.kind != Kind::Recall {
        text.push(
            &format!("{}{}", label(Label::Explanation), item.answer),
            Style::new(),
        );
    }
    (text, fixed)
}

/// The points ticked so far on a recall question, and the most it can earn.
fn ticked_score(s: &QuizState, item: &PreparedQuestion) -> (u32, u32) {
    let Body::Recall { points, follow_ups } = &item.body else {
        return (0, 0);
    };
    let score_of = |list: &[PointText], ticks: &[bool]| -> u32 {
        list.iter()
            .zip(ticks)
            .filter(|(_, t)| **t)
            .map(|(p, _)| p.value)
            .sum()
    };
    let mut opening = score_of(points, s.session.ticked());
    if s.session.hint_taken() {
        opening = opening.min(hint_cap(item.opening_max()));
    }
    let rounds: u32 = follow_ups
        .iter()
        .enumerate()
        .map(|(r, f)| score_of(&f.points, s.session.round_ticked(r)))
        .sum();
    (opening + rounds, item.max_score())
}
