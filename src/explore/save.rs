//! A counterexample as an ordinary scenario file: the recipe and timings it was found with, and
//! its schedule (faults included), so `sim run`, `present` and `export` replay exactly it.

use super::report::Finding;
use crate::engine::actors::recipe::{
    DataWrite, OnDisconnect, OnLoss, OnTimeout, Recovery, Registration, TokenSource, WatchMode,
};
use crate::engine::params::{AbcParams, Fault};
use crate::engine::time::fmt_secs;
use crate::i18n::{Lang, explore as words, invariant_label};

/// A TOML string (basic, escaped).
fn quoted(s: &str) -> String {
    toml::Value::String(s.to_string()).to_string()
}

fn recipe_lines(p: &AbcParams) -> Vec<String> {
    let (watch, fanout) = match p.watch {
        WatchMode::Predecessor => ("predecessor", None),
        WatchMode::Children => ("children", None),
        WatchMode::Ahead(k) => ("ahead", Some(k)),
    };
    let mut lines = vec![
        format!("session_timeout = {}", fmt_secs(p.session_timeout_ms)),
        format!("delay = {}", fmt_secs(p.delay_ms)),
        format!("hold = {}", fmt_secs(p.hold_ms)),
        format!("write_after = {}", fmt_secs(p.write_after_ms)),
        format!("start_gap = {}", fmt_secs(p.start_gap_ms)),
        format!("tick = {}", fmt_secs(p.tick_ms)),
        format!("duration = {}", fmt_secs(p.duration_ms)),
        format!("watch = \"{watch}\""),
    ];
    if let Some(k) = fanout {
        lines.push(format!("fanout = {k}"));
    }
    let recovery = match p.recovery {
        Recovery::Guid => "guid",
        Recovery::Blind => "blind",
    };
    let registration = match p.registration {
        Registration::Atomic => "atomic",
        Registration::TwoStep => "two_step",
    };
    let on_disconnect = match p.on_disconnect {
        OnDisconnect::Suspend => "suspend",
        OnDisconnect::CarryOn => "carry_on",
    };
    let on_loss = match p.on_loss {
        OnLoss::Stop => "stop",
        OnLoss::CarryOn => "carry_on",
    };
    let on_timeout = match p.on_timeout {
        OnTimeout::DeleteNode => "delete_node",
        OnTimeout::Forget => "forget",
    };
    let token = match p.token {
        TokenSource::Czxid => "czxid",
        TokenSource::Sequence => "sequence",
    };
    lines.extend([
        format!("recovery = \"{recovery}\""),
        format!("registration = \"{registration}\""),
        format!("on_disconnect = \"{on_disconnect}\""),
        format!("on_loss = \"{on_loss}\""),
        format!("on_timeout = \"{on_timeout}\""),
        format!("fencing = {}", p.fencing),
        format!("token = \"{token}\""),
        format!("first_sequence = {}", p.first_sequence),
        format!("first_zxid = {}", p.first_zxid),
        format!("seed = {}", p.seed),
    ]);
    if let Some(ms) = p.container_check_ms {
        lines.push(format!("container_check = {}", fmt_secs(ms)));
    }
    let data_write = match p.data_write {
        DataWrite::Off => None,
        DataWrite::Unconditional => Some("unconditional"),
        DataWrite::Conditional => Some("conditional"),
    };
    if let Some(mode) = data_write {
        lines.push(format!("data_write = \"{mode}\""));
        lines.push(format!("data_version = {}", p.data_version));
    }
    lines
}

/// The acquire deadlines the search kept (a client giving up is the recipe's, not a fault the
/// search injected), as `[[faults]]` tables.
fn give_up_tables(p: &AbcParams) -> String {
    let mut out = String::new();
    for f in &p.faults {
        if let Fault::GiveUp { client, at_ms } = f {
            out.push_str(&format!(
                "\n[[faults]]\nkind = \"give_up\"\nclient = {}\nat = {}\n",
                quoted(client),
                fmt_secs(*at_ms)
            ));
        }
    }
    out
}

/// The scenario file for a finding of the search over `preset`.
pub fn scenario(preset: &str, f: &Finding) -> String {
    let about = |lang: Lang| {
        words::about_counterexample(
            preset,
            invariant_label(f.property, lang),
            &words::length(f.steps, f.schedule.len(), lang),
            lang,
        )
    };
    let mut out = String::new();
    out.push_str(&format!(
        "# The shortest counterexample `locklab explore {preset}` found for {}.\n",
        f.property
    ));
    out.push_str(
        "# The schedule is every step in order, faults included; a timed run follows it.\n",
    );
    out.push_str("family = \"abc\"\nschedule = [\n");
    for s in &f.schedule {
        out.push_str(&format!("  {},\n", quoted(s)));
    }
    out.push_str("]\n\n[about]\n");
    out.push_str(&format!("zh = {}\n", quoted(&about(Lang::Zh))));
    out.push_str(&format!("en = {}\n", quoted(&about(Lang::En))));
    out.push_str("\n[params]\n");
    for l in recipe_lines(&f.params) {
        out.push_str(&l);
        out.push('\n');
    }
    out.push_str(&give_up_tables(&f.params));
    out
}
