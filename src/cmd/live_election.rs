//! `locklab live election`: an election preset on a private ZooKeeper with the rollup job's row
//! on a private PostgreSQL, printed statement by statement beside the model.

use serde::Serialize;

use crate::cli::LiveElectionArgs;
use crate::engine::params::Params;
use crate::engine::trace::Trace;
use crate::i18n::Lang;
use crate::live::election::{self, compare};
use crate::live::{pg, server, words};
use crate::scenario;
use crate::source::Source;

use super::error::UserError;
use super::live::family_preset;
use super::live::say;
use super::output::{write_json, write_stdout};

/// Everything a live election run printed, as JSON.
#[derive(Serialize)]
struct LiveElection<'a> {
    preset: &'a str,
    params: &'a Params,
    zookeeper: String,
    live: &'a election::Run,
    model: &'a Trace,
    statements: Vec<compare::Pair>,
    facts: Vec<compare::FactRow>,
}

pub fn run(args: LiveElectionArgs, lang: Lang, source: &Source) -> Result<(), UserError> {
    let every = scenario::load_all(source).map_err(|e| UserError::usage(e.to_string()))?;
    let (preset, p) = family_preset(&every, &args.preset, "an election", |p| match p {
        Params::Election(p) => Some(p),
        _ => None,
    })?;
    let scale = args.time_scale.unwrap_or(1.0);
    let json = args.output.json;
    let zk = server::open(
        None,
        None,
        server::Settings::ticking(election::tick_ms(p, scale)),
    )?;
    let zookeeper = zk.version();
    if !json {
        say(&words::server_line(
            &zookeeper,
            &zk.addr().to_string(),
            true,
            lang,
        ))?;
    }
    let db = pg::start()?;
    if !json {
        say(&crate::live::tasks::words::server_line(
            &db.version,
            &db.addr.to_string(),
            lang,
        ))?;
        say(&election::words::running(
            &preset.name,
            p.duration_ms,
            scale,
            lang,
        ))?;
    }
    let story = election::story(p, zk.addr(), &db, scale)?;
    drop(db);
    drop(zk);
    let (pairs, facts) = (story.statements(), story.facts());
    if json {
        let params = Params::Election(p.clone());
        let run = LiveElection {
            preset: &preset.name,
            params: &params,
            zookeeper,
            live: &story.live,
            model: &story.model,
            statements: pairs,
            facts,
        };
        return write_json(&run);
    }
    let about = lang.pick(&preset.about.zh, &preset.about.en);
    let mut out = format!("\n{}\n{about}\n\n", words::title(&preset.name, lang));
    out.push_str(&election::words::report(
        &pairs,
        &facts,
        p.conditional,
        lang,
    ));
    write_stdout(out.as_bytes())
}
