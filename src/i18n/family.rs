//! The words of the family lab: the screen that runs the knob families (read-write lock,
//! semaphore, leader election, durable tasks, Redlock, Snowflake IDs, etcd) with their knob panel.
//! Each key sits beside its words in both languages.

use crate::engine::trace::Family;

use super::{Lang, words};

words! {
    /// A word or sentence of the family lab.
    pub enum Fam =>
    /// The words for `key` in `lang`; a `{}` is a place for a name or a value.
    pub fn fam;
    /// The screen's name in the title, before the family.
    Lab => ("实验", "Lab"),
    /// Home: how the lab row is used.
    HomeDetail => (
        "左/右 换一族（读写锁、信号量、选主、任务领取、Redlock、雪花 ID、etcd），回车打开。",
        "Left/Right choose the family (read-write lock, semaphore, election, task claims, Redlock, Snowflake IDs, etcd); Enter opens it.",
    ),
    Knobs => ("参数", "Knobs"),
    Metrics => ("指标", "Metrics"),
    /// The focused knob is free text the screen does not edit.
    ReadOnly => (
        "「{}」是文字参数，这里只显示；要改它，在命令行用 {} 指定。",
        "\"{}\" is text, shown here only; set it on the command line with {}.",
    ),
    /// A knob change the engine refused, with its reason.
    Refused => ("引擎拒绝了这个值：{}", "The engine refused that value: {}"),
    /// Compare: the family has no correct/broken pair to flip.
    NoVariant => (
        "这一族没有可以对比的正确/错误做法；改参数看变化吧。",
        "This family has no correct/broken pair to compare; change a knob instead.",
    ),
    /// The compare caption: what the second run flips.
    VariantRun => ("对比：{}", "compared with: {}"),
    OutcomeHidden => (
        "指标和不变量：先预测一下，再按 v 看全程",
        "metrics and invariants: predict them first, then v shows the whole run",
    ),
    Range => ("范围 {}", "range {}"),
    Options => ("可选 {}", "one of {}"),
    Unset => ("未设", "unset"),
    KeyKnobSelect => ("选择参数", "choose a knob"),
    KeyKnobChange => (
        "调整参数（开关切换、选项轮换；Shift 大步）",
        "change the knob (switches flip, choices cycle; Shift for big steps)",
    ),
    KeyCompare => (
        "与正确/错误做法对比（两次运行分开处标 ◇）",
        "compare with the correct / broken variant (◇ where the runs part)",
    ),
    HintKnobs => ("↑↓←→ 参数", "↑↓←→ knobs"),
    HintCompare => ("c 对比", "c compare"),
}

/// The family's name as a learner knows it.
pub fn family_name(f: Family, lang: Lang) -> &'static str {
    let (zh, en) = match f {
        Family::Rwlock => ("读写锁", "Read-write lock"),
        Family::Semaphore => ("信号量", "Semaphore"),
        Family::Election => ("选主与任期号", "Leader election with epochs"),
        Family::Tasks => ("持久任务领取", "Durable task claims"),
        Family::Redlock => ("Redlock", "Redlock"),
        Family::Snowflake => ("雪花 ID", "Snowflake IDs"),
        Family::Etcd => ("etcd 租约锁", "etcd's lease lock"),
        Family::Frozen => ("冻结的持锁者", "Frozen holder"),
        Family::Abc => ("A/B/C 队列", "A/B/C queue"),
        Family::Herd => ("羊群与链式", "Herd versus chain"),
    };
    lang.pick(zh, en)
}

/// One sentence on what the family's lab lets a learner break.
pub fn family_about(f: Family, lang: Lang) -> &'static str {
    let (zh, en) = match f {
        Family::Rwlock => (
            "读者一起读、写者独占；让读者越过等待中的写者，看写者饿死。",
            "Readers share, a writer holds alone; let readers skip a waiting writer and watch it starve.",
        ),
        Family::Semaphore => (
            "N 个许可；会话过期放出许可，持有者还在里面时调低许可数。",
            "N permits; an expired session frees one, and lowering the count leaves holders inside.",
        ),
        Family::Election => (
            "新领导者用条件更新接管作业；改成无条件更新，旧领导者的结果就会覆盖。",
            "A new leader takes the job over with a conditional update; make it unconditional and the old leader's result overwrites.",
        ),
        Family::Tasks => (
            "带版本号的条件更新领取任务；暂停、续约失败、迟到的完成和重复的副作用。",
            "Claims by conditional update with a version; a pause, a failed renewal, a late completion and a duplicate side effect.",
        ),
        Family::Redlock => (
            "五个独立 Redis 节点取多数；节点重启、时钟跳变、GC 暂停和误删别人的锁。",
            "A majority of independent Redis nodes; a restart, a clock jump, a GC pause and deleting someone else's lock.",
        ),
        Family::Snowflake => (
            "时间 | 机器 | 序号拼成的 ID；重启、时钟回拨、同一机器号和序号用尽。",
            "IDs as time | worker | sequence; a restart, a clock going back, a shared worker id and a full sequence.",
        ),
        Family::Etcd => (
            "租约加续约，按创建版本排队，只等前一个键；停顿、续约失败，以及版本令牌和事务守卫。",
            "A lease with keep-alives, a queue by create revision, each waiter on the key ahead; a pause, a failed keep-alive, the revision token and the Txn guard.",
        ),
        Family::Frozen | Family::Abc | Family::Herd => ("", ""),
    };
    lang.pick(zh, en)
}

/// The compared run's setting, in words; `correct` is whether it is the family's correct one.
pub fn variant_words(f: Family, correct: bool, lang: Lang) -> &'static str {
    let (zh, en) = match (f, correct) {
        (Family::Rwlock, true) => (
            "公平规则（读者等前面的写者）",
            "the fair rule (readers wait for earlier writers)",
        ),
        (Family::Rwlock, false) => ("读者越过等待中的写者", "readers skipping waiting writers"),
        (Family::Election, true) => (
            "条件更新（版本号与任期号）",
            "the conditional update (version and epoch)",
        ),
        (Family::Election, false) => ("无条件更新", "the unconditional update"),
        (Family::Tasks, true) => (
            "完成时核对领取版本号",
            "completion that checks the claim version",
        ),
        (Family::Tasks, false) => ("无条件的完成语句", "an unconditional completion"),
        (Family::Redlock, true) => (
            "比较后删除（Lua 脚本）",
            "compare-and-delete (the Lua script)",
        ),
        (Family::Redlock, false) => ("直接 DEL", "a naive DEL"),
        (Family::Snowflake, true) => ("打开全部防护", "every defence on"),
        (Family::Snowflake, false) => ("关掉全部防护", "every defence off"),
        (Family::Etcd, true) => (
            "写入有守卫（版本令牌或事务）",
            "a guard on the write (the revision token or the Txn)",
        ),
        (Family::Etcd, false) => ("写入没有守卫", "no guard on the write"),
        _ => ("", ""),
    };
    lang.pick(zh, en)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_knob_family_has_words_in_both_languages() {
        for f in [
            Family::Rwlock,
            Family::Semaphore,
            Family::Election,
            Family::Tasks,
            Family::Redlock,
            Family::Snowflake,
            Family::Etcd,
        ] {
            for lang in [Lang::Zh, Lang::En] {
                assert!(!family_name(f, lang).is_empty());
                assert!(!family_about(f, lang).is_empty());
            }
        }
        assert_ne!(
            fam(Fam::Knobs, Lang::Zh),
            fam(Fam::Knobs, Lang::En),
            "the Chinese is not the English"
        );
    }
}
