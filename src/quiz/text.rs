//! Every user-facing string of quizzes and progress, in Simplified Chinese and English.

use std::path::Path;

use crate::i18n::Lang;
use crate::progress::store::Notice;
use crate::quiz::sched::{Rating, Time};

pub fn rating(r: Rating, lang: Lang) -> &'static str {
    match r {
        Rating::Again => lang.pick("重来", "again"),
        Rating::Hard => lang.pick("困难", "hard"),
        Rating::Good => lang.pick("良好", "good"),
        Rating::Easy => lang.pick("轻松", "easy"),
    }
}

pub fn kind(k: crate::content::deck::Kind, lang: Lang) -> &'static str {
    use crate::content::deck::Kind;
    match k {
        Kind::Recall => lang.pick("回忆", "recall"),
        Kind::Choice => lang.pick("选择", "choice"),
        Kind::Order => lang.pick("排序", "order"),
        Kind::Model => lang.pick("推演", "model"),
    }
}

pub fn notice(n: &Notice, lang: Lang) -> String {
    match n {
        Notice::Corrupt { moved_to, error } => match lang {
            Lang::Zh => format!(
                "进度文件无法读取（{error}），已移到 {}，重新开始记录。",
                moved_to.display()
            ),
            Lang::En => format!(
                "the progress file could not be read ({error}); it was moved to {} and a fresh one started.",
                moved_to.display()
            ),
        },
        Notice::CorruptLocked { error } => match lang {
            Lang::Zh => format!("进度文件无法读取（{error}），现在也无法把它移开；本次不保存。"),
            Lang::En => format!(
                "the progress file could not be read ({error}) and cannot be moved aside now; nothing will be saved."
            ),
        },
        Notice::Newer { found } => match lang {
            Lang::Zh => format!(
                "进度文件来自更新版本的 locklab（schema_version {found}），保持原样；本次不保存。"
            ),
            Lang::En => format!(
                "the progress file was written by a newer locklab (schema_version {found}); it is left untouched and nothing will be saved."
            ),
        },
        Notice::Locked => lang
            .pick(
                "另一个 locklab 正在使用进度文件，本次以只读方式打开，不保存。",
                "another locklab has the progress file open; opened read-only, nothing will be saved.",
            )
            .to_string(),
        Notice::LockFailed(e) => match lang {
            Lang::Zh => format!("无法锁定进度文件（{e}），本次以只读方式打开，不保存。"),
            Lang::En => format!(
                "cannot lock the progress file ({e}); opened read-only, nothing will be saved."
            ),
        },
        Notice::ReadOnlyFolder(e) => match lang {
            Lang::Zh => format!("无法写入进度文件夹（{e}），本次以只读方式打开，不保存。"),
            Lang::En => format!(
                "the progress folder cannot be written ({e}); opened read-only, nothing will be saved."
            ),
        },
        Notice::Symlink { path } => match lang {
            Lang::Zh => format!(
                "{} 是符号链接，locklab 不跟随数据文件夹里的链接：以只读方式打开，不保存（请用 --data-dir 指定它指向的文件夹）。",
                path.display()
            ),
            Lang::En => format!(
                "{} is a symbolic link, which locklab does not follow in its data folder: opened read-only, nothing will be saved (pass the folder it points into with --data-dir).",
                path.display()
            ),
        },
        Notice::Migrated { from } => match lang {
            Lang::Zh => format!("进度文件已从 schema_version {from} 升级。"),
            Lang::En => format!("the progress file was upgraded from schema_version {from}."),
        },
    }
}

pub fn cannot_open(path: &Path, e: &std::io::Error, lang: Lang) -> String {
    match lang {
        Lang::Zh => format!("无法打开进度文件夹 {}：{e}", path.display()),
        Lang::En => format!("cannot open the progress folder {}: {e}", path.display()),
    }
}

pub fn cannot_save(e: &std::io::Error, lang: Lang) -> String {
    match lang {
        Lang::Zh => format!("无法保存进度：{e}"),
        Lang::En => format!("cannot save progress: {e}"),
    }
}

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

pub fn saved(n: usize, lang: Lang) -> String {
    match lang {
        Lang::Zh => format!("已保存 {n}"),
        Lang::En => format!("saved {n}"),
    }
}

pub fn not_saved(lang: Lang) -> &'static str {
    lang.pick("未保存（只读）", "not saved (read-only)")
}

pub struct Prompts {
    pub reveal: &'static str,
    pub reveal_or_hint: &'static str,
    pub points: &'static str,
    pub rate: &'static str,
    /// Choice questions, whether one option is right or several: the wording must not tell.
    pub letters: &'static str,
    pub letter: &'static str,
    pub letter_or_hint: &'static str,
    pub steps: &'static str,
    pub number: &'static str,
    pub number_or_hint: &'static str,
    pub after_model: &'static str,
}

pub fn prompts(lang: Lang) -> Prompts {
    match lang {
        Lang::Zh => Prompts {
            reveal: "> 按回车显示答案（q 结束）：",
            reveal_or_hint: "> 按回车显示答案，h 看提示（q 结束）：",
            points: "> 答到的要点编号，用逗号分隔，如 1,3（都没答到就直接回车）：",
            rate: "> 自评：1 忘了，2 部分，3 牢固：",
            letters: "> 选项字母，正确的可能是一个也可能是几个，如 a 或 a,c（q 结束）：",
            letter: "> 选项字母（q 结束）：",
            letter_or_hint: "> 选项字母，h 看提示（q 结束）：",
            steps: "> 按正确顺序写出步骤编号，如 3,1,2（q 结束）：",
            number: "> 输入一个数（q 结束）：",
            number_or_hint: "> 输入一个数，h 看提示（q 结束）：",
            after_model: "> 回车 下一题，t 显示这次运行的时间线（q 结束）：",
        },
        Lang::En => Prompts {
            reveal: "> Press Enter to show the answer (q to stop):",
            reveal_or_hint: "> Press Enter to show the answer, h for a hint (q to stop):",
            points: "> Numbers of the points you covered, e.g. 1,3 (empty for none):",
            rate: "> Rate yourself: 1 forgot, 2 partial, 3 solid:",
            letters: "> Option letters; one or several may be right, e.g. a or a,c (q to stop):",
            letter: "> Option letter (q to stop):",
            letter_or_hint: "> Option letter, or h for a hint (q to stop):",
            steps: "> Step numbers in the right order, e.g. 3,1,2 (q to stop):",
            number: "> A number (q to stop):",
            number_or_hint: "> A number, or h for a hint (q to stop):",
            after_model: "> Enter for the next question, t for this run's timeline (q to stop):",
        },
    }
}

pub fn invalid(lang: Lang) -> &'static str {
    lang.pick("! 无法识别，请再输入一次。", "! Not understood; try again.")
}

pub fn noted(lang: Lang) -> &'static str {
    lang.pick("已记下笔记。", "Note kept.")
}

/// Fixed words and headings of plain mode and `locklab progress`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Label {
    Question,
    ScoringPoints,
    Answer,
    FollowUp,
    Right,
    Wrong,
    PartlyRight,
    Score,
    RightOrder,
    EngineComputes,
    Explanation,
    SessionAnswered,
    ByTopic,
    PointsMissed,
    UnknownDeck,
    KnownDecks,
    NoSuchTopic,
    NothingDue,
    NoMatch,
    NotReset,
    ProgressFile,
    DueToday,
    Forecast,
    MasteryByDeck,
    Seen,
    MissedMostOften,
    LastAnswer,
    ReadOnlyNoMerge,
    ReadOnlyNoReset,
    Yes,
    No,
    ValueA,
    ValueB,
    NoValue,
    Difficulty,
    YourNotes,
    Hint,
    NoHint,
    FromThisRun,
    TheRun,
    TimeUp,
    InterviewTitle,
    SelfTestTitle,
    MissedByTopic,
    StudyHere,
    NothingMissed,
    RoundOf,
    SelfRatings,
    SelfTestHistory,
    NoSelfTest,
    NoChains,
    NoSelfTestList,
    NotesTitle,
    KeysRecallHint,
    KeysNumberHint,
    KeysOptionHint,
    HintOffer,
    FollowUpHeading,
    Time,
    HomeInterview,
    HomeInterviewAbout,
    HomeSelfTest,
    HomeSelfTestAbout,
    HomeKindFilter,
    HomeDifficultyFilter,
    HomeFilterAbout,
    HomeKindDetail,
    HomeDifficultyDetail,
    All,
    LastSelfTest,
    KeysReport,
}

pub fn label(l: Label, lang: Lang) -> &'static str {
    let (zh, en) = match l {
        Label::Question => ("题目", "Question"),
        Label::ScoringPoints => ("要点：", "Scoring points:"),
        Label::Answer => ("参考答案：", "Answer: "),
        Label::FollowUp => ("追问：", "Follow-up: "),
        Label::Right => ("正确", "Right"),
        Label::Wrong => ("错误", "Wrong"),
        Label::PartlyRight => ("部分正确", "Partly right"),
        Label::Score => ("得分", "Score"),
        Label::RightOrder => ("正确顺序：", "Right order: "),
        Label::EngineComputes => ("引擎算出的答案：", "The engine computes: "),
        Label::Explanation => ("解析：", "Explanation: "),
        Label::SessionAnswered => ("本次：已答", "Session: answered"),
        Label::ByTopic => ("按主题：", "By topic:"),
        Label::PointsMissed => ("漏掉的要点：", "Points missed:"),
        Label::UnknownDeck => ("没有这个题组", "unknown deck"),
        Label::KnownDecks => ("已有", "known decks"),
        Label::NoSuchTopic => ("没有题目带这个主题", "no question has the topic"),
        Label::NothingDue => ("今天没有到期的题目。", "Nothing is due for review today."),
        Label::NoMatch => ("没有符合条件的题目。", "No question matches."),
        Label::NotReset => ("未重置。\n", "Not reset.\n"),
        Label::ProgressFile => ("进度文件：", "Progress file:"),
        Label::DueToday => ("今天到期：", "Due today:"),
        Label::Forecast => ("未来 14 天（从今天起）：", "Next 14 days (from today):"),
        Label::MasteryByDeck => ("各题组掌握度：", "Mastery by deck:"),
        Label::Seen => ("已答", "seen"),
        Label::MissedMostOften => ("最常漏掉的要点：", "Points missed most often:"),
        Label::LastAnswer => ("最近一次作答：", "Last answer:"),
        Label::ReadOnlyNoMerge => (
            "进度文件只读，未合并。",
            "the progress file is read-only; nothing merged.",
        ),
        Label::Yes => ("是", "yes"),
        Label::No => ("否", "no"),
        Label::ValueA => ("A 的值", "A's value"),
        Label::ValueB => ("B 的值", "B's value"),
        Label::NoValue => ("没有值", "no value"),
        Label::ReadOnlyNoReset => (
            "进度文件只读，未重置。",
            "the progress file is read-only; nothing reset.",
        ),
        Label::Difficulty => ("难度", "difficulty"),
        Label::YourNotes => ("你的笔记：", "Your notes: "),
        Label::Hint => ("提示：", "Hint: "),
        Label::NoHint => ("这道题没有提示。", "This question has no hint."),
        Label::FromThisRun => ("这次运行：", "From this run: "),
        Label::TheRun => ("这道题取自的运行", "The run this question was drawn from"),
        Label::TimeUp => (
            "时间到：这道题答完后面试结束。",
            "Time is up: the interview ends after this question.",
        ),
        Label::InterviewTitle => ("模拟面试", "Interview"),
        Label::SelfTestTitle => ("闭卷自测", "Closed-book self-test"),
        Label::MissedByTopic => ("按主题列出漏掉的要点：", "Points missed, by topic:"),
        Label::StudyHere => ("去看：", "Study: "),
        Label::NothingMissed => ("没有漏掉任何要点。", "No point was missed."),
        Label::RoundOf => ("追问", "Follow-up"),
        Label::SelfRatings => ("自评：", "Self-ratings: "),
        Label::SelfTestHistory => ("闭卷自测记录：", "Self-test history:"),
        Label::NoSelfTest => ("还没有做过闭卷自测。", "No self-test taken yet."),
        Label::NoChains => (
            "没有带追问的回忆题可用于面试。",
            "No recall question with follow-ups to interview on.",
        ),
        Label::NoSelfTestList => (
            "题库里没有闭卷自测的题目清单（quizzes/self-test.toml）。",
            "The content has no self-test list (quizzes/self-test.toml).",
        ),
        Label::NotesTitle => ("你的笔记", "Your notes"),
        Label::KeysRecallHint => (
            "回车/r 显示答案  h 提示  Tab 笔记  ? 按键  q 离开",
            "Enter/r reveal  h hint  Tab notes  ? keys  q leave",
        ),
        Label::KeysNumberHint => (
            "输入一个数  h 提示  回车 提交  q 离开",
            "type a number  h hint  Enter submit  q leave",
        ),
        Label::KeysOptionHint => (
            "字母 或 上/下+空格 选一项  h 提示  回车 提交  q 离开",
            "a letter or Up/Down+Space pick one  h hint  Enter submit  q leave",
        ),
        Label::HintOffer => (
            "有提示可看（按 h），但看了以后这道题最多得一半的分。",
            "A hint is available (h), but taking it caps this answer at half the points.",
        ),
        Label::FollowUpHeading => ("追问", "Follow-up"),
        Label::Time => ("用时", "time"),
        Label::HomeInterview => ("模拟面试", "Interview"),
        Label::HomeInterviewAbout => (
            "一道回忆题，再追问最多三轮，每轮按要点打分；最后按主题列出漏掉的要点和该看的课程。",
            "A recall question, then up to three deeper follow-ups, each scored on its own points; at the end the points missed by topic, with where to study them.",
        ),
        Label::HomeSelfTest => ("闭卷自测（12 题）", "Self-test (12)"),
        Label::HomeSelfTestAbout => (
            "固定的 12 道回忆题覆盖全部主题，每次一样，方便和上次比较。",
            "The same twelve recall questions across every topic, each time, so you can compare with the last run.",
        ),
        Label::HomeKindFilter => ("  题型：{}", "  Kind: {}"),
        Label::HomeDifficultyFilter => ("  难度：{}", "  Difficulty: {}"),
        Label::HomeFilterAbout => ("左/右 切换", "Left/Right change it"),
        Label::HomeKindDetail => (
            "复习、混合考试和各题组测验只出这种题型（当前：{}）。左/右 切换。",
            "The review, the mixed exam and the deck quizzes ask only this kind of question (now: {}). Left/Right change it.",
        ),
        Label::HomeDifficultyDetail => (
            "复习、混合考试和各题组测验只出这一难度的题（当前：{}）：1 基础，2 原理，3 故障分析与面试深度。左/右 切换。",
            "The review, the mixed exam and the deck quizzes ask only questions of this difficulty (now: {}): 1 basics, 2 principles, 3 failure analysis and interview depth. Left/Right change it.",
        ),
        Label::All => ("全部", "all"),
        Label::LastSelfTest => ("最近一次闭卷自测：", "Last self-test: "),
        Label::KeysReport => (
            "上/下 选择要看的内容  o 打开  PgUp/PgDn 滚动  回车/q 返回",
            "Up/Down choose where to study  o open it  PgUp/PgDn scroll  Enter/q back",
        ),
    };
    lang.pick(zh, en)
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

pub fn merged(added: usize, total: usize, lang: Lang) -> String {
    match lang {
        Lang::Zh => format!("新增 {added} 条作答记录，共 {total} 条。\n"),
        Lang::En => format!("added {added} answers; {total} in all.\n"),
    }
}

pub fn confirm_reset(path: &Path, answers: usize, lang: Lang) -> String {
    match lang {
        Lang::Zh => format!(
            "要清空 {} 中的 {answers} 条作答记录吗？会先保留一份备份。输入 yes 确认：",
            path.display()
        ),
        Lang::En => format!(
            "Reset {} ({answers} answers)? A backup is kept. Type yes to confirm:",
            path.display()
        ),
    }
}

pub fn reset_done(backup: Option<&Path>, lang: Lang) -> String {
    match (lang, backup) {
        (Lang::Zh, Some(b)) => format!("已重置；备份在 {}\n", b.display()),
        (Lang::En, Some(b)) => format!("Reset; the backup is {}\n", b.display()),
        (Lang::Zh, None) => "已重置（原本没有记录）。\n".to_string(),
        (Lang::En, None) => "Reset (there was nothing to keep).\n".to_string(),
    }
}

pub fn overview_line(answers: u32, seen: u32, sessions: u32, streak: u32, lang: Lang) -> String {
    match lang {
        Lang::Zh => {
            format!("作答 {answers} 次，共 {seen} 道题，{sessions} 次测验；连续 {streak} 天。")
        }
        Lang::En => format!(
            "{answers} answers to {seen} questions in {sessions} sessions; streak {streak} days."
        ),
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
        self::kind(kind, lang),
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
        self::kind(kind, lang),
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

/// Why a session exits with an error: answers that were kept in memory only.
pub fn unsaved(n: usize, lang: Lang) -> String {
    match lang {
        Lang::Zh => format!("有 {n} 条作答没能保存到进度文件。"),
        Lang::En => format!("{n} answers could not be saved to the progress file."),
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

pub fn self_test_header(n: usize, path: &Path, lang: Lang) -> String {
    match lang {
        Lang::Zh => format!(
            "locklab 闭卷自测：固定的 {n} 道回忆题，每题对照要点打分并自评。进度文件：{}",
            path.display()
        ),
        Lang::En => format!(
            "locklab self-test: the same {n} recall questions every time, each scored against its points and self-rated. Progress: {}",
            path.display()
        ),
    }
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

/// `Right. Score 3/4 (good)`, and what the hint cost when one was taken.
pub fn result_line(g: &crate::quiz::session::Graded, lang: Lang) -> String {
    let (open, close) = (lang.pick("（", " ("), lang.pick("）", ")"));
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

/// `1 question`, `5 questions`.
fn questions(n: usize) -> String {
    if n == 1 {
        "1 question".to_string()
    } else {
        format!("{n} questions")
    }
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

/// A follow-up's prompt without the "Follow-up:" its deck may open it with.
pub fn follow_up_body(prompt: &str) -> &str {
    for l in [
        "面试官追问：",
        "追问：",
        "追问:",
        "Follow-up:",
        "Follow-up ",
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

/// One self-test run: `2026-11-30  21/30 (70%)  solid 5 · partial 4 · forgot 3`.
pub fn self_test_run(r: &crate::progress::SessionRecord, lang: Lang) -> String {
    let tiers = r.tiers.map(|t| tiers(&t, lang)).unwrap_or_default();
    let date = crate::progress::fmt_utc(r.ended);
    let mut line = format!(
        "{}  {}/{} ({:.0}%)  {tiers}",
        date.get(..10).unwrap_or(&date),
        r.score,
        r.max,
        crate::quiz::summary::percent(r.score, r.max)
    );
    // A run stopped early is not comparable with a whole one; say so.
    if r.answered < r.questions {
        line.push_str(&match lang {
            Lang::Zh => format!("  （只答了 {}/{} 题）", r.answered, r.questions),
            Lang::En => format!("  (only {} of {} answered)", r.answered, r.questions),
        });
    }
    line
}
