//! Scenario files: the shipped presets under `assets/scenarios/` and any file a user writes.
//!
//! A file names its family, its parameters and one sentence in each language saying what it
//! teaches. Every mistake is reported with the file, line, column and key at fault.

use std::collections::BTreeMap;
use std::fmt;
use std::path::Path;

use serde::Deserialize;
use toml::Spanned;

use crate::engine::params::knobs::{Knob, Knobs, Value};
use crate::engine::params::{
    AbcParams, DataWrite, ElectionParams, Fault, FrozenParams, HerdParams, OnDisconnect, OnLoss,
    OnTimeout, ParamError, Params, QUEUE_NAMES, Recovery, RedlockParams, Registration,
    RwLockParams, SemaphoreParams, SnowflakeParams, TasksParams, TokenSource, WatchMode,
};
use crate::engine::time::from_secs;
use crate::engine::trace::Family;
use crate::script::{Ask, Question, Step};
use crate::source::{Source, SourceFile};

/// A sentence in both languages.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct Text {
    pub zh: String,
    pub en: String,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Preset {
    pub name: String,
    pub family: Family,
    pub about: Text,
    pub params: Params,
    /// Parameters a presenter cannot change, so a demonstration cannot drift.
    pub locked: Vec<String>,
    /// The instructor's script, if any.
    pub script: Vec<Step>,
    /// Where it came from, for messages.
    pub origin: String,
}

impl Preset {
    /// A run with no file behind it (a model question's variant), for the presenter.
    pub fn of_run(params: Params, about: Text) -> Self {
        let family = match &params {
            Params::Frozen(_) => Family::Frozen,
            Params::Abc(_) => Family::Abc,
            Params::Herd(_) => Family::Herd,
            Params::Rwlock(_) => Family::Rwlock,
            Params::Semaphore(_) => Family::Semaphore,
            Params::Election(_) => Family::Election,
            Params::Tasks(_) => Family::Tasks,
            Params::Redlock(_) => Family::Redlock,
            Params::Snowflake(_) => Family::Snowflake,
        };
        Self {
            name: family.name().to_string(),
            family,
            about,
            params,
            locked: Vec::new(),
            script: Vec::new(),
            origin: String::new(),
        }
    }
}

/// A problem in a scenario file, pointing at the place to fix.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PresetError {
    pub file: String,
    pub line: usize,
    pub column: usize,
    /// The key at fault, when there is one.
    pub key: Option<String>,
    pub message: String,
}

impl fmt::Display for PresetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}: ", self.file, self.line, self.column)?;
        if let Some(key) = &self.key {
            write!(f, "`{key}`: ")?;
        }
        write!(f, "{}", self.message)
    }
}

impl std::error::Error for PresetError {}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPreset {
    family: Spanned<String>,
    about: Spanned<Text>,
    #[serde(default)]
    params: BTreeMap<String, Spanned<toml::Value>>,
    #[serde(default)]
    faults: Vec<Spanned<RawFault>>,
    #[serde(default)]
    locked: Vec<Spanned<String>>,
    #[serde(default)]
    script: Vec<Spanned<RawStep>>,
    /// An exact order of steps (an explorer's counterexample), for the abc family.
    #[serde(default)]
    schedule: Vec<Spanned<String>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawStep {
    at: Option<Spanned<f64>>,
    #[serde(default)]
    set: BTreeMap<String, Spanned<toml::Value>>,
    zh: String,
    en: String,
    ask: Option<Spanned<String>>,
    question: Option<Spanned<Text>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFault {
    kind: Spanned<String>,
    client: Option<Spanned<String>>,
    at: Option<Spanned<f64>>,
    len: Option<Spanned<f64>>,
    owner: Option<Spanned<String>>,
    reader: Option<Spanned<String>>,
}

const FAULT_KINDS: &str =
    "freeze, disconnect, crash, drop_create_response, delete_between, give_up";
const CLIENTS: [&str; 3] = ["A", "B", "C"];

struct Ctx<'a> {
    file: &'a str,
    text: &'a str,
}

impl Ctx<'_> {
    fn err(
        &self,
        span: std::ops::Range<usize>,
        key: Option<&str>,
        message: impl Into<String>,
    ) -> PresetError {
        let (line, column) = line_col(self.text, span.start);
        PresetError {
            file: self.file.to_string(),
            line,
            column,
            key: key.map(str::to_string),
            message: message.into(),
        }
    }
}

/// 1-based line and column (in characters) of a byte offset.
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    crate::toml_place::line_col(text, offset)
}

/// Where a TOML error is and the key path there: `invalid type` and `duplicate key` name no key
/// themselves, and an error without a span is placed at the start of the file.
pub(crate) fn toml_error_place(
    text: &str,
    e: &toml::de::Error,
) -> (std::ops::Range<usize>, Option<String>) {
    let span = e.span().unwrap_or(0..0);
    let path = crate::toml_place::key_path(text, span.start);
    // A missing field is reported at its table; the key at fault is the field in it.
    let missing = e
        .message()
        .split("missing field `")
        .nth(1)
        .and_then(|rest| rest.split('`').next());
    let key = match missing {
        Some(m) => match crate::toml_place::table_path(text, span.start) {
            Some(table) => Some(format!("{table}.{m}")),
            None => Some(m.to_string()),
        },
        None => path.or_else(|| unknown_key(e.message())),
    };
    (span, key)
}

/// Parses one scenario file. `file` names it in messages; `name` is its preset name.
pub fn parse(name: &str, file: &str, text: &str) -> Result<Preset, PresetError> {
    let ctx = Ctx { file, text };
    let raw: RawPreset = toml::from_str(text).map_err(|e| {
        let (span, key) = toml_error_place(text, &e);
        ctx.err(span, key.as_deref(), e.message().trim().to_string())
    })?;
    let Some(family) = Family::parse(raw.family.get_ref()) else {
        let known: Vec<&str> = Family::ALL.iter().map(|f| f.name()).collect();
        return Err(ctx.err(
            raw.family.span(),
            Some("family"),
            format!(
                "unknown family `{}`; known families: {}",
                raw.family.get_ref(),
                known.join(", ")
            ),
        ));
    };
    if !takes_faults(family)
        && let Some(first) = raw.faults.first()
    {
        return Err(ctx.err(
            first.span(),
            Some("faults"),
            "this family takes no faults (the abc, rwlock and semaphore families do)",
        ));
    }
    let about = raw.about.get_ref().clone();
    if about.zh.trim().is_empty() || about.en.trim().is_empty() {
        return Err(ctx.err(
            0..0,
            Some("about"),
            "`about` needs a sentence in both zh and en",
        ));
    }
    let mut params = family_params(&ctx, family, &raw.params, &raw.faults)?;
    let schedule = schedule(&ctx, family, &raw.schedule)?;
    set_schedule(&mut params, &schedule);
    check_schedule(&ctx, &params, &raw.schedule)?;
    let valid = match family {
        Family::Frozen => FrozenParams::keys(),
        Family::Herd => HerdParams::keys(),
        Family::Abc => AbcParams::keys(),
        Family::Rwlock => with_faults(RwLockParams::knob_keys()),
        Family::Semaphore => with_faults(SemaphoreParams::knob_keys()),
        Family::Election => ElectionParams::knob_keys(),
        Family::Tasks => TasksParams::knob_keys(),
        Family::Redlock => RedlockParams::knob_keys(),
        Family::Snowflake => SnowflakeParams::knob_keys(),
    };
    let mut locked = Vec::new();
    for key in &raw.locked {
        if !valid.contains(&key.get_ref().as_str()) {
            let message = format!(
                "unknown parameter `{}`; valid parameters: {}",
                key.get_ref(),
                valid.join(", ")
            );
            return Err(ctx.err(key.span(), Some("locked"), message));
        }
        locked.push(key.get_ref().clone());
    }
    let mut script = script_steps(&ctx, family, &raw)?;
    for step in &mut script {
        set_schedule(&mut step.params, &schedule);
    }
    Ok(Preset {
        name: name.to_string(),
        family,
        about,
        params,
        locked,
        script,
        origin: file.to_string(),
    })
}

/// Reads the `schedule` strings; only the abc family takes one.
fn schedule(
    ctx: &Ctx,
    family: Family,
    raw: &[Spanned<String>],
) -> Result<Vec<crate::engine::world::schedule::Scheduled>, PresetError> {
    use crate::engine::world::schedule::Scheduled;
    if family != Family::Abc
        && let Some(first) = raw.first()
    {
        return Err(ctx.err(
            first.span(),
            Some("schedule"),
            "only the abc family takes a schedule",
        ));
    }
    let names = crate::engine::families::abc::ACTOR_NAMES;
    raw.iter()
        .map(|s| {
            Scheduled::parse(s.get_ref(), &names)
                .map_err(|e| ctx.err(s.span(), Some("schedule"), e))
        })
        .collect()
}

fn set_schedule(params: &mut Params, schedule: &[crate::engine::world::schedule::Scheduled]) {
    if let Params::Abc(p) = params {
        p.schedule = schedule.to_vec();
    }
}

/// Every step of a schedule must be able to happen when its turn comes.
fn check_schedule(ctx: &Ctx, params: &Params, raw: &[Spanned<String>]) -> Result<(), PresetError> {
    let Params::Abc(p) = params else {
        return Ok(());
    };
    match crate::engine::families::abc::check_schedule(p) {
        Ok(()) => Ok(()),
        Err(i) => Err(ctx.err(
            raw[i].span(),
            Some("schedule"),
            format!(
                "step {} (`{}`) cannot happen at that point of the run",
                i + 1,
                raw[i].get_ref()
            ),
        )),
    }
}

fn family_params(
    ctx: &Ctx,
    family: Family,
    table: &BTreeMap<String, Spanned<toml::Value>>,
    faults: &[Spanned<RawFault>],
) -> Result<Params, PresetError> {
    Ok(match family {
        Family::Frozen => Params::Frozen(frozen_params(ctx, table)?),
        Family::Herd => Params::Herd(herd_params(ctx, table)?),
        Family::Abc => Params::Abc(abc_params(ctx, table, faults)?),
        Family::Rwlock => {
            let mut p: RwLockParams = knob_params(ctx, table)?;
            p.common.faults = queue_faults(ctx, faults, p.wants.len(), p.common.duration_ms)?;
            Params::Rwlock(p)
        }
        Family::Semaphore => {
            let mut p: SemaphoreParams = knob_params(ctx, table)?;
            p.common.faults = queue_faults(ctx, faults, p.clients as usize, p.common.duration_ms)?;
            Params::Semaphore(p)
        }
        Family::Election => Params::Election(knob_params(ctx, table)?),
        Family::Tasks => Params::Tasks(knob_params(ctx, table)?),
        Family::Redlock => Params::Redlock(knob_params(ctx, table)?),
        Family::Snowflake => Params::Snowflake(knob_params(ctx, table)?),
    })
}

fn takes_faults(family: Family) -> bool {
    matches!(family, Family::Abc | Family::Rwlock | Family::Semaphore)
}

fn with_faults(mut keys: Vec<&'static str>) -> Vec<&'static str> {
    keys.push("faults");
    keys
}

/// Reads a family's parameters through its table of knobs: each value is checked for its kind
/// here and for its range or options by the family, and every problem names its place.
fn knob_params<K: Knobs + Default>(
    ctx: &Ctx,
    table: &BTreeMap<String, Spanned<toml::Value>>,
) -> Result<K, PresetError> {
    let mut p = K::default();
    for (key, v) in table {
        let Some(knob) = K::knob(key) else {
            return Err(unknown_param(ctx, key, v, &K::knob_keys()));
        };
        let value = match knob {
            Knob::Num(_) => Value::Num(number(ctx, key, v)?),
            Knob::Flag { .. } => Value::Bool(boolean(ctx, key, v)?),
            Knob::Choice { .. } | Knob::Text { .. } => Value::Text(string(ctx, key, v)?.into()),
        };
        p.set_knob(key, &value)
            .map_err(|e| param_err(ctx, key, v, e))?;
    }
    p.validate().map_err(|e| {
        // Point at the key the problem names when the file sets it, else at the table.
        let at = match &e {
            ParamError::Invalid { key, .. } => table.get(key).map(|v| (key.clone(), v.span())),
            _ => None,
        };
        match at {
            Some((key, span)) => ctx.err(span, Some(&key), e.to_string()),
            None => {
                let span = table.values().next().map_or(0..0, |v| v.span());
                ctx.err(span, Some("params"), e.to_string())
            }
        }
    })?;
    Ok(p)
}

/// The faults of a queue family, whose clients are named A, B, C, ... in start order.
fn queue_faults(
    ctx: &Ctx,
    faults: &[Spanned<RawFault>],
    clients: usize,
    duration_ms: u64,
) -> Result<Vec<Fault>, PresetError> {
    faults
        .iter()
        .map(|f| {
            // These three are A/B/C stories the queue families' clients do not act out: refused,
            // rather than accepted and silently doing nothing.
            let kind = f.get_ref().kind.get_ref().as_str();
            if QUEUE_UNSUPPORTED_FAULTS.contains(&kind) {
                return Err(ctx.err(
                    f.get_ref().kind.span(),
                    Some("kind"),
                    format!(
                        "`{kind}` is an A/B/C fault; read-write locks and semaphores take: freeze, disconnect, crash"
                    ),
                ));
            }
            fault(ctx, f, duration_ms, &QUEUE_NAMES[..clients])
        })
        .collect()
}

/// Fault kinds only the A/B/C queue carries out.
const QUEUE_UNSUPPORTED_FAULTS: [&str; 3] = ["drop_create_response", "delete_between", "give_up"];

/// The run's last instant for these parameters (`None` for the herd, which has no time cursor).
pub fn run_end(params: &Params) -> Option<u64> {
    match params {
        Params::Frozen(_) => Some(crate::engine::params::frozen_fixed::RUN_MS),
        Params::Abc(p) => Some(p.duration_ms),
        Params::Herd(_) => None,
        Params::Rwlock(p) => Some(p.common.duration_ms),
        Params::Semaphore(p) => Some(p.common.duration_ms),
        Params::Election(p) => Some(p.duration_ms),
        Params::Tasks(p) => Some(p.duration_ms),
        Params::Redlock(p) => Some(p.duration_ms),
        Params::Snowflake(p) => Some(p.duration_ms),
    }
}

/// Validates the script at load, so nothing surprises a presenter in front of a class: every
/// step's parameters are checked as the engine will run them, every time lies within the run,
/// and every question can be answered by this family's trace.
fn script_steps(ctx: &Ctx, family: Family, raw: &RawPreset) -> Result<Vec<Step>, PresetError> {
    let mut table = raw.params.clone();
    let mut steps = Vec::new();
    for raw_step in &raw.script {
        let step = raw_step.get_ref();
        for (k, v) in &step.set {
            table.insert(k.clone(), v.clone());
        }
        let params = family_params(ctx, family, &table, &raw.faults)?;
        let at_ms = match (&step.at, run_end(&params)) {
            (None, _) => None,
            (Some(at), None) => {
                return Err(ctx.err(at.span(), Some("at"), "herd scripts have no time cursor"));
            }
            (Some(at), Some(end)) => {
                let secs = *at.get_ref();
                let end_secs = end as f64 / 1000.0;
                if !(0.0..=end_secs).contains(&secs) {
                    let message = format!("must be within the run, 0 to {end_secs} s (got {secs})");
                    return Err(ctx.err(at.span(), Some("at"), message));
                }
                Some(from_secs(secs))
            }
        };
        if step.zh.trim().is_empty() || step.en.trim().is_empty() {
            let message = "every step needs a caption in zh and en";
            return Err(ctx.err(raw_step.span(), Some("script"), message));
        }
        let question = script_question(ctx, family, step, at_ms.is_some())?;
        steps.push(Step {
            at_ms,
            params,
            changes_params: !step.set.is_empty(),
            caption: Text {
                zh: step.zh.clone(),
                en: step.en.clone(),
            },
            question,
        });
    }
    Ok(steps)
}

fn script_question(
    ctx: &Ctx,
    family: Family,
    step: &RawStep,
    has_time: bool,
) -> Result<Option<Question>, PresetError> {
    match (&step.ask, &step.question) {
        (None, None) => Ok(None),
        (Some(ask), Some(text)) => {
            let name = ask.get_ref();
            let Some(a) = Ask::parse(name) else {
                let names: Vec<&str> = Ask::ALL.iter().map(|(n, _)| *n).collect();
                let message = format!("`{name}` is not one of: {}", names.join(", "));
                return Err(ctx.err(ask.span(), Some("ask"), message));
            };
            if !a.families().contains(&family) {
                let message = format!("a {} scenario cannot answer `{name}`", family.name());
                return Err(ctx.err(ask.span(), Some("ask"), message));
            }
            if a.needs_time() && !has_time {
                return Err(ctx.err(
                    ask.span(),
                    Some("ask"),
                    "this question needs the step's `at` time",
                ));
            }
            Ok(Some(Question {
                ask: a,
                text: text.get_ref().clone(),
            }))
        }
        (Some(ask), None) => {
            let message = "a step with `ask` needs a `question` in zh and en";
            Err(ctx.err(ask.span(), Some("question"), message))
        }
        (None, Some(text)) => Err(ctx.err(
            text.span(),
            Some("ask"),
            "a step with a `question` needs `ask`",
        )),
    }
}

/// The key a toml "unknown field" error names, so the message can point at it.
pub(crate) fn unknown_key(message: &str) -> Option<String> {
    let rest = message.split("unknown field `").nth(1)?;
    Some(rest.split('`').next()?.to_string())
}

fn number(ctx: &Ctx, key: &str, v: &Spanned<toml::Value>) -> Result<f64, PresetError> {
    match v.get_ref() {
        toml::Value::Integer(i) => Ok(*i as f64),
        toml::Value::Float(f) => Ok(*f),
        _ => Err(ctx.err(v.span(), Some(key), "must be a number")),
    }
}

fn boolean(ctx: &Ctx, key: &str, v: &Spanned<toml::Value>) -> Result<bool, PresetError> {
    v.get_ref()
        .as_bool()
        .ok_or_else(|| ctx.err(v.span(), Some(key), "must be true or false"))
}

fn string<'v>(ctx: &Ctx, key: &str, v: &'v Spanned<toml::Value>) -> Result<&'v str, PresetError> {
    v.get_ref()
        .as_str()
        .ok_or_else(|| ctx.err(v.span(), Some(key), "must be a string"))
}

fn param_err(ctx: &Ctx, key: &str, v: &Spanned<toml::Value>, e: ParamError) -> PresetError {
    ctx.err(v.span(), Some(key), e.to_string())
}

fn unknown_param(ctx: &Ctx, key: &str, v: &Spanned<toml::Value>, valid: &[&str]) -> PresetError {
    ctx.err(
        v.span(),
        Some(key),
        format!("unknown parameter; valid parameters: {}", valid.join(", ")),
    )
}

fn frozen_params(
    ctx: &Ctx,
    table: &BTreeMap<String, Spanned<toml::Value>>,
) -> Result<FrozenParams, PresetError> {
    let mut p = FrozenParams::default();
    for (key, v) in table {
        if FrozenParams::BOOL_KEYS.contains(&key.as_str()) {
            let on = boolean(ctx, key, v)?;
            p.set_bool(key, on).map_err(|e| param_err(ctx, key, v, e))?;
        } else if FrozenParams::spec(key).is_some() {
            let n = number(ctx, key, v)?;
            p.set(key, n).map_err(|e| param_err(ctx, key, v, e))?;
        } else {
            return Err(unknown_param(ctx, key, v, &FrozenParams::keys()));
        }
    }
    Ok(p)
}

fn herd_params(
    ctx: &Ctx,
    table: &BTreeMap<String, Spanned<toml::Value>>,
) -> Result<HerdParams, PresetError> {
    let mut p = HerdParams::default();
    for (key, v) in table {
        if HerdParams::spec(key).is_none() {
            return Err(unknown_param(ctx, key, v, &HerdParams::keys()));
        }
        let n = number(ctx, key, v)?;
        p.set(key, n).map_err(|e| param_err(ctx, key, v, e))?;
    }
    if let Err(e) = p.validate() {
        let (key, v) = table
            .get_key_value("fanout")
            .or_else(|| table.iter().next())
            .expect("set");
        return Err(param_err(ctx, key, v, e));
    }
    Ok(p)
}

fn choice<T: Copy>(
    ctx: &Ctx,
    key: &str,
    v: &Spanned<toml::Value>,
    options: &[(&str, T)],
) -> Result<T, PresetError> {
    let s = string(ctx, key, v)?;
    options
        .iter()
        .find(|(name, _)| *name == s)
        .map(|(_, t)| *t)
        .ok_or_else(|| {
            let names: Vec<&str> = options.iter().map(|(n, _)| *n).collect();
            ctx.err(
                v.span(),
                Some(key),
                format!("`{s}` is not one of: {}", names.join(", ")),
            )
        })
}

fn abc_params(
    ctx: &Ctx,
    table: &BTreeMap<String, Spanned<toml::Value>>,
    faults: &[Spanned<RawFault>],
) -> Result<AbcParams, PresetError> {
    let mut p = AbcParams::default();
    let mut fanout: Option<u32> = None;
    for (key, v) in table {
        let k = key.as_str();
        match k {
            "watch" => {
                p.watch = choice(
                    ctx,
                    k,
                    v,
                    &[
                        ("predecessor", WatchMode::Predecessor),
                        ("children", WatchMode::Children),
                        ("ahead", WatchMode::Ahead(1)),
                    ],
                )?
            }
            "fanout" => {
                let n = number(ctx, k, v)?;
                if !(1.0..=3.0).contains(&n) || n.fract() != 0.0 {
                    return Err(ctx.err(
                        v.span(),
                        Some(k),
                        format!("must be a whole number 1 to 3 (got {n})"),
                    ));
                }
                fanout = Some(n as u32);
            }
            "recovery" => {
                p.recovery = choice(
                    ctx,
                    k,
                    v,
                    &[("guid", Recovery::Guid), ("blind", Recovery::Blind)],
                )?
            }
            "registration" => {
                p.registration = choice(
                    ctx,
                    k,
                    v,
                    &[
                        ("atomic", Registration::Atomic),
                        ("two_step", Registration::TwoStep),
                    ],
                )?
            }
            "on_disconnect" => {
                p.on_disconnect = choice(
                    ctx,
                    k,
                    v,
                    &[
                        ("suspend", OnDisconnect::Suspend),
                        ("carry_on", OnDisconnect::CarryOn),
                    ],
                )?
            }
            "on_loss" => {
                p.on_loss = choice(
                    ctx,
                    k,
                    v,
                    &[("stop", OnLoss::Stop), ("carry_on", OnLoss::CarryOn)],
                )?
            }
            "fencing" => p.fencing = boolean(ctx, k, v)?,
            "on_timeout" => {
                p.on_timeout = choice(
                    ctx,
                    k,
                    v,
                    &[
                        ("delete_node", OnTimeout::DeleteNode),
                        ("forget", OnTimeout::Forget),
                    ],
                )?
            }
            "container_check" => {
                let n = number(ctx, k, v)?;
                if !(0.0..=600.0).contains(&n) {
                    return Err(ctx.err(
                        v.span(),
                        Some(k),
                        format!("must be 0 (an ordinary directory) to 600 s (got {n})"),
                    ));
                }
                p.container_check_ms = (n > 0.0).then(|| from_secs(n));
            }
            "data_write" => {
                p.data_write = choice(
                    ctx,
                    k,
                    v,
                    &[
                        ("off", DataWrite::Off),
                        ("unconditional", DataWrite::Unconditional),
                        ("conditional", DataWrite::Conditional),
                    ],
                )?
            }
            "data_version" => {
                let n = number(ctx, k, v)?;
                let max = crate::engine::params::MAX_DATA_VERSION;
                if n < 0.0 || n.fract() != 0.0 || n > f64::from(max) {
                    return Err(ctx.err(
                        v.span(),
                        Some(k),
                        format!("must be a whole number 0 to {max} (got {n})"),
                    ));
                }
                p.data_version = n as i32;
            }
            "token" => {
                p.token = choice(
                    ctx,
                    k,
                    v,
                    &[
                        ("czxid", TokenSource::Czxid),
                        ("sequence", TokenSource::Sequence),
                    ],
                )?
            }
            "first_zxid" => {
                let n = number(ctx, k, v)?;
                if n < 1.0 || n.fract() != 0.0 || n > 1e15 {
                    return Err(ctx.err(
                        v.span(),
                        Some(k),
                        format!("must be a whole number 1 to 10^15 (got {n})"),
                    ));
                }
                p.first_zxid = n as u64;
            }
            "first_sequence" => {
                let n = number(ctx, k, v)?;
                if n.fract() != 0.0 || n < f64::from(i32::MIN) || n > f64::from(i32::MAX) {
                    return Err(ctx.err(v.span(), Some(k), "must be a signed 32-bit whole number"));
                }
                p.first_sequence = n as i32;
            }
            "seed" => {
                let n = number(ctx, k, v)?;
                if n < 0.0 || n.fract() != 0.0 {
                    return Err(ctx.err(v.span(), Some(k), "must be a whole number of 0 or more"));
                }
                p.seed = n as u64;
            }
            _ if AbcParams::spec(k).is_some() => {
                let n = number(ctx, k, v)?;
                p.set(k, n).map_err(|e| param_err(ctx, k, v, e))?;
            }
            _ => return Err(unknown_param(ctx, k, v, &AbcParams::keys())),
        }
    }
    if let Some(k) = fanout {
        p.watch = match p.watch {
            WatchMode::Ahead(_) => WatchMode::Ahead(k),
            other => other,
        };
    }
    for f in faults {
        p.faults.push(fault(ctx, f, p.duration_ms, &CLIENTS)?);
    }
    Ok(p)
}

fn fault(
    ctx: &Ctx,
    f: &Spanned<RawFault>,
    duration_ms: u64,
    clients: &[&str],
) -> Result<Fault, PresetError> {
    let raw = f.get_ref();
    let client_named =
        |field: &Option<Spanned<String>>, key: &str| -> Result<String, PresetError> {
            let v = field
                .as_ref()
                .ok_or_else(|| ctx.err(f.span(), Some(key), "this fault needs it"))?;
            let name = v.get_ref().to_ascii_uppercase();
            if clients.contains(&name.as_str()) {
                Ok(name)
            } else {
                Err(ctx.err(
                    v.span(),
                    Some(key),
                    format!("`{}` is not one of: {}", v.get_ref(), clients.join(", ")),
                ))
            }
        };
    let time = |field: &Option<Spanned<f64>>, key: &str| -> Result<u64, PresetError> {
        let v = field
            .as_ref()
            .ok_or_else(|| ctx.err(f.span(), Some(key), "this fault needs it"))?;
        let secs = *v.get_ref();
        let max = duration_ms as f64 / 1000.0;
        if !(0.0..=max).contains(&secs) {
            return Err(ctx.err(
                v.span(),
                Some(key),
                format!("must be 0 to {max} s, within the run (got {secs})"),
            ));
        }
        Ok(from_secs(secs))
    };
    let kind = raw.kind.get_ref().as_str();
    Ok(match kind {
        "freeze" => Fault::Freeze {
            client: client_named(&raw.client, "client")?,
            at_ms: time(&raw.at, "at")?,
            len_ms: time(&raw.len, "len")?,
        },
        "disconnect" => Fault::Disconnect {
            client: client_named(&raw.client, "client")?,
            at_ms: time(&raw.at, "at")?,
            len_ms: time(&raw.len, "len")?,
        },
        "crash" => Fault::Crash {
            client: client_named(&raw.client, "client")?,
            at_ms: time(&raw.at, "at")?,
        },
        "drop_create_response" => Fault::DropCreateResponse {
            client: client_named(&raw.client, "client")?,
        },
        "delete_between" => Fault::DeleteBetween {
            owner: client_named(&raw.owner, "owner")?,
            reader: client_named(&raw.reader, "reader")?,
        },
        "give_up" => Fault::GiveUp {
            client: client_named(&raw.client, "client")?,
            at_ms: time(&raw.at, "at")?,
        },
        other => {
            return Err(ctx.err(
                raw.kind.span(),
                Some("kind"),
                format!("unknown fault `{other}`; known faults: {FAULT_KINDS}"),
            ));
        }
    })
}

/// Why presets could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    #[error("{0}")]
    Preset(#[from] PresetError),
    #[error("cannot read {path}: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
}

/// Every preset under `assets/scenarios/`, sorted by name.
pub fn load_all(source: &Source) -> Result<Vec<Preset>, LoadError> {
    let files = source
        .files("assets/scenarios", "toml")
        .map_err(|e| LoadError::Io {
            path: "assets/scenarios".into(),
            source: e,
        })?;
    let mut presets = files
        .iter()
        .map(parse_file)
        .collect::<Result<Vec<_>, _>>()?;
    presets.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(presets)
}

fn parse_file(f: &SourceFile) -> Result<Preset, PresetError> {
    let name = f
        .rel
        .rsplit('/')
        .next()
        .unwrap_or(&f.rel)
        .trim_end_matches(".toml");
    parse(name, &f.display, &f.text)
}

/// The shipped presets, parsed once. A shipped preset that fails to parse is a build defect,
/// caught by the test suite; here it is reported and skipped rather than crashing a user's run.
pub fn builtin() -> &'static [Preset] {
    static PRESETS: std::sync::OnceLock<Vec<Preset>> = std::sync::OnceLock::new();
    PRESETS.get_or_init(|| load_all(&Source::Embedded).unwrap_or_default())
}

/// A shipped preset by name.
pub fn find(name: &str) -> Option<&'static Preset> {
    builtin().iter().find(|p| p.name == name)
}

static ACTIVE: std::sync::OnceLock<Vec<Preset>> = std::sync::OnceLock::new();

/// Makes the presets of `source` the ones the terminal screens use everywhere: the A/B/C
/// screen, Home's presentations and the lessons' `sim:` links, so they agree with `locklab
/// check` and `locklab sim` on the same source. Called once, before the screens open; the
/// embedded presets need no call.
pub fn use_source(source: &Source) -> Result<(), LoadError> {
    if *source == Source::Embedded {
        return Ok(());
    }
    let presets = load_all(source)?;
    let _ = ACTIVE.set(presets);
    Ok(())
}

/// The presets in use: those of the source given to [`use_source`], else the shipped ones.
pub fn active() -> &'static [Preset] {
    ACTIVE.get().map_or_else(builtin, Vec::as_slice)
}

/// Reads a user's scenario file: a regular file of at most [`CONTENT_LIMIT`] bytes of UTF-8.
///
/// [`CONTENT_LIMIT`]: crate::source::CONTENT_LIMIT
pub fn load_file(path: &Path) -> Result<Preset, LoadError> {
    use crate::source::{CONTENT_LIMIT, Links, ReadError, read_text};
    let file = path.display().to_string();
    let text = read_text(path, CONTENT_LIMIT, Links::Follow).map_err(|e| match e {
        ReadError::NotUtf8 {
            line,
            column,
            ref valid,
        } => LoadError::Preset(PresetError {
            file: file.clone(),
            line,
            column,
            key: crate::toml_place::key_path(valid, valid.len()),
            message: "not valid UTF-8 text".into(),
        }),
        ReadError::Io(source) => LoadError::Io {
            path: file.clone(),
            source,
        },
        other => LoadError::Io {
            path: file.clone(),
            source: std::io::Error::other(other.to_string()),
        },
    })?;
    let name = path
        .file_stem()
        .map_or_else(|| "scenario".into(), |s| s.to_string_lossy().to_string());
    Ok(parse(&name, &path.display().to_string(), &text)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    const ABOUT: &str = "[about]\nzh = \"说明\"\nen = \"About\"\n";

    #[test]
    fn errors_name_the_file_line_column_and_key() {
        let text = format!("family = \"frozen\"\n{ABOUT}[params]\nttl = 45\n");
        let err = parse("x", "my.toml", &text).unwrap_err();
        assert_eq!((err.line, err.column), (6, 7));
        assert_eq!(err.key.as_deref(), Some("ttl"));
        assert_eq!(
            err.to_string(),
            "my.toml:6:7: `ttl`: ttl must be 1 to 30 s (got 45)"
        );

        let text = format!("family = \"frozen\"\n{ABOUT}[params]\ncolour = 1\n");
        let err = parse("x", "my.toml", &text).unwrap_err();
        assert!(
            err.to_string().contains("valid parameters: ttl, keepalive"),
            "{err}"
        );

        let text = format!("family = \"frozen\"\n{ABOUT}[params]\nttl = \"ten\"\n");
        let err = parse("x", "my.toml", &text).unwrap_err();
        assert_eq!(err.to_string(), "my.toml:6:7: `ttl`: must be a number");

        let err = parse("x", "bad.toml", "family = \"frozen\"\nttl = 3\n").unwrap_err();
        assert_eq!(err.line, 2);
        assert_eq!(err.key.as_deref(), Some("ttl"));

        let err = parse("x", "bad.toml", "family = [\n").unwrap_err();
        assert_eq!(err.file, "bad.toml");
        assert_eq!(err.line, 1);
    }

    #[test]
    fn abc_files_take_variants_and_faults() {
        let text = format!(
            "family = \"abc\"\n{ABOUT}[params]\nwatch = \"children\"\nfencing = false\n\n\
             [[faults]]\nkind = \"freeze\"\nclient = \"a\"\nat = 0.5\nlen = 8\n"
        );
        let p = parse("x", "f.toml", &text).unwrap();
        let Params::Abc(abc) = p.params else {
            panic!("abc")
        };
        assert_eq!(abc.watch, WatchMode::Children);
        assert!(!abc.fencing);
        assert_eq!(
            abc.faults,
            [Fault::Freeze {
                client: "A".into(),
                at_ms: 500,
                len_ms: 8_000
            }]
        );

        let text =
            format!("family = \"abc\"\n{ABOUT}\n[[faults]]\nkind = \"melt\"\nclient = \"A\"\n");
        let err = parse("x", "f.toml", &text).unwrap_err();
        assert_eq!((err.line, err.key.as_deref()), (7, Some("kind")));
        assert!(err.message.contains("known faults: freeze"));
    }

    #[test]
    fn scripts_are_validated_at_load() {
        let base = format!("family = \"frozen\"\nlocked = [\"ttl\"]\n{ABOUT}");
        let good = format!(
            "{base}\n[[script]]\nat = 20\nzh = \"看\"\nen = \"Look\"\nask = \"holder_at\"\n\
             question = {{ zh = \"谁？\", en = \"Who?\" }}\n\n[[script]]\nset = {{ fencing = false }}\n\
             zh = \"关\"\nen = \"Off\"\n"
        );
        let p = parse("x", "s.toml", &good).unwrap();
        assert_eq!(p.locked, ["ttl"]);
        assert_eq!(p.script.len(), 2);
        assert_eq!(p.script[0].at_ms, Some(20_000));
        let Params::Frozen(second) = &p.script[1].params else {
            panic!("frozen")
        };
        assert!(!second.fencing && p.script[1].changes_params);

        let late = format!("{base}[[script]]\nat = 41\nzh = \"a\"\nen = \"a\"\n");
        let err = parse("x", "s.toml", &late).unwrap_err();
        assert_eq!((err.line, err.key.as_deref()), (7, Some("at")));
        assert!(err.message.contains("0 to 40 s"), "{err}");

        let unknown = format!("{base}[[script]]\nset = {{ colour = 1 }}\nzh = \"a\"\nen = \"a\"\n");
        let err = parse("x", "s.toml", &unknown).unwrap_err();
        assert_eq!(err.key.as_deref(), Some("colour"));
        assert!(err.message.contains("valid parameters"), "{err}");

        let wrong = format!(
            "{base}[[script]]\nzh = \"a\"\nen = \"a\"\nask = \"total_notifications\"\n\
             question = {{ zh = \"?\", en = \"?\" }}\n"
        );
        let err = parse("x", "s.toml", &wrong).unwrap_err();
        assert!(err.message.contains("cannot answer"), "{err}");

        let bad_lock = format!("family = \"frozen\"\nlocked = [\"speed\"]\n{ABOUT}");
        assert_eq!(
            parse("x", "s.toml", &bad_lock).unwrap_err().key.as_deref(),
            Some("locked")
        );
    }

    #[test]
    fn line_col_counts_characters() {
        assert_eq!(line_col("ab\n中文x", 9), (2, 3));
    }
}
