//! The progress file's messages: why it was set aside or opened read-only, saving, merging,
//! resetting, the overview line of `locklab progress`, and one self-test run's line.

use std::path::Path;

use super::SessionRecord;
use super::store::Notice;
use crate::i18n::Lang;

pub fn notice(n: &Notice, lang: Lang) -> String {
    match n {
        Notice::Corrupt { moved_to, error } => match lang {
            Lang::Zh => format!(
                "进度文件无法读取（{error}），已移到 {}，重新开始记录。",
                moved_to.display()
            ),
            Lang::En => format!(
                "the progress file could not be read ({error}); it was moved to {} and a fresh one started.",
                moved_to.display()
            ),
        },
        Notice::CorruptLocked { error } => match lang {
            Lang::Zh => format!("进度文件无法读取（{error}），现在也无法把它移开；本次不保存。"),
            Lang::En => format!(
                "the progress file could not be read ({error}) and cannot be moved aside now; nothing will be saved."
            ),
        },
        Notice::Newer { found } => match lang {
            Lang::Zh => format!(
                "进度文件来自更新版本的 locklab（schema_version {found}），保持原样；本次不保存。"
            ),
            Lang::En => format!(
                "the progress file was written by a newer locklab (schema_version {found}); it is left untouched and nothing will be saved."
            ),
        },
        Notice::Locked => lang
            .pick(
                "另一个 locklab 正在使用进度文件，本次以只读方式打开，不保存。",
                "another locklab has the progress file open; opened read-only, nothing will be saved.",
            )
            .to_string(),
        Notice::LockFailed(e) => match lang {
            Lang::Zh => format!("无法锁定进度文件（{e}），本次以只读方式打开，不保存。"),
            Lang::En => format!(
                "cannot lock the progress file ({e}); opened read-only, nothing will be saved."
            ),
        },
        Notice::ReadOnlyFolder(e) => match lang {
            Lang::Zh => format!("无法写入进度文件夹（{e}），本次以只读方式打开，不保存。"),
            Lang::En => format!(
                "the progress folder cannot be written ({e}); opened read-only, nothing will be saved."
            ),
        },
        Notice::Symlink { path } => match lang {
            Lang::Zh => format!(
                "{} 是符号链接，locklab 不跟随数据文件夹里的链接：以只读方式打开，不保存（请用 --data-dir 指定它指向的文件夹）。",
                path.display()
            ),
            Lang::En => format!(
                "{} is a symbolic link, which locklab does not follow in its data folder: opened read-only, nothing will be saved (pass the folder it points into with --data-dir).",
                path.display()
            ),
        },
        Notice::Migrated { from } => match lang {
            Lang::Zh => format!("进度文件已从 schema_version {from} 升级。"),
            Lang::En => format!("the progress file was upgraded from schema_version {from}."),
        },
    }
}

pub fn cannot_open(path: &Path, e: &std::io::Error, lang: Lang) -> String {
    // An error about the file names the file itself.
    let file = super::store::is_file_problem(e);
    match (lang, file) {
        (Lang::Zh, true) => format!("无法读取进度文件 {e}"),
        (Lang::En, true) => format!("cannot read the progress file {e}"),
        (Lang::Zh, false) => format!("无法打开进度文件夹 {}：{e}", path.display()),
        (Lang::En, false) => format!("cannot open the progress folder {}: {e}", path.display()),
    }
}

pub fn cannot_save(e: &std::io::Error, lang: Lang) -> String {
    match lang {
        Lang::Zh => format!("无法保存进度：{e}"),
        Lang::En => format!("cannot save progress: {e}"),
    }
}

pub fn saved(n: usize, lang: Lang) -> String {
    match lang {
        Lang::Zh => format!("已保存 {n}"),
        Lang::En => format!("saved {n}"),
    }
}

pub fn not_saved(lang: Lang) -> &'static str {
    lang.pick("未保存（只读）", "not saved (read-only)")
}

/// Why a session exits with an error: answers that were kept in memory only.
pub fn unsaved(n: usize, lang: Lang) -> String {
    match lang {
        Lang::Zh => format!("有 {n} 条作答没能保存到进度文件。"),
        Lang::En => format!("{n} answers could not be saved to the progress file."),
    }
}

pub fn merged(added: usize, total: usize, lang: Lang) -> String {
    match lang {
        Lang::Zh => format!("新增 {added} 条作答记录，共 {total} 条。\n"),
        Lang::En => format!("added {added} answers; {total} in all.\n"),
    }
}

pub fn confirm_reset(path: &Path, answers: usize, lang: Lang) -> String {
    match lang {
        Lang::Zh => format!(
            "要清空 {} 中的 {answers} 条作答记录吗？会先保留一份备份。输入 yes 确认：",
            path.display()
        ),
        Lang::En => format!(
            "Reset {} ({answers} answers)? A backup is kept. Type yes to confirm:",
            path.display()
        ),
    }
}

pub fn reset_done(backup: Option<&Path>, lang: Lang) -> String {
    match (lang, backup) {
        (Lang::Zh, Some(b)) => format!("已重置；备份在 {}\n", b.display()),
        (Lang::En, Some(b)) => format!("Reset; the backup is {}\n", b.display()),
        (Lang::Zh, None) => "已重置（原本没有记录）。\n".to_string(),
        (Lang::En, None) => "Reset (there was nothing to keep).\n".to_string(),
    }
}

pub fn overview_line(answers: u32, seen: u32, sessions: u32, streak: u32, lang: Lang) -> String {
    match lang {
        Lang::Zh => {
            format!("作答 {answers} 次，共 {seen} 道题，{sessions} 次测验；连续 {streak} 天。")
        }
        Lang::En => {
            let plural = |n: u32| if n == 1 { "" } else { "s" };
            format!(
                "{answers} answer{} to {seen} question{} in {sessions} session{}; streak {streak} day{}.",
                plural(answers),
                plural(seen),
                plural(sessions),
                plural(streak)
            )
        }
    }
}

/// One self-test run: `2026-11-30  21/30 (70%)  solid 5 · partial 4 · forgot 3`.
pub fn self_test_run(r: &SessionRecord, lang: Lang) -> String {
    let mut tiers = r
        .tiers
        .map(|t| crate::quiz::words::tiers(&t, lang))
        .unwrap_or_default();
    if let Some(t) = r.scored_tiers {
        let scored = crate::quiz::words::tiers(&t, lang);
        tiers.push_str(&match lang {
            Lang::Zh => format!("（按要点：{scored}）"),
            Lang::En => format!(" (by the points: {scored})"),
        });
    }
    let date = super::fmt_utc(r.ended);
    let mut line = format!(
        "{}  {}/{} ({:.0}%)  {tiers}",
        date.get(..10).unwrap_or(&date),
        r.score,
        r.max,
        crate::quiz::summary::percent(r.score, r.max)
    );
    // A run stopped early is not comparable with a whole one; say so.
    if r.answered < r.questions {
        line.push_str(&match lang {
            Lang::Zh => format!("  （只答了 {}/{} 题）", r.answered, r.questions),
            Lang::En => format!("  (only {} of {} answered)", r.answered, r.questions),
        });
    }
    line
}
