//! etcd's lease lock in words: lane states, events and parameters. Like [`super::sim`], it looks
//! up names and computes nothing.

use crate::engine::params::{ETCD_CLIENTS, EtcdParams};
use crate::engine::time::fmt_secs;
use crate::engine::trace::etcd::{DeleteCause, EtcdEvent, EtcdSpan, Guard, OnLost};
use crate::engine::trace::{Event, Trace};
use crate::engine::world::ActorId;

use super::Lang;

pub fn state_name(s: EtcdSpan, lang: Lang) -> &'static str {
    let (zh, en) = match s {
        EtcdSpan::Opening => ("建会话、排队中", "opening"),
        EtcdSpan::Waiting { .. } => ("等前一个键删除", "waiting for the key ahead"),
        EtcdSpan::Unaware { .. } => ("租约已没，仍当自己持锁", "lease gone, still acting"),
        EtcdSpan::Prefix { .. } => ("锁前缀", "lock prefix"),
    };
    lang.pick(zh, en)
}

pub fn state_label(s: EtcdSpan, trace: &Trace, lang: Lang) -> String {
    let zh = lang == Lang::Zh;
    match s {
        EtcdSpan::Waiting { owner, create_rev } => {
            let o = trace.name(owner);
            if zh {
                format!("等 {o} 的键（rev {create_rev}）")
            } else {
                format!("waits on {o}'s key (rev {create_rev})")
            }
        }
        EtcdSpan::Unaware { token } => {
            if zh {
                format!("租约已没，仍持 rev {token}")
            } else {
                format!("lease gone, acts on rev {token}")
            }
        }
        EtcdSpan::Prefix {
            holder: Some(h),
            token,
            waiting,
        } => {
            let h = trace.name(h);
            match (zh, waiting) {
                (true, 0) => format!("{h} 持锁 rev {token}"),
                (true, w) => format!("{h} 持锁 rev {token}，{w} 个在等"),
                (false, 0) => format!("{h} holds, rev {token}"),
                (false, w) => format!("{h} holds, rev {token}, {w} waiting"),
            }
        }
        EtcdSpan::Prefix { holder: None, .. } => lang.pick("无人持锁", "free").into(),
        other => state_name(other, lang).into(),
    }
}

fn names(ids: &[ActorId], trace: &Trace, lang: Lang) -> String {
    if ids.is_empty() {
        return lang.pick("无人", "nobody").into();
    }
    let v: Vec<&str> = ids.iter().map(|a| trace.name(*a)).collect();
    v.join(lang.pick("、", ", "))
}

fn cause(c: DeleteCause, lang: Lang) -> &'static str {
    match c {
        DeleteCause::Unlock => lang.pick("持锁者 Unlock", "the holder's Unlock"),
        DeleteCause::LeaseExpired => lang.pick("租约到期被撤销", "its lease expired"),
        DeleteCause::LeaseRevoked => lang.pick("客户端撤销了租约", "its client revoked the lease"),
    }
}

/// One or two sentences for an etcd event.
pub fn describe(ev: &EtcdEvent, e: &Event, trace: &Trace, lang: Lang) -> String {
    let who = trace.name(e.actor);
    let zh = lang == Lang::Zh;
    let pick = |z: String, en: String| if zh { z } else { en };
    let n = |a: &ActorId| trace.name(*a).to_string();
    let secs = |ms: u64| fmt_secs(ms);
    match ev {
        EtcdEvent::GrantSent { ttl_s } => pick(
            format!("{who} 建会话：向 etcd 申请 TTL {ttl_s} 秒的租约。"),
            format!("{who} opens a session: it asks etcd for a lease with a {ttl_s} s TTL."),
        ),
        EtcdEvent::SessionOpened { lease, ttl_s } => pick(
            format!(
                "{who} 拿到租约 {lease:x}（TTL {ttl_s} 秒），续约循环开始，第一次续约立即发出。"
            ),
            format!(
                "{who} has lease {lease:x} (TTL {ttl_s} s); its keep-alive loop starts and sends the first keep-alive at once."
            ),
        ),
        EtcdEvent::KeepAliveSent { lease } => pick(
            format!("{who} 为租约 {lease:x} 发续约。"),
            format!("{who} sends a keep-alive for lease {lease:x}."),
        ),
        EtcdEvent::KeepAliveAnswered {
            ttl_s, deadline_ms, ..
        } => pick(
            format!(
                "{who} 收到续约应答（TTL {ttl_s} 秒）：客户端期限移到 {} 秒，下一次续约在 TTL 的三分之一之后。",
                secs(*deadline_ms)
            ),
            format!(
                "{who} gets the keep-alive's answer (TTL {ttl_s} s): its deadline moves to {} s; the next keep-alive is due a third of the TTL later.",
                secs(*deadline_ms)
            ),
        ),
        EtcdEvent::KeepAliveNotFound { lease } => pick(
            format!("etcd 答复租约 {lease:x} 不存在（TTL 0）：{who} 的会话关闭。"),
            format!("etcd answers that lease {lease:x} is gone (TTL 0): {who}'s session closes."),
        ),
        EtcdEvent::SessionDone { deadline_ms, .. } => pick(
            format!(
                "{who} 的期限 {} 秒已过仍无续约应答：客户端库关闭会话（Done() 关闭）。",
                secs(*deadline_ms)
            ),
            format!(
                "{who}'s deadline of {} s passed with no keep-alive answer: the client library closes the session (Done() closes).",
                secs(*deadline_ms)
            ),
        ),
        EtcdEvent::LockTxnSent { key } => pick(
            format!(
                "{who} 发加锁事务：若 {key} 不存在就带租约写入，并读出前缀下创建修订号最小的键。"
            ),
            format!(
                "{who} sends the lock Txn: put {key} under its lease if it does not exist, and read the key with the lowest create revision under the prefix."
            ),
        ),
        EtcdEvent::LockTxnAnswered { my_rev, owner_rev } if my_rev == owner_rev => pick(
            format!("{who} 的键创建修订号 {my_rev}，正是最小的：直接持锁。"),
            format!("{who}'s key has create revision {my_rev}, the lowest: it holds at once."),
        ),
        EtcdEvent::LockTxnAnswered { my_rev, owner_rev } => pick(
            format!("{who} 的键创建修订号 {my_rev}；最小的是 {owner_rev}：它要等。"),
            format!(
                "{who}'s key has create revision {my_rev}; the lowest is {owner_rev}: it must wait."
            ),
        ),
        EtcdEvent::PredecessorRead {
            ahead: Some((o, rev)),
            revision: now_rev,
        } => pick(
            format!(
                "{who} 读到紧挨在前的是 {} 的键（rev {rev}），当前修订号 {now_rev}。",
                n(o)
            ),
            format!(
                "{who} reads that the key just ahead is {}'s (rev {rev}), at revision {now_rev}.",
                n(o)
            ),
        ),
        EtcdEvent::PredecessorRead { ahead: None, .. } => pick(
            format!("{who} 读到前面已没有键。"),
            format!("{who} reads that no key is ahead of its own."),
        ),
        EtcdEvent::WatchStarted {
            owner,
            create_rev,
            from_rev,
        } => pick(
            format!(
                "{who} 只监听 {} 的键（rev {create_rev}）的删除，从修订号 {from_rev} 起：不监听整个前缀，没有羊群效应。",
                n(owner)
            ),
            format!(
                "{who} watches only {}'s key (rev {create_rev}) for its deletion, from revision {from_rev}: not the whole prefix, so no herd.",
                n(owner)
            ),
        ),
        EtcdEvent::WatchFired {
            owner, delete_rev, ..
        } => pick(
            format!(
                "{who} 的监听触发：{} 的键在修订号 {delete_rev} 被删。它重新读取，唤醒不等于拿到锁。",
                n(owner)
            ),
            format!(
                "{who}'s watch fires: {}'s key was deleted at revision {delete_rev}. It reads again; a wake-up is not a grant.",
                n(owner)
            ),
        ),
        EtcdEvent::Locked { token } => pick(
            format!("{who} 持锁，栅栏令牌是它的键的创建修订号 {token}。"),
            format!(
                "{who} holds the lock; its fencing token is its key's create revision, {token}."
            ),
        ),
        EtcdEvent::DataTxnSent { token } => pick(
            format!("{who} 发数据事务：若锁键的创建修订号仍是 {token}，就写数据键。"),
            format!(
                "{who} sends the data Txn: write the data key if the lock key's create revision is still {token}."
            ),
        ),
        EtcdEvent::DataTxnAnswered {
            succeeded: true, ..
        } => pick(
            format!("{who} 的数据事务成功。"),
            format!("{who}'s data Txn succeeded."),
        ),
        EtcdEvent::DataTxnAnswered {
            succeeded: false, ..
        } => pick(
            format!("{who} 的数据事务失败：它的锁键已不在。"),
            format!("{who}'s data Txn failed: its lock key is gone."),
        ),
        EtcdEvent::WriteSkipped { .. } => pick(
            format!("{who} 写之前看 Done()：会话已关闭，它停手，不再写。"),
            format!("{who} looks at Done() before writing: the session is closed, so it stops."),
        ),
        EtcdEvent::UnlockSent { key } => pick(
            format!("{who} 干完了：删除 {key}（Unlock），并撤销租约。"),
            format!("{who} is done: it deletes {key} (Unlock) and revokes its lease."),
        ),
        EtcdEvent::LeaseGranted {
            lease,
            owner,
            requested_s,
            ttl_s,
            expires_ms,
        } if requested_s < ttl_s => pick(
            format!(
                "etcd 给 {} 租约 {lease:x}：请求的 {requested_s} 秒低于最小 TTL，提到 {ttl_s} 秒，{} 秒到期。",
                n(owner),
                secs(*expires_ms)
            ),
            format!(
                "etcd grants {} lease {lease:x}: the {requested_s} s asked for is below the minimum TTL, so it gets {ttl_s} s, expiring at {} s.",
                n(owner),
                secs(*expires_ms)
            ),
        ),
        EtcdEvent::LeaseGranted {
            lease,
            owner,
            ttl_s,
            expires_ms,
            ..
        } => pick(
            format!(
                "etcd 给 {} 租约 {lease:x}，TTL {ttl_s} 秒，{} 秒到期。",
                n(owner),
                secs(*expires_ms)
            ),
            format!(
                "etcd grants {} lease {lease:x} with a {ttl_s} s TTL, expiring at {} s.",
                n(owner),
                secs(*expires_ms)
            ),
        ),
        EtcdEvent::LeaseRefreshed { lease, expires_ms } => pick(
            format!(
                "续约到达 etcd：租约 {lease:x} 重新算满 TTL，{} 秒到期。",
                secs(*expires_ms)
            ),
            format!(
                "The keep-alive reaches etcd: lease {lease:x} is refreshed to its full TTL, expiring at {} s.",
                secs(*expires_ms)
            ),
        ),
        EtcdEvent::LeaseRevoked { lease, owner } => pick(
            format!("etcd 撤销 {} 的租约 {lease:x}。", n(owner)),
            format!("etcd revokes {}'s lease {lease:x}.", n(owner)),
        ),
        EtcdEvent::LeaseNotFound { lease } => pick(
            format!("etcd 不认识租约 {lease:x}：续约应答 TTL 0。"),
            format!("etcd has no lease {lease:x}: the keep-alive's answer has TTL 0."),
        ),
        EtcdEvent::LeaseExpired {
            lease,
            owner,
            expired_ms,
        } => pick(
            format!(
                "etcd 的撤销循环（每 500 毫秒一次）发现 {} 的租约 {lease:x} 在 {} 秒已到期：撤销它和挂在上面的键。到期由 etcd 判定，客户端不知道。",
                n(owner),
                secs(*expired_ms)
            ),
            format!(
                "etcd's revoke loop (every 500 ms) finds {}'s lease {lease:x} expired at {} s: it revokes it with the keys attached. etcd decides the expiry; the client is not told.",
                n(owner),
                secs(*expired_ms)
            ),
        ),
        EtcdEvent::KeyPut {
            owner, create_rev, ..
        } => pick(
            format!("etcd 写入 {} 的锁键，创建修订号 {create_rev}。", n(owner)),
            format!(
                "etcd puts {}'s lock key at create revision {create_rev}.",
                n(owner)
            ),
        ),
        EtcdEvent::KeyDeleted {
            owner,
            create_rev,
            revision: now_rev,
            cause: c,
            notified,
        } => pick(
            format!(
                "etcd 在修订号 {now_rev} 删除 {} 的锁键（rev {create_rev}），原因：{}。通知：{}。",
                n(owner),
                cause(*c, lang),
                names(notified, trace, lang)
            ),
            format!(
                "etcd deletes {}'s lock key (rev {create_rev}) at revision {now_rev}: {}. Notified: {}.",
                n(owner),
                cause(*c, lang),
                names(notified, trace, lang)
            ),
        ),
        EtcdEvent::DataTxn {
            writer,
            token,
            key_rev,
            succeeded: true,
            revision: now_rev,
        } => pick(
            format!(
                "etcd 比较锁键创建修订号 {key_rev} = {token}：成立，{} 的数据在修订号 {now_rev} 写入。",
                n(writer)
            ),
            format!(
                "etcd compares the lock key's create revision {key_rev} = {token}: true, so {}'s data is written at revision {now_rev}.",
                n(writer)
            ),
        ),
        EtcdEvent::DataTxn {
            writer,
            token,
            key_rev,
            ..
        } => pick(
            format!(
                "etcd 比较锁键创建修订号 {key_rev} = {token}：不成立（键已不在为 0），{} 的陈旧写入不可能生效。",
                n(writer)
            ),
            format!(
                "etcd compares the lock key's create revision {key_rev} = {token}: false (0 once the key is gone), so {}'s stale write cannot happen.",
                n(writer)
            ),
        ),
    }
}

fn guard(g: Guard, lang: Lang) -> &'static str {
    match g {
        Guard::None => lang.pick("资源不查令牌", "the resource checks nothing"),
        Guard::Token => lang.pick(
            "资源检查修订号令牌",
            "the resource checks the revision token",
        ),
        Guard::Txn => lang.pick(
            "数据在 etcd 里，由比较锁键的事务写入",
            "the data is in etcd, written by a Txn on the lock key",
        ),
    }
}

pub fn params_line(p: &EtcdParams, lang: Lang) -> String {
    let zh = lang == Lang::Zh;
    let sep = lang.pick("；", "; ");
    let mut parts = vec![if zh {
        format!(
            "{} 个客户端，TTL {} 秒，单程延迟 {} 毫秒，间隔 {} 毫秒启动，持锁工作 {} 毫秒、每 {} 毫秒写一次，运行 {} 毫秒",
            p.clients,
            p.ttl_s,
            p.delay_ms,
            p.start_gap_ms,
            p.work_ms,
            p.write_every_ms,
            p.duration_ms
        )
    } else {
        format!(
            "{} clients, TTL {} s, {} ms each way, starting {} ms apart, working {} ms and writing every {} ms, running {} ms",
            p.clients,
            p.ttl_s,
            p.delay_ms,
            p.start_gap_ms,
            p.work_ms,
            p.write_every_ms,
            p.duration_ms
        )
    }];
    parts.push(guard(p.guard, lang).into());
    parts.push(
        match p.on_lost {
            OnLost::Ignore => lang.pick("客户端不看会话的 Done()", "clients never look at Done()"),
            OnLost::Stop => lang.pick(
                "客户端写前看 Done()",
                "clients look at Done() before each write",
            ),
        }
        .into(),
    );
    if let Some(c) = p.pause_client {
        let c = ETCD_CLIENTS[c];
        parts.push(if zh {
            format!("{c} 在 {} 毫秒停顿 {} 毫秒", p.pause_at_ms, p.pause_len_ms)
        } else {
            format!(
                "{c} pauses at {} ms for {} ms",
                p.pause_at_ms, p.pause_len_ms
            )
        });
    }
    if let Some(c) = p.cut_client {
        let c = ETCD_CLIENTS[c];
        parts.push(if zh {
            format!(
                "{c} 到 etcd 的链路在 {} 毫秒断开 {} 毫秒",
                p.cut_at_ms, p.cut_len_ms
            )
        } else {
            format!(
                "{c}'s link to etcd is cut at {} ms for {} ms",
                p.cut_at_ms, p.cut_len_ms
            )
        });
    }
    parts.join(sep)
}
