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
    HerdChartHidden => (
        "每次释放的唤醒计数就是这道题的答案，揭晓（r）后再画出来。",
        "The chart counts every release's wake-ups, which is the answer: it appears once revealed (r).",
    ),
    Answer => ("答案：", "Answer: "),
    PredictPrompt => ("先预测，按数字选择：", "Predict first, press a number: "),
    PredictAloud => (
        "这道题没有可选的答案，请先说出你的预测，再按 r 揭晓。",
        "This question has no choices to pick: say your prediction, then press r.",
    ),
    Predicted => ("你的预测：", "Your prediction: "),
    PredictRight => ("猜对了", "right"),
    PredictWrong => ("猜错了", "wrong"),
    PredictOn => ("预测模式", "prediction mode"),
    PredictionsScore => (
        "实验中做过的预测：{} 次，猜对 {} 次",
        "predictions made in the lab: {}, {} right",
    ),
    PredictAsk => ("预测：", "Predict: "),
    PredictNoQuestion => (
        "这次运行没有可以预测的问题。",
        "This run has no question to predict.",
    ),
    PredictPickFirst => (
        "先按数字选出你的预测，或按 P 放弃这次预测。",
        "Pick your prediction with a number first, or press P to drop it.",
    ),
    PredictPlaying => ("正在播放到 {} 秒……", "playing to {} s…"),
}
