//! `locklab live rwlock` and `locklab live semaphore`: a queue preset on real sessions, printed
//! the way `locklab sim` prints the model's run, beside the model.

use crate::cli::ServerArgs;
use crate::engine::params::Params;
use crate::engine::trace::Family;
use crate::i18n::Lang;
use crate::live::queue::{self, QueueParams};
use crate::live::scale::Scaling;
use crate::live::words;
use crate::scenario;
use crate::source::Source;

use super::error::UserError;
use super::live::{emit, open, say};

/// Runs preset `name` of `family` (the read-write lock or the semaphore) live.
pub fn run(
    name: &str,
    family: Family,
    server: &ServerArgs,
    json: bool,
    lang: Lang,
    source: &Source,
) -> Result<(), UserError> {
    let every = scenario::load_all(source).map_err(|e| UserError::usage(e.to_string()))?;
    let ours = |p: &&scenario::Preset| {
        matches!(
            (&p.params, family),
            (Params::Rwlock(_), Family::Rwlock) | (Params::Semaphore(_), Family::Semaphore)
        )
    };
    let Some(preset) = every.iter().filter(ours).find(|p| p.name == name) else {
        let known: Vec<&str> = every.iter().filter(ours).map(|p| p.name.as_str()).collect();
        return Err(UserError::usage(words::no_counterpart(
            name,
            &known.join(", "),
            Lang::En,
        )));
    };
    let p = match &preset.params {
        Params::Rwlock(p) => QueueParams::Rwlock(p.clone()),
        Params::Semaphore(p) => QueueParams::Semaphore(p.clone()),
        _ => {
            return Err(UserError::usage(
                "not a read-write lock or semaphore preset",
            ));
        }
    };
    if let Some(why) = queue::unsupported(&p) {
        return Err(UserError::usage(format!("`{name}`: {why}")));
    }
    let factor = server.time_scale.unwrap_or(1.0);
    let tick = p.scaled(factor).common().tick_ms;
    let zk = open(
        server,
        crate::live::server::Settings::ticking(tick),
        json,
        lang,
    )?;
    // A private server runs the preset's tick times the factor, so it grants what the model
    // grants; a server of the user's grants what its tick allows, and every time stretches.
    let asked = p.common().session_timeout_ms;
    let (scaled, scaling) = match zk.tick_ms() {
        Some(t) => {
            let s = p.scaled(factor);
            let granted = crate::engine::zk::service::negotiate(s.common().session_timeout_ms, t);
            (
                s.clone(),
                Scaling {
                    factor,
                    tick_ms: Some(t),
                    requested_ms: s.common().session_timeout_ms,
                    granted_ms: granted,
                },
            )
        }
        None => {
            let granted = crate::live::abc::granted(zk.addr(), asked)?;
            let f = granted as f64 / asked.max(1) as f64;
            let scaling = Scaling {
                factor: f,
                tick_ms: None,
                requested_ms: asked,
                granted_ms: granted,
            };
            (p.scaled(f), scaling)
        }
    };
    if !json {
        say(&words::scaling_line(&scaling, lang))?;
        let secs = crate::engine::time::fmt_secs(scaled.common().duration_ms);
        say(&words::running(&preset.name, &secs, lang))?;
    }
    let known = zk.tick_ms().is_some() && crate::live::tick::same_clock(zk.addr());
    let story = queue::story_at(&scaled, zk.addr(), known)?;
    let rows = story.rows();
    let addr = zk.addr().to_string();
    drop(zk);
    let params = story.params.params();
    let about = lang.pick(&preset.about.zh, &preset.about.en);
    emit(
        &addr,
        Some(&preset.name),
        Some(about),
        Some(scaling),
        &params,
        (&story.live, &story.model, rows),
        Some(story.tick_phase_ms),
        json,
        lang,
    )
}
