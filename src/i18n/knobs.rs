//! The knobs' names and their choices' values in words: the family lab lists `session_timeout`
//! as 会话超时 in Chinese; English keeps the key, which is also how a preset file spells it.

use super::Lang;

/// Each knob key with its Chinese name, sorted by key. One name per key across the families.
const KNOBS: &[(&str, &str)] = &[
    ("a_work_left", "A 剩余工作"),
    ("burst", "突发请求数"),
    ("burst_at", "突发时刻"),
    ("cancel", "操作员取消"),
    ("cancel_at", "取消时刻"),
    ("catch_in_body", "任务体吞下取消"),
    ("check_cancel", "检查取消"),
    ("claim", "领取方式"),
    ("clients", "客户端数"),
    ("clock_start", "时钟起点"),
    ("complete", "完成条件"),
    ("completion_clock", "完成时读的时钟"),
    ("conditional", "条件写入"),
    ("crash_at", "崩溃时刻"),
    ("crash_generator", "崩溃的生成器"),
    ("crash_node", "崩溃的节点"),
    ("cut_at", "断链时刻"),
    ("cut_client", "断链的客户端"),
    ("cut_len", "断链时长"),
    ("delay", "单程延迟"),
    ("down", "停机的节点"),
    ("down_until", "停机直到"),
    ("drift_pct", "时钟漂移 %"),
    ("duration", "运行时长"),
    ("effect", "外部副作用"),
    ("effect_after", "副作用时刻"),
    ("fanout", "每次唤醒数"),
    ("first_epoch", "起始任期号"),
    ("first_sequence", "起始序号"),
    ("fsync", "fsync"),
    ("grab_cost_ms", "抢锁耗时"),
    ("guard", "写入守卫"),
    ("hold", "持锁时长"),
    ("hold_ms", "持锁时长"),
    ("idempotency_key", "幂等键"),
    ("jump_at", "时钟跳变时刻"),
    ("jump_by", "跳变幅度"),
    ("jump_node", "时钟跳变节点"),
    ("keepalive", "续约间隔"),
    ("lease", "租约时长"),
    ("lease_until", "租约到期"),
    ("lessor_phase", "租约检查相位"),
    ("lower_at", "调低时刻"),
    ("lower_to", "调低到"),
    ("nodes", "节点数"),
    ("on_exhaustion", "序号用尽时"),
    ("on_lost", "会话结束后"),
    ("on_rollback", "时钟回拨时"),
    ("pause_at", "停顿时刻"),
    ("pause_client", "停顿的客户端"),
    ("pause_len", "停顿时长"),
    ("pause_start", "停顿时刻"),
    ("permits", "许可数"),
    ("poison_task", "毒任务"),
    ("rate", "每毫秒请求"),
    ("read_rule", "读者规则"),
    ("release", "释放方式"),
    ("renew_every", "续期间隔"),
    ("restart_after", "重启间隔"),
    ("retry", "重试间隔"),
    ("roles", "读写角色"),
    ("rollback", "回拨幅度"),
    ("rollback_at", "回拨时刻"),
    ("rollback_generator", "回拨的生成器"),
    ("row_version", "行版本"),
    ("scan_every", "扫描间隔"),
    ("scan_start", "扫描开始"),
    ("seed", "随机种子"),
    ("sequence_bits", "序号位数"),
    ("session_timeout", "会话超时"),
    ("start_gap", "启动间隔"),
    ("stop_on_loss", "失锁即停"),
    ("store_clock", "存储时钟"),
    ("task_every", "任务间隔"),
    ("tasks", "任务数"),
    ("tick", "tick 周期"),
    ("tick_phase", "tick 相位"),
    ("time_bits", "时间位数"),
    ("timeout", "请求超时"),
    ("ttl", "TTL"),
    ("wait_on_start", "启动时等待"),
    ("waiters", "等待者数"),
    ("work", "工作时长"),
    ("worker_bits", "机器位数"),
    ("worker_leases", "机器号租约"),
    ("workers", "工作者数"),
    ("write_after", "写入延后"),
    ("write_every", "写入间隔"),
];

/// Each value a choice knob takes, in Chinese.
const CHOICES: &[(&str, &str)] = &[
    ("compare_and_delete", "比较后删除"),
    ("conditional", "按编号条件更新"),
    ("fair", "公平"),
    ("ignore", "忽略"),
    ("naive_del", "直接删除"),
    ("none", "无"),
    ("refuse", "拒绝"),
    ("skip_locked", "跳过已锁的行"),
    ("skip_waiting_writers", "越过等待的写者"),
    ("statement", "语句自己的时刻"),
    ("stop", "停手"),
    ("token", "检查版本令牌"),
    ("transaction_start", "事务开始的时刻"),
    ("txn", "事务比较"),
    ("unconditional", "无条件"),
    ("version", "核对版本"),
    ("version_and_lease", "核对版本与租约"),
    ("wait", "等待"),
    ("wrap", "回绕"),
];

/// What a text knob takes, in Chinese, by key (English is the engine's own description).
const TEXTS: &[(&str, &str)] = &[
    ("down", "开始时就停机的节点编号，如 3,5（留空表示没有）"),
    (
        "roles",
        "2 到 12 个字母，r（读）或 w（写），按启动顺序每个客户端一个",
    ),
    ("workers", "每个生成器的机器号，1 到 4 个，如 7 或 7,7"),
];

fn find<'a>(table: &'a [(&str, &'a str)], key: &'a str) -> &'a str {
    table
        .binary_search_by(|(k, _)| k.cmp(&key))
        .map_or(key, |i| table[i].1)
}

/// The name of knob `key`: the key itself in English, its Chinese name in Chinese.
pub fn knob_name(key: &str, lang: Lang) -> &str {
    match lang {
        Lang::En => key,
        Lang::Zh => find(KNOBS, key),
    }
}

/// A choice knob's value in words (client names such as `A` stay as they are).
pub fn choice_word(value: &str, lang: Lang) -> &str {
    match lang {
        Lang::En => value,
        Lang::Zh => find(CHOICES, value),
    }
}

/// What text knob `key` takes; `what` is the engine's English description.
pub fn text_hint<'a>(key: &'a str, what: &'a str, lang: Lang) -> &'a str {
    match lang {
        Lang::En => what,
        Lang::Zh => {
            let zh = find(TEXTS, key);
            if zh == key { what } else { zh }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::params::knobs::{Knob, Knobs};
    use crate::engine::params::*;

    #[test]
    fn tables_are_sorted_for_the_search() {
        assert!(KNOBS.windows(2).all(|w| w[0].0 < w[1].0));
        assert!(CHOICES.windows(2).all(|w| w[0].0 < w[1].0));
        assert!(TEXTS.windows(2).all(|w| w[0].0 < w[1].0));
    }

    #[test]
    fn every_knob_and_choice_has_chinese_words() {
        let families = [
            RwLockParams::knobs(),
            SemaphoreParams::knobs(),
            ElectionParams::knobs(),
            TasksParams::knobs(),
            RedlockParams::knobs(),
            SnowflakeParams::knobs(),
            EtcdParams::knobs(),
        ];
        for k in families.iter().flat_map(|f| f.iter()) {
            let name = knob_name(k.key(), Lang::Zh);
            assert!(
                name != k.key() || ["fsync"].contains(&name),
                "{} has no Chinese name",
                k.key()
            );
            if let Knob::Text { key, what } = k {
                assert_ne!(
                    text_hint(key, what, Lang::Zh),
                    *what,
                    "{key} has no Chinese hint"
                );
            }
            if let Knob::Choice { options, .. } = k {
                for o in *options {
                    let w = choice_word(o, Lang::Zh);
                    assert!(w != *o || o.len() == 1, "{o} has no Chinese words");
                }
            }
        }
        assert_eq!(knob_name("session_timeout", Lang::En), "session_timeout");
    }
}
