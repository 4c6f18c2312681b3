//! The words of the presentation screen: its outcome line, question and answer.

use super::words;

words! {
    /// A fixed word or label of the presentation screen.
    pub enum Present => pub fn present;
    Colon => ("：", ": "),
    WakeUpsPerRelease => ("每次释放唤醒", "wake-ups per release"),
    Stuck => ("卡死", "stuck"),
    Duplicates => ("重复节点", "duplicates"),
    StaleWritesAcceptedRejected => ("陈旧写入 接受/拒绝", "stale writes accepted/rejected"),
    Notifications => ("通知", "notifications"),
    Wasted => ("无效唤醒", "wasted"),
    Total => ("总耗时", "total"),
    Question => ("提问：", "Question: "),
    Answer => ("答案：", "Answer: "),
}
