//! `locklab progress`: the summary, `export`, `merge` and `reset`.

use std::io::BufRead;
use std::path::Path;

use super::stats::{self, Overview};
use super::store::read_progress;
use super::{export, fmt_utc};
use crate::cli::{ExportFormat, ProgressArgs, ProgressCommand};
use crate::i18n::Lang;
use crate::quiz::cmd::{now, open_store};
use crate::quiz::select::Bank;
use crate::sim_cmd::{UserError, write_stdout};
use crate::source::Source;

fn failure(message: String) -> UserError {
    UserError { message, status: 1 }
}

pub fn run(
    args: &ProgressArgs,
    lang: Lang,
    source: &Source,
    data_dir: &Path,
) -> Result<(), UserError> {
    match &args.command {
        None => summary(lang, source, data_dir),
        Some(ProgressCommand::Export { format }) => {
            let store = open_store(data_dir, lang, None)?;
            let text = match format {
                ExportFormat::Csv => export::csv(store.data()),
                ExportFormat::Json => {
                    export::json(store.data()).map_err(|e| failure(e.to_string()))?
                }
            };
            write_stdout(text.as_bytes())
        }
        Some(ProgressCommand::Merge { file }) => {
            let other = read_progress(file).map_err(failure)?;
            let bank = Bank::load(source).ok();
            let mut store = open_store(data_dir, lang, bank.as_ref())?;
            if !store.is_writable() {
                return Err(failure(
                    lang.pick(
                        "进度文件只读，未合并。",
                        "the progress file is read-only; nothing merged.",
                    )
                    .into(),
                ));
            }
            let added = store.data_mut().merge(&other);
            if let Some(b) = &bank {
                store.data_mut().apply_aliases(&b.aliases());
            }
            store
                .save()
                .map_err(|e| failure(crate::quiz::text::cannot_save(&e, lang)))?;
            let msg = match lang {
                Lang::Zh => format!(
                    "新增 {added} 条作答记录，共 {} 条。\n",
                    store.data().answers.len()
                ),
                Lang::En => format!(
                    "added {added} answers; {} in all.\n",
                    store.data().answers.len()
                ),
            };
            write_stdout(msg.as_bytes())
        }
        Some(ProgressCommand::Reset { yes }) => reset(*yes, lang, data_dir),
    }
}

fn reset(yes: bool, lang: Lang, data_dir: &Path) -> Result<(), UserError> {
    let mut store = open_store(data_dir, lang, None)?;
    if !store.is_writable() {
        return Err(failure(
            lang.pick(
                "进度文件只读，未重置。",
                "the progress file is read-only; nothing reset.",
            )
            .into(),
        ));
    }
    if !yes {
        let q = match lang {
            Lang::Zh => format!(
                "要清空 {} 中的 {} 条作答记录吗？会先保留一份备份。输入 yes 确认：",
                store.path().display(),
                store.data().answers.len()
            ),
            Lang::En => format!(
                "Reset {} ({} answers)? A backup is kept. Type yes to confirm:",
                store.path().display(),
                store.data().answers.len()
            ),
        };
        eprintln!("{q}");
        let mut line = String::new();
        std::io::stdin()
            .lock()
            .read_line(&mut line)
            .map_err(|e| failure(e.to_string()))?;
        if !matches!(
            line.trim().to_ascii_lowercase().as_str(),
            "yes" | "y" | "是"
        ) {
            return write_stdout(lang.pick("未重置。\n", "Not reset.\n").as_bytes());
        }
    }
    let backup = store
        .reset(now())
        .map_err(|e| failure(crate::quiz::text::cannot_save(&e, lang)))?;
    let msg = match (lang, backup) {
        (Lang::Zh, Some(b)) => format!("已重置；备份在 {}\n", b.display()),
        (Lang::En, Some(b)) => format!("Reset; the backup is {}\n", b.display()),
        (Lang::Zh, None) => "已重置（原本没有记录）。\n".to_string(),
        (Lang::En, None) => "Reset (there was nothing to keep).\n".to_string(),
    };
    write_stdout(msg.as_bytes())
}

fn summary(lang: Lang, source: &Source, data_dir: &Path) -> Result<(), UserError> {
    let bank = Bank::load(source).ok();
    let store = open_store(data_dir, lang, bank.as_ref())?;
    let o = stats::overview(store.data(), bank.as_ref(), now());
    let text = render(&o, bank.as_ref(), store.path(), lang);
    write_stdout(text.as_bytes())
}

/// The summary as text.
pub fn render(o: &Overview, bank: Option<&Bank>, path: &Path, lang: Lang) -> String {
    use std::fmt::Write as _;
    let mut s = String::new();
    let zh = lang == Lang::Zh;
    let _ = writeln!(
        s,
        "{} {}",
        lang.pick("进度文件：", "Progress file:"),
        path.display()
    );
    let _ = if zh {
        writeln!(
            s,
            "作答 {} 次，共 {} 道题，{} 次测验；连续 {} 天。",
            o.answers, o.questions_seen, o.sessions, o.streak
        )
    } else {
        writeln!(
            s,
            "{} answers to {} questions in {} sessions; streak {} days.",
            o.answers, o.questions_seen, o.sessions, o.streak
        )
    };
    let _ = writeln!(
        s,
        "{} {}",
        lang.pick("今天到期：", "Due today:"),
        o.due_today
    );
    let days: Vec<String> = o.forecast.iter().map(|n| n.to_string()).collect();
    let _ = writeln!(
        s,
        "{} {}",
        lang.pick("未来 14 天（从今天起）：", "Next 14 days (from today):"),
        days.join(" ")
    );
    if !o.decks.is_empty() {
        let _ = writeln!(s, "{}", lang.pick("各题组掌握度：", "Mastery by deck:"));
        for d in &o.decks {
            let _ = writeln!(
                s,
                "  {:<24} {:>3.0}%  {}/{} {}",
                d.deck,
                d.mastery,
                d.seen,
                d.questions,
                lang.pick("已答", "seen")
            );
        }
    }
    if !o.missed.is_empty() {
        let _ = writeln!(
            s,
            "{}",
            lang.pick("最常漏掉的要点：", "Points missed most often:")
        );
        for m in &o.missed {
            let text = bank
                .and_then(|b| b.find(&m.question))
                .and_then(|(_, q)| {
                    q.points
                        .iter()
                        .chain(q.follow_up.iter().flat_map(|f| f.points.iter()))
                        .nth(m.point)
                })
                .map(|p| lang.pick(&p.zh, &p.en).to_string())
                .unwrap_or_default();
            let _ = writeln!(s, "  {}× {} #{}: {text}", m.times, m.question, m.point + 1);
        }
    }
    if let Some(last) = o.last_answer {
        let _ = writeln!(
            s,
            "{} {}",
            lang.pick("最近一次作答：", "Last answer:"),
            fmt_utc(last)
        );
    }
    s
}
