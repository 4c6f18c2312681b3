//! The words of a live election run, in both languages.

use std::fmt::Write as _;

use super::compare::{Fact, FactRow, Pair, Side};
use super::record::Row;
use crate::engine::msg::RowOp;
use crate::engine::time::{Millis, fmt_secs};
use crate::i18n::Lang;

pub fn running(preset: &str, story_ms: Millis, scale: f64, lang: Lang) -> String {
    let wall = fmt_secs((story_ms as f64 * scale).round() as Millis);
    let story = fmt_secs(story_ms);
    match lang {
        Lang::Zh => format!(
            "在 ZooKeeper 和 PostgreSQL 上实跑 {preset}：故事里的 {story} 秒，墙钟最多 {wall} 秒（时间倍率 {scale}）……"
        ),
        Lang::En => format!(
            "Running {preset} on ZooKeeper and PostgreSQL: {story} s of the story in at most {wall} s of wall time (time scale {scale}) ..."
        ),
    }
}

fn op(o: RowOp, lang: Lang) -> &'static str {
    match o {
        RowOp::TakeOver => lang.pick("接管", "take over"),
        RowOp::Submit => lang.pick("提交", "submit"),
        _ => lang.pick("更新", "update"),
    }
}

fn pad(s: &str, w: usize) -> String {
    format!("{s}{}", " ".repeat(w.saturating_sub(crate::text::width(s))))
}

/// `DONE / B / 27 / v5`: state, owner, epoch, version.
pub fn row_text(r: &Row) -> String {
    let state = serde_json::to_value(r.state)
        .ok()
        .and_then(|v| v.as_str().map(str::to_uppercase))
        .unwrap_or_default();
    let owner = r.owner.as_deref().unwrap_or("-");
    format!("{state} / {owner} / {} / v{}", r.epoch, r.version)
}

fn cell(s: &Side, lang: Lang) -> String {
    let rows = match lang {
        Lang::Zh => format!("{} 行", s.affected),
        Lang::En if s.affected == 1 => "1 row".to_string(),
        Lang::En => format!("{} rows", s.affected),
    };
    let times = if s.count > 1 {
        match lang {
            Lang::Zh => format!("（{} 次，每秒一次）", s.count),
            Lang::En => format!(" ({} times, once a second)", s.count),
        }
    } else {
        String::new()
    };
    format!(
        "{} {} {} {} {}{times}",
        pad(&fmt_secs(s.at_ms), 7),
        pad(&s.by, 2),
        pad(op(s.op, lang), 10),
        pad(&rows, 7),
        row_text(&s.row)
    )
}

fn fact(f: Fact, lang: Lang) -> &'static str {
    match f {
        Fact::Leaders => lang.pick("领导者与任期号", "leaders and epochs"),
        Fact::FinalRow => lang.pick("作业行最后", "the row at the end"),
        Fact::Result => lang.pick("留下的结果", "whose result stands"),
        Fact::StaleRejected => lang.pick("被拒绝的陈旧提交", "stale submissions refused"),
        Fact::StaleAccepted => lang.pick("被接受的陈旧提交", "stale submissions accepted"),
        Fact::MaxLeaders => lang.pick("同时领导的最多个数", "most leaders at once"),
        Fact::Broken => lang.pick("不成立的不变量", "invariants broken"),
        Fact::Expired => lang.pick("A 的会话过期（秒）", "A's session expired (s)"),
        Fact::Elected => lang.pick("B 当选（秒）", "B elected (s)"),
        Fact::TookOver => lang.pick("B 接管成功（秒）", "B took the job over (s)"),
        Fact::Submitted => lang.pick("B 提交（秒）", "B submitted (s)"),
        Fact::StaleSubmitted => lang.pick("A 迟到的提交（秒）", "A's late submission (s)"),
    }
}

/// The statements side by side, then the facts and instants, then the statements' text.
pub fn report(pairs: &[Pair], facts: &[FactRow], conditional: bool, lang: Lang) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{}",
        lang.pick(
            "作业 rollup 的语句，按表接收的顺序（故事时间，秒；行：状态 / 持有者 / 任期号 / 版本）：",
            "The statements on the rollup job, in the order the table took them (story time, s; row: state / owner / epoch / version):"
        )
    );
    for p in pairs {
        let mark = if p.same { " " } else { "≠" };
        let show = |s: &Option<Side>| s.as_ref().map_or("-".to_string(), |s| cell(s, lang));
        let _ = writeln!(
            out,
            "  {mark} {} {}",
            lang.pick("实跑", "live "),
            show(&p.live).trim_end()
        );
        let _ = writeln!(
            out,
            "    {} {}",
            lang.pick("模型", "model"),
            show(&p.model).trim_end()
        );
    }
    let _ = writeln!(out);
    let (h_fact, h_model, h_live) = (
        lang.pick("事实", "fact"),
        lang.pick("模型", "model"),
        lang.pick("实跑", "live"),
    );
    let _ = writeln!(out, "  {} {} {}", pad(h_fact, 28), pad(h_model, 24), h_live);
    for f in facts {
        let mark = if f.same { " " } else { "≠" };
        let tol = f.tolerance_ms.map_or(String::new(), |t| match lang {
            Lang::Zh => format!("（允许相差 {} 秒）", fmt_secs(t)),
            Lang::En => format!(" (within {} s)", fmt_secs(t)),
        });
        let _ = writeln!(
            out,
            "{mark} {} {} {}{tol}",
            pad(fact(f.fact, lang), 28),
            pad(&f.model, 24),
            f.live
        );
    }
    let differ =
        pairs.iter().filter(|p| !p.same).count() + facts.iter().filter(|f| !f.same).count();
    let _ = writeln!(out, "\n{}", crate::live::words::verdict(differ, lang));
    let _ = writeln!(
        out,
        "\n{}\n  {}\n  {}",
        lang.pick(
            "表执行的语句（store_now() 是数据库的时钟）：",
            "The statements the table ran (store_now() is the database's clock):"
        ),
        super::sql::TAKE_OVER,
        if conditional {
            super::sql::SUBMIT
        } else {
            super::sql::SUBMIT_ANYWAY
        }
    );
    let _ = writeln!(
        out,
        "\n{}",
        lang.pick(
            "简化之处：任期号存放在一个普通节点里，由新领导者用带版本号的 setData 加一；A 的停顿是真的停住线程，会话由服务器按它自己的 tick 过期；B 接管失败后每秒重试一次，所以被拒绝的次数取决于过期落在哪个 tick 上。",
            "Where locklab simplifies: the epoch is an ordinary node the new leader raises by one with a setData on the version it read; A's pause is a real stopped thread, and the server expires its session on its own tick; B retries a refused takeover once a second, so how many are refused depends on the tick the expiry falls on."
        )
    );
    out
}
