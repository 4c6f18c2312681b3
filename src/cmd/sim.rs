//! `locklab sim`: run a scenario headless and print what the engine computed.

use crate::cli::{KnobArgs, RunArgs, SimCommand};
use crate::engine::params::knobs::{Knob, Value};
use crate::engine::params::{ParamError, Params};
use crate::engine::registry;
use crate::engine::trace::Family;
use crate::export;
use crate::i18n::Lang;
use crate::scenario::{self, Preset};
use crate::source::Source;
use crate::text::printable;

use super::error::UserError;
use super::output::write_stdout;

pub fn run(cmd: SimCommand, lang: Lang, source: &Source) -> Result<(), UserError> {
    match cmd.family_args() {
        Ok((family, args)) => family_run(family, args, lang, source),
        Err(SimCommand::Run(args)) => run_file(args, lang),
        Err(_) => list(lang, source),
    }
}

/// What a family's report is headed with; `None` for the A/B/C queue, whose runs are told by
/// their preset, so its name heads the report.
fn title(family: Family, lang: Lang) -> Option<&'static str> {
    Some(match family {
        Family::Frozen => lang.pick("冻结的持锁者", "The frozen holder"),
        Family::Abc => return None,
        Family::Herd => lang.pick("羊群与链式唤醒", "Herd versus chain"),
        Family::Rwlock => lang.pick("读写锁", "Read-write lock"),
        Family::Semaphore => lang.pick("信号量", "Semaphore"),
        Family::Election => lang.pick("带任期号的选主", "Leader election with epochs"),
        Family::Tasks => lang.pick("持久任务的领取与租约", "Durable task claims and leases"),
        Family::Redlock => lang.pick(
            "Redlock：多个独立 Redis 节点",
            "Redlock across independent Redis nodes",
        ),
        Family::Snowflake => lang.pick("雪花 ID", "Snowflake IDs"),
        Family::Etcd => lang.pick("etcd 的租约锁", "etcd's lease lock"),
    })
}

fn presets(source: &Source) -> Result<Vec<Preset>, UserError> {
    scenario::load_all(source).map_err(|e| UserError::usage(e.to_string()))
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
    let presets = presets(source)?;
    // Both columns as wide as their longest entry, so every purpose starts in one column.
    let column = |w: &dyn Fn(&Preset) -> usize| presets.iter().map(w).max().unwrap_or(0);
    let name_w = column(&|p| crate::text::width(&printable(&p.name, false)));
    let family_w = column(&|p| crate::text::width(p.family.name()));
    for p in &presets {
        let about = printable(lang.pick(&p.about.zh, &p.about.en), false);
        let name = crate::text::pad(&printable(&p.name, false), name_w);
        let family = crate::text::pad(p.family.name(), family_w);
        let line = format!("{name} {family} {about}");
        out.push_str(&crate::text::wrap_indent(&line, 100, name_w + family_w + 2));
    }
    write_stdout(out.as_bytes())
}

/// One family's run: a preset to start from (if named), then every `--key value` pair checked
/// exactly as a scenario file's parameter would be.
fn family_run(
    family: Family,
    args: KnobArgs,
    lang: Lang,
    source: &Source,
) -> Result<(), UserError> {
    let base = match &args.preset {
        Some(name) => Some(preset_of(family, name, source)?),
        None => None,
    };
    let mut params = base
        .as_ref()
        .map_or_else(|| registry::entry(family).defaults(), |p| p.params.clone());
    set_knobs(&mut params, &args.params)?;
    let json = args.output.json;
    match (title(family, lang), base) {
        (None, Some(p)) => emit_preset(&Preset { params, ..p }, json, lang),
        (title, base) => {
            let preset = base.as_ref().map(|p| p.name.as_str());
            let about = base
                .as_ref()
                .map(|p| lang.pick(&p.about.zh, &p.about.en).to_string());
            let title = title.unwrap_or(family.name());
            emit(title, about.as_deref(), preset, &params, json, lang)
        }
    }
}

/// The preset of `family` called `name`, or an error listing the family's presets.
fn preset_of(family: Family, name: &str, source: &Source) -> Result<Preset, UserError> {
    let all = presets(source)?;
    let known: Vec<&str> = all
        .iter()
        .filter(|p| p.family == family)
        .map(|p| p.name.as_str())
        .collect();
    if let Some(p) = all.iter().find(|p| p.name == name && p.family == family) {
        return Ok(p.clone());
    }
    Err(UserError::usage(format!(
        "unknown {} preset `{}`; known presets: {}",
        family.name(),
        crate::text::shown(name),
        known.join(", ")
    )))
}

/// Applies the command line's `(key, value)` pairs in its order, then checks how they fit.
fn set_knobs(params: &mut Params, pairs: &[(String, String)]) -> Result<(), UserError> {
    let knobs = registry::entry(params.family()).knobs();
    for (key, raw) in pairs {
        let flag = format!("--{}", key.replace('_', "-"));
        let Some(knob) = knobs.iter().find(|k| k.key() == key) else {
            let valid: Vec<String> = knobs
                .iter()
                .map(|k| format!("--{}", k.key().replace('_', "-")))
                .collect();
            return Err(UserError::usage(format!(
                "unknown option `{flag}`; valid options: {}",
                valid.join(", ")
            )));
        };
        let value = match knob {
            Knob::Num(spec) => Value::Num(raw.trim().parse::<f64>().map_err(|_| {
                UserError::usage(format!(
                    "{flag} must be a number, {} (got `{raw}`)",
                    spec.range_text()
                ))
            })?),
            Knob::Flag { .. } | Knob::Choice { .. } | Knob::Text { .. } => Value::Text(raw.clone()),
        };
        params
            .set_knob(key, &value)
            .map_err(|e| UserError::usage(format!("{flag}: {e}")))?;
    }
    params.validate().map_err(|e| {
        let key = match &e {
            ParamError::Invalid { key, .. } => Some(key.as_str()),
            ParamError::OutOfRange { key, .. } | ParamError::NotWhole { key, .. } => Some(*key),
            _ => None,
        };
        let flag = key.map_or(String::new(), |k| format!("--{}: ", k.replace('_', "-")));
        UserError::usage(format!("{flag}{e}"))
    })
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
