//! The herd's explanation: how many each release wakes, and how many wake for nothing.

use super::*;

pub(super) fn herd(p: &HerdParams, m: &HerdMetrics, lang: Lang) -> String {
    let zh = lang == Lang::Zh;
    let woken: Vec<String> = m.rows.iter().map(|r| r.woken.to_string()).collect();
    let wasted: Vec<String> = m.rows.iter().map(|r| r.wasted.to_string()).collect();
    let rows = m.rows.len();
    let (n, k) = (p.waiters, p.fanout);
    let (grab, hold) = (f(p.grab_cost_ms), f(p.hold_ms));
    let mut out = Vec::new();
    out.push(if zh {
        format!(
            "{n} 个等待者，每个监听排在它前面第 {k} 位的节点（k = {k}），共释放 {rows} 次。每次释放通知的等待者数：{}，合计 {} 次通知。",
            numbers(&woken, lang),
            m.total_notifications
        )
    } else {
        let places = if k == 1 { "place" } else { "places" };
        format!(
            "{n} waiters, each watching the node {k} {places} ahead (k = {k}); {rows} releases. Waiters notified per release: {} ({} notifications in all).",
            numbers(&woken, lang),
            m.total_notifications
        )
    });
    out.push(if zh {
        format!(
            "无效唤醒（被唤醒但不是队首的）每次：{}，合计 {} 次。",
            numbers(&wasted, lang),
            m.wasted_wakeups
        )
    } else {
        format!(
            "Wasted wake-ups (woken but not first in line) per release: {} ({} in all).",
            numbers(&wasted, lang),
            m.wasted_wakeups
        )
    });
    out.push(if zh {
        format!(
            "每次释放耗时 = 被唤醒数 x {grab} 毫秒的重读 + {hold} 毫秒的持锁；{rows} 次释放共 {} 毫秒。",
            f(m.total_time_ms)
        )
    } else {
        format!(
            "Each release takes woken x {grab} ms of re-reads plus {hold} ms of holding; the {rows} releases take {} ms in all.",
            f(m.total_time_ms)
        )
    });
    join(out, lang)
}
