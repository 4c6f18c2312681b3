//! The progress file on disk: `progress.toml` in the data dir, guarded by `progress.lock`.
//!
//! - Every save is an atomic replace: a temporary file in the same folder is written, synced,
//!   renamed over the old file, and the folder is synced, so a crash leaves the old or the new
//!   file, never half of one. The file is readable by its owner only (0600).
//! - A file that does not parse (bad TOML, bad values, not UTF-8) is moved aside intact to
//!   `progress.toml.corrupt-<unix time>` and a fresh one is started. A file larger than
//!   [`PROGRESS_LIMIT`], or one that is not a regular file, is refused and left alone.
//! - A file from a newer locklab (higher `schema_version`) is left untouched: the store opens
//!   read-only. Older versions are migrated in memory and written back on the next save.
//! - A second locklab finds `progress.lock` locked (an advisory lock held as long as the store is
//!   open) and opens read-only. The lock is on a separate file because the rename replaces the
//!   data file's inode.
//! - Symbolic links in the data folder are never followed: a linked `progress.toml` or
//!   `progress.lock` opens the store read-only with nothing read through the link, and backups
//!   are created only under names nothing occupies.
//! - A folder that cannot be written (a read-only file system, no permission) opens read-only:
//!   the file is still read, so the summary and export work.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use super::error::{FileError, NoDataDir, ReadProgressError};
use super::file::{self, Parsed};
use super::{Progress, SCHEMA_VERSION};
use crate::quiz::sched::Time;
use crate::source::{Links, ReadError, read_text};

pub const FILE_NAME: &str = "progress.toml";
pub const LOCK_NAME: &str = "progress.lock";
const TEMP_PREFIX: &str = ".progress-";
/// The environment variable that overrides the platform data dir.
pub const ENV_DATA_DIR: &str = "LOCKLAB_DATA_DIR";
/// The largest progress file locklab reads: about two million answers.
pub const PROGRESS_LIMIT: u64 = 256 << 20;

/// Something the user should be told about how the file was opened.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Notice {
    /// The file did not parse; it was moved to `moved_to` and a fresh file started.
    Corrupt { moved_to: PathBuf, error: FileError },
    /// The file did not parse and another locklab holds it, so it was left where it is.
    CorruptLocked { error: FileError },
    /// Written by a newer locklab; left untouched, nothing will be saved.
    Newer { found: u32 },
    /// Another locklab has the file open; nothing will be saved.
    Locked,
    /// The lock could not be taken for another reason; nothing will be saved.
    LockFailed(String),
    /// The data folder cannot be written; the file is read, nothing will be saved.
    ReadOnlyFolder(String),
    /// A symbolic link where the file or its lock should be; it is not followed, nothing will be
    /// saved.
    Symlink { path: PathBuf },
    /// Migrated from an older layout; saved in the new one on the next write.
    Migrated { from: u32 },
}

#[derive(Debug)]
pub struct Store {
    dir: PathBuf,
    path: PathBuf,
    data: Progress,
    writable: bool,
    /// Held for the store's lifetime; dropping it releases the lock.
    _lock: Option<File>,
    pub notices: Vec<Notice>,
}

/// The data dir: `--data-dir`, else `$LOCKLAB_DATA_DIR`, else the platform's data dir
/// (`~/.local/share/locklab` on Linux).
pub fn resolve_dir(flag: Option<&Path>) -> Result<PathBuf, NoDataDir> {
    if let Some(p) = flag {
        return Ok(p.to_path_buf());
    }
    if let Some(v) = std::env::var_os(ENV_DATA_DIR).filter(|v| !v.is_empty()) {
        return Ok(PathBuf::from(v));
    }
    directories::ProjectDirs::from("", "", "locklab")
        .map(|d| d.data_dir().to_path_buf())
        .ok_or(NoDataDir)
}

fn create_dir(dir: &Path) -> io::Result<()> {
    use std::os::unix::fs::DirBuilderExt;
    fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(dir)
}

impl Store {
    /// Opens (or starts) the progress file in `dir`. `now` names a corrupt file's backup.
    pub fn open(dir: &Path, now: Time) -> io::Result<Store> {
        let path = dir.join(FILE_NAME);
        let mut notices = Vec::new();
        let mut lock = None;
        match create_dir(dir) {
            Ok(()) => lock = take_lock(dir, &mut notices),
            Err(e) if is_read_only(&e) => notices.push(Notice::ReadOnlyFolder(e.to_string())),
            Err(e) => return Err(e),
        }
        let mut writable = lock.is_some();
        if writable {
            remove_stale_temps(dir);
        }
        let store = |data, writable, lock, notices| Store {
            dir: dir.to_path_buf(),
            path: path.clone(),
            data,
            writable,
            _lock: lock,
            notices,
        };
        if is_symlink(&path) {
            notices.push(Notice::Symlink { path: path.clone() });
            return Ok(store(Progress::default(), false, lock, notices));
        }
        let parsed = match read_text(&path, PROGRESS_LIMIT, Links::Refuse) {
            Ok(text) => file::parse(&text),
            Err(ReadError::Io(e)) if e.kind() == io::ErrorKind::NotFound => {
                Ok(Parsed::Current(Progress::default()))
            }
            Err(ReadError::NotUtf8 { line, column, .. }) => {
                Err(FileError::NotUtf8 { line, column })
            }
            Err(ReadError::Io(e)) => {
                let problem = FileProblem(format!("{}: {e}", path.display()));
                return Err(io::Error::new(e.kind(), problem));
            }
            // A pipe, a folder, a file past the limit: input to fix, not a failure.
            Err(other) => {
                let problem = FileProblem(format!("{}: {other}", path.display()));
                return Err(io::Error::new(io::ErrorKind::InvalidInput, problem));
            }
        };
        let data = match parsed {
            Ok(Parsed::Current(p)) => p,
            Ok(Parsed::Migrated(p, from)) => {
                notices.push(Notice::Migrated { from });
                p
            }
            Ok(Parsed::Newer(found, p)) => {
                writable = false;
                notices.push(Notice::Newer { found });
                p.unwrap_or_default()
            }
            Err(error) if writable => {
                let moved_to = backup_path(dir, now);
                fs::rename(&path, &moved_to)?;
                sync_dir(dir)?;
                notices.push(Notice::Corrupt { moved_to, error });
                Progress::default()
            }
            Err(error) => {
                notices.push(Notice::CorruptLocked { error });
                Progress::default()
            }
        };
        Ok(store(data, writable, lock, notices))
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    pub fn is_writable(&self) -> bool {
        self.writable
    }

    pub fn data(&self) -> &Progress {
        &self.data
    }

    /// Changes made here reach the disk on the next [`Store::save`].
    pub fn data_mut(&mut self) -> &mut Progress {
        &mut self.data
    }

    /// Writes the file atomically. `Ok(false)` when the store is read-only.
    pub fn save(&mut self) -> io::Result<bool> {
        if !self.writable {
            return Ok(false);
        }
        self.data.schema_version = SCHEMA_VERSION;
        let text = file::to_text(&self.data).map_err(io::Error::other)?;
        // A link put in the file's place since it was opened is not silently replaced.
        if is_symlink(&self.path) {
            return Err(io::Error::other(format!(
                "{} has become a symbolic link; not replacing it",
                self.path.display()
            )));
        }
        write_atomic(&self.dir, &self.path, text.as_bytes())?;
        Ok(true)
    }

    /// Replaces the data with a fresh file, keeping the old one as `progress.toml.bak-<time>`.
    /// Returns the backup's path when there was a file to keep.
    pub fn reset(&mut self, now: Time) -> io::Result<Option<PathBuf>> {
        if !self.writable {
            return Err(io::Error::other("the progress file is read-only"));
        }
        let backup = if self.path.exists() {
            Some(copy_aside(
                &self.dir,
                &self.path,
                &format!("{FILE_NAME}.bak-{now}"),
            )?)
        } else {
            None
        };
        self.data = Progress::default();
        self.save()?;
        Ok(backup)
    }
}

/// The progress file itself, not its folder, could not be read: the message names the file.
#[derive(Debug)]
pub struct FileProblem(pub String);

impl std::fmt::Display for FileProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for FileProblem {}

/// Whether an error from [`Store::open`] is about the progress file rather than its folder.
pub fn is_file_problem(e: &io::Error) -> bool {
    e.get_ref().is_some_and(|r| r.is::<FileProblem>())
}

/// Reads another progress file (for `merge`), migrating an older layout. The file must be a
/// regular file of at most [`PROGRESS_LIMIT`] bytes.
pub fn read_progress(path: &Path) -> Result<Progress, ReadProgressError> {
    let path_buf = || path.to_path_buf();
    let text = read_text(path, PROGRESS_LIMIT, Links::Follow).map_err(|source| {
        ReadProgressError::Read {
            path: path_buf(),
            source,
        }
    })?;
    let parsed = file::parse(&text).map_err(|source| ReadProgressError::Parse {
        path: path_buf(),
        source,
    })?;
    match parsed {
        Parsed::Current(p) | Parsed::Migrated(p, _) => Ok(p),
        Parsed::Newer(found, _) => Err(ReadProgressError::Newer {
            path: path_buf(),
            found,
        }),
    }
}

/// Takes the advisory lock on `progress.lock`, never through a symbolic link. `None` (with a
/// notice saying why) when the store must open read-only.
fn take_lock(dir: &Path, notices: &mut Vec<Notice>) -> Option<File> {
    use std::os::unix::fs::OpenOptionsExt;
    let lock_path = dir.join(LOCK_NAME);
    if is_symlink(&lock_path) {
        notices.push(Notice::Symlink { path: lock_path });
        return None;
    }
    let opened = OpenOptions::new()
        .mode(0o600)
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .custom_flags(libc::O_NOFOLLOW)
        .open(&lock_path);
    let lock_file = match opened {
        Ok(f) => f,
        Err(e) if e.raw_os_error() == Some(libc::ELOOP) => {
            notices.push(Notice::Symlink { path: lock_path });
            return None;
        }
        Err(e) if is_read_only(&e) => {
            notices.push(Notice::ReadOnlyFolder(e.to_string()));
            return None;
        }
        Err(e) => {
            notices.push(Notice::LockFailed(e.to_string()));
            return None;
        }
    };
    match lock_file.try_lock() {
        Ok(()) => Some(lock_file),
        Err(fs::TryLockError::WouldBlock) => {
            notices.push(Notice::Locked);
            None
        }
        Err(fs::TryLockError::Error(e)) => {
            notices.push(Notice::LockFailed(e.to_string()));
            None
        }
    }
}

/// An error that means the folder cannot be written, as opposed to something being wrong.
fn is_read_only(e: &io::Error) -> bool {
    matches!(
        e.raw_os_error(),
        Some(libc::EROFS) | Some(libc::EACCES) | Some(libc::EPERM)
    )
}

fn is_symlink(path: &Path) -> bool {
    fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink())
}

/// Copies `from` to a new file `dir/name` (or `name-2`, ...), never writing through a link that
/// happens to sit at one of those names, and syncs it.
fn copy_aside(dir: &Path, from: &Path, name: &str) -> io::Result<PathBuf> {
    use std::os::unix::fs::OpenOptionsExt;
    let mut source = OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW)
        .open(from)?;
    for n in 1..1000 {
        let to = if n == 1 {
            dir.join(name)
        } else {
            dir.join(format!("{name}-{n}"))
        };
        // `create_new` fails on any existing name, a dangling link included.
        let created = OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o600)
            .open(&to);
        match created {
            Ok(mut out) => {
                io::copy(&mut source, &mut out)?;
                out.sync_all()?;
                return Ok(to);
            }
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
    Err(io::Error::other(format!("no free backup name for {name}")))
}

fn backup_path(dir: &Path, now: Time) -> PathBuf {
    unique(dir, &format!("{FILE_NAME}.corrupt-{now}"))
}

/// `dir/name`, or `dir/name-2`, `-3` ... when taken (by anything, a dangling link included).
fn unique(dir: &Path, name: &str) -> PathBuf {
    let free = |p: &PathBuf| fs::symlink_metadata(p).is_err();
    let first = dir.join(name);
    if free(&first) {
        return first;
    }
    (2..)
        .map(|n| dir.join(format!("{name}-{n}")))
        .find(free)
        .unwrap_or(first)
}

/// Replaces the file `name` in the data folder `dir` with `bytes`, atomically, for any small
/// file kept beside the progress file (the reading positions): the folder is created private
/// (0700), the file is private (0600), and a symbolic link at the name is refused rather than
/// replaced. A temporary file left by a crash is cleared by the next store that takes the lock.
pub fn write_in_data_dir(dir: &Path, name: &str, bytes: &[u8]) -> io::Result<()> {
    create_dir(dir)?;
    let path = dir.join(name);
    if is_symlink(&path) {
        return Err(io::Error::other(format!(
            "{} is a symbolic link; locklab does not follow links in its data folder",
            path.display()
        )));
    }
    write_atomic(dir, &path, bytes)
}

/// Reads the file `name` in the data folder `dir`: `None` when it is missing, a link, not a
/// regular file, larger than `limit` or not UTF-8.
pub fn read_in_data_dir(dir: &Path, name: &str, limit: u64) -> Option<String> {
    read_text(&dir.join(name), limit, Links::Refuse).ok()
}

/// Writes `bytes` to `path` so that a crash at any moment leaves either the old or the new file.
pub fn write_atomic(dir: &Path, path: &Path, bytes: &[u8]) -> io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    let mut tmp = tempfile::Builder::new()
        .prefix(TEMP_PREFIX)
        .suffix(".tmp")
        .tempfile_in(dir)?;
    tmp.as_file()
        .set_permissions(fs::Permissions::from_mode(0o600))?;
    tmp.write_all(bytes)?;
    tmp.as_file().sync_all()?;
    tmp.persist(path).map_err(|e| e.error)?;
    sync_dir(dir)
}

/// Removes temporary files left by a locklab killed in the middle of a save. Only called with
/// the lock held, so no other locklab is writing one.
fn remove_stale_temps(dir: &Path) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let name = e.file_name();
        let name = name.to_string_lossy();
        if name.starts_with(TEMP_PREFIX) && name.ends_with(".tmp") {
            // Best effort: a temp file that cannot be removed does no harm.
            let _ = fs::remove_file(e.path());
        }
    }
}

fn sync_dir(dir: &Path) -> io::Result<()> {
    File::open(dir)?.sync_all()
}
