//! The cues that let a learner answer a choice question without knowing the subject: a prompt
//! that tells how many options are right, a right option that is the longest far more often
//! than chance, and an absolute qualifier ("always", "never") that only wrong options carry.
//! Each rule is measured on the deck's words and refused with the place it comes from.

use super::Located;
use super::deck::{ChoiceOption, DeckFile, Kind, Question};
use crate::i18n::Lang;

/// The most single-answer questions of a deck, per language, whose right option may be
/// strictly the longest. With four options chance alone gives about 25 %.
pub const MAX_LONGEST_SHARE: f64 = 0.30;
/// Over all decks, per language, the most single-answer questions whose right option sits at
/// one length rank (second longest, say). Keeping the right option off the longest place in
/// every small deck must not move the cue to another place.
pub const MAX_RANK_SHARE: f64 = 0.50;
/// The fewest single-answer questions over all decks for the rank rule to apply.
const MIN_FOR_RANK_RULE: usize = 8;

/// Words that tell how many options are right, or ask for exactly one. A choice prompt asks in
/// one form whatever the number of right options, and the screen says that one or more may be.
const COUNT_CUES_EN: [&str; 8] = [
    "one or more",
    "which of these is",
    "all that apply",
    "exactly one",
    "which one",
    "which statement is",
    "which belief is",
    "which is the",
];
const COUNT_CUES_ZH: [&str; 8] = [
    "可多选",
    "多选",
    "单选",
    "哪一个",
    "哪一项",
    "哪个",
    "哪种",
    "哪项",
];

/// Absolute qualifiers: a learner who knows that careful statements avoid them can reject
/// options unseen, so they must not appear on wrong options only.
const ABSOLUTES_EN: [&str; 6] = [
    "always",
    "never",
    "guaranteed",
    "guarantees",
    "guarantee",
    "instantly",
];
const ABSOLUTES_ZH: [&str; 7] = ["总是", "永远", "从不", "绝不", "一定", "保证", "必然"];

/// The words every choice prompt asks with, per language.
const FORM_EN: &str = "which of these";
const FORM_ZH: &str = "哪些";

fn text_of(o: &ChoiceOption, lang: Lang) -> &str {
    lang.pick(&o.zh, &o.en)
}

/// Length as a reader sees it: characters, not bytes.
fn len(s: &str) -> usize {
    s.trim().chars().count()
}

/// The first count cue in a prompt, if any.
pub fn count_cue(prompt: &str, lang: Lang) -> Option<&'static str> {
    match lang {
        Lang::En => {
            let lower = prompt.to_lowercase();
            COUNT_CUES_EN.iter().copied().find(|c| lower.contains(c))
        }
        Lang::Zh => COUNT_CUES_ZH.iter().copied().find(|c| prompt.contains(c)),
    }
}

/// Whether `text` carries one of the language's absolute qualifiers, as a whole word in English
/// and outside backtick code (`appendfsync always` names a setting, it claims nothing).
pub fn has_absolute(text: &str, lang: Lang) -> bool {
    let prose: String = text
        .split('`')
        .enumerate()
        .filter(|(i, _)| i % 2 == 0)
        .map(|(_, s)| s)
        .collect::<Vec<_>>()
        .join(" ");
    let text = prose.as_str();
    match lang {
        Lang::Zh => ABSOLUTES_ZH.iter().any(|w| text.contains(w)),
        Lang::En => text
            .split(|c: char| !c.is_alphanumeric())
            .any(|w| ABSOLUTES_EN.contains(&w.to_lowercase().as_str())),
    }
}

/// Whether the right option is strictly longer than every other one.
pub fn right_is_longest(q: &Question, lang: Lang) -> bool {
    let right: Vec<usize> = q
        .options
        .iter()
        .filter(|o| o.correct)
        .map(|o| len(text_of(o, lang)))
        .collect();
    let [right] = right.as_slice() else {
        return false;
    };
    q.options
        .iter()
        .filter(|o| !o.correct)
        .all(|o| len(text_of(o, lang)) < *right)
}

/// The prompt-form and qualifier rules of one choice question.
pub fn question(d: &DeckFile, q: &Question) -> Vec<Located> {
    let mut out = Vec::new();
    if q.kind != Kind::Choice {
        return out;
    }
    let qid = q.id.get_ref();
    let at = q.id.span().start;
    for lang in [Lang::Zh, Lang::En] {
        let Some(t) = q.text(lang) else { continue };
        if let Some(cue) = count_cue(&t.prompt, lang) {
            out.push(d.problem(
                at,
                None,
                format!(
                    "the {} prompt of `{qid}` says how many options are right (`{cue}`); ask every choice question in one form",
                    lang.code()
                ),
            ));
        }
        let (form, shown) = match lang {
            Lang::En => (FORM_EN, t.prompt.to_lowercase().contains(FORM_EN)),
            Lang::Zh => (FORM_ZH, t.prompt.contains(FORM_ZH)),
        };
        if !shown {
            out.push(d.problem(
                at,
                None,
                format!(
                    "the {} prompt of `{qid}` does not ask with `{form}`, the one form of every choice question",
                    lang.code()
                ),
            ));
        }
        let wrong = q
            .options
            .iter()
            .any(|o| !o.correct && has_absolute(text_of(o, lang), lang));
        let right = q
            .options
            .iter()
            .any(|o| o.correct && has_absolute(text_of(o, lang), lang));
        if wrong && !right {
            out.push(d.problem(
                at,
                None,
                format!(
                    "in `{qid}` ({}) only wrong options carry an absolute word such as \"always\" or \"never\", which gives them away",
                    lang.code()
                ),
            ));
        }
    }
    out
}

/// The length rule over a whole deck, per language.
pub fn deck(d: &DeckFile) -> Vec<Located> {
    let single: Vec<&Question> = d
        .deck
        .questions
        .iter()
        .filter(|q| q.kind == Kind::Choice && q.options.iter().filter(|o| o.correct).count() == 1)
        .collect();
    let mut out = Vec::new();
    if single.is_empty() {
        return out;
    }
    for lang in [Lang::Zh, Lang::En] {
        let longest: Vec<&&Question> = single
            .iter()
            .filter(|q| right_is_longest(q, lang))
            .collect();
        let allowed = (single.len() as f64 * MAX_LONGEST_SHARE).floor() as usize;
        if longest.len() > allowed {
            let ids: Vec<&str> = longest.iter().map(|q| q.id.get_ref().as_str()).collect();
            out.push(d.problem(
                d.deck.deck.span().start,
                None,
                format!(
                    "in {} of {} single-answer questions ({}) the right option is strictly the longest; at most {allowed} may be ({}%): {}",
                    longest.len(),
                    single.len(),
                    lang.code(),
                    (MAX_LONGEST_SHARE * 100.0) as u32,
                    ids.join(", ")
                ),
            ));
        }
    }
    out
}

/// Where the right option of a single-answer question falls when the options are ranked by
/// length, longest first; options of equal length share the better rank.
pub fn right_rank(q: &Question, lang: Lang) -> Option<usize> {
    let mut right = q.options.iter().filter(|o| o.correct);
    let (Some(r), None) = (right.next(), right.next()) else {
        return None;
    };
    let n = len(text_of(r, lang));
    Some(
        1 + q
            .options
            .iter()
            .filter(|o| len(text_of(o, lang)) > n)
            .count(),
    )
}

/// The length-rank rule over every deck at once, per language: no one rank may hold more than
/// half of the single-answer questions, or "pick the second longest" would score.
pub fn course(decks: &[DeckFile]) -> Vec<Located> {
    let mut out = Vec::new();
    for lang in [Lang::Zh, Lang::En] {
        let ranks: Vec<(&DeckFile, &Question, usize)> = decks
            .iter()
            .flat_map(|d| d.deck.questions.iter().map(move |q| (d, q)))
            .filter(|(_, q)| q.kind == Kind::Choice)
            .filter_map(|(d, q)| right_rank(q, lang).map(|r| (d, q, r)))
            .collect();
        if ranks.len() < MIN_FOR_RANK_RULE {
            continue;
        }
        let allowed = (ranks.len() as f64 * MAX_RANK_SHARE).floor() as usize;
        let most = (1..=6)
            .map(|rank| (rank, ranks.iter().filter(|(_, _, r)| *r == rank).count()))
            .max_by_key(|(_, n)| *n);
        if let Some((rank, n)) = most.filter(|(_, n)| *n > allowed) {
            let (d, first, _) = ranks.iter().find(|(_, _, r)| *r == rank).expect("counted");
            out.push(d.problem(
                first.id.span().start,
                None,
                format!(
                    "in {n} of {} single-answer questions ({}) the right option is the {}longest; at most {allowed} may share one length rank ({}%)",
                    ranks.len(),
                    lang.code(),
                    rank_words(rank),
                    (MAX_RANK_SHARE * 100.0) as u32,
                ),
            ));
        }
    }
    out
}

fn rank_words(rank: usize) -> &'static str {
    ["", "", "second ", "third ", "fourth ", "fifth ", "sixth "]
        .get(rank)
        .copied()
        .unwrap_or("")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn count_cues_and_absolutes_are_found_as_words() {
        assert_eq!(
            count_cue("Which claims hold? (one or more)", Lang::En),
            Some("one or more")
        );
        assert_eq!(count_cue("哪个说法正确？", Lang::Zh), Some("哪个"));
        assert_eq!(count_cue("Which of these hold?", Lang::En), None);
        assert!(has_absolute("It is always safe", Lang::En));
        assert!(!has_absolute("It is alwaysish", Lang::En));
        assert!(has_absolute("这样永远安全", Lang::Zh));
        assert!(!has_absolute("with `appendfsync always` set", Lang::En));
        assert!(has_absolute("旧持锁者绝不会再写入", Lang::Zh));
        assert!(has_absolute("这样必然只有一个持锁者", Lang::Zh));
        assert!(has_absolute("The successor is told instantly", Lang::En));
        assert!(!has_absolute("这样大多数时候安全", Lang::Zh));
    }
}
