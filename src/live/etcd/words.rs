//! The words of a live etcd run, in both languages.

use super::resource::ResourceAt;
use crate::i18n::Lang;

/// The first line: which server, and where the writes go.
pub fn starting(lang: Lang) -> &'static str {
    lang.pick(
        "启动一台私有 etcd（单成员，127.0.0.1，数据目录用完即删），每个客户端一个进程。",
        "Starting a private etcd (one member, 127.0.0.1, its data directory removed afterwards), one process per client.",
    )
}

/// Where the run's writes went.
pub fn resource_line(at: &ResourceAt, version: &str, lang: Lang) -> String {
    let (zh, en) = match at {
        ResourceAt::Plain { .. } => (
            "资源是 etcd 里的一个键，写入不经任何检查",
            "the resource is a key in etcd, written without any check",
        ),
        ResourceAt::TokenInEtcd { .. } => (
            "资源是 etcd 里的一个键，由一个 Txn 比较已记录的最大令牌，小于它的写入被拒（本机没有 PostgreSQL）",
            "the resource is a key in etcd behind a Txn that compares the highest token recorded and refuses a lower one (no PostgreSQL here)",
        ),
        ResourceAt::Postgres { .. } => (
            "资源是私有 PostgreSQL 里带栅栏的一行，令牌小于已见最大值的写入被拒",
            "the resource is a fenced row on a private PostgreSQL, which refuses a token lower than the highest it has taken",
        ),
        ResourceAt::Txn { .. } => (
            "数据是 etcd 里的一个键，由同一个 Txn 比较锁键的创建版本后写入",
            "the data is a key in etcd, written by a Txn that compares the lock key's create revision in the same step",
        ),
    };
    match lang {
        Lang::Zh => format!("etcd {version}：{zh}。"),
        Lang::En => format!("etcd {version}: {en}."),
    }
}

/// How the instants were compared, and what the live run does not model.
pub fn note(lang: Lang) -> &'static str {
    lang.pick(
        "时间点各行：第一次拿锁按时刻比，允许三次往返（租约、加锁的 Txn、读前驱，模型每次往返是两倍网络延迟，本机回环几乎为零）再加 50 毫秒调度；之后的拿锁从前一个锁键被删算起，允许两次往返（监听事件和一次读）；租约过期按时刻比，允许 600 毫秒：etcd 的租约检查每 500 毫秒才看一次（实测晚到 73 到 498 毫秒），再加一次提交；第 n 次写入从拿锁算起，允许 n 次往返；得知会话结束允许 1 秒的截止检查周期、一次最长 1.5 秒的续约请求和一次往返。etcd 的版本号在真实运行里另有用途（资源键也在 etcd 里时，写入会推高版本），所以令牌的具体数值不比，只比谁持锁、陈旧写入被接受和被拒的次数、最后的值。真实运行没有注入网络延迟。",
        "Instant rows: the first lock is compared by its instant, allowed three round trips (the lease, the mutex's Txn, the read of the key ahead; the model gives each twice its network delay, loopback almost none) and 50 ms for scheduling; each later lock from the deletion of the key before it, allowed two round trips (the watch's event and a read); a lease expiry by its instant, allowed 600 ms, since etcd's lessor looks for expired leases only every 500 ms (measured 73 to 498 ms late) and then commits the revoke; the n-th write from its writer's lock, allowed n round trips; the instant a client learns its session is done, allowed the library's 1 s deadline loop, one keep-alive that may wait its full 1.5 s and a round trip. Revisions count every write in etcd (the resource's key lives there too when there is no PostgreSQL), so the tokens' values are not compared: who held, the stale writes accepted and refused, and the final value are. The live run adds no network delay.",
    )
}
