//! Redlock's runs in words: lane states, events and parameters. Like [`super::sim`], it looks
//! up names and computes nothing.

use crate::engine::params::{REDLOCK_CLIENTS, REDLOCK_NODES, RedlockParams};
use crate::engine::time::fmt_secs;
use crate::engine::trace::redlock::{RedlockEvent, RedlockSpan, ReleaseHow};
use crate::engine::trace::{Event, Trace};
use crate::engine::world::ActorId;

use super::Lang;

pub fn state_name(s: RedlockSpan, lang: Lang) -> &'static str {
    let (zh, en) = match s {
        RedlockSpan::Acquiring { .. } => ("加锁中", "acquiring"),
        RedlockSpan::Holding { .. } => ("持锁", "holding"),
        RedlockSpan::Overdue => ("有效时间已过，仍当自己持锁", "validity over, still acting"),
        RedlockSpan::Backoff => ("失败，等待重试", "backing off"),
        RedlockSpan::Key { .. } => ("持有锁键", "holds a key"),
    };
    lang.pick(zh, en)
}

pub fn state_label(s: RedlockSpan, trace: &Trace, lang: Lang) -> String {
    let zh = lang == Lang::Zh;
    match s {
        RedlockSpan::Acquiring { ok, asked } => {
            if zh {
                format!("加锁中，{asked} 个里 {ok} 个 OK")
            } else {
                format!("acquiring, {ok} of {asked} OK")
            }
        }
        RedlockSpan::Holding { until_ms } => {
            if zh {
                format!("持锁至 {} 秒", fmt_secs(until_ms))
            } else {
                format!("holds to {} s", fmt_secs(until_ms))
            }
        }
        RedlockSpan::Key { owner } => {
            let o = trace.name(owner);
            if zh {
                format!("{o} 的键")
            } else {
                format!("{o}'s key")
            }
        }
        other => state_name(other, lang).into(),
    }
}

fn names(ids: &[ActorId], trace: &Trace, lang: Lang) -> String {
    if ids.is_empty() {
        return lang.pick("无", "none").into();
    }
    let v: Vec<&str> = ids.iter().map(|a| trace.name(*a)).collect();
    v.join(lang.pick("、", ", "))
}

/// One or two sentences for a Redlock event.
pub fn describe(ev: &RedlockEvent, e: &Event, trace: &Trace, lang: Lang) -> String {
    let who = trace.name(e.actor);
    let zh = lang == Lang::Zh;
    let pick = |z: String, en: String| if zh { z } else { en };
    let n = |a: &ActorId| trace.name(*a).to_string();
    match ev {
        RedlockEvent::AttemptStarted { attempt, value } => pick(
            format!(
                "{who} 第 {attempt} 次加锁：所有者值取随机数 {value:08x}，按顺序向每个节点发 SET NX PX。"
            ),
            format!(
                "{who} starts attempt {attempt} with the random owner value {value:08x} and sends SET NX PX to each node in turn."
            ),
        ),
        RedlockEvent::SetAnswered { node, ok: true } => pick(
            format!("{} 对 {who} 回复 OK。", n(node)),
            format!("{} answers OK to {who}.", n(node)),
        ),
        RedlockEvent::SetAnswered { node, ok: false } => pick(
            format!("{} 回复 nil：键在别人手里。", n(node)),
            format!("{} answers nil to {who}: the key is held.", n(node)),
        ),
        RedlockEvent::SetTimedOut { node } => pick(
            format!("{who} 等 {} 超时，算它失败，接着问下一个。", n(node)),
            format!(
                "{who} hears nothing from {} within the timeout, counts it as failed and asks the next.",
                n(node)
            ),
        ),
        RedlockEvent::Acquired {
            ok,
            ttl_ms,
            elapsed_ms,
            drift_ms,
            validity_ms,
            valid_until_ms,
        } => {
            let (k, list, until) = (ok.len(), names(ok, trace, lang), fmt_secs(*valid_until_ms));
            pick(
                format!(
                    "{who} 拿到 {k} 个节点（{list}），过半。加锁耗时 {elapsed_ms} 毫秒，有效时间 = {ttl_ms} − {elapsed_ms} − {drift_ms} = {validity_ms} 毫秒，到 {until} 秒为止。"
                ),
                format!(
                    "{who} holds {k} nodes ({list}), a majority. The attempt took {elapsed_ms} ms, so its validity is {ttl_ms} − {elapsed_ms} − {drift_ms} = {validity_ms} ms, until {until} s."
                ),
            )
        }
        RedlockEvent::AttemptFailed {
            ok,
            quorum,
            elapsed_ms,
            validity_ms,
        } if ok.len() as u32 >= *quorum => pick(
            format!(
                "{who} 拿到了过半的节点，可加锁耗时 {elapsed_ms} 毫秒，有效时间已不剩（{validity_ms} 毫秒）：加锁失败，向所有节点释放，稍后重试。"
            ),
            format!(
                "{who} got a majority, but the attempt took {elapsed_ms} ms and left no validity ({validity_ms} ms): it failed, releases on every node and will try again."
            ),
        ),
        RedlockEvent::AttemptFailed { ok, quorum, .. } => {
            let (k, list) = (ok.len(), names(ok, trace, lang));
            pick(
                format!(
                    "{who} 只拿到 {k} 个节点（{list}），不到 {quorum} 个：加锁失败，向所有节点释放，稍后重试。"
                ),
                format!(
                    "{who} got only {k} nodes ({list}), fewer than {quorum}: the attempt failed, so it releases on every node and will try again."
                ),
            )
        }
        RedlockEvent::ValidityOver { since_ms } if *since_ms < e.at_ms => {
            let t = fmt_secs(*since_ms);
            pick(
                format!(
                    "{who} 醒来时有效时间早在 {t} 秒就用完了。它自己察觉不到，仍把自己当作持锁者。"
                ),
                format!(
                    "{who} wakes past its validity, which ran out at {t} s. Nothing in it notices: it still acts as the holder."
                ),
            )
        }
        RedlockEvent::ValidityOver { .. } => pick(
            format!("{who} 的有效时间到了。它自己察觉不到，仍把自己当作持锁者。"),
            format!(
                "{who}'s validity runs out. Nothing in it notices: it still acts as the holder."
            ),
        ),
        RedlockEvent::ReleaseSent {
            how: ReleaseHow::CompareAndDelete,
        } => pick(
            format!("{who} 向每个节点发释放脚本：值还是自己的才删。"),
            format!(
                "{who} sends the release script to every node: delete only if the value is still its own."
            ),
        ),
        RedlockEvent::ReleaseSent {
            how: ReleaseHow::NaiveDel,
        } => pick(
            format!("{who} 向每个节点发 DEL，不看键里是谁的值。"),
            format!("{who} sends DEL to every node, whoever's value the key holds."),
        ),
        RedlockEvent::KeySet {
            owner,
            ttl_ms,
            expires_ms,
            ..
        } => pick(
            format!(
                "{who} 为 {} 建键，{ttl_ms} 毫秒后（{} 秒）过期。",
                n(owner),
                fmt_secs(*expires_ms)
            ),
            format!(
                "{who} sets the key for {}; it expires in {ttl_ms} ms, at {} s.",
                n(owner),
                fmt_secs(*expires_ms)
            ),
        ),
        RedlockEvent::SetRefused { by, holder } => pick(
            format!("{who} 上的键还归 {}，{} 的 SET NX 失败。", n(holder), n(by)),
            format!(
                "{who} still holds {}'s key: {}'s SET NX fails.",
                n(holder),
                n(by)
            ),
        ),
        RedlockEvent::KeyExpired { owner } => pick(
            format!("{who} 上 {} 的键按这台节点自己的时钟过期了。", n(owner)),
            format!(
                "{}'s key expires on {who}, by that node's own clock.",
                n(owner)
            ),
        ),
        RedlockEvent::KeyDeleted { owner, by, .. } if owner == by => pick(
            format!("{who} 应 {} 的请求删除它自己的键。", n(owner)),
            format!("{who} deletes {}'s key at its request.", n(owner)),
        ),
        RedlockEvent::KeyDeleted { owner, by, .. } => pick(
            format!(
                "{} 的 DEL 删掉了 {who} 上 {} 的键：删的是别人的锁。",
                n(by),
                n(owner)
            ),
            format!(
                "{}'s DEL deletes {}'s key on {who}: it removed someone else's lock.",
                n(by),
                n(owner)
            ),
        ),
        RedlockEvent::KeyKept { holder, by } => pick(
            format!(
                "{who} 上的键装着 {} 的值，{} 的释放脚本什么也不删。",
                n(holder),
                n(by)
            ),
            format!(
                "The key on {who} holds {}'s value, so {}'s release script deletes nothing.",
                n(holder),
                n(by)
            ),
        ),
        RedlockEvent::ClockJumped { by_ms } => pick(
            format!(
                "{who} 的时钟被向前拨了 {} 秒；按这只钟，它上面的键提前到期。",
                fmt_secs(*by_ms)
            ),
            format!(
                "{who}'s clock is stepped forward by {} s; by that clock, its key expires early.",
                fmt_secs(*by_ms)
            ),
        ),
        RedlockEvent::NodeRecovered {
            lost: Some(lost), ..
        } => pick(
            format!(
                "{who} 回来了，却没有 {} 的键：键没来得及写盘，这台节点完全不记得发过这把锁。",
                n(lost)
            ),
            format!(
                "{who} is back without {}'s key: it was never synced to disk, so the node has no memory of granting it.",
                n(lost)
            ),
        ),
        RedlockEvent::NodeRecovered {
            kept: Some(kept), ..
        } => pick(
            format!("{who} 从磁盘恢复了 {} 的键和它的过期时间。", n(kept)),
            format!(
                "{who} recovers {}'s key, with its expiry, from disk.",
                n(kept)
            ),
        ),
        RedlockEvent::NodeRecovered { .. } => pick(
            format!("{who} 回来了，上面本来就没有键。"),
            format!("{who} is back; it held no key."),
        ),
    }
}

/// The parameters of a Redlock run in one line.
pub fn params_line(p: &RedlockParams, lang: Lang) -> String {
    let zh = lang == Lang::Zh;
    let sep = lang.pick("，", ", ");
    let node = |i: u32| REDLOCK_NODES[i as usize - 1];
    let how = match (p.release, zh) {
        (ReleaseHow::CompareAndDelete, true) => "比较并删除",
        (ReleaseHow::CompareAndDelete, false) => "compare-and-delete",
        (ReleaseHow::NaiveDel, true) => "直接 DEL",
        (ReleaseHow::NaiveDel, false) => "naive DEL",
    };
    let fsync = match (p.fsync, zh) {
        (true, true) => "开",
        (false, true) => "关",
        (true, false) => "on",
        (false, false) => "off",
    };
    let mut parts = vec![if zh {
        format!(
            "{} 个节点（过半需 {}），{} 个客户端，TTL {} 毫秒，单程延迟 {} 毫秒，请求超时 {} 毫秒，漂移余量 {} 毫秒，释放用{how}，fsync {fsync}",
            p.nodes,
            p.quorum(),
            p.clients,
            p.ttl_ms,
            p.delay_ms,
            p.timeout_ms,
            p.drift_ms()
        )
    } else {
        format!(
            "{} nodes (majority {}), {} clients, TTL {} ms, one-way delay {} ms, request timeout {} ms, drift allowance {} ms, release by {how}, fsync {fsync}",
            p.nodes,
            p.quorum(),
            p.clients,
            p.ttl_ms,
            p.delay_ms,
            p.timeout_ms,
            p.drift_ms()
        )
    }];
    if !p.down.is_empty() {
        let list: Vec<&str> = p.down.iter().map(|&d| node(d)).collect();
        let list = list.join(lang.pick("、", ", "));
        parts.push(if zh {
            format!("{list} 在 {} 毫秒前宕机", p.down_until_ms)
        } else {
            format!("{list} down until {} ms", p.down_until_ms)
        });
    }
    if p.crash_node > 0 {
        let c = node(p.crash_node);
        parts.push(if zh {
            format!(
                "{c} 在 {} 毫秒崩溃，{} 毫秒后重启",
                p.crash_at_ms, p.restart_after_ms
            )
        } else {
            format!(
                "{c} crashes at {} ms and restarts {} ms later",
                p.crash_at_ms, p.restart_after_ms
            )
        });
    }
    if p.jump_node > 0 {
        let j = node(p.jump_node);
        parts.push(if zh {
            format!(
                "{j} 的时钟在 {} 毫秒向前拨 {} 毫秒",
                p.jump_at_ms, p.jump_by_ms
            )
        } else {
            format!(
                "{j}'s clock steps forward {} ms at {} ms",
                p.jump_by_ms, p.jump_at_ms
            )
        });
    }
    if let Some(c) = p.pause_client {
        let c = REDLOCK_CLIENTS[c];
        parts.push(if zh {
            format!("{c} 在 {} 毫秒停顿 {} 毫秒", p.pause_at_ms, p.pause_len_ms)
        } else {
            format!(
                "{c} pauses at {} ms for {} ms",
                p.pause_at_ms, p.pause_len_ms
            )
        });
    }
    parts.join(sep)
}
