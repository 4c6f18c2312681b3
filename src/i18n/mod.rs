//! Every user-facing word, in Simplified Chinese and English, by area: [`sim`] words what a run
//! did; the terminal screens' words follow [`Ui`].

pub mod explore;
pub mod family;
pub mod lab;
pub mod live;
pub mod redlock;
pub mod sim;
pub mod snowflake;

pub use sim::{describe, invariant_label, state_label, verdict_short, verdict_text};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Lang {
    Zh,
    #[default]
    En,
}

impl Lang {
    /// `zh` when LC_ALL, LC_MESSAGES or LANG (the first one set) begins with `zh`; else English.
    pub fn from_env() -> Self {
        let var = ["LC_ALL", "LC_MESSAGES", "LANG"]
            .iter()
            .filter_map(|k| std::env::var(k).ok())
            .find(|v| !v.is_empty())
            .unwrap_or_default();
        if var.to_ascii_lowercase().starts_with("zh") {
            Lang::Zh
        } else {
            Lang::En
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        match s.to_ascii_lowercase().as_str() {
            "zh" | "zh-cn" | "zh_cn" | "cn" => Some(Lang::Zh),
            "en" | "en-us" | "en_us" => Some(Lang::En),
            _ => None,
        }
    }

    pub fn code(self) -> &'static str {
        match self {
            Lang::Zh => "zh",
            Lang::En => "en",
        }
    }

    pub fn toggle(self) -> Self {
        match self {
            Lang::Zh => Lang::En,
            Lang::En => Lang::Zh,
        }
    }

    /// Picks the string for this language.
    pub fn pick<'a>(self, zh: &'a str, en: &'a str) -> &'a str {
        match self {
            Lang::Zh => zh,
            Lang::En => en,
        }
    }
}

/// A word or sentence of the terminal screens.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ui {
    HomeTitle,
    HomeFrozen,
    HomeFrozenAbout,
    HomeAbc,
    HomeHerd,
    HomeHerdAbout,
    HomeHint,
    NeedTerminal,
    Enlarge,
    LaneABelieves,
    LaneService,
    LaneResource,
    LaneDanger,
    Cursor,
    Value,
    Token,
    LastToken,
    LastWriter,
    None,
    FormulaDanger,
    FormulaHandover,
    NotApplicable,
    Verdict,
    Ttl,
    Keepalive,
    PauseStart,
    PauseLen,
    Delay,
    Waiters,
    Fanout,
    GrabCost,
    Hold,
    Fencing,
    StopOnLoss,
    On,
    Off,
    WatchChain,
    WatchHerd,
    RecoveryGuid,
    RecoveryBlind,
    RegAtomic,
    RegTwoStep,
    LossStop,
    LossCarryOn,
    Children,
    Wakeups,
    Preset,
    Notifications,
    Wasted,
    TotalTime,
    Current,
    Chain,
    Herd,
    HerdLegend,
    MoreRows,
    Compare,
    Flipped,
    Event,
    NothingYet,
    Playing,
    Paused,
    Invariants,
    HelpTitle,
    HelpClose,
    FooterFrozen,
    FooterAbc,
    FooterHerd,
    KeyQuit,
    KeyBack,
    KeyHelp,
    KeyLang,
    KeyHomeMove,
    KeyHomeOpen,
    KeySliderSelect,
    KeySliderAdjust,
    KeyStep,
    KeyJump,
    KeyPlay,
    KeySpeed,
    Locked,
    KeyFencing,
    KeyStopOnLoss,
    KeyCompare,
    KeyMouseSlider,
    KeyMouseTimeline,
    KeyPresentNext,
    KeyPresentBack,
    KeyReveal,
    KeyBlank,
    HomePresent,
    KeyPreset,
    KeyWatch,
    KeyRecovery,
    KeyRegistration,
    KeyOnLoss,
    HomeLessons,
    HomeLesson,
    ReaderHint,
    ReaderNoLesson,
    OutlineTitle,
    OutlineClose,
    GlossaryClose,
    GlossaryTitle,
    GlossaryEmpty,
    SearchPrompt,
    SearchNone,
    SearchCount,
    LinkNone,
    LinkUnknown,
    QuizPending,
    KeyScroll,
    KeyPage,
    KeyTopBottom,
    KeyOutline,
    KeySearch,
    KeySearchNext,
    KeyLinks,
    KeyFollow,
    KeyGlossary,
    KeyMouseWheel,
    KeyMouseLink,
    HomeExplore,
    HomeExploreAbout,
    KeyExploreMove,
    KeyExploreChange,
    KeyExploreRun,
    KeyExploreCancel,
    HomeQuizzes,
    HomeReview,
    HomeReviewAbout,
    HomeDeck,
    HomeDeckAbout,
    HomeExam,
    HomeExamAbout,
    HomeProgress,
    HomeProgressAbout,
    HomeDue,
    HomeNoProgress,
    QuizTitle,
    QuizNotes,
    QuizYourAnswer,
    QuizYourOrder,
    QuizTickedScore,
    QuizRate,
    QuizOpenRun,
    QuizNoRun,
    ModelRunAbout,
    QuizClosedBook,
    QuizConfirmLeave,
    QuizSkipped,
    QuizNotSavedNoFile,
    QuizMore,
    QuizHintRecall,
    QuizHintNotes,
    QuizHintTick,
    QuizHintRate,
    QuizHintChoice,
    QuizHintOrder,
    QuizHintNumber,
    QuizHintOption,
    QuizHintAnswered,
    QuizHintAnsweredModel,
    QuizHintEnd,
    StatsTitle,
    StatsHint,
    StatsNoFile,
    StatsStreak,
    StatsHistory,
    StatsNoSessions,
    StatsLastSession,
    KeyQuizSubmit,
    KeyQuizNotes,
    KeyQuizTick,
    KeyQuizDigits,
    KeyQuizLetters,
    KeyQuizMoveStep,
    KeyQuizOpenRun,
    KeyQuizScroll,
    KeyQuizLeave,
    KeyQuizHint,
    KeyHomeFilter,
}

/// The words for `t` in `lang`. A `{}` in the result is a place for a number or name.
pub fn ui(t: Ui, lang: Lang) -> &'static str {
    use Ui::*;
    let (zh, en) = match t {
        HomeTitle => (
            "locklab：看分布式锁如何失效",
            "locklab: watch distributed locks fail",
        ),
        HomeFrozen => ("凝固的持锁者", "Frozen holder"),
        HomeFrozenAbout => (
            "租约在全停顿期间过期；拖动滑块，看栅栏令牌能否保住数据。",
            "A lease expires during a stop-the-world pause; move the sliders and see whether fencing saves the data.",
        ),
        HomeAbc => ("A/B/C 排队", "A/B/C queue"),
        HomeHerd => ("羊群效应与链式唤醒", "Herd vs chain"),
        HomeHerdAbout => (
            "N 个等待者排队：每次释放唤醒几个？无效唤醒多少次？",
            "N waiters in a queue: how many does each release wake, and how many wake for nothing?",
        ),
        HomeHint => (
            "上/下 选择   回车 打开   L 切换语言   ? 帮助   q 退出",
            "Up/Down choose   Enter open   L language   ? help   q quit",
        ),
        NeedTerminal => (
            "locklab 的界面需要终端。要纯文本输出，请运行 `locklab sim --help`。",
            "locklab needs a terminal for its screens. For plain output, run `locklab sim --help`.",
        ),
        Enlarge => (
            "请把终端放大到至少 80x24（现在是 {}）。",
            "Please enlarge the terminal to at least 80x24 (now {}).",
        ),
        LaneABelieves => ("A（自认）", "A believes"),
        LaneService => ("服务", "service"),
        LaneResource => ("资源", "resource"),
        LaneDanger => ("危险窗口", "danger"),
        Cursor => ("光标", "cursor"),
        Value => ("取值", "value"),
        Token => ("令牌", "token"),
        LastToken => ("已见最大令牌", "last seen token"),
        LastWriter => ("最后写入者", "last writer"),
        None => ("无", "none"),
        FormulaDanger => (
            "危险窗口 = max(0, A 写入到达 - 租约到期)",
            "danger window = max(0, A's write - lease expiry)",
        ),
        FormulaHandover => (
            "交接延迟 = B 拿到锁 - 租约到期",
            "handover delay = B's acquire - lease expiry",
        ),
        NotApplicable => ("不适用", "n/a"),
        Verdict => ("结论", "verdict"),
        Ttl => ("租约 TTL", "TTL"),
        Keepalive => ("续约间隔", "keepalive"),
        PauseStart => ("停顿开始", "pause start"),
        PauseLen => ("停顿时长", "pause length"),
        Delay => ("网络延迟", "delay"),
        Waiters => ("等待者 N", "waiters N"),
        Fanout => ("扇出 k", "fan-out k"),
        GrabCost => ("抢锁开销", "grab cost"),
        Hold => ("持锁时长", "hold"),
        Fencing => ("栅栏令牌", "fencing"),
        StopOnLoss => ("失锁即停", "stop on loss"),
        On => ("开", "on"),
        Off => ("关", "off"),
        WatchChain => ("监听前驱（链式）", "watch predecessor (chain)"),
        WatchHerd => ("监听子节点（羊群）", "watch children (herd)"),
        RecoveryGuid => ("按 GUID 恢复", "GUID recovery"),
        RecoveryBlind => ("盲目重建", "blind re-create"),
        RegAtomic => ("原子监听", "atomic watch"),
        RegTwoStep => ("两步监听", "two-step watch"),
        LossStop => ("失锁即停", "on loss: stop"),
        LossCarryOn => ("失锁照做", "on loss: carry on"),
        Children => ("子节点", "children"),
        Wakeups => ("每次释放唤醒", "wake-ups per release"),
        Preset => ("预设", "preset"),
        Notifications => ("通知", "notifications"),
        Wasted => ("无效唤醒", "wasted"),
        TotalTime => ("总耗时", "total time"),
        Current => ("当前", "current"),
        Chain => ("链式", "chain"),
        Herd => ("羊群", "herd"),
        HerdLegend => (
            "# 拿到锁   + 无效唤醒   . 未被通知",
            "# takes the lock   + woken for nothing   . not notified",
        ),
        MoreRows => ("……还有 {} 行", "... {} more rows"),
        Compare => ("对比", "compare"),
        Flipped => ("翻转：{}", "flipped: {}"),
        Event => ("事件", "event"),
        NothingYet => ("还没有事件发生。", "Nothing has happened yet."),
        Playing => ("播放中", "playing"),
        Paused => ("已暂停", "paused"),
        Invariants => ("不变量", "invariants"),
        HelpTitle => ("按键", "Keys"),
        HelpClose => ("按 ? 或 Esc 关闭", "? or Esc closes"),
        FooterFrozen => (
            "上/下 滑块  左/右 调整  空格 播放  ,/. 事件  c 对比  ? 按键  q 返回",
            "Up/Down/Left/Right sliders  Space play  ,/. event  c compare  ? keys  q back",
        ),
        FooterAbc => (
            "p 换预设  空格 播放  ,/. 事件  w r a f s 切换做法  c 对比  ? 帮助  q 返回",
            "p preset  Space play  ,/. event  w r a f s recipe  c compare  ? help  q back",
        ),
        FooterHerd => (
            "上/下 滑块  左/右 调整（Shift 大步）  ? 帮助  q 返回",
            "Up/Down slider  Left/Right adjust (Shift: coarse)  ? help  q back",
        ),
        KeyPresentNext => ("下一步", "next step"),
        KeyPresentBack => ("上一步", "previous step"),
        KeyReveal => ("揭晓答案", "reveal the answer"),
        KeyBlank => ("黑屏/恢复", "blank the screen / bring it back"),
        HomePresent => ("演示", "Present"),
        KeyQuit => ("退出", "quit"),
        KeyBack => ("返回主页（在主页则退出）", "back to home (quit from home)"),
        KeyHelp => ("显示或关闭本帮助", "show or close this help"),
        KeyLang => ("切换中文/英文", "switch Chinese/English"),
        KeyHomeMove => ("选择模拟或课程", "choose a simulation or lesson"),
        KeyHomeOpen => ("打开所选项", "open the chosen entry"),
        KeySliderSelect => ("选择滑块", "select a slider"),
        KeySliderAdjust => (
            "调整滑块（Shift 大步）",
            "adjust the slider (Shift: coarse)",
        ),
        KeyStep => ("上一个/下一个事件", "previous/next event"),
        KeyJump => ("跳到开头/结尾", "jump to start/end"),
        KeyPlay => ("播放/暂停", "play/pause"),
        KeySpeed => ("加快/放慢播放", "play faster/slower"),
        Locked => ("[本预设锁定了参数]", "[parameters locked by this preset]"),
        KeyFencing => ("栅栏令牌开/关", "fencing on/off"),
        KeyStopOnLoss => ("失锁即停开/关", "stop on loss on/off"),
        KeyCompare => (
            "对比：翻转一项设置并排显示",
            "compare with one setting flipped",
        ),
        KeyMouseSlider => ("点击/拖动滑块设值", "click/drag a slider to set it"),
        KeyMouseTimeline => (
            "点击/拖动时间线移动光标",
            "click/drag the timeline to move the cursor",
        ),
        KeyPreset => ("下一个/上一个预设", "next/previous preset"),
        KeyWatch => ("链式/羊群监听", "chain/herd watch"),
        KeyRecovery => ("GUID 恢复/盲目重建", "GUID/blind recovery"),
        KeyRegistration => ("原子/两步监听", "atomic/two-step watch"),
        KeyOnLoss => ("失锁即停/照做", "on loss: stop/carry on"),
        HomeLessons => ("课程", "Lessons"),
        HomeLesson => ("第 {} 课", "Lesson {}"),
        ReaderHint => (
            "j/k 滚动  o 目录  / 搜索  Tab/回车 链接  g 术语  ? 按键  q 返回",
            "j/k scroll  o outline  / search  Tab/Enter links  g glossary  ? keys  q back",
        ),
        ReaderNoLesson => ("没有找到这一课。", "This lesson was not found."),
        OutlineTitle => ("目录", "Outline"),
        OutlineClose => ("回车 跳转  o/Esc 关闭", "Enter jumps  o/Esc closes"),
        GlossaryClose => ("上/下 翻看  g/Esc 关闭", "Up/Down browse  g/Esc closes"),
        GlossaryTitle => ("术语", "Glossary"),
        GlossaryEmpty => ("这一课没有术语表。", "This lesson has no glossary."),
        SearchPrompt => ("搜索：", "Search: "),
        SearchNone => ("没有找到「{}」", "No match for \"{}\""),
        SearchCount => (
            "第 {} 处，共 {} 处（n/N 下一处/上一处）",
            "match {} of {} (n/N next/previous)",
        ),
        LinkNone => ("这一课没有链接。", "This lesson has no links."),
        LinkUnknown => ("无法打开这个链接：{}", "Cannot open this link: {}"),
        QuizPending => (
            "闭卷测验「{}」：测验界面尚未开放。",
            "Closed-book quiz \"{}\": the quiz screen is not available yet.",
        ),
        KeyScroll => ("上下滚动一行", "scroll one line"),
        KeyPage => ("上下翻页", "scroll one page"),
        KeyTopBottom => ("跳到开头/结尾", "jump to the top/bottom"),
        KeyOutline => ("目录：跳到某一节", "outline: jump to a section"),
        KeySearch => ("搜索（输入后回车）", "search (type, then Enter)"),
        KeySearchNext => ("下一处/上一处匹配", "next/previous match"),
        KeyLinks => ("下一个/上一个链接", "next/previous link"),
        KeyFollow => ("打开所选链接", "open the selected link"),
        KeyGlossary => ("本课术语（中英对照）", "this lesson's glossary (zh/en)"),
        KeyMouseWheel => ("滚轮滚动", "the wheel scrolls"),
        KeyMouseLink => (
            "点击链接选中，再点一次打开",
            "click a link to select it, again to open it",
        ),
        HomeExplore => ("探索：找出最短反例", "Explore: break a recipe"),
        HomeExploreAbout => (
            "穷举三个客户端的所有交错和有限个故障，给出最短反例，并在 A/B/C 画面里播放。",
            "Every interleaving of three clients and a few faults, breadth first: the shortest story that breaks a recipe, played in the A/B/C lanes.",
        ),
        KeyExploreMove => (
            "选择场景、故障数或结果",
            "choose the scenario, the faults or a result",
        ),
        KeyExploreChange => (
            "换场景或改故障数",
            "change the scenario or the fault budget",
        ),
        KeyExploreRun => (
            "开始搜索；在结果上则在 A/B/C 画面打开",
            "start the search; on a result, open it in the A/B/C screen",
        ),
        KeyExploreCancel => ("取消正在进行的搜索", "cancel the running search"),
        HomeQuizzes => ("闭卷测验", "Closed-book quizzes"),
        HomeReview => ("现在复习（{} 题到期）", "Review now ({} due)"),
        HomeReviewAbout => (
            "今天到期的题目，按复习计划出题。",
            "The questions due for review today, as the schedule asks.",
        ),
        HomeDeck => ("测验：{}", "Quiz: {}"),
        HomeDeckAbout => (
            "这一组的全部题目，闭卷作答。",
            "Every question of this deck, closed-book.",
        ),
        HomeExam => ("混合考试（{} 题）", "Mixed exam ({})"),
        HomeExamAbout => (
            "从所有题组随机抽题，闭卷作答。",
            "Questions drawn from every deck, closed-book.",
        ),
        HomeProgress => ("学习进度", "Progress"),
        HomeProgressAbout => (
            "各题组掌握度、每次得分、未来 14 天到期数、连续天数。",
            "Mastery per deck, the score of each session, reviews due in the next 14 days, the streak.",
        ),
        HomeDue => (
            "今天到期 {} 题；未来 14 天共 {} 题。",
            "Due today: {}; next 14 days: {} in all.",
        ),
        HomeNoProgress => (
            "进度不会保存（没有进度文件）。",
            "Progress is not saved (no progress file).",
        ),
        QuizTitle => ("闭卷测验", "Closed-book quiz"),
        QuizNotes => ("笔记（Tab 开始/结束输入）", "Notes (Tab to type / stop)"),
        QuizYourAnswer => ("你的答案：", "Your answer: "),
        QuizYourOrder => ("你的顺序：", "Your order:"),
        QuizTickedScore => ("已勾选得分：{}/{}", "Points ticked: {}/{}"),
        QuizRate => (
            "自评：1 忘了  2 部分  3 牢固",
            "Rate yourself: 1 forgot  2 partial  3 solid",
        ),
        QuizOpenRun => (
            "按 o 在模拟界面打开这一次运行。",
            "Press o to open this very run in its simulation.",
        ),
        ModelRunAbout => (
            "这道推演题这一次抽到的参数所对应的运行。",
            "The run behind this model question, with the numbers drawn for this attempt.",
        ),
        QuizNoRun => (
            "答完推演题后才能打开它的运行。",
            "A run opens only after answering a model question.",
        ),
        QuizClosedBook => (
            "闭卷：测验结束后才能打开课程和模拟。",
            "Closed-book: lessons and simulations open after the quiz.",
        ),
        QuizConfirmLeave => (
            "离开测验？已答的题目都已保留。y/回车 离开  n/Esc 继续",
            "Leave the quiz? What you answered is kept. y/Enter leave  n/Esc stay",
        ),
        QuizSkipped => (
            "{} 道推演题无法由引擎算出答案，已略过。",
            "{} model questions the engine could not answer were left out.",
        ),
        QuizNotSavedNoFile => ("未保存（没有进度文件）", "not saved (no progress file)"),
        QuizMore => (
            "PgUp/PgDn 滚动（第 {} 行，共 {} 行）",
            "PgUp/PgDn scroll (row {} of {})",
        ),
        QuizHintRecall => (
            "回车/r 显示答案  Tab 笔记  ? 按键  q 离开",
            "Enter/r reveal  Tab notes  ? keys  q leave",
        ),
        QuizHintNotes => (
            "输入笔记  回车 显示答案  Tab/Esc 结束输入",
            "type notes  Enter reveal  Tab/Esc stop typing",
        ),
        QuizHintTick => (
            "数字 或 上/下+空格 勾选答到的要点  回车 确认  q 离开",
            "digits or Up/Down+Space tick the points covered  Enter confirm  q leave",
        ),
        QuizHintRate => (
            "1 忘了  2 部分  3 牢固  q 离开",
            "1 forgot  2 partial  3 solid  q leave",
        ),
        QuizHintChoice => (
            "字母 或 上/下+空格 选择（可多选）  回车 提交  q 离开",
            "letters or Up/Down+Space pick (one or several)  Enter submit  q leave",
        ),
        QuizHintOrder => (
            "上/下 选步骤  Shift-上/下 或 K/J 移动  回车 提交  q 离开",
            "Up/Down choose a step  Shift-Up/Down or K/J move it  Enter submit  q leave",
        ),
        QuizHintNumber => (
            "输入一个数  回车 提交  q 离开",
            "type a number  Enter submit  q leave",
        ),
        QuizHintOption => (
            "字母 或 上/下+空格 选一项  回车 提交  q 离开",
            "a letter or Up/Down+Space pick one  Enter submit  q leave",
        ),
        QuizHintAnswered => ("回车 下一题  q 离开", "Enter next question  q leave"),
        QuizHintAnsweredModel => (
            "回车 下一题  o 打开这次运行  q 离开",
            "Enter next question  o open this run  q leave",
        ),
        QuizHintEnd => ("回车/q 返回", "Enter/q back"),
        StatsTitle => ("学习进度", "Progress"),
        StatsHint => ("L 切换语言  ? 按键  q 返回", "L language  ? keys  q back"),
        StatsNoFile => ("没有进度文件。", "There is no progress file."),
        StatsStreak => ("连续学习：{} 天", "Streak: {} days"),
        StatsHistory => ("每次测验得分（%）", "Score per session (%)"),
        StatsNoSessions => ("还没有完成的测验。", "No session finished yet."),
        StatsLastSession => ("最近一次：{}%", "Last session: {}%"),
        KeyQuizSubmit => (
            "显示答案 / 确认要点 / 提交 / 下一题",
            "reveal / confirm points / submit / next question",
        ),
        KeyQuizNotes => ("回忆题：开始/结束输入笔记", "recall: type notes / stop"),
        KeyQuizTick => (
            "移动光标；勾选要点或选项",
            "move the cursor; tick a point or pick an option",
        ),
        KeyQuizDigits => (
            "勾选第 N 个要点；自评 1 忘了 2 部分 3 牢固",
            "tick point N; rate 1 forgot 2 partial 3 solid",
        ),
        KeyQuizLetters => ("选择/取消选项", "pick or drop an option"),
        KeyQuizMoveStep => (
            "排序题：上移/下移所选步骤",
            "order: move the chosen step up/down",
        ),
        KeyQuizOpenRun => (
            "推演题答完后：在模拟中打开这次运行",
            "model, once answered: open this run in its simulation",
        ),
        KeyQuizScroll => (
            "滚动放不下的参考答案或解析",
            "scroll a reference answer or explanation that does not fit",
        ),
        KeyQuizLeave => (
            "离开测验（先确认；已答的保留）",
            "leave the quiz (asks first; answers are kept)",
        ),
        KeyQuizHint => (
            "看提示（这道题最多只算一半的分）",
            "take the hint (the answer then counts at most half its points)",
        ),
        KeyHomeFilter => (
            "测验筛选行：切换题型或难度",
            "on a quiz filter row: change the kind or difficulty",
        ),
    };
    lang.pick(zh, en)
}
