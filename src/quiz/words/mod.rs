//! The words of quizzes: plain mode, `locklab quiz` and `locklab progress`'s tables, and
//! the quiz screens. Fixed words sit in one table, each key beside its Chinese and English;
//! [`lines`] builds the session's formatted lines; the progress file's messages are
//! `crate::progress::words`, beside the store they word.

pub mod lines;

use crate::i18n::{Lang, words};
use crate::quiz::sched::Rating;

pub use lines::{
    clock, duration, follow_up_body, follow_up_line, hint_taken, interview_header, overrated,
    question_head, question_line, quiz_header, result_line, round_line, rounds_line,
    self_test_header, tiers, verdict_label,
};

words! {
    /// Fixed words and headings of plain mode and `locklab progress`.
    pub enum Label => pub fn label;
    Question => ("题目", "Question"),
    ScoringPoints => ("要点：", "Scoring points:"),
    Answer => ("参考答案：", "Answer: "),
    FollowUp => ("追问：", "Follow-up: "),
    Right => ("正确", "Right"),
    Wrong => ("错误", "Wrong"),
    PartlyRight => ("部分正确", "Partly right"),
    Score => ("得分", "Score"),
    RightOrder => ("正确顺序：", "Right order: "),
    EngineComputes => ("引擎算出的答案：", "The engine computes: "),
    Explanation => ("解析：", "Explanation: "),
    SessionAnswered => ("本次：已答", "Session: answered"),
    ByTopic => ("按主题：", "By topic:"),
    PointsMissed => ("漏掉的要点：", "Points missed:"),
    /// The result screen: each question answered, with its points and where it is taught.
    EachQuestion => ("逐题回顾（回车、o 或单击打开选中的链接）：", "Each question (Enter, o or a click opens the chosen link):"),
    /// The result list: what was answered against what was right.
    YourAnswer => ("你的答案：", "your answer: "),
    RightAnswer => ("正确答案：", "right answer: "),
    NothingPicked => ("（未选）", "(nothing picked)"),
    StepsInPlace => ("{of} 步中 {in} 步位置正确", "{in} of {of} steps in place"),
    /// Before a point the answer missed.
    Missed => ("漏掉：", "missed: "),
    UnknownDeck => ("没有这个题组", "unknown deck"),
    KnownDecks => ("已有", "known decks"),
    NoSuchTopic => ("没有题目带这个主题", "no question has the topic"),
    NothingDue => ("今天没有到期的题目。", "Nothing is due for review today."),
    NoMatch => ("没有符合条件的题目。", "No question matches."),
    NotReset => ("未重置。\n", "Not reset.\n"),
    ProgressFile => ("进度文件：", "Progress file:"),
    DueToday => ("今天到期：", "Due today:"),
    Forecast => ("未来 14 天（从今天起）：", "Next 14 days (from today):"),
    MasteryByDeck => ("各题组掌握度：", "Mastery by deck:"),
    Seen => ("已答", "seen"),
    MissedMostOften => ("最常漏掉的要点：", "Points missed most often:"),
    LastAnswer => ("最近一次作答：", "Last answer:"),
    ReadOnlyNoMerge => (
        "进度文件只读，未合并。",
        "the progress file is read-only; nothing merged.",
    ),
    Yes => ("是", "yes"),
    No => ("否", "no"),
    ValueA => ("A 的值", "A's value"),
    ValueB => ("B 的值", "B's value"),
    NoValue => ("没有值", "no value"),
    ReadOnlyNoReset => (
        "进度文件只读，未重置。",
        "the progress file is read-only; nothing reset.",
    ),
    Difficulty => ("难度", "difficulty"),
    YourNotes => ("你的笔记：", "Your notes: "),
    Hint => ("提示：", "Hint: "),
    NoHint => ("这道题没有提示。", "This question has no hint."),
    FromThisRun => ("这次运行：", "From this run: "),
    TheRun => ("这道题取自的运行", "The run this question was drawn from"),
    TimeUp => (
        "时间到：这道题答完后面试结束。",
        "Time is up: the interview ends after this question.",
    ),
    InterviewTitle => ("模拟面试", "Interview"),
    SelfTestTitle => ("闭卷自测", "Closed-book self-test"),
    MissedByTopic => ("按主题列出漏掉的要点：", "Points missed, by topic:"),
    StudyHere => ("去看：", "Study: "),
    NothingMissed => ("没有漏掉任何要点。", "No point was missed."),
    RoundOf => ("追问", "Follow-up"),
    SelfRatings => ("自评：", "Self-ratings: "),
    ScoredTiers => ("按要点：", "By the points: "),
    SelfTestHistory => ("闭卷自测记录：", "Self-test history:"),
    NoSelfTest => ("还没有做过闭卷自测。", "No self-test taken yet."),
    NoChains => (
        "没有带追问的回忆题可用于面试。",
        "No recall question with follow-ups to interview on.",
    ),
    NoSelfTestList => (
        "题库里没有闭卷自测的题目清单（quizzes/self-test.toml）。",
        "The content has no self-test list (quizzes/self-test.toml).",
    ),
    NotesTitle => ("你的笔记", "Your notes"),
    KeysRecallHint => (
        "回车/r 显示答案  h 提示  Tab 笔记  ? 按键  q 离开",
        "Enter/r reveal  h hint  Tab notes  ? keys  q leave",
    ),
    KeysNumberHint => (
        "输入一个数  h 提示  回车 提交  q 离开",
        "type a number  h hint  Enter submit  q leave",
    ),
    KeysOptionHint => (
        "字母 或 上/下+空格 选一项  h 提示  回车 提交  q 离开",
        "a letter or Up/Down+Space pick one  h hint  Enter submit  q leave",
    ),
    HintOffer => (
        "有提示可看（按 h），但看了以后这道题最多得一半的分。",
        "A hint is available (h), but taking it caps this answer at half the points.",
    ),
    FollowUpHeading => ("追问", "Follow-up"),
    Time => ("用时", "time"),
    HomeInterview => ("模拟面试", "Interview"),
    HomeInterviewAbout => (
        "一道回忆题，再追问最多三轮，每轮按要点打分；最后按主题列出漏掉的要点和该看的课程。",
        "A recall question, then up to three deeper follow-ups, each scored on its own points; at the end the points missed by topic, with where to study them.",
    ),
    HomeSelfTest => ("闭卷自测（12 题）", "Self-test (12)"),
    HomeSelfTestAbout => (
        "固定的 12 道回忆题覆盖全部主题，每次一样，方便和上次比较。",
        "The same twelve recall questions across every topic, each time, so you can compare with the last run.",
    ),
    HomeKindFilter => ("  题型：{}", "  Kind: {}"),
    HomeDifficultyFilter => ("  难度：{}", "  Difficulty: {}"),
    HomeFilterAbout => ("左/右 切换", "Left/Right change it"),
    HomeKindDetail => (
        "复习、混合考试和各题组测验只出这种题型（当前：{}）。左/右 切换。",
        "The review, the mixed exam and the deck quizzes ask only this kind of question (now: {}). Left/Right change it.",
    ),
    HomeDifficultyDetail => (
        "复习、混合考试和各题组测验只出这一难度的题（当前：{}）：1 基础，2 原理，3 故障分析与面试深度。左/右 切换。",
        "The review, the mixed exam and the deck quizzes ask only questions of this difficulty (now: {}): 1 basics, 2 principles, 3 failure analysis and interview depth. Left/Right change it.",
    ),
    All => ("全部", "all"),
    LastSelfTest => ("最近一次闭卷自测：", "Last self-test: "),
    KeysReport => (
        "上/下 选择要看的内容  回车/o/单击 打开  PgUp/PgDn 滚动  q 返回",
        "Up/Down choose where to study  Enter/o/click open it  PgUp/PgDn scroll  q back",
    ),

}

pub fn rating(r: Rating, lang: Lang) -> &'static str {
    match r {
        Rating::Again => lang.pick("重来", "again"),
        Rating::Hard => lang.pick("困难", "hard"),
        Rating::Good => lang.pick("良好", "good"),
        Rating::Easy => lang.pick("轻松", "easy"),
    }
}

/// When a question comes back for review, `secs` from now: today, or in whole days.
pub fn comes_back(secs: i64, lang: Lang) -> String {
    let days = (secs.max(0) + 86_399) / 86_400;
    match (days, lang) {
        (0, _) => lang
            .pick("复习：今天再来", "review: again today")
            .to_string(),
        (1, Lang::En) => "review: back tomorrow".to_string(),
        (d, Lang::En) => format!("review: back in {d} days"),
        (d, Lang::Zh) => format!("复习：{d} 天后再来"),
    }
}

pub fn kind(k: crate::content::deck::Kind, lang: Lang) -> &'static str {
    use crate::content::deck::Kind;
    match k {
        Kind::Recall => lang.pick("回忆", "recall"),
        Kind::Choice => lang.pick("选择", "choice"),
        Kind::Order => lang.pick("排序", "order"),
        Kind::Model => lang.pick("推演", "model"),
        Kind::Prediction => lang.pick("预测", "prediction"),
    }
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
