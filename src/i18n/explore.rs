//! The explorer's words: its report on the command line and its screen.

use super::{Lang, words};
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

/// The bounds in words: "3 clients, one acquisition each, up to 2 faults (freeze, crash; not
/// disconnect, lost response, delete between read and watch), depth 60". Kinds the search
/// leaves out are named, so that a clean result never reads wider than it is.
pub fn bounds(faults: u8, kinds: &[FaultKind], depth: u32, lang: Lang) -> String {
    let names: Vec<&str> = kinds.iter().map(|k| fault_kind(*k, lang)).collect();
    let left_out: Vec<&str> = FaultKind::ALL
        .into_iter()
        .filter(|k| faults > 0 && !kinds.contains(k))
        .map(|k| fault_kind(k, lang))
        .collect();
    match lang {
        Lang::Zh => {
            let not = if left_out.is_empty() {
                String::new()
            } else {
                format!("；不含{}", left_out.join("、"))
            };
            format!(
                "3 个客户端，各取锁一次，至多 {faults} 个故障（{}{not}），深度 {depth}",
                names.join("、")
            )
        }
        Lang::En => {
            let not = if left_out.is_empty() {
                String::new()
            } else {
                format!("; not {}", left_out.join(", "))
            };
            format!(
                "3 clients, one acquisition each, up to {faults} fault{} ({}{not}), depth {depth}",
                if faults == 1 { "" } else { "s" },
                names.join(", ")
            )
        }
    }
}

/// A count with a comma between each group of three digits: `3,000,000`.
pub fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, d) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(d);
    }
    out
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
    let (states, distinct, per_sec) = (grouped(states), grouped(distinct), grouped(per_sec));
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
    let limit = grouped(max_states);
    match lang {
        Lang::Zh => format!(
            "搜索在 {limit} 个状态的上限（--max-states）处停下，有界空间没有搜完：结果不完整，没搜到的状态里有没有违例，这里不作结论。"
        ),
        Lang::En => format!(
            "The search stopped at the {limit}-state limit (--max-states) before the bounded space was explored: the result is incomplete and says nothing about the states it did not reach."
        ),
    }
}

pub fn memory_limit(limit: &str, lang: Lang) -> String {
    match lang {
        Lang::Zh => format!(
            "搜索在内存上限（{limit}）处停下，有界空间没有搜完：结果不完整，没搜到的状态里有没有违例，这里不作结论。可用 --max-memory 调高上限，或减少 --faults、--depth。"
        ),
        Lang::En => format!(
            "The search stopped at the memory limit ({limit}) before the bounded space was explored: the result is incomplete and says nothing about the states it did not reach. Raise it with --max-memory, or lower --faults or --depth."
        ),
    }
}

pub fn interrupted(lang: Lang) -> &'static str {
    lang.pick(
        "被 Ctrl-C 中断：上面的报告是目前为止找到的，不完整。",
        "interrupted by Ctrl-C: the report above is what was found so far, incomplete.",
    )
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

/// A counterexample's length, as the report and the Explore screen both give it: the choices the
/// search made, and every step of the schedule they lead to.
pub fn length(choices: usize, steps: usize, lang: Lang) -> String {
    match lang {
        Lang::Zh => format!("{choices} 个选择（连同请求到达共 {steps} 步）"),
        Lang::En => format!("{choices} choices ({steps} steps in all)"),
    }
}

pub fn fails(choices: usize, steps: usize, after_ms: u64, lang: Lang) -> String {
    let secs = after_ms as f64 / 1000.0;
    let length = length(choices, steps, lang);
    match lang {
        Lang::Zh => format!("被打破，最短反例 {length}，搜索 {secs:.2} 秒时找到："),
        Lang::En => {
            format!("fails; shortest counterexample: {length}, found after {secs:.2} s:")
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

pub fn witness(choices: usize, lang: Lang) -> String {
    match lang {
        Lang::Zh => format!("有见证，{choices} 个选择"),
        Lang::En => format!("witness in {choices} choices"),
    }
}

/// No witness: within the bounds if the search finished, else only in the part it reached.
pub fn no_witness(complete: bool, lang: Lang) -> &'static str {
    if complete {
        lang.pick("界内没有见证", "no witness within the bounds")
    } else {
        lang.pick("已搜到的部分里没有见证", "no witness in the part searched")
    }
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

/// A saved counterexample's `about`: `length` is [`length`] for A/B/C, [`events`] for a family.
pub fn about_counterexample(preset: &str, invariant: &str, length: &str, lang: Lang) -> String {
    match lang {
        Lang::Zh => format!(
            "locklab explore 在 {preset} 中找到的最短反例：{length}之后，「{invariant}」被打破。"
        ),
        Lang::En => format!(
            "The shortest counterexample locklab explore found in {preset}: after {length}, “{invariant}” fails."
        ),
    }
}

words! {
    /// The Explore screen's words.
    pub enum Screen => pub fn screen;
    Title => (
        "探索：找出打破配方的交错",
        "Explore: find the interleaving that breaks a recipe",
    ),
    Lead => (
        "广度优先穷举三个客户端的每一种交错，外加有限个故障；最先找到的违例就是最短的反例。",
        "Every interleaving of three clients and a few faults, breadth first: the first violation found is a shortest one.",
    ),
    Scenario => ("场景", "Scenario"),
    Faults => ("故障数", "Faults"),
    Memory => ("内存上限", "Memory limit"),
    Bounds => ("界", "Bounds"),
    Idle => ("按回车开始搜索。", "Press Enter to search."),
    Searching => ("正在搜索……按 x 取消。", "Searching... x cancels."),
    Done => (
        "有界空间已全部搜完。",
        "The whole bounded space was explored.",
    ),
    Cancelled => (
        "已取消：结果不完整，没搜到的部分不作结论。",
        "Cancelled: incomplete, and no claim about what was not reached.",
    ),
    Incomplete => (
        "达到状态上限而停下：结果不完整，没搜到的部分不作结论。",
        "Stopped at the state limit: incomplete, and no claim about what was not reached.",
    ),
    MemoryStop => (
        "达到内存上限而停下：结果不完整，没搜到的部分不作结论。",
        "Stopped at the memory limit: incomplete, and no claim about what was not reached.",
    ),
    Violations => ("被打破的不变量", "Invariants broken"),
    Witnesses => ("「有时」性质", "Sometimes"),
    NoneYet => ("到目前为止没有违例。", "No violation so far."),
    Clean => (
        "界内没有不变量被打破。",
        "No invariant fails within the bounds.",
    ),
    Hint => (
        "↑↓ 选择  ←→ 修改  回车 搜索/打开  ? 帮助  Esc 返回",
        "Up/Down choose  Left/Right change  Enter search/open  ? help  Esc back",
    ),
    HintRunning => ("x 取消  Esc 返回", "x cancel  Esc back"),
    Open => (
        "回车：在 A/B/C 画面打开，按 c 对比正确配方",
        "Enter: open in the A/B/C screen; c there compares the correct recipe",
    ),
}

/// The progress line: "12,345 states, 4,567 distinct, depth 21, 321 waiting, 45,678/s, 1.2 s".
pub fn progress(
    states: u64,
    distinct: u64,
    depth: u32,
    waiting: usize,
    rate: u64,
    ms: u64,
    lang: Lang,
) -> String {
    let secs = ms as f64 / 1000.0;
    let (states, distinct, rate) = (grouped(states), grouped(distinct), grouped(rate));
    let waiting = grouped(waiting as u64);
    match lang {
        Lang::Zh => format!(
            "状态 {states}，不同 {distinct}，深度 {depth}，待展开 {waiting}，每秒 {rate}，{secs:.1} 秒"
        ),
        Lang::En => format!(
            "{states} states, {distinct} distinct, depth {depth}, {waiting} waiting, {rate}/s, {secs:.1} s"
        ),
    }
}

/// One result row.
pub fn violation_row(label: &str, choices: usize, steps: usize, lang: Lang) -> String {
    let length = length(choices, steps, lang);
    match lang {
        Lang::Zh => format!("✗ {label}：{length}即被打破"),
        Lang::En => format!("✗ {label}: broken in {length}"),
    }
}

pub fn witness_row(label: &str, found: Option<usize>, complete: bool, lang: Lang) -> String {
    match (found, lang) {
        (Some(n), Lang::Zh) => format!("✓ {label}：{n} 个选择的见证"),
        (Some(n), Lang::En) => format!("✓ {label}: a witness in {n} choices"),
        (None, Lang::Zh) => format!("- {label}：{}", no_witness(complete, lang)),
        (None, Lang::En) => format!("- {label}: {}", no_witness(complete, lang)),
    }
}

/// What the progress bar measures.
pub fn bar_label(max_states: u64, complete: bool, lang: Lang) -> String {
    match (complete, lang) {
        (true, Lang::Zh) => "已搜完".into(),
        (true, Lang::En) => "all explored".into(),
        (false, Lang::Zh) => format!("占状态上限 {} 的比例", grouped(max_states)),
        (false, Lang::En) => format!("of the {}-state limit", grouped(max_states)),
    }
}

/// The A/B/C screen's compare caption for a counterexample.
pub fn compare_caption(lang: Lang) -> &'static str {
    lang.pick("同一调度，正确配方", "the same schedule, correct recipe")
}

/// The A/B/C screen's title for a counterexample: "watch-race-broken: nobody stuck".
pub fn story_name(preset: &str, label: &str, lang: Lang) -> String {
    match lang {
        Lang::Zh => format!("{preset} 的反例：{label}"),
        Lang::En => format!("{preset}: {label}"),
    }
}

pub fn about_witness(preset: &str, property: &str, steps: usize, lang: Lang) -> String {
    match lang {
        Lang::Zh => format!(
            "locklab explore 在 {preset} 中找到的最短见证：{steps} 步之内，「{property}」成立了一次。"
        ),
        Lang::En => format!(
            "The shortest witness locklab explore found in {preset}: within {steps} steps, “{property}” happens."
        ),
    }
}

/// The bounds of a search that keeps the clock: which fault, on which actors (`who` names the
/// only one when there is one), at how many instants.
pub fn timed_bounds(
    preset: &str,
    family: &str,
    targets: u32,
    who: &str,
    instants: usize,
    lang: Lang,
) -> String {
    let instants = grouped(instants as u64);
    match (lang, targets) {
        (Lang::Zh, 0) => {
            format!("{preset}（{family}，保留时钟）：场景里没有要放置的故障，只按时间运行它本身")
        }
        (Lang::En, 0) => format!(
            "{preset} ({family}, clock kept): no fault to place, the scenario's own timed run only"
        ),
        (Lang::Zh, 1) => format!(
            "{preset}（{family}，保留时钟）：场景的故障落在 {who}，可落在任一时刻：不带故障的运行和按计划带故障的运行里发生事件、收发消息的 {instants} 个时刻（及其后 1 毫秒）"
        ),
        (Lang::En, 1) => format!(
            "{preset} ({family}, clock kept): the scenario's fault strikes {who} at any of {instants} instants (each one at which something happens, or a message is sent or received, in the run without the fault or with it as planned, and the millisecond after)"
        ),
        (Lang::Zh, _) => format!(
            "{preset}（{family}，保留时钟）：场景的故障可落在 {targets} 个对象中的任一个，任一时刻：不带故障的运行和按计划带故障的运行里发生事件、收发消息的 {instants} 个时刻（及其后 1 毫秒）"
        ),
        (Lang::En, _) => format!(
            "{preset} ({family}, clock kept): the scenario's fault may strike any of {targets} actors at any of {instants} instants (each one at which something happens, or a message is sent or received, in the run without the fault or with it as planned, and the millisecond after)"
        ),
    }
}

pub fn timed_numbers(runs: u64, space: u64, elapsed_ms: u64, lang: Lang) -> String {
    let secs = elapsed_ms as f64 / 1000.0;
    let (runs, space) = (grouped(runs), grouped(space));
    match lang {
        Lang::Zh => format!("按时间运行 {runs} 次（有界空间共 {space} 次），用时 {secs:.2} 秒"),
        Lang::En => format!("{runs} timed runs of the {space} in the bounded space, {secs:.2} s"),
    }
}

/// A family counterexample's length: the events of its timed run.
pub fn events(n: usize, lang: Lang) -> String {
    match lang {
        Lang::Zh => format!("{n} 个事件"),
        Lang::En => format!("{n} events"),
    }
}

pub fn timed_fails(steps: usize, at: &str, lang: Lang) -> String {
    match lang {
        Lang::Zh => format!("被打破，最早的反例在 {at} 失败，此前 {steps} 个事件"),
        Lang::En => {
            format!("fails; the earliest counterexample fails at {at}, after {steps} events")
        }
    }
}

pub fn timed_holds(lang: Lang) -> &'static str {
    lang.pick("在每一次运行中都成立", "holds in every run")
}

pub fn timed_strike(who: &str, at: &str, lang: Lang) -> String {
    match lang {
        Lang::Zh => format!("故障落在 {who}，时刻 {at}。"),
        Lang::En => format!("The fault strikes {who} at {at}."),
    }
}

pub fn timed_no_fault(lang: Lang) -> &'static str {
    lang.pick(
        "不需要故障：场景按时间运行本身就打破它。",
        "No fault needed: the scenario's own timed run breaks it.",
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_of_five_digits_or_more_are_grouped_in_every_report_line() {
        assert_eq!(grouped(9_999), "9,999");
        assert_eq!(grouped(3_000_000), "3,000,000");
        for lang in [Lang::En, Lang::Zh] {
            let stop = incomplete(3_000_000, lang);
            assert!(
                stop.contains("3,000,000") && !stop.contains("3000000"),
                "{stop}"
            );
            let runs = timed_numbers(12_345, 1_048_576, 1_500, lang);
            assert!(
                runs.contains("12,345") && runs.contains("1,048,576"),
                "{runs}"
            );
            let bounds = timed_bounds("p", "tasks", 2, "A", 20_000, lang);
            assert!(bounds.contains("20,000"), "{bounds}");
        }
    }
}
