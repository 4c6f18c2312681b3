//! Where a command's output goes: standard output, or a file replaced atomically.

use std::io::Write;
use std::path::Path;

use super::error::UserError;

/// Writes to standard output; a reader that went away (`| head`) is a normal end, not an error.
pub fn write_stdout(bytes: &[u8]) -> Result<(), UserError> {
    let mut out = std::io::stdout().lock();
    match out.write_all(bytes).and_then(|()| out.flush()) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(UserError::failed(format!("cannot write output: {e}"))),
    }
}

/// Writes `value` as pretty JSON and a line break.
pub fn write_json(value: &impl serde::Serialize) -> Result<(), UserError> {
    let mut buf = serde_json::to_vec_pretty(value).map_err(|e| UserError::failed(e.to_string()))?;
    buf.push(b'\n');
    write_stdout(&buf)
}

/// Writes an export so that a failure (a full disk, say) leaves the old file whole: a
/// temporary file in the same folder is written, synced and renamed over it. An existing file
/// keeps its mode; a new one gets the usual mode for new files (0666 less the umask).
///
/// A symbolic link the user named is followed to the file it points to, which is then replaced
/// (the link stays a link); a link that points nowhere, or at something other than a regular
/// file, is refused, so an export never creates a file somewhere the user did not name.
pub fn write_file(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    let target = match std::fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() => {
            let to = std::fs::read_link(path)?;
            match std::fs::metadata(path) {
                Ok(t) if t.is_file() => std::fs::canonicalize(path)?,
                _ => {
                    return Err(std::io::Error::other(format!(
                        "it is a symbolic link to {}, which is not an existing regular file; \
                         not following it",
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
    // The temporary file is locklab's own affair: an error names the folder, not it.
    let mut tmp = tempfile::Builder::new()
        .prefix(".locklab-export-")
        .suffix(".tmp")
        .permissions(std::fs::Permissions::from_mode(0o666))
        .tempfile_in(&dir)
        .map_err(|e| {
            let why = match e.kind() {
                std::io::ErrorKind::NotFound => format!("there is no folder {}", dir.display()),
                _ => format!("cannot create a file in {}: {}", dir.display(), plain(&e)),
            };
            std::io::Error::new(e.kind(), why)
        })?;
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

/// An I/O error's own words, without the path `tempfile` adds to them.
fn plain(e: &std::io::Error) -> String {
    match e.raw_os_error() {
        Some(code) => std::io::Error::from_raw_os_error(code).to_string(),
        None => e.kind().to_string(),
    }
}
