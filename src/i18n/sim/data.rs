//! The data node's events (reads, `setData` sent, applied or refused), as sentences.

use crate::engine::trace::data::DataOutcome;
use crate::engine::trace::{EventKind, Trace};
use crate::i18n::Lang;

/// One sentence for a data-node event; `who` is the acting client's name.
pub fn describe(kind: &EventKind, who: &str, trace: &Trace, lang: Lang) -> String {
    let zh = lang == Lang::Zh;
    let pick = |z: String, en: String| if zh { z } else { en };
    use EventKind::*;
    match kind {
        DataRead { version, value } => pick(
            format!("{who} 读取数据节点：版本 {version}，计数 {value}。"),
            format!("{who} reads the data node: version {version}, counter {value}."),
        ),
        DataWriteSent {
            expected: -1,
            value,
        } => pick(
            format!("{who} 发出 setData，把计数写成 {value}，期望版本 -1：不做版本检查。"),
            format!(
                "{who} sends setData to make the counter {value}, expected version -1: no version check."
            ),
        ),
        DataWriteSent { expected, value } => pick(
            format!("{who} 发出 setData，把计数写成 {value}，期望版本 {expected}。"),
            format!(
                "{who} sends setData to make the counter {value}, expecting version {expected}."
            ),
        ),
        DataSet {
            writer,
            expected,
            outcome: DataOutcome::Set { version },
            ..
        } => {
            let w = trace.name(*writer);
            if *expected == -1 {
                pick(
                    format!(
                        "服务执行了 {w} 的 setData：期望版本 -1 跳过检查，版本变为 {version}。"
                    ),
                    format!(
                        "The service applies {w}'s setData: expected version -1 skips the check, and the version becomes {version}."
                    ),
                )
            } else {
                pick(
                    format!(
                        "服务执行了 {w} 的 setData：期望版本 {expected} 与当前一致，版本变为 {version}。"
                    ),
                    format!(
                        "The service applies {w}'s setData: expected version {expected} matches, and the version becomes {version}."
                    ),
                )
            }
        }
        DataSet {
            writer,
            expected,
            outcome: DataOutcome::BadVersion { current },
            ..
        } => {
            let w = trace.name(*writer);
            pick(
                format!(
                    "服务拒绝了 {w} 的 setData：期望版本 {expected}，当前已是 {current}，返回 BadVersion。"
                ),
                format!(
                    "The service refuses {w}'s setData with BadVersion: it expected version {expected}, but the node is at {current}."
                ),
            )
        }
        DataWriteRefused => pick(
            format!("{who} 收到 BadVersion：读过之后有人改过数据。它重新读取，然后停手，不再写。"),
            format!(
                "{who} gets BadVersion: someone wrote since its read. It reads again and stops instead of writing."
            ),
        ),
        _ => String::new(),
    }
}
