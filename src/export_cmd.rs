//! `locklab export`: the diagram of a preset or scenario file as SVG or plain text.

use std::path::Path;

use crate::cli::{ExportArgs, ExportFormat};
use crate::engine::time::from_secs;
use crate::export;
use crate::i18n::Lang;
use crate::scenario::{self, Preset};
use crate::sim_cmd::{UserError, write_stdout};
use crate::source::Source;
use crate::text::printable;

/// Finds a scenario by preset name, or reads it as a file when it names one.
pub fn resolve(scenario: &str, source: &Source) -> Result<Preset, UserError> {
    let path = Path::new(scenario);
    if path.is_file() || scenario.ends_with(".toml") {
        return scenario::load_file(path).map_err(|e| UserError::usage(e.to_string()));
    }
    let all = scenario::load_all(source).map_err(|e| UserError::usage(e.to_string()))?;
    let names: Vec<String> = all.iter().map(|p| p.name.clone()).collect();
    all.into_iter().find(|p| p.name == scenario).ok_or_else(|| {
        UserError::usage(format!(
            "unknown preset `{scenario}`; known presets: {}",
            names.join(", ")
        ))
    })
}

pub fn run(args: ExportArgs, lang: Lang, source: &Source) -> Result<(), UserError> {
    let p = resolve(&args.scenario, source)?;
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
    let body = match args.format {
        // The SVG escapes what XML cannot hold itself.
        ExportFormat::Svg => export::svg::render(&p.name, about, &trace, at, lang),
        // Text goes to terminals and handouts: no control character gets through.
        ExportFormat::Txt => {
            let (name, about) = (printable(&p.name, false), printable(about, true));
            export::text::report_at(&name, Some(&about), &p.params, &trace, at, lang)
        }
    };
    if args.output.as_os_str() == "-" {
        return write_stdout(body.as_bytes());
    }
    write_file(&args.output, body.as_bytes()).map_err(|e| UserError {
        message: format!("cannot write {}: {e}", args.output.display()),
        status: 1,
    })
}

/// Writes an export so that a failure (a full disk, say) leaves the old file whole: a
/// temporary file in the same folder is written, synced and renamed over it. An existing file
/// keeps its mode; a new one gets the usual mode for new files (0666 less the umask).
///
/// A symbolic link the user named is followed to the file it points to, which is then replaced
/// (the link stays a link); a link that points nowhere, or at something other than a regular
/// file, is refused, so an export never creates a file somewhere the user did not name.
pub(crate) fn write_file(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    use std::os::unix::fs::PermissionsExt;
    let target = match std::fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() => {
            let to = std::fs::read_link(path)?;
            match std::fs::metadata(path) {
                Ok(t) if t.is_file() => std::fs::canonicalize(path)?,
                _ => {
                    return Err(std::io::Error::other(format!(
                        "it is a symbolic link to {}, which is not an existing regular file;                          not following it",
                        to.display()
                    )));
                }
            }
        }
        Ok(m) if !m.is_file() => return Err(std::io::Error::other("not a regular file")),
        _ => path.to_path_buf(),
    };
    let mode = std::fs::metadata(&target)
        .ok()
        .map(|m| m.permissions().mode() & 0o7777);
    let dir = match target.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => std::path::PathBuf::from("."),
    };
    let mut tmp = tempfile::Builder::new()
        .prefix(".locklab-export-")
        .suffix(".tmp")
        .permissions(std::fs::Permissions::from_mode(0o666))
        .tempfile_in(&dir)?;
    if let Some(mode) = mode {
        tmp.as_file()
            .set_permissions(std::fs::Permissions::from_mode(mode))?;
    }
    tmp.write_all(bytes)?;
    tmp.as_file().sync_all()?;
    tmp.persist(&target).map_err(|e| e.error)?;
    // The rename is durable once the folder is synced; not every file system allows it.
    if let Ok(d) = std::fs::File::open(&dir) {
        let _ = d.sync_all();
    }
    Ok(())
}
