//! `locklab export`: the diagram of a preset or scenario file as SVG or plain text.

use std::path::Path;

use crate::cli::{ExportArgs, ExportFormat};
use crate::engine::time::from_secs;
use crate::export;
use crate::i18n::Lang;
use crate::scenario::{self, Preset};
use crate::source::Source;
use crate::text::printable;

use super::error::UserError;
use super::output::{write_file, write_stdout};

/// Finds a scenario by preset name, or reads it as a file when it names one.
pub fn resolve(scenario: &str, source: &Source) -> Result<Preset, UserError> {
    let path = Path::new(scenario);
    if path.is_file() || scenario.ends_with(".toml") {
        return scenario::load_file(path).map_err(|e| UserError::usage(e.to_string()));
    }
    let all = scenario::load_all(source).map_err(|e| UserError::usage(e.to_string()))?;
    let names: Vec<String> = all.iter().map(|p| p.name.clone()).collect();
    if let Some(p) = all.into_iter().find(|p| p.name == scenario) {
        return Ok(p);
    }
    // Something that exists but is no file (a device, a folder): say so, as `sim run` does.
    if path.exists() {
        return scenario::load_file(path).map_err(|e| UserError::usage(e.to_string()));
    }
    Err(UserError::usage(format!(
        "unknown preset `{}`; known presets: {}",
        crate::text::shown(scenario),
        names.join(", ")
    )))
}

pub fn run(args: ExportArgs, lang: Lang, source: &Source) -> Result<(), UserError> {
    let p = resolve(&args.scenario, source)?;
    if let Some(path) = &args.cast {
        return cast(&p, &args, path, lang, source);
    }
    // clap lets these through when --format is given, since --cast conflicts with it.
    if args.size.is_some() || args.speed.is_some() {
        return Err(UserError::usage(
            "--size and --speed apply to a recording: add --cast FILE",
        ));
    }
    // clap requires both unless --cast is given.
    let (Some(format), Some(output)) = (args.format, args.output.as_ref()) else {
        return Err(UserError::usage(
            "--format and -o are required without --cast",
        ));
    };
    let trace = crate::engine::run(&p.params);
    let at = match (args.at, scenario::run_end(&p.params)) {
        (None, _) => None,
        (Some(_), None) => return Err(UserError::usage("--at does not apply to the herd chart")),
        (Some(secs), Some(end)) => {
            let end_secs = end as f64 / 1000.0;
            if !(0.0..=end_secs).contains(&secs) {
                return Err(UserError::usage(format!(
                    "--at must be 0 to {end_secs} s (got {secs})"
                )));
            }
            Some(from_secs(secs))
        }
    };
    let about = lang.pick(&p.about.zh, &p.about.en);
    let body = match format {
        // The SVG escapes what XML cannot hold itself.
        ExportFormat::Svg => export::svg::render(&p.name, about, &trace, at, lang),
        // Text goes to terminals and handouts: no control character gets through.
        ExportFormat::Txt => {
            let (name, about) = (printable(&p.name, false), printable(about, true));
            export::text::report_at(&name, Some(&about), &p.params, &trace, at, lang)
        }
    };
    if output.as_os_str() == "-" {
        return write_stdout(body.as_bytes());
    }
    write_file(output, body.as_bytes()).map_err(|e| UserError {
        message: format!("cannot write {}: {e}", output.display()),
        status: 1,
    })
}

/// `--cast`: the run playing on its lab screen, as an asciicast v2 recording.
fn cast(
    p: &Preset,
    args: &ExportArgs,
    path: &Path,
    lang: Lang,
    source: &Source,
) -> Result<(), UserError> {
    let (cols, rows) = args.size.unwrap_or((120, 33));
    let timestamp = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let opts = crate::tui::record::Options {
        cols,
        rows,
        speed: args.speed.unwrap_or(1.0),
        lang,
        theme: crate::tui::theme::Theme::from_env(),
        timestamp,
    };
    let text = crate::tui::record::record(p, source, &opts)?;
    if path.as_os_str() == "-" {
        return write_stdout(text.as_bytes());
    }
    write_file(path, text.as_bytes()).map_err(|e| UserError {
        message: format!("cannot write {}: {e}", path.display()),
        status: 1,
    })
}
