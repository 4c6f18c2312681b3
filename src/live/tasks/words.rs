//! The words of a live task run, in both languages.

use super::compare::{Fact, FactRow, Pair, Side, row_text};
use super::{Run, STAGGER};
use crate::engine::msg::RowOp;
use crate::engine::time::{Millis, fmt_secs};
use crate::i18n::Lang;

pub fn server_line(version: &str, addr: &str, lang: Lang) -> String {
    match lang {
        Lang::Zh => {
            format!("{version}，{addr}（locklab 自己启动的，只监听 127.0.0.1，运行结束即删除）")
        }
        Lang::En => format!(
            "{version} on {addr} (locklab's own, listening on 127.0.0.1 only, removed when the run ends)"
        ),
    }
}

pub fn running(preset: &str, story_ms: Millis, scale: f64, lang: Lang) -> String {
    let wall = fmt_secs((story_ms as f64 * scale).round() as Millis);
    let story = fmt_secs(story_ms);
    match lang {
        Lang::Zh => format!(
            "在 PostgreSQL 上实跑 {preset}：故事里的 {story} 秒，墙钟 {wall} 秒（时间倍率 {scale}）……"
        ),
        Lang::En => format!(
            "Running {preset} on PostgreSQL: {story} s of the story in {wall} s of wall time (time scale {scale}) ..."
        ),
    }
}

fn op(o: RowOp, lang: Lang) -> &'static str {
    match o {
        RowOp::Claim => lang.pick("领取", "claim"),
        RowOp::Renew => lang.pick("续期", "renew"),
        RowOp::Complete => lang.pick("完成", "complete"),
        RowOp::Cancel => lang.pick("取消", "cancel"),
        RowOp::RequestCancel => lang.pick("请求取消", "request cancel"),
        RowOp::Fail => lang.pick("标记失败", "mark failed"),
        _ => lang.pick("更新", "update"),
    }
}

fn pad(s: &str, w: usize) -> String {
    format!("{s}{}", " ".repeat(w.saturating_sub(crate::text::width(s))))
}

/// One run's statement in a cell: `100 A claim task 1 1 row RUNNING/A/v1/#1 until 130`, at the second
/// of the table's clock it read.
fn cell(s: &Side, lang: Lang) -> String {
    let until = s
        .row
        .lease_until_ms
        .map(|u| match lang {
            Lang::Zh => format!(" 租约到 {}", fmt_secs(u)),
            Lang::En => format!(" until {}", fmt_secs(u)),
        })
        .unwrap_or_default();
    let rows = match lang {
        Lang::Zh => format!("{} 行", s.affected),
        Lang::En if s.affected == 1 => "1 row".to_string(),
        Lang::En => format!("{} rows", s.affected),
    };
    let task = match lang {
        Lang::Zh => format!("任务 {}", u32::from(s.task) + 1),
        Lang::En => format!("task {}", u32::from(s.task) + 1),
    };
    format!(
        "{} {} {} {} {} {}{until}",
        pad(&fmt_secs(s.second_ms), 7),
        pad(&s.by, 8),
        pad(op(s.op, lang), 14),
        pad(&task, 7),
        pad(&rows, 7),
        row_text(&s.row)
    )
}

/// The statements side by side, the payments, the facts, the statements' text and the notes.
pub fn report(
    run: &Run,
    pairs: &[Pair],
    facts: &[FactRow],
    store_clock_ms: Millis,
    lang: Lang,
) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{}",
        lang.pick(
            "语句，按表接收的顺序（时间是表的时钟，秒）：",
            "The statements, in the order the table took them (times on the table's clock, s):"
        )
    );
    for p in pairs {
        let mark = if p.same { " " } else { "≠" };
        let live = p.live.as_ref().map_or("-".to_string(), |s| cell(s, lang));
        let model = p.model.as_ref().map_or("-".to_string(), |s| cell(s, lang));
        let _ = writeln!(
            out,
            "  {mark} {} {}",
            lang.pick("实跑", "live "),
            live.trim_end()
        );
        let _ = writeln!(
            out,
            "    {} {}",
            lang.pick("模型", "model"),
            model.trim_end()
        );
    }
    let _ = writeln!(
        out,
        "{}",
        lang.pick("支付服务收到的调用：", "Calls to the payment provider:")
    );
    if run.payments.is_empty() {
        let _ = writeln!(out, "    {}", lang.pick("（没有）", "(none)"));
    }
    for p in &run.payments {
        let key = p.key.as_deref().unwrap_or("-");
        let what = match (p.charged, lang) {
            (true, Lang::Zh) => "扣款",
            (true, Lang::En) => "charged",
            (false, Lang::Zh) => "认出重复，未扣款",
            (false, Lang::En) => "recognised as a repeat, not charged",
        };
        let at = fmt_secs(p.at_ms + store_clock_ms);
        let _ = match lang {
            Lang::Zh => writeln!(
                out,
                "    {at} {} 第 {} 次尝试，幂等键 {key}：{what}",
                p.by, p.attempt
            ),
            Lang::En => writeln!(
                out,
                "    {at} {} attempt {}, key {key}: {what}",
                p.by, p.attempt
            ),
        };
    }
    let _ = writeln!(
        out,
        "{}",
        lang.pick(
            "事实                    模型              实跑",
            "Fact                    model             live"
        )
    );
    for f in facts {
        let mark = if f.same() { " " } else { "≠" };
        let name = match f.fact {
            Fact::FinalRow => lang.pick("任务 1 最终", "task 1 at the end"),
            Fact::Charged => lang.pick("扣款次数", "charges"),
            Fact::Recognised => lang.pick("认出的重复", "repeats recognised"),
            Fact::LateRefused => lang.pick("迟到被拒（0 行）", "late, refused (0 rows)"),
            Fact::LateAccepted => lang.pick("迟到被接受", "late, accepted"),
            Fact::ClaimsMissed => lang.pick("落空的领取（0 行）", "claims missed (0 rows)"),
            Fact::CompletedAfterLease => lang.pick("租约过后生效的完成", "done after its lease"),
        };
        let _ = writeln!(
            out,
            "  {mark} {}{}{}",
            pad(name, 24),
            pad(&f.model, 18),
            f.live
        );
    }
    let differ =
        pairs.iter().filter(|p| !p.same).count() + facts.iter().filter(|f| !f.same()).count();
    let _ = writeln!(
        out,
        "{}",
        match (differ, lang) {
            (0, Lang::Zh) => "模型和实跑一致：每条语句影响的行数、留下的行和时刻都相同。".to_string(),
            (0, Lang::En) => "The model and the live run agree: every statement's rows, the row it left and its instant.".to_string(),
            (n, Lang::Zh) => format!("有 {n} 处不同（标 ≠）。"),
            (n, Lang::En) => format!("{n} differences (marked ≠)."),
        }
    );
    let _ = writeln!(
        out,
        "{}",
        lang.pick("实际执行的语句：", "The statements as they ran:")
    );
    let colon = lang.pick("：", ": ");
    let mut seen: Vec<&str> = Vec::new();
    for s in &run.statements {
        if !seen.contains(&s.sql) {
            seen.push(s.sql);
            let _ = writeln!(out, "  {}{colon}{}", op(s.op, lang), s.sql);
        }
    }
    // The one-statement claim is its own scan.
    if !seen.contains(&super::sql::CLAIM_NEXT) {
        let _ = writeln!(
            out,
            "  {}{colon}{}",
            lang.pick("扫描", "scan"),
            super::sql::SCAN
        );
    }
    if !run.payments.is_empty() {
        let _ = writeln!(
            out,
            "  {}{colon}{}",
            lang.pick("付款", "pay"),
            super::sql::PAY
        );
    }
    for line in crate::text::wrap(&notes(run, lang), 100) {
        let _ = writeln!(out, "{line}");
    }
    out
}

fn notes(run: &Run, lang: Lang) -> String {
    let stagger = STAGGER.as_millis();
    let ran = |q: &str| run.statements.iter().any(|s| s.sql == q);
    let mut extra = String::new();
    if ran(super::sql::CLAIM_NEXT) {
        extra.push_str(lang.pick(
            " 领取是一条语句：子查询按编号挑第一个可领的行，FOR UPDATE SKIP LOCKED 跳过别的事务正锁着的行，所以同时发出的领取各得一行，不会排队等锁，也不会落空。领取一提交，行锁就放开；之后护住这一行的是租约和领取版本。模型里每条语句到达即整条生效，没有行锁，所以模型直接取第一个可领的行。这里每次扫描就是一条领取语句，没领到任务的那些不列出。",
            " The claim is one statement: its subquery picks the first claimable row by id, and FOR UPDATE SKIP LOCKED passes over rows another transaction has locked, so claims sent together get a row each, neither waiting for a lock nor missing. The row lock goes when the claim commits; from then on the lease and the claim version guard the row. The model applies each statement whole as it arrives, with no row locks, so there it simply takes the first claimable row. Here each scan is that claim statement; those that found no task are not listed.",
        ));
    }
    if ran(super::sql::COMPLETE_IN_WORK_TXN) {
        extra.push_str(lang.pick(
            " 工作在自己的事务里进行（另一条连接，领取后即 BEGIN），完成语句就在这个事务里：store_txn_now() 读 PostgreSQL 的 now()，也就是事务开始的时刻，不论工作做了多久。续期走工作者自己的连接，自成一个事务。",
            " The work runs in a transaction of its own (another connection, BEGIN just after the claim) and the completion is in that transaction: store_txn_now() reads PostgreSQL's now(), which is the moment the transaction began, however long the work took. Renewals go over the worker's own connection, each a transaction of its own.",
        ));
    }
    let base = match lang {
        Lang::Zh => format!(
            "表的时钟就是数据库的时钟：store_now() 读 PostgreSQL 的 statement_timestamp()，按故事的倍率换算，\
             以整秒计（租约 130 在 130 这一秒仍然有效，131 才能被接管）；模型的时钟精确到毫秒。\
             同一时刻到期的扫描都先读完表，再发领取：A 在扫描时刻之后 {stagger} 毫秒（墙钟）发出，B 再晚 {stagger} 毫秒，\
             所以 A 的语句先到，和模型一样；生产环境里谁先到都有可能。一共扫描 {} 次（不逐条列出）。",
            run.scans
        ),
        Lang::En => format!(
            "The table's clock is the database's: store_now() reads PostgreSQL's statement_timestamp(), on the \
             story's scale, in whole seconds (a lease until 130 still holds during 130 and can be taken over at 131); \
             the model's clock counts milliseconds. Scans due at the same instant all read the table before any claims: \
             A's claim goes out {stagger} ms of wall time after the scan's instant, B's {stagger} ms later, so A's \
             statement arrives first, as in the model; in production either may win. \
             {} scans ran (not listed).",
            run.scans
        ),
    };
    base + &extra
}
