//! `locklab live`: run a story on a real ZooKeeper, print it the way `locklab sim` prints the
//! model's run, and hold the two side by side.

use std::fmt::Write as _;

use serde::Serialize;

use crate::cli::{
    LiveAbcArgs, LiveCommand, LiveEtcdArgs, LiveHerdArgs, LiveRedlockArgs, LiveTasksArgs,
    ServerArgs,
};
use crate::engine::params::knobs::Knobs as _;
use crate::engine::params::{HerdParams, Params};
use crate::engine::trace::{Family, Trace};
use crate::export;
use crate::i18n::Lang;
use crate::live::diff::{self, Row};
use crate::live::ensemble::{self, faults::EnsembleFault};
use crate::live::scale::{self, Scaling, fit};
use crate::live::server::{self, Server};
use crate::live::words;
use crate::live::{abc, herd, pg, tasks};
use crate::scenario::{self, Preset};
use crate::source::Source;

use super::error::UserError;
use super::output::{write_json, write_stdout};

/// The A/B/C presets a live run can tell: all of them, each fault made for real.
fn live_presets(source: &Source) -> Result<Vec<Preset>, UserError> {
    Ok(scenario::load_all(source)
        .map_err(|e| UserError::usage(e.to_string()))?
        .into_iter()
        .filter(|p| match &p.params {
            Params::Abc(a) => crate::live::unsupported(a).is_none(),
            _ => false,
        })
        .collect())
}

pub fn run(cmd: LiveCommand, lang: Lang, source: &Source) -> Result<(), UserError> {
    match cmd {
        LiveCommand::Abc(args) => abc_cmd(args, lang, source),
        LiveCommand::Herd(args) => herd_cmd(args, lang),
        LiveCommand::Rwlock(a) => {
            let (json, family) = (a.output.json, Family::Rwlock);
            super::live_queue::run(&a.preset, family, &a.server, json, lang, source)
        }
        LiveCommand::Semaphore(a) => {
            let (json, family) = (a.output.json, Family::Semaphore);
            super::live_queue::run(&a.preset, family, &a.server, json, lang, source)
        }
        LiveCommand::Election(args) => super::live_election::run(args, lang, source),
        LiveCommand::Tasks(args) => tasks_cmd(args, lang, source),
        LiveCommand::Redlock(args) => redlock_cmd(args, lang, source),
        LiveCommand::Etcd(args) => etcd_cmd(args, lang, source),
    }
}

/// Everything a live task run printed, as JSON.
#[derive(Serialize)]
struct LiveTasks<'a> {
    preset: &'a str,
    params: &'a Params,
    live: &'a tasks::Run,
    model: &'a Trace,
    statements: Vec<tasks::compare::Pair>,
    facts: Vec<tasks::compare::FactRow>,
}

/// The preset `name` of one family, with its parameters (`of` picks them); `what` names the
/// family with its article in the error (`a task`, `an election`).
pub(super) fn family_preset<'a, T>(
    every: &'a [Preset],
    name: &str,
    what: &str,
    of: impl Fn(&'a Params) -> Option<&'a T>,
) -> Result<(&'a Preset, &'a T), UserError> {
    every
        .iter()
        .filter(|p| p.name == name)
        .find_map(|p| Some((p, of(&p.params)?)))
        .ok_or_else(|| UserError::usage(format!("`{name}` is not {what} preset")))
}

fn tasks_cmd(args: LiveTasksArgs, lang: Lang, source: &Source) -> Result<(), UserError> {
    let every = scenario::load_all(source).map_err(|e| UserError::usage(e.to_string()))?;
    let (preset, p) = family_preset(&every, &args.preset, "a task", |p| match p {
        Params::Tasks(p) => Some(p),
        _ => None,
    })?;
    if let Some(why) = tasks::unsupported(p) {
        return Err(UserError::usage(format!("`{}`: {why}", args.preset)));
    }
    let scale = args.time_scale.unwrap_or(1.0);
    let json = args.output.json;
    let db = pg::start()?;
    if !json {
        say(&tasks::words::server_line(
            &db.version,
            &db.addr.to_string(),
            lang,
        ))?;
        say(&tasks::words::running(
            &preset.name,
            p.duration_ms,
            scale,
            lang,
        ))?;
    }
    let live = tasks::run(p, &db, scale)?;
    drop(db);
    let params = Params::Tasks(p.clone());
    let model = crate::engine::run(&params);
    let pairs = tasks::compare::pairs(&model, &live, p.store_clock_ms);
    let facts = tasks::compare::facts(&model, &live);
    if json {
        let run = LiveTasks {
            preset: &preset.name,
            params: &params,
            live: &live,
            model: &model,
            statements: pairs,
            facts,
        };
        return write_json(&run);
    }
    let about = lang.pick(&preset.about.zh, &preset.about.en);
    let mut out = format!("\n{}\n{about}\n\n", words::title(&preset.name, lang));
    out.push_str(&tasks::words::report(
        &live,
        &pairs,
        &facts,
        p.store_clock_ms,
        lang,
    ));
    write_stdout(out.as_bytes())
}

fn redlock_cmd(args: LiveRedlockArgs, lang: Lang, source: &Source) -> Result<(), UserError> {
    let every = scenario::load_all(source).map_err(|e| UserError::usage(e.to_string()))?;
    let Some(preset) = every.iter().find(|p| p.name == args.preset) else {
        return Err(UserError::usage(format!(
            "no preset named `{}`",
            args.preset
        )));
    };
    let Params::Redlock(p) = &preset.params else {
        return Err(UserError::usage("not a Redlock preset"));
    };
    if let Some(why) = crate::live::redis::run::unsupported(p) {
        return Err(UserError::usage(format!("`{}`: {why}", args.preset)));
    }
    let exe = std::env::current_exe()
        .map_err(|e| UserError::failed(format!("cannot find locklab's own program: {e}")))?;
    let json = args.output.json;
    let store = crate::live::redis::run::default_store();
    if !json {
        let settled = crate::live::redis::until_settled(p);
        let secs = crate::engine::time::fmt_secs(settled.duration_ms);
        say(&words::redis_line(p.nodes, store, lang))?;
        say(&words::running(&preset.name, &secs, lang))?;
    }
    let story = crate::live::redis::story(p, &exe, store)?;
    let rows = story.rows();
    let params = Params::Redlock(story.params.clone());
    let told = (&story.live, &story.model, rows);
    family_report(preset, &params, told, words::redlock_note(lang), json, lang)
}

/// A live run of a family that keeps its own comparison (Redlock, etcd): as JSON, or the
/// model's text report of the live trace, the table and the note on its tolerances.
fn family_report(
    preset: &Preset,
    params: &Params,
    (live, model, rows): (&Trace, &Trace, Vec<Row>),
    note: &str,
    json: bool,
    lang: Lang,
) -> Result<(), UserError> {
    let about = lang.pick(&preset.about.zh, &preset.about.en);
    if json {
        return emit(
            "127.0.0.1",
            Some(&preset.name),
            Some(about),
            None,
            params,
            (live, model, rows),
            None,
            true,
            lang,
        );
    }
    let mut out = String::from("\n");
    out.push_str(&export::text::report(
        &words::title(&preset.name, lang),
        Some(about),
        params,
        live,
        lang,
    ));
    out.push('\n');
    out.push_str(&table(&rows, lang));
    for line in crate::text::wrap(note, 100) {
        out.push_str(&line);
        out.push('\n');
    }
    write_stdout(out.as_bytes())
}

fn etcd_cmd(args: LiveEtcdArgs, lang: Lang, source: &Source) -> Result<(), UserError> {
    use crate::live::etcd;
    let every = scenario::load_all(source).map_err(|e| UserError::usage(e.to_string()))?;
    let Some(preset) = every.iter().find(|p| p.name == args.preset) else {
        return Err(UserError::usage(format!(
            "no preset named `{}`",
            args.preset
        )));
    };
    let Params::Etcd(p) = &preset.params else {
        return Err(UserError::usage("not an etcd preset"));
    };
    let factor = args.time_scale.unwrap_or(1.0);
    if !(0.1..=10.0).contains(&factor) {
        return Err(UserError::usage(format!(
            "--time-scale {factor}: expected a factor from 0.1 to 10"
        )));
    }
    let p = etcd::scaled(p, factor);
    if let Some(why) = etcd::run::unsupported(&p) {
        return Err(UserError::usage(format!("`{}`: {why}", args.preset)));
    }
    etcd::server::installed()?;
    let exe = std::env::current_exe()
        .map_err(|e| UserError::failed(format!("cannot find locklab's own program: {e}")))?;
    let json = args.output.json;
    if !json {
        let secs = crate::engine::time::fmt_secs(etcd::until_settled(&p).duration_ms);
        say(etcd::words::starting(lang))?;
        say(&words::running(&preset.name, &secs, lang))?;
    }
    let story = etcd::story(&p, &exe)?;
    if !json {
        say(&etcd::words::resource_line(
            &story.resource,
            &story.version,
            lang,
        ))?;
    }
    let rows = story.rows();
    let params = Params::Etcd(story.params.clone());
    let told = (&story.live, &story.model, rows);
    family_report(preset, &params, told, etcd::words::note(lang), json, lang)
}

/// Everything a live run printed or would print as JSON.
#[derive(Serialize)]
struct LiveRun<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    preset: Option<&'a str>,
    server: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    scaling: Option<Scaling>,
    /// A/B/C: where the server's tick boundaries fell in the run (null: not known); the model
    /// ran on that grid.
    #[serde(skip_serializing_if = "Option::is_none")]
    tick_phase_ms: Option<Option<u64>>,
    params: &'a Params,
    live: &'a Trace,
    model: &'a Trace,
    comparison: Vec<Row>,
}

pub(super) fn say(line: &str) -> Result<(), UserError> {
    write_stdout(format!("{line}\n").as_bytes())
}

pub(super) fn open(
    args: &ServerArgs,
    settings: server::Settings,
    json: bool,
    lang: Lang,
) -> Result<Server, UserError> {
    let s = server::open(args.zk.as_deref(), args.port, settings)?;
    if !json {
        let own = matches!(s, Server::Private(_));
        say(&words::server_line(
            &s.version(),
            &s.addr().to_string(),
            own,
            lang,
        ))?;
    }
    Ok(s)
}

/// The A/B/C story a live run tells: a catalogue preset, or an ensemble preset with its
/// live-only fault.
struct AbcStory {
    name: String,
    about: crate::scenario::Text,
    params: crate::engine::params::AbcParams,
    fault: Option<EnsembleFault>,
}

fn abc_story(name: &str, source: &Source) -> Result<AbcStory, UserError> {
    if let Some(e) = ensemble::presets::find(name) {
        return Ok(AbcStory {
            name: e.name.to_string(),
            about: e.about,
            params: e.params,
            fault: Some(e.fault),
        });
    }
    let all = live_presets(source)?;
    let every = scenario::load_all(source).map_err(|e| UserError::usage(e.to_string()))?;
    if let Some(Params::Abc(p)) = every.iter().find(|p| p.name == name).map(|p| &p.params)
        && let Some(why) = crate::live::unsupported(p)
    {
        return Err(UserError::usage(format!("`{name}`: {why}")));
    }
    let Some(preset) = all.iter().find(|p| p.name == name) else {
        let mut known: Vec<&str> = all.iter().map(|p| p.name.as_str()).collect();
        let ensembles = ensemble::presets::all();
        known.extend(ensembles.iter().map(|e| e.name));
        return Err(UserError::usage(words::no_counterpart(
            name,
            &known.join(", "),
            Lang::En,
        )));
    };
    let Params::Abc(p) = &preset.params else {
        return Err(UserError::usage("not an A/B/C preset"));
    };
    Ok(AbcStory {
        name: preset.name.clone(),
        about: preset.about.clone(),
        params: p.clone(),
        fault: None,
    })
}

fn abc_cmd(args: LiveAbcArgs, lang: Lang, source: &Source) -> Result<(), UserError> {
    let story_of = abc_story(&args.preset, source)?;
    let p = &story_of.params;
    let size = match (args.ensemble, story_of.fault) {
        (None, Some(_)) => 3,
        (Some(n), Some(_)) if n < 3 => {
            return Err(UserError::usage(ensemble::words::needs_ensemble(
                &story_of.name,
            )));
        }
        (n, _) => n.unwrap_or(1),
    };
    if size > 1 && (args.server.zk.is_some() || args.server.port.is_some()) {
        return Err(UserError::usage(ensemble::words::needs_ensemble(
            &story_of.name,
        )));
    }
    let factor = args.server.time_scale.unwrap_or(1.0);
    let json = args.output.json;
    let fitted = scale::scaled(p, factor);
    let tick = fitted.tick_ms;
    let server = if size > 1 {
        if !json {
            say(&ensemble::words::starting(size, lang))?;
        }
        let e = ensemble::start(size, tick)?;
        if !json {
            let leader = e.servers.leader();
            say(&ensemble::words::server_line(&e, leader, lang))?;
        }
        Server::Ensemble(e)
    } else {
        let settings = server::Settings {
            tick_ms: tick,
            container_check_ms: fitted.container_check_ms,
        };
        open(&args.server, settings, json, lang)?
    };
    let (scaled, scaling) = fit(p, &server, factor)?;
    let fault = story_of.fault.map(|f| f.scaled(factor));
    if !json {
        say(&words::scaling_line(&scaling, lang))?;
        let secs = crate::engine::time::fmt_secs(scaled.duration_ms);
        say(&words::running(&story_of.name, &secs, lang))?;
    }
    let story = abc::story(&scaled, &server, fault)?;
    let params = Params::Abc(story.params.clone());
    let rows = story.rows();
    let addr = server
        .addrs()
        .iter()
        .map(|a| a.to_string())
        .collect::<Vec<_>>()
        .join(",");
    let on_ensemble = matches!(server, Server::Ensemble(_));
    drop(server);
    let about = lang.pick(&story_of.about.zh, &story_of.about.en);
    emit(
        &addr,
        Some(&story_of.name),
        Some(about),
        Some(scaling),
        &params,
        (&story.live, &story.model, rows),
        Some(story.tick_phase_ms),
        json,
        lang,
    )?;
    if on_ensemble && !json {
        let mut out = String::new();
        for line in crate::text::wrap(ensemble::words::model_note(fault, lang), 100) {
            let _ = writeln!(out, "{line}");
        }
        write_stdout(out.as_bytes())?;
    }
    Ok(())
}

fn herd_cmd(args: LiveHerdArgs, lang: Lang) -> Result<(), UserError> {
    let mut p = HerdParams {
        hold_ms: 20.0,
        ..HerdParams::default()
    };
    p.set("waiters", args.waiters)
        .map_err(|e| UserError::usage(e.to_string()))?;
    p.set("fanout", args.fanout)
        .map_err(|e| UserError::usage(e.to_string()))?;
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
    if args.server.time_scale.is_some() {
        return Err(UserError::usage(
            "--time-scale is for `live abc` (a herd has no preset times; use --hold-ms)",
        ));
    }
    if f64::from(p.waiters) > herd::WAITERS.max {
        return Err(UserError::usage(format!(
            "--waiters must be {} on a real server (one session each)",
            herd::WAITERS.range_text()
        )));
    }
    let json = args.output.json;
    let server = open(&args.server, server::Settings::ticking(2000), json, lang)?;
    if !json {
        say(&words::running_herd(p.waiters, p.fanout, lang))?;
    }
    let live = herd::run(&p, server.addr())?;
    let addr = server.addr().to_string();
    drop(server);
    let params = Params::Herd(p);
    let model = crate::engine::run(&params);
    let rows = diff::compare(&model, &live, None);
    emit(
        &addr,
        None,
        None,
        None,
        &params,
        (&live, &model, rows),
        None,
        json,
        lang,
    )
}

#[allow(clippy::too_many_arguments)]
pub(super) fn emit(
    server: &str,
    preset: Option<&str>,
    about: Option<&str>,
    scaling: Option<Scaling>,
    params: &Params,
    (live, model, comparison): (&Trace, &Trace, Vec<Row>),
    phase: Option<Option<u64>>,
    json: bool,
    lang: Lang,
) -> Result<(), UserError> {
    if json {
        let run = LiveRun {
            preset,
            server,
            scaling,
            tick_phase_ms: phase,
            params,
            live,
            model,
            comparison,
        };
        let mut buf = Vec::new();
        serde_json::to_writer_pretty(&mut buf, &run)
            .map_err(|e| UserError::failed(e.to_string()))?;
        buf.push(b'\n');
        return write_stdout(&buf);
    }
    let name = preset.unwrap_or(lang.pick("羊群与链式唤醒", "herd versus chain"));
    let mut out = String::from("\n");
    out.push_str(&export::text::report(
        &words::title(name, lang),
        about,
        params,
        live,
        lang,
    ));
    out.push('\n');
    out.push_str(&comparison_table(&comparison, phase, lang));
    write_stdout(out.as_bytes())
}

/// The side-by-side table: one fact or instant a row, a mark where the two runs disagree;
/// `phase`: for A/B/C, the server's tick phase if known.
fn comparison_table(rows: &[Row], phase: Option<Option<u64>>, lang: Lang) -> String {
    let mut out = table(rows, lang);
    if let Some(phase) = phase {
        for line in crate::text::wrap(&words::instants_note(phase, lang), 100) {
            let _ = writeln!(out, "{line}");
        }
    }
    for line in crate::text::wrap(words::library_note(lang), 100) {
        let _ = writeln!(out, "{line}");
    }
    out
}

/// The rows, a mark where the two runs disagree, the verdict and why a row differs.
fn table(rows: &[Row], lang: Lang) -> String {
    let (title, fact, model, live) = words::compare_header(lang);
    let pad =
        |s: &str, w: usize| format!("{s}{}", " ".repeat(w.saturating_sub(crate::text::width(s))));
    let cells: Vec<[String; 4]> = rows.iter().map(|r| words::row_cells(r, lang)).collect();
    let w = cells
        .iter()
        .map(|c| crate::text::width(&c[0]) + 2)
        .max()
        .unwrap_or(0)
        .max(26);
    // A long list (ten holders in order) widens its columns rather than running into the next.
    let col = |i: usize| {
        cells
            .iter()
            .map(|c| crate::text::width(&c[i]) + 2)
            .max()
            .unwrap_or(0)
            .max(24)
    };
    let (wm, wl) = (col(1), col(2));
    let mut out = String::new();
    let _ = writeln!(out, "{title}");
    let _ = writeln!(out, "    {}{}{live}", pad(fact, w), pad(model, wm));
    for (r, [what, m, l, verdict]) in rows.iter().zip(cells) {
        let mark = if r.same() { " " } else { "≠" };
        let line = format!(
            "  {mark} {}{}{}{verdict}",
            pad(&what, w),
            pad(&m, wm),
            pad(&l, wl)
        );
        let _ = writeln!(out, "{}", line.trim_end());
    }
    let differences = rows.iter().filter(|r| !r.same()).count();
    let _ = writeln!(out, "{}", words::verdict(differences, lang));
    for (_, why) in rows
        .iter()
        .filter(|r| !r.same())
        .filter_map(|r| words::why_different(r.aspect, lang))
    {
        for line in crate::text::wrap(why, 100) {
            let _ = writeln!(out, "{line}");
        }
    }
    out
}
