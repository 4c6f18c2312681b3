//! Model questions: turn a question's model spec into engine parameters, draw a variant from a
//! seed, run the engine and read the answer off the metrics. The bank never holds an answer.

use std::collections::BTreeMap;
use std::fmt;

use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt as _, SeedableRng};
use toml::Spanned;

use super::deck::{Case, ModelSpec, Question};
use super::model_abc;
use super::model_knobs;
pub use super::model_text::{case_text, fill, fill_case, fmt_value, placeholders};
use crate::engine::params::knobs::Knobs as _;
use crate::engine::params::{AbcParams, FrozenParams, HerdParams, NumSpec, Params};
use crate::engine::trace::{Family, Trace, metrics_of};
use crate::scenario::Preset;
use crate::scenario::table::{self, Refused, Table};

/// The engine's answer to a model question: the metric it asks for.
pub type ModelAnswer = crate::engine::trace::MetricValue;

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
pub struct ModelDraw {
    pub params: Params,
    /// The drawn parameters, in the unit the bank writes them in.
    pub drawn: BTreeMap<String, f64>,
    /// The drawn alternative of `[[questions.model.cases]]`, if the question has any.
    pub case: Option<usize>,
}

/// The placeholder a prompt uses for the drawn case's words.
pub const CASE_PLACEHOLDER: &str = "case";

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

    /// A value the shared parameter-table reader refused, placed at the value.
    fn refused(&self, r: Refused) -> ModelError {
        ModelError {
            question: self.id.to_string(),
            key: r.key,
            offset: r.span.start,
            message: r.message,
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
        "abc" => AbcParams::spec(key).or_else(|| model_abc::fault_spec_of(key)),
        other => model_knobs::num_spec(other, key),
    }
}

/// The parameter names a prompt may use as `{placeholders}` for this question.
pub fn param_keys(family: &str) -> Vec<&'static str> {
    match family {
        "frozen" => FrozenParams::knob_keys(),
        "herd" => HerdParams::knob_keys(),
        "abc" => AbcParams::keys()
            .into_iter()
            .chain(["preset"])
            .chain(model_abc::FAULT_SPECS.iter().map(|s| s.key))
            .chain(model_abc::CHOICE_KEYS)
            .collect(),
        other => model_knobs::keys(other),
    }
}

/// Builds the engine parameters for the attempt drawn with `seed`.
///
/// `presets` resolves the `preset` of an `abc` question, so an external `--content` copy is
/// checked against its own presets.
pub fn variant(q: &Question, seed: u64, presets: &[Preset]) -> Result<ModelDraw, ModelError> {
    let spec = spec_of(q)?;
    let ctx = Ctx {
        id: q.id.get_ref(),
        id_offset: q.id.span().start,
    };
    check_ask(&ctx, spec)?;
    let (drawn, case) = draw(&ctx, spec, seed)?;
    with_drawn(&ctx, spec, drawn, case, presets)
}

fn check_ask(ctx: &Ctx, spec: &ModelSpec) -> Result<(), ModelError> {
    let Some(family) = Family::parse(spec.family.get_ref()) else {
        return Err(unknown_family(ctx, spec));
    };
    let asks: Vec<&str> = metrics_of(family).iter().map(|m| m.key).collect();
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

fn unknown_family(ctx: &Ctx, spec: &ModelSpec) -> ModelError {
    ctx.err(
        Some("family"),
        Some(spec.family.span().start),
        format!(
            "unknown family `{}`; known families: frozen, herd, abc, rwlock, semaphore, election, tasks, redlock, snowflake, etcd",
            spec.family.get_ref()
        ),
    )
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
        "herd" => HerdParams::knob_keys(),
        "abc" => crate::engine::params::ABC_SPECS
            .iter()
            .chain(&model_abc::FAULT_SPECS)
            .map(|s| s.key)
            .collect(),
        other => model_knobs::numeric_keys(other),
    }
}

type Drawn = (BTreeMap<String, f64>, Option<usize>);

/// Draws one value per `vary` key on its grid, then one of the cases, with a generator seeded
/// from `seed`.
fn draw(ctx: &Ctx, spec: &ModelSpec, seed: u64) -> Result<Drawn, ModelError> {
    // Xoshiro256++ is named and stable, so a seed means the same variant in every version.
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut drawn = BTreeMap::new();
    for (key, min, step, n) in grids(ctx, spec)? {
        let i = rng.random_range(0..n);
        drawn.insert(key.to_string(), grid_value(min, step, i));
    }
    let case = (!spec.cases.is_empty()).then(|| rng.random_range(0..spec.cases.len()));
    Ok((drawn, case))
}

/// Every variant the grid allows, when there are at most `cap` of them.
pub fn all_variants(
    q: &Question,
    presets: &[Preset],
    cap: usize,
) -> Result<Option<Vec<ModelDraw>>, ModelError> {
    let spec = spec_of(q)?;
    let ctx = Ctx {
        id: q.id.get_ref(),
        id_offset: q.id.span().start,
    };
    check_ask(&ctx, spec)?;
    let grids = grids(&ctx, spec)?;
    let cases = spec.cases.len();
    let total = grids
        .iter()
        .try_fold(cases.max(1), |acc, g| acc.checked_mul(g.3));
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
        let case = (cases > 0).then_some(index % cases.max(1));
        out.push(with_drawn(&ctx, spec, drawn, case, presets)?);
    }
    Ok(Some(out))
}

fn with_drawn(
    ctx: &Ctx,
    spec: &ModelSpec,
    drawn: BTreeMap<String, f64>,
    case: Option<usize>,
    presets: &[Preset],
) -> Result<ModelDraw, ModelError> {
    key_clashes(ctx, spec)?;
    let case_params = case
        .and_then(|i| spec.cases.get(i))
        .map(|c| &c.get_ref().params);
    let empty = BTreeMap::new();
    // Fixed parameters first, then the drawn case's, then the drawn numbers.
    let set = Settings {
        fixed: &spec.params,
        case: case_params.unwrap_or(&empty),
        drawn: &drawn,
    };
    let params = match spec.family.get_ref().as_str() {
        "frozen" => Params::Frozen(frozen(ctx, spec, &set)?),
        "herd" => Params::Herd(herd(ctx, spec, &set)?),
        "abc" => Params::Abc(abc(ctx, spec, &set, presets)?),
        other if model_knobs::is_knob_family(other) => {
            model_knobs::params(other, set.tables(), set.drawn, presets).map_err(|r| {
                let at = r.at.or_else(|| vary_at(spec, &r.key));
                ctx.err(Some(&r.key), at, r.message)
            })?
        }
        _ => return Err(unknown_family(ctx, spec)),
    };
    Ok(ModelDraw {
        params,
        drawn,
        case,
    })
}

/// Everything one attempt sets, in the order it is applied.
struct Settings<'a> {
    fixed: &'a Table,
    case: &'a Table,
    drawn: &'a BTreeMap<String, f64>,
}

impl Settings<'_> {
    /// The fixed parameters and the drawn case's, in the order they apply.
    fn tables(&self) -> impl Iterator<Item = (&String, &Spanned<toml::Value>)> {
        self.fixed.iter().chain(self.case.iter())
    }
}

/// A key set in two places would make the draw depend on the order it is applied in.
fn key_clashes(ctx: &Ctx, spec: &ModelSpec) -> Result<(), ModelError> {
    if let Some((k, v)) = spec.params.iter().find(|(k, _)| spec.vary.contains_key(*k)) {
        return Err(ctx.err(
            Some(k),
            Some(v.span().start),
            "is both fixed in params and drawn in vary",
        ));
    }
    for case in &spec.cases {
        let Case { params, .. } = case.get_ref();
        if params.is_empty() {
            return Err(ctx.err(
                Some("cases"),
                Some(case.span().start),
                "a case sets at least one parameter",
            ));
        }
        for (k, v) in params {
            let place = if spec.vary.contains_key(k) {
                "drawn in vary"
            } else if spec.params.contains_key(k) || k == "preset" {
                "fixed in params"
            } else {
                continue;
            };
            return Err(ctx.err(
                Some(k),
                Some(v.span().start),
                format!("is set by a case and also {place}"),
            ));
        }
    }
    Ok(())
}

fn frozen(ctx: &Ctx, spec: &ModelSpec, set: &Settings) -> Result<FrozenParams, ModelError> {
    let mut p = FrozenParams::default();
    table::knobs(&mut p, set.tables()).map_err(|r| ctx.refused(r))?;
    for (key, value) in set.drawn {
        p.set(key, *value)
            .map_err(|e| ctx.err(Some(key), vary_at(spec, key), e.to_string()))?;
    }
    Ok(p)
}

fn vary_at(spec: &ModelSpec, key: &str) -> Option<usize> {
    spec.vary.get(key).map(|v| v.span().start)
}

fn herd(ctx: &Ctx, spec: &ModelSpec, set: &Settings) -> Result<HerdParams, ModelError> {
    let mut p = HerdParams::default();
    table::knobs(&mut p, set.tables()).map_err(|r| ctx.refused(r))?;
    for (key, value) in set.drawn {
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
    set: &Settings,
    presets: &[Preset],
) -> Result<AbcParams, ModelError> {
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
    for (key, v) in set.tables().filter(|(k, _)| *k != "preset") {
        let at = Some(v.span().start);
        if model_abc::CHOICE_KEYS.contains(&key.as_str()) {
            model_abc::set_choice(&mut p, key, v.get_ref())
                .map_err(|e| ctx.err(Some(key), at, e.to_string()))?;
        } else if model_abc::fault_spec_of(key).is_some() {
            let n = table::number(key, v).map_err(|r| ctx.refused(r))?;
            model_abc::set_fault_time(&mut p, key, n)
                .map_err(|e| ctx.err(Some(key), at, e.to_string()))?;
        } else if AbcParams::spec(key).is_some() {
            let n = table::number(key, v).map_err(|r| ctx.refused(r))?;
            p.set(key, n)
                .map_err(|e| ctx.err(Some(key), at, e.to_string()))?;
        } else {
            let mut valid = vec!["preset"];
            valid.extend(numeric_keys("abc"));
            valid.extend(model_abc::CHOICE_KEYS);
            return Err(ctx.refused(table::unknown_param(key, v, &valid)));
        }
    }
    for (key, value) in set.drawn {
        let at = vary_at(spec, key);
        if model_abc::fault_spec_of(key).is_some() {
            model_abc::set_fault_time(&mut p, key, *value)
                .map_err(|e| ctx.err(Some(key), at, e.to_string()))?;
        } else {
            p.set(key, *value)
                .map_err(|e| ctx.err(Some(key), at, e.to_string()))?;
        }
    }
    Ok(p)
}

/// Runs the engine on a variant and reads the question's answer off the metrics.
pub fn answer(q: &Question, v: &ModelDraw) -> Result<ModelAnswer, ModelError> {
    run(q, v).map(|(a, _)| a)
}

/// Runs the engine on a variant: the question's answer and the whole trace it came from.
pub fn run(q: &Question, v: &ModelDraw) -> Result<(ModelAnswer, Trace), ModelError> {
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
    let answer = trace.metrics.get(ask).ok_or_else(missing)?;
    Ok((answer, trace))
}

/// Draws the variant for `seed` and computes its answer.
pub fn compute(
    q: &Question,
    seed: u64,
    presets: &[Preset],
) -> Result<(ModelDraw, ModelAnswer), ModelError> {
    let v = variant(q, seed, presets)?;
    let a = answer(q, &v)?;
    Ok((v, a))
}

#[cfg(test)]
#[path = "model_tests.rs"]
mod tests;
