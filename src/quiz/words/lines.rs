//! The formatted lines of a quiz session: the headers of plain mode, each question's first
//! line, the clock, the hint's cost, the result and the rounds of an interview answer.

use std::path::Path;

use super::{Label, label, rating};
use crate::i18n::Lang;
use crate::quiz::sched::Time;

/// `5 min 3 s` / `5 分 3 秒`.
pub fn duration(secs: Time, lang: Lang) -> String {
    let (m, s) = (secs / 60, secs % 60);
    match (lang, m) {
        (Lang::Zh, 0) => format!("{s} 秒"),
        (Lang::Zh, _) => format!("{m} 分 {s} 秒"),
        (Lang::En, 0) => format!("{s} s"),
        (Lang::En, _) => format!("{m} min {s} s"),
    }
}

pub fn quiz_header(n: usize, seed: u64, path: &Path, lang: Lang) -> String {
    match lang {
        Lang::Zh => format!(
            "locklab 测验：{n} 题（种子 {seed}）。进度文件：{}",
            path.display()
        ),
        Lang::En => format!(
            "locklab quiz: {} (seed {seed}). Progress: {}",
            questions(n),
            path.display()
        ),
    }
}

pub fn interview_header(
    n: usize,
    seed: u64,
    limit: Option<Time>,
    path: &Path,
    lang: Lang,
) -> String {
    let time = match (limit, lang) {
        (Some(l), Lang::Zh) => format!("限时 {} 分钟", l / 60),
        (Some(l), Lang::En) => format!("{} minutes", l / 60),
        (None, Lang::Zh) => "不限时".to_string(),
        (None, Lang::En) => "no time limit".to_string(),
    };
    match lang {
        Lang::Zh => format!(
            "locklab 模拟面试：{n} 道题，每道题带追问（{time}，种子 {seed}）。进度文件：{}",
            path.display()
        ),
        Lang::En => format!(
            "locklab interview: {}, each with follow-ups ({time}, seed {seed}). Progress: {}",
            questions(n),
            path.display()
        ),
    }
}

pub fn self_test_header(n: usize, rounds: bool, path: &Path, lang: Lang) -> String {
    let path = path.display();
    match (lang, rounds) {
        (Lang::Zh, false) => {
            format!(
                "locklab 闭卷自测：固定的 {n} 道回忆题，每题对照要点打分并自评。进度文件：{path}"
            )
        }
        (Lang::Zh, true) => format!(
            "locklab 闭卷自测：固定的 {n} 道回忆题，每题对照要点打分并自评；最后是三轮追问，像面试一样全部答完才显示参考答案。进度文件：{path}"
        ),
        (Lang::En, false) => format!(
            "locklab self-test: the same {n} recall questions every time, each scored against its points and self-rated. Progress: {path}"
        ),
        (Lang::En, true) => format!(
            "locklab self-test: the same {n} recall questions every time, each scored against its points and self-rated, then three follow-up rounds asked as in an interview, every round answered before any reference shows. Progress: {path}"
        ),
    }
}

/// `1 question`, `5 questions`.
fn questions(n: usize) -> String {
    if n == 1 {
        "1 question".to_string()
    } else {
        format!("{n} questions")
    }
}

/// `Question 1/5 · recall · difficulty 2 · leases.x`, the first line of every question.
pub fn question_line(
    i: usize,
    n: usize,
    kind: crate::content::deck::Kind,
    difficulty: u8,
    id: &str,
    lang: Lang,
) -> String {
    format!(
        "{} {}/{} · {} · {} {} · {}",
        label(Label::Question, lang),
        i + 1,
        n,
        super::kind(kind, lang),
        label(Label::Difficulty, lang),
        difficulty,
        id
    )
}

/// `Question 1/5 · recall · difficulty 2`, the question's place without its id.
pub fn question_head(
    i: usize,
    n: usize,
    kind: crate::content::deck::Kind,
    difficulty: u8,
    lang: Lang,
) -> String {
    format!(
        "{} {}/{} · {} · {} {}",
        label(Label::Question, lang),
        i + 1,
        n,
        super::kind(kind, lang),
        label(Label::Difficulty, lang),
        difficulty
    )
}

/// `Follow-up 2/3`.
pub fn round_line(round: usize, rounds: usize, lang: Lang) -> String {
    format!("{} {}/{}", label(Label::RoundOf, lang), round + 1, rounds)
}

/// `12:05`, or `12:05 / 20:00` when the time is limited.
pub fn clock(elapsed: Time, limit: Option<Time>) -> String {
    let mmss = |t: Time| format!("{}:{:02}", t.max(0) / 60, t.max(0) % 60);
    match limit {
        Some(l) => format!("{} / {}", mmss(elapsed), mmss(l)),
        None => mmss(elapsed),
    }
}

/// The hint taken, and what it costs.
pub fn hint_taken(hint: &str, cap: u32, max: u32, lang: Lang) -> String {
    match lang {
        Lang::Zh => format!("提示：{hint}（看了提示，这道题的 {max} 分里最多只算 {cap} 分）"),
        Lang::En => {
            format!("Hint: {hint} (with the hint, at most {cap} of its {max} points count)")
        }
    }
}

/// `solid 5 · partial 4 · forgot 3`.
pub fn tiers(t: &crate::quiz::summary::Tiers, lang: Lang) -> String {
    match lang {
        Lang::Zh => format!("牢固 {} · 部分 {} · 忘了 {}", t.solid, t.partial, t.forgot),
        Lang::En => format!(
            "solid {} · partial {} · forgot {}",
            t.solid, t.partial, t.forgot
        ),
    }
}

/// How many answers were rated above what their points show, when any were.
pub fn overrated(n: u32, lang: Lang) -> Option<String> {
    (n > 0).then(|| match lang {
        Lang::Zh => format!("有 {n} 题的自评高于要点得分。"),
        Lang::En => format!(
            "{n} answer{} rated higher than {} points show.",
            if n == 1 { " was" } else { "s were" },
            if n == 1 { "its" } else { "their" }
        ),
    })
}

/// Right / partly right / wrong, judged on the points earned before any hint cap.
pub fn verdict_label(g: &crate::quiz::session::Graded) -> Label {
    if g.earned >= g.max {
        Label::Right
    } else if g.earned == 0 {
        Label::Wrong
    } else {
        Label::PartlyRight
    }
}

/// `Right. Score 3/4 (for review: good)`, and what the hint cost when one was taken. The
/// rating is the scheduler's, so it is named as such rather than read as the question's
/// difficulty.
pub fn result_line(g: &crate::quiz::session::Graded, lang: Lang) -> String {
    let (open, close) = (
        lang.pick("（记入复习：", " (for review: "),
        lang.pick("）", ")"),
    );
    let mut line = format!(
        "{}{}{} {}/{}{open}{}{close}",
        label(verdict_label(g), lang),
        lang.pick("。", ". "),
        label(Label::Score, lang),
        g.score,
        g.max,
        rating(g.rating, lang)
    );
    if g.hint {
        line.push_str(&match lang {
            Lang::Zh => format!("，看了提示而封顶（原得 {} 分）", g.earned),
            Lang::En => format!(", capped by the hint (earned {})", g.earned),
        });
    }
    line
}

/// `By round: question 3/7 · follow-up 1 2/4 ...`, for an interview answer.
pub fn rounds_line(rounds: &[crate::quiz::session::RoundScore], lang: Lang) -> String {
    let parts: Vec<String> = rounds
        .iter()
        .enumerate()
        .map(|(i, r)| match (i, lang) {
            (0, Lang::Zh) => format!("主问题 {}/{}", r.score, r.max),
            (0, Lang::En) => format!("question {}/{}", r.score, r.max),
            (_, Lang::Zh) => format!("追问 {i} {}/{}", r.score, r.max),
            (_, Lang::En) => format!("follow-up {i} {}/{}", r.score, r.max),
        })
        .collect();
    format!(
        "{}{}",
        lang.pick("各轮得分：", "By round: "),
        parts.join(" · ")
    )
}

/// A follow-up's prompt without the "Follow-up:" (or "Going further:", "Last one:") its deck
/// may open it with: the line already says which round it is.
pub fn follow_up_body(prompt: &str) -> &str {
    for l in [
        "面试官追问：",
        "再追问：",
        "最后一问：",
        "追问：",
        "追问:",
        "Follow-up:",
        "Follow-up ",
        "Going further:",
        "Last one:",
    ] {
        if let Some(rest) = prompt.strip_prefix(l) {
            return rest.trim_start();
        }
    }
    prompt
}

/// `Follow-up 2/3: ...`, or `Follow-up: ...` when there is one round.
pub fn follow_up_line(prompt: &str, round: usize, rounds: usize, lang: Lang) -> String {
    let body = follow_up_body(prompt);
    let colon = lang.pick("：", ": ");
    if rounds > 1 {
        format!("{}{colon}{body}", round_line(round, rounds, lang))
    } else {
        format!("{}{colon}{body}", label(Label::FollowUpHeading, lang))
    }
}
