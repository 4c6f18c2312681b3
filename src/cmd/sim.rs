//! `locklab sim`: run a scenario headless and print what the engine computed.

use crate::cli::{AbcArgs, FrozenArgs, HerdArgs, KnobArgs, RunArgs, SimCommand};
use crate::engine::params::knobs::{Knob, Knobs, Value};
use crate::engine::params::{
    ElectionParams, FrozenParams, HerdParams, Params, RedlockParams, RwLockParams, SemaphoreParams,
    SnowflakeParams, TasksParams,
};
use crate::engine::trace::Family;
use crate::export;
use crate::i18n::Lang;
use crate::scenario::{self, Preset};
use crate::source::Source;
use crate::text::printable;

use super::error::UserError;
use super::output::write_stdout;

pub fn run(cmd: SimCommand, lang: Lang, source: &Source) -> Result<(), UserError> {
    match cmd {
        SimCommand::Frozen(args) => frozen(args, lang),
        SimCommand::Abc(args) => abc(args, lang, source),
        SimCommand::Herd(args) => herd(args, lang),
        SimCommand::Rwlock(args) => knob_family::<RwLockParams>(
            args,
            Family::Rwlock,
            lang.pick("读写锁", "Read-write lock"),
            (Params::Rwlock, |p| match p {
                Params::Rwlock(x) => Some(x.clone()),
                _ => None,
            }),
            lang,
            source,
        ),
        SimCommand::Semaphore(args) => knob_family::<SemaphoreParams>(
            args,
            Family::Semaphore,
            lang.pick("信号量", "Semaphore"),
            (Params::Semaphore, |p| match p {
                Params::Semaphore(x) => Some(x.clone()),
                _ => None,
            }),
            lang,
            source,
        ),
        SimCommand::Election(args) => knob_family::<ElectionParams>(
            args,
            Family::Election,
            lang.pick("带任期号的选主", "Leader election with epochs"),
            (Params::Election, |p| match p {
                Params::Election(x) => Some(x.clone()),
                _ => None,
            }),
            lang,
            source,
        ),
        SimCommand::Redlock(args) => knob_family::<RedlockParams>(
            args,
            Family::Redlock,
            lang.pick(
                "Redlock：多个独立 Redis 节点",
                "Redlock across independent Redis nodes",
            ),
            (Params::Redlock, |p| match p {
                Params::Redlock(x) => Some(x.clone()),
                _ => None,
            }),
            lang,
            source,
        ),
        SimCommand::Tasks(args) => knob_family::<TasksParams>(
            args,
            Family::Tasks,
            lang.pick("持久任务的领取与租约", "Durable task claims and leases"),
            (Params::Tasks, |p| match p {
                Params::Tasks(x) => Some(x.clone()),
                _ => None,
            }),
            lang,
            source,
        ),
        SimCommand::Snowflake(args) => knob_family::<SnowflakeParams>(
            args,
            Family::Snowflake,
            lang.pick("雪花 ID", "Snowflake IDs"),
            (Params::Snowflake, |p| match p {
                Params::Snowflake(x) => Some(x.clone()),
                _ => None,
            }),
            lang,
            source,
        ),
        SimCommand::Run(args) => run_file(args, lang),
        SimCommand::List => list(lang, source),
    }
}

fn frozen(args: FrozenArgs, lang: Lang) -> Result<(), UserError> {
    let mut p = FrozenParams::default();
    let numbers = [
        ("ttl", args.ttl),
        ("keepalive", args.keepalive),
        ("pause_start", args.pause_start),
        ("pause_len", args.pause_len),
        ("delay", args.delay),
    ];
    for (key, value) in numbers {
        if let Some(v) = value {
            p.set(key, v).map_err(|e| UserError::usage(e.to_string()))?;
        }
    }
    if let Some(f) = args.fencing {
        p.fencing = f.is_on();
    }
    if let Some(s) = args.stop_on_loss {
        p.stop_on_loss = s.is_on();
    }
    let title = lang.pick("冻结的持锁者", "The frozen holder");
    emit(
        title,
        None,
        None,
        &Params::Frozen(p),
        args.output.json,
        lang,
    )
}

fn herd(args: HerdArgs, lang: Lang) -> Result<(), UserError> {
    let mut p = HerdParams::default();
    p.set("waiters", args.waiters)
        .map_err(|e| UserError::usage(e.to_string()))?;
    p.set("fanout", args.fanout)
        .map_err(|e| UserError::usage(e.to_string()))?;
    if let Some(v) = args.grab_cost_ms {
        p.set("grab_cost_ms", v)
            .map_err(|e| UserError::usage(e.to_string()))?;
    }
    if let Some(v) = args.hold_ms {
        p.set("hold_ms", v)
            .map_err(|e| UserError::usage(e.to_string()))?;
    }
    p.validate().map_err(|_| {
        UserError::usage(format!(
            "--fanout must be 1 to {} (the number of waiters)",
            p.waiters
        ))
    })?;
    let title = lang.pick("羊群与链式唤醒", "Herd versus chain");
    emit(title, None, None, &Params::Herd(p), args.output.json, lang)
}

fn presets(source: &Source) -> Result<Vec<Preset>, UserError> {
    scenario::load_all(source).map_err(|e| UserError::usage(e.to_string()))
}

fn abc(args: AbcArgs, lang: Lang, source: &Source) -> Result<(), UserError> {
    let all = presets(source)?;
    let found = all
        .iter()
        .find(|p| p.name == args.preset && p.family == Family::Abc);
    let Some(p) = found else {
        let known: Vec<&str> = all
            .iter()
            .filter(|p| p.family == Family::Abc)
            .map(|p| p.name.as_str())
            .collect();
        return Err(UserError::usage(format!(
            "unknown A/B/C preset `{}`; known presets: {}",
            crate::text::shown(&args.preset),
            known.join(", ")
        )));
    };
    match (args.tick_phase, &p.params) {
        (Some(phase), Params::Abc(a)) => {
            let mut a = a.clone();
            a.set("tick_phase", phase)
                .map_err(|e| UserError::usage(e.to_string()))?;
            let moved = Preset {
                params: Params::Abc(a),
                ..p.clone()
            };
            emit_preset(&moved, args.output.json, lang)
        }
        _ => emit_preset(p, args.output.json, lang),
    }
}

fn run_file(args: RunArgs, lang: Lang) -> Result<(), UserError> {
    let p = scenario::load_file(&args.file).map_err(|e| UserError::usage(e.to_string()))?;
    emit_preset(&p, args.output.json, lang)
}

fn emit_preset(p: &Preset, json: bool, lang: Lang) -> Result<(), UserError> {
    // A user's file may hold anything: no control character reaches the terminal.
    let about = printable(lang.pick(&p.about.zh, &p.about.en), true);
    let name = printable(&p.name, false);
    emit(&name, Some(&about), Some(&p.name), &p.params, json, lang)
}

fn list(lang: Lang, source: &Source) -> Result<(), UserError> {
    let mut out = String::new();
    for p in presets(source)? {
        let about = printable(lang.pick(&p.about.zh, &p.about.en), false);
        let name = printable(&p.name, false);
        let line = format!("{name:<22} {:<7} {about}", p.family.name());
        out.push_str(&crate::text::wrap_indent(&line, 100, 31));
    }
    write_stdout(out.as_bytes())
}

/// A family read through its knob table: a preset to start from (if named), then every
/// `--key value` pair checked exactly as a scenario file's parameter would be.
/// How a knob family's parameters go into and come out of [`Params`].
type Wrap<K> = (fn(K) -> Params, fn(&Params) -> Option<K>);

fn knob_family<K: Knobs + Default + Clone>(
    args: KnobArgs,
    family: Family,
    title: &str,
    (wrap, unwrap): Wrap<K>,
    lang: Lang,
    source: &Source,
) -> Result<(), UserError> {
    let mut base: Option<Preset> = None;
    if let Some(name) = &args.preset {
        let all = presets(source)?;
        let Some(p) = all
            .into_iter()
            .find(|p| &p.name == name && p.family == family)
        else {
            let known: Vec<String> = presets(source)?
                .into_iter()
                .filter(|p| p.family == family)
                .map(|p| p.name)
                .collect();
            return Err(UserError::usage(format!(
                "unknown {} preset `{}`; known presets: {}",
                family.name(),
                crate::text::shown(name),
                known.join(", ")
            )));
        };
        base = Some(p);
    }
    let mut params = match base.as_ref().map(|p| p.params.clone()) {
        Some(p) => p,
        None => wrap(K::default()),
    };
    let json = args.output.json;
    let pairs = args.params;
    if !pairs.is_empty() {
        let mut k = K::default();
        // Start from the preset's values when there is one.
        if let Some(p) = &base {
            k = unwrap(&p.params).unwrap_or_default();
        }
        for (key, raw) in &pairs {
            let flag = format!("--{}", key.replace('_', "-"));
            let Some(knob) = K::knob(key) else {
                return Err(UserError::usage(format!(
                    "unknown option `{flag}`; valid options: {}",
                    K::knob_keys()
                        .iter()
                        .map(|k| format!("--{}", k.replace('_', "-")))
                        .collect::<Vec<_>>()
                        .join(", ")
                )));
            };
            let value = match knob {
                Knob::Num(_) => Value::Num(raw.parse::<f64>().map_err(|_| {
                    UserError::usage(format!("{flag} must be a number (got `{raw}`)"))
                })?),
                Knob::Flag { .. } => Value::Text(raw.clone()),
                Knob::Choice { .. } | Knob::Text { .. } => Value::Text(raw.clone()),
            };
            k.set_knob(key, &value)
                .map_err(|e| UserError::usage(format!("{flag}: {e}")))?;
        }
        k.validate().map_err(|e| {
            let flag = match &e {
                crate::engine::params::ParamError::Invalid { key, .. } => {
                    format!("--{}: ", key.replace('_', "-"))
                }
                _ => String::new(),
            };
            UserError::usage(format!("{flag}{e}"))
        })?;
        params = wrap(k);
    }
    let preset = base.as_ref().map(|p| p.name.as_str());
    let about = base
        .as_ref()
        .map(|p| lang.pick(&p.about.zh, &p.about.en).to_string());
    emit(title, about.as_deref(), preset, &params, json, lang)
}

fn emit(
    title: &str,
    about: Option<&str>,
    preset: Option<&str>,
    params: &Params,
    json: bool,
    lang: Lang,
) -> Result<(), UserError> {
    let trace = crate::engine::run(params);
    if json {
        let mut buf = Vec::new();
        export::json::write(&mut buf, preset, params, &trace).map_err(|e| UserError {
            message: e.to_string(),
            status: 1,
        })?;
        write_stdout(&buf)
    } else {
        write_stdout(export::text::report(title, about, params, &trace, lang).as_bytes())
    }
}
