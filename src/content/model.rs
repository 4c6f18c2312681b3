//! Model questions: turn a question's model spec into engine parameters, draw a variant from a
//! seed, run the engine and read the answer off the metrics. The bank never holds an answer.

use std::collections::BTreeMap;
use std::fmt;

use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt as _, SeedableRng};
use toml::Spanned;

use super::deck::{ModelSpec, Question};
use super::model_knobs;
use crate::engine::params::{
    AbcParams, FrozenParams, HerdParams, NumSpec, Params, RedlockParams, SnowflakeParams,
};
use crate::engine::trace::{Family, Metrics, Verdict};
use crate::preset::Preset;

/// The engine's answer to a model question.
#[derive(Debug, Clone, PartialEq)]
pub enum ModelAnswer {
    /// Seconds for frozen times, milliseconds for `total_time_ms`, otherwise a count.
    Number(f64),
    Verdict(Verdict),
    Bool(bool),
    /// Whose value the resource holds, if any.
    Value(Option<String>),
}

/// Why a model question cannot be computed.
#[derive(Debug, Clone, PartialEq)]
pub struct ModelError {
    pub question: String,
    /// The key at fault, when there is one.
    pub key: Option<String>,
    /// Byte offset in the deck file of the value at fault (of the id when there is none).
    pub offset: usize,
    pub message: String,
}

impl fmt::Display for ModelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "question `{}`: ", self.question)?;
        if let Some(key) = &self.key {
            write!(f, "`{key}`: ")?;
        }
        write!(f, "{}", self.message)
    }
}

impl std::error::Error for ModelError {}

/// One attempt at a model question: the parameters the engine runs with and the values drawn.
#[derive(Debug, Clone, PartialEq)]
pub struct Variant {
    pub params: Params,
    /// The drawn parameters, in the unit the bank writes them in.
    pub drawn: BTreeMap<String, f64>,
}

const KNOWN_FAMILIES: &str = "frozen, herd, abc, redlock, snowflake";

pub const FROZEN_ASKS: [&str; 8] = [
    "verdict",
    "holder_write_accepted",
    "final_value",
    "lease_expiry",
    "successor_acquire",
    "handover_delay",
    "holder_write_arrival",
    "danger_window",
];
pub const HERD_ASKS: [&str; 3] = ["total_notifications", "wasted_wakeups", "total_time_ms"];
pub const ABC_ASKS: [&str; 5] = [
    "stale_writes_accepted",
    "stale_writes_rejected",
    "duplicate_nodes",
    "max_holders",
    "stuck_count",
];

struct Ctx<'a> {
    id: &'a str,
    id_offset: usize,
}

impl Ctx<'_> {
    fn err(
        &self,
        key: Option<&str>,
        offset: Option<usize>,
        message: impl Into<String>,
    ) -> ModelError {
        ModelError {
            question: self.id.to_string(),
            key: key.map(str::to_string),
            offset: offset.unwrap_or(self.id_offset),
            message: message.into(),
        }
    }
}

fn spec_of(q: &Question) -> Result<&ModelSpec, ModelError> {
    q.model.as_ref().ok_or_else(|| ModelError {
        question: q.id.get_ref().clone(),
        key: Some("model".into()),
        offset: q.id.span().start,
        message: "a model question needs a [questions.model] table".into(),
    })
}

/// The numeric parameter specs of a family, for draws and placeholders.
fn num_spec(family: &str, key: &str) -> Option<&'static NumSpec> {
    match family {
        "frozen" => FrozenParams::spec(key),
        "herd" => HerdParams::spec(key),
        "abc" => AbcParams::spec(key),
        "redlock" => model_knobs::num_spec::<RedlockParams>(key),
        "snowflake" => model_knobs::num_spec::<SnowflakeParams>(key),
        _ => None,
    }
}

/// The parameter names a prompt may use as `{placeholders}` for this question.
pub fn param_keys(family: &str) -> Vec<&'static str> {
    match family {
        "frozen" => FrozenParams::keys(),
        "herd" => HerdParams::keys(),
        "abc" => AbcParams::keys().into_iter().chain(["preset"]).collect(),
        "redlock" => model_knobs::keys::<RedlockParams>(),
        "snowflake" => model_knobs::keys::<SnowflakeParams>(),
        _ => Vec::new(),
    }
}

/// Builds the engine parameters for the attempt drawn with `seed`.
///
/// `presets` resolves the `preset` of an `abc` question, so an external `--content` copy is
/// checked against its own presets.
pub fn variant(q: &Question, seed: u64, presets: &[Preset]) -> Result<Variant, ModelError> {
    let spec = spec_of(q)?;
    let ctx = Ctx {
        id: q.id.get_ref(),
        id_offset: q.id.span().start,
    };
    check_ask(&ctx, spec)?;
    let drawn = draw(&ctx, spec, seed)?;
    with_drawn(&ctx, spec, drawn, presets)
}

fn check_ask(ctx: &Ctx, spec: &ModelSpec) -> Result<(), ModelError> {
    let asks: &[&str] = match spec.family.get_ref().as_str() {
        "frozen" => &FROZEN_ASKS,
        "herd" => &HERD_ASKS,
        "abc" => &ABC_ASKS,
        "redlock" => &model_knobs::REDLOCK_ASKS,
        "snowflake" => &model_knobs::SNOWFLAKE_ASKS,
        other => {
            return Err(ctx.err(
                Some("family"),
                Some(spec.family.span().start),
                format!("unknown family `{other}`; known families: {KNOWN_FAMILIES}"),
            ));
        }
    };
    let ask = spec.ask.get_ref().as_str();
    if asks.contains(&ask) {
        Ok(())
    } else {
        Err(ctx.err(
            Some("ask"),
            Some(spec.ask.span().start),
            format!(
                "unknown ask `{ask}` for family {}; known: {}",
                spec.family.get_ref(),
                asks.join(", ")
            ),
        ))
    }
}

/// How many values the grid `[min, max, step]` holds.
fn grid_len(min: f64, max: f64, step: f64) -> usize {
    // A small epsilon keeps `max` on the grid despite binary rounding of decimal steps.
    ((max - min) / step + 1e-9).floor() as usize + 1
}

/// The `i`-th value of a grid, rounded so decimal steps print cleanly.
fn grid_value(min: f64, step: f64, i: usize) -> f64 {
    ((min + step * i as f64) * 1e6).round() / 1e6
}

/// Checks the `vary` table and returns each key's grid, in key order.
fn grids<'s>(
    ctx: &Ctx,
    spec: &'s ModelSpec,
) -> Result<Vec<(&'s str, f64, f64, usize)>, ModelError> {
    let family = spec.family.get_ref().as_str();
    let mut out = Vec::new();
    for (key, v) in &spec.vary {
        let at = Some(v.span().start);
        let Some(num) = num_spec(family, key) else {
            return Err(ctx.err(
                Some(key),
                at,
                format!(
                    "cannot vary `{key}`; numeric parameters of {family}: {}",
                    numeric_keys(family).join(", ")
                ),
            ));
        };
        let [min, max, step] = v.get_ref()[..] else {
            return Err(ctx.err(Some(key), at, "vary takes [min, max, step]"));
        };
        if !(step > 0.0 && min <= max) {
            return Err(ctx.err(Some(key), at, "vary needs min <= max and a step above 0"));
        }
        for end in [min, max] {
            num.check(end)
                .map_err(|e| ctx.err(Some(key), at, e.to_string()))?;
        }
        out.push((key.as_str(), min, step, grid_len(min, max, step)));
    }
    Ok(out)
}

fn numeric_keys(family: &str) -> Vec<&'static str> {
    match family {
        "frozen" => crate::engine::params::FROZEN_SPECS
            .iter()
            .map(|s| s.key)
            .collect(),
        "herd" => HerdParams::keys(),
        "abc" => crate::engine::params::ABC_SPECS
            .iter()
            .map(|s| s.key)
            .collect(),
        "redlock" => model_knobs::numeric_keys::<RedlockParams>(),
        "snowflake" => model_knobs::numeric_keys::<SnowflakeParams>(),
        _ => Vec::new(),
    }
}

/// Draws one value per `vary` key on its grid, with a generator seeded from `seed`.
fn draw(ctx: &Ctx, spec: &ModelSpec, seed: u64) -> Result<BTreeMap<String, f64>, ModelError> {
    // Xoshiro256++ is named and stable, so a seed means the same variant in every version.
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut drawn = BTreeMap::new();
    for (key, min, step, n) in grids(ctx, spec)? {
        let i = rng.random_range(0..n);
        drawn.insert(key.to_string(), grid_value(min, step, i));
    }
    Ok(drawn)
}

/// Every variant the grid allows, when there are at most `cap` of them.
pub fn all_variants(
    q: &Question,
    presets: &[Preset],
    cap: usize,
) -> Result<Option<Vec<Variant>>, ModelError> {
    let spec = spec_of(q)?;
    let ctx = Ctx {
        id: q.id.get_ref(),
        id_offset: q.id.span().start,
    };
    check_ask(&ctx, spec)?;
    let grids = grids(&ctx, spec)?;
    let total = grids.iter().try_fold(1usize, |acc, g| acc.checked_mul(g.3));
    let Some(total) = total.filter(|t| *t <= cap) else {
        return Ok(None);
    };
    let mut out = Vec::with_capacity(total);
    for mut index in 0..total {
        let mut drawn = BTreeMap::new();
        for (key, min, step, n) in &grids {
            drawn.insert(key.to_string(), grid_value(*min, *step, index % n));
            index /= n;
        }
        out.push(with_drawn(&ctx, spec, drawn, presets)?);
    }
    Ok(Some(out))
}

fn with_drawn(
    ctx: &Ctx,
    spec: &ModelSpec,
    drawn: BTreeMap<String, f64>,
    presets: &[Preset],
) -> Result<Variant, ModelError> {
    if let Some(built) = model_knobs::params(spec.family.get_ref(), spec, &drawn, presets) {
        let params = built.map_err(|(key, at, message)| ctx.err(key.as_deref(), at, message))?;
        return Ok(Variant { params, drawn });
    }
    let params = match spec.family.get_ref().as_str() {
        "frozen" => Params::Frozen(frozen(ctx, spec, &drawn)?),
        "herd" => Params::Herd(herd(ctx, spec, &drawn)?),
        "abc" => Params::Abc(abc(ctx, spec, &drawn, presets)?),
        other => {
            return Err(ctx.err(
                Some("family"),
                Some(spec.family.span().start),
                format!("unknown family `{other}`; known families: {KNOWN_FAMILIES}"),
            ));
        }
    };
    Ok(Variant { params, drawn })
}

fn number(ctx: &Ctx, key: &str, v: &Spanned<toml::Value>) -> Result<f64, ModelError> {
    match v.get_ref() {
        toml::Value::Integer(i) => Ok(*i as f64),
        toml::Value::Float(f) => Ok(*f),
        _ => Err(ctx.err(Some(key), Some(v.span().start), "must be a number")),
    }
}

fn unknown_param(ctx: &Ctx, key: &str, v: &Spanned<toml::Value>, valid: &[&str]) -> ModelError {
    ctx.err(
        Some(key),
        Some(v.span().start),
        format!("unknown parameter; valid parameters: {}", valid.join(", ")),
    )
}

fn vary_key_clash(ctx: &Ctx, spec: &ModelSpec) -> Result<(), ModelError> {
    match spec.params.iter().find(|(k, _)| spec.vary.contains_key(*k)) {
        Some((k, v)) => Err(ctx.err(
            Some(k),
            Some(v.span().start),
            "is both fixed in params and drawn in vary",
        )),
        None => Ok(()),
    }
}

fn frozen(
    ctx: &Ctx,
    spec: &ModelSpec,
    drawn: &BTreeMap<String, f64>,
) -> Result<FrozenParams, ModelError> {
    vary_key_clash(ctx, spec)?;
    let mut p = FrozenParams::default();
    for (key, v) in &spec.params {
        let at = Some(v.span().start);
        if FrozenParams::BOOL_KEYS.contains(&key.as_str()) {
            let on = v
                .get_ref()
                .as_bool()
                .ok_or_else(|| ctx.err(Some(key), at, "must be true or false"))?;
            p.set_bool(key, on)
                .map_err(|e| ctx.err(Some(key), at, e.to_string()))?;
        } else if FrozenParams::spec(key).is_some() {
            let n = number(ctx, key, v)?;
            p.set(key, n)
                .map_err(|e| ctx.err(Some(key), at, e.to_string()))?;
        } else {
            return Err(unknown_param(ctx, key, v, &FrozenParams::keys()));
        }
    }
    for (key, value) in drawn {
        p.set(key, *value)
            .map_err(|e| ctx.err(Some(key), vary_at(spec, key), e.to_string()))?;
    }
    Ok(p)
}

fn vary_at(spec: &ModelSpec, key: &str) -> Option<usize> {
    spec.vary.get(key).map(|v| v.span().start)
}

fn herd(
    ctx: &Ctx,
    spec: &ModelSpec,
    drawn: &BTreeMap<String, f64>,
) -> Result<HerdParams, ModelError> {
    vary_key_clash(ctx, spec)?;
    let mut p = HerdParams::default();
    for (key, v) in &spec.params {
        if HerdParams::spec(key).is_none() {
            return Err(unknown_param(ctx, key, v, &HerdParams::keys()));
        }
        let n = number(ctx, key, v)?;
        p.set(key, n)
            .map_err(|e| ctx.err(Some(key), Some(v.span().start), e.to_string()))?;
    }
    for (key, value) in drawn {
        p.set(key, *value)
            .map_err(|e| ctx.err(Some(key), vary_at(spec, key), e.to_string()))?;
    }
    p.validate().map_err(|e| {
        let at =
            vary_at(spec, "fanout").or_else(|| spec.params.get("fanout").map(|v| v.span().start));
        ctx.err(
            Some("fanout"),
            at,
            format!("{e} (waiters {}, fanout {})", p.waiters, p.fanout),
        )
    })?;
    Ok(p)
}

fn abc(
    ctx: &Ctx,
    spec: &ModelSpec,
    drawn: &BTreeMap<String, f64>,
    presets: &[Preset],
) -> Result<AbcParams, ModelError> {
    vary_key_clash(ctx, spec)?;
    let abc_names = || {
        presets
            .iter()
            .filter(|p| p.family == Family::Abc)
            .map(|p| p.name.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let Some(name) = spec.params.get("preset") else {
        return Err(ctx.err(
            Some("preset"),
            None,
            format!("an abc question names its preset; one of: {}", abc_names()),
        ));
    };
    let at = Some(name.span().start);
    let name_str = name
        .get_ref()
        .as_str()
        .ok_or_else(|| ctx.err(Some("preset"), at, "must be a string"))?;
    let mut p = match presets
        .iter()
        .find(|p| p.name == name_str)
        .map(|p| &p.params)
    {
        Some(Params::Abc(p)) => p.clone(),
        _ => {
            return Err(ctx.err(
                Some("preset"),
                at,
                format!("`{name_str}` is not an abc preset; one of: {}", abc_names()),
            ));
        }
    };
    for (key, v) in spec.params.iter().filter(|(k, _)| *k != "preset") {
        if AbcParams::spec(key).is_none() {
            let mut valid = vec!["preset"];
            valid.extend(numeric_keys("abc"));
            return Err(unknown_param(ctx, key, v, &valid));
        }
        let n = number(ctx, key, v)?;
        p.set(key, n)
            .map_err(|e| ctx.err(Some(key), Some(v.span().start), e.to_string()))?;
    }
    for (key, value) in drawn {
        p.set(key, *value)
            .map_err(|e| ctx.err(Some(key), vary_at(spec, key), e.to_string()))?;
    }
    Ok(p)
}

/// Runs the engine on a variant and reads the question's answer off the metrics.
pub fn answer(q: &Question, v: &Variant) -> Result<ModelAnswer, ModelError> {
    let spec = spec_of(q)?;
    let ctx = Ctx {
        id: q.id.get_ref(),
        id_offset: q.id.span().start,
    };
    check_ask(&ctx, spec)?;
    let ask = spec.ask.get_ref().as_str();
    let ask_at = Some(spec.ask.span().start);
    let trace = crate::engine::run(&v.params);
    // A metric the engine leaves empty (A never wrote, B never acquired) makes the question
    // meaningless for this variant; say so rather than invent an answer.
    let missing = || {
        ctx.err(
            Some("ask"),
            ask_at,
            format!(
                "the engine computes no `{ask}` for this variant ({:?})",
                v.drawn
            ),
        )
    };
    let some = |x: Option<f64>| x.map(ModelAnswer::Number).ok_or_else(missing);
    match &trace.metrics {
        Metrics::Frozen(m) => match ask {
            "verdict" => Ok(ModelAnswer::Verdict(m.verdict)),
            "holder_write_accepted" => m
                .holder_write_accepted
                .map(ModelAnswer::Bool)
                .ok_or_else(missing),
            "final_value" => Ok(ModelAnswer::Value(m.final_value.clone())),
            "lease_expiry" => some(m.lease_expiry),
            "successor_acquire" => some(m.successor_acquire),
            "handover_delay" => some(m.handover_delay),
            "holder_write_arrival" => some(m.holder_write_arrival),
            "danger_window" => Ok(ModelAnswer::Number(m.danger_window)),
            _ => Err(missing()),
        },
        Metrics::Herd(m) => match ask {
            "total_notifications" => Ok(ModelAnswer::Number(m.total_notifications as f64)),
            "wasted_wakeups" => Ok(ModelAnswer::Number(m.wasted_wakeups as f64)),
            "total_time_ms" => Ok(ModelAnswer::Number(m.total_time_ms)),
            _ => Err(missing()),
        },
        Metrics::Abc(m) => match ask {
            "stale_writes_accepted" => Ok(ModelAnswer::Number(f64::from(m.stale_writes_accepted))),
            "stale_writes_rejected" => Ok(ModelAnswer::Number(f64::from(m.stale_writes_rejected))),
            "duplicate_nodes" => Ok(ModelAnswer::Number(f64::from(m.duplicate_nodes))),
            "max_holders" => Ok(ModelAnswer::Number(f64::from(m.max_holders))),
            "stuck_count" => Ok(ModelAnswer::Number(m.stuck_clients.len() as f64)),
            _ => Err(missing()),
        },
        Metrics::Queue(m) => match ask {
            "max_holders" => Ok(ModelAnswer::Number(f64::from(m.max_holders))),
            "max_concurrent_readers" => {
                Ok(ModelAnswer::Number(f64::from(m.max_concurrent_readers)))
            }
            "writer_wait_ms" => some(m.writer_wait_ms.map(|w| w as f64)),
            _ => Err(missing()),
        },
        Metrics::Redlock(_) | Metrics::Snowflake(_) => {
            some(model_knobs::answer(&trace.metrics, ask))
        }
    }
}

/// Draws the variant for `seed` and computes its answer.
pub fn compute(
    q: &Question,
    seed: u64,
    presets: &[Preset],
) -> Result<(Variant, ModelAnswer), ModelError> {
    let v = variant(q, seed, presets)?;
    let a = answer(q, &v)?;
    Ok((v, a))
}

/// Formats a parameter value as the bank writes it: no trailing zeros (`12`, `12.5`, `4.25`).
pub fn fmt_value(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{}", v as i64)
    } else {
        let s = format!("{v:.6}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

/// The `{name}` placeholders in a text, with their byte offsets, in order.
pub fn placeholders(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut rest = text;
    let mut base = 0;
    while let Some(open) = rest.find('{') {
        let after = &rest[open + 1..];
        let len = after
            .find(|c: char| !(c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_'))
            .unwrap_or(after.len());
        if len > 0 && after[len..].starts_with('}') {
            out.push((base + open, &after[..len]));
        }
        base += open + 1;
        rest = after;
    }
    out
}

/// Fills `{param}` placeholders with the values drawn for this variant; others stay as written.
pub fn fill(text: &str, v: &Variant) -> String {
    let mut out = String::with_capacity(text.len());
    let mut last = 0;
    for (at, name) in placeholders(text) {
        if let Some(value) = v.drawn.get(name) {
            out.push_str(&text[last..at]);
            out.push_str(&fmt_value(*value));
            last = at + name.len() + 2;
        }
    }
    out.push_str(&text[last..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_print_without_trailing_zeros() {
        assert_eq!(fmt_value(12.0), "12");
        assert_eq!(fmt_value(12.5), "12.5");
        assert_eq!(fmt_value(4.25), "4.25");
        assert_eq!(fmt_value(0.1 + 0.2), "0.3");
    }

    #[test]
    fn placeholders_are_found_and_filled() {
        let text = "pause {pause_len} s at {pause_start}; code {a b} {}";
        let names: Vec<&str> = placeholders(text).into_iter().map(|(_, n)| n).collect();
        assert_eq!(names, ["pause_len", "pause_start"]);
        let v = Variant {
            params: Params::Frozen(FrozenParams::default()),
            drawn: BTreeMap::from([("pause_len".to_string(), 6.5)]),
        };
        assert_eq!(
            fill(text, &v),
            "pause 6.5 s at {pause_start}; code {a b} {}"
        );
    }

    #[test]
    fn grids_include_both_ends() {
        assert_eq!(grid_len(4.0, 12.0, 0.5), 17);
        assert_eq!(grid_len(13.0, 28.0, 3.0), 6);
        assert_eq!(grid_len(0.1, 0.3, 0.1), 3);
        assert_eq!(grid_value(0.1, 0.1, 2), 0.3);
    }
}
