//! The explorer's words: its report on the command line and its screen.

use super::Lang;
use crate::engine::world::step::FaultKind;

/// A fault kind in a few words.
pub fn fault_kind(k: FaultKind, lang: Lang) -> &'static str {
    let (zh, en) = match k {
        FaultKind::Freeze => ("停顿", "freeze"),
        FaultKind::Disconnect => ("断连", "disconnect"),
        FaultKind::Crash => ("崩溃", "crash"),
        FaultKind::LostResponse => ("响应丢失", "lost response"),
        FaultKind::ReleaseEarly => ("读与监听之间删除", "delete between read and watch"),
    };
    lang.pick(zh, en)
}

/// The bounds in words: "3 clients, one acquisition each, up to 2 faults (freeze, crash), depth 60".
pub fn bounds(faults: u8, kinds: &[FaultKind], depth: u32, lang: Lang) -> String {
    let names: Vec<&str> = kinds.iter().map(|k| fault_kind(*k, lang)).collect();
    match lang {
        Lang::Zh => format!(
            "3 个客户端，各取锁一次，至多 {faults} 个故障（{}），深度 {depth}",
            names.join("、")
        ),
        Lang::En => format!(
            "3 clients, one acquisition each, up to {faults} fault{} ({}), depth {depth}",
            if faults == 1 { "" } else { "s" },
            names.join(", ")
        ),
    }
}

/// The search's numbers.
pub fn numbers(
    states: u64,
    distinct: u64,
    depth: u32,
    elapsed_ms: u64,
    per_sec: u64,
    lang: Lang,
) -> String {
    let secs = elapsed_ms as f64 / 1000.0;
    match lang {
        Lang::Zh => format!(
            "生成状态 {states} 个，其中不同的 {distinct} 个，到达深度 {depth}，用时 {secs:.2} 秒，每秒 {per_sec} 个状态"
        ),
        Lang::En => format!(
            "{states} states generated, {distinct} distinct, depth {depth} reached, {secs:.2} s, {per_sec} states/s"
        ),
    }
}

pub fn complete(lang: Lang) -> &'static str {
    lang.pick(
        "有界空间已全部搜索完毕：",
        "The whole bounded space was explored: ",
    )
}

pub fn incomplete(max_states: u64, lang: Lang) -> String {
    match lang {
        Lang::Zh => format!(
            "搜索在 --max-states {max_states} 处停下，有界空间没有搜完：结果不完整，没搜到的状态里有没有违例，这里不作结论。"
        ),
        Lang::En => format!(
            "The search stopped at --max-states {max_states} before the bounded space was explored: the result is incomplete and says nothing about the states it did not reach."
        ),
    }
}

pub fn cancelled(lang: Lang) -> &'static str {
    lang.pick(
        "搜索已取消：结果不完整。",
        "The search was cancelled: the result is incomplete.",
    )
}

pub fn depth_limited(lang: Lang) -> &'static str {
    lang.pick(
        "有些路径比深度上限更长，在上限处被截断。",
        "Some paths go on past the depth bound; they were cut there.",
    )
}

pub fn fails(steps: usize, after_ms: u64, lang: Lang) -> String {
    let secs = after_ms as f64 / 1000.0;
    match lang {
        Lang::Zh => format!("被打破，最短反例 {steps} 步（搜索 {secs:.2} 秒时找到）："),
        Lang::En => {
            format!("fails; shortest counterexample: {steps} steps (found after {secs:.2} s):")
        }
    }
}

pub fn holds(lang: Lang) -> &'static str {
    lang.pick("在到达的每个状态中都成立", "holds in every state reached")
}

pub fn replayed(detail: &str, at: &str, lang: Lang) -> String {
    match lang {
        Lang::Zh => format!("按时间重放：{detail}，始于 {at} 秒。"),
        Lang::En => format!("Replayed as a timed run: {detail}, from {at} s."),
    }
}

pub fn sometimes(lang: Lang) -> &'static str {
    lang.pick("「有时」性质：", "Sometimes:")
}

pub fn witness(steps: usize, lang: Lang) -> String {
    match lang {
        Lang::Zh => format!("有见证，{steps} 步"),
        Lang::En => format!("witness in {steps} steps"),
    }
}

pub fn no_witness(lang: Lang) -> &'static str {
    lang.pick("界内没有见证", "no witness within the bounds")
}

pub fn clean(bounds: &str, lang: Lang) -> String {
    match lang {
        Lang::Zh => format!("界内没有不变量被打破（{bounds}）。"),
        Lang::En => format!("No invariant fails within the bounds ({bounds})."),
    }
}

pub fn nothing_found_yet(lang: Lang) -> &'static str {
    lang.pick(
        "到目前为止没有发现违例，但搜索不完整，不能据此断言没有违例。",
        "No violation found so far, but the search is incomplete: that is no claim that none exists.",
    )
}

pub fn saved(path: &str, lang: Lang) -> String {
    match lang {
        Lang::Zh => format!("反例已存为场景文件 {path}（可用 sim run、present、export 打开）。"),
        Lang::En => format!(
            "Counterexample saved as the scenario file {path} (for sim run, present and export)."
        ),
    }
}

pub fn nothing_to_save(lang: Lang) -> &'static str {
    lang.pick(
        "没有可保存的反例：界内没有不变量被打破。",
        "Nothing to save: no invariant failed within the bounds.",
    )
}

pub fn about_counterexample(preset: &str, invariant: &str, steps: usize, lang: Lang) -> String {
    match lang {
        Lang::Zh => format!(
            "locklab explore 在 {preset} 中找到的最短反例：{steps} 步之后，「{invariant}」被打破。"
        ),
        Lang::En => format!(
            "The shortest counterexample locklab explore found in {preset}: after {steps} steps, “{invariant}” fails."
        ),
    }
}
