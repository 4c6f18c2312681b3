//! The progress file on disk: `progress.toml` in the data dir, guarded by `progress.lock`.
//!
//! - Every save is an atomic replace: a temporary file in the same folder is written, synced,
//!   renamed over the old file, and the folder is synced, so a crash leaves the old or the new
//!   file, never half of one. The file is readable by its owner only (0600).
//! - A file that does not parse is moved aside to `progress.toml.corrupt-<unix time>` and a fresh
//!   one is started.
//! - A file from a newer locklab (higher `schema_version`) is left untouched: the store opens
//!   read-only. Older versions are migrated in memory and written back on the next save.
//! - A second locklab finds `progress.lock` locked (an advisory lock held as long as the store is
//!   open) and opens read-only. The lock is on a separate file because the rename replaces the
//!   data file's inode.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use super::{Progress, SCHEMA_VERSION};
use crate::quiz::sched::Time;

pub const FILE_NAME: &str = "progress.toml";
pub const LOCK_NAME: &str = "progress.lock";
const TEMP_PREFIX: &str = ".progress-";
/// The environment variable that overrides the platform data dir.
pub const ENV_DATA_DIR: &str = "LOCKLAB_DATA_DIR";

/// Something the user should be told about how the file was opened.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Notice {
    /// The file did not parse; it was moved to `moved_to` and a fresh file started.
    Corrupt { moved_to: PathBuf, error: String },
    /// The file did not parse and another locklab holds it, so it was left where it is.
    CorruptLocked { error: String },
    /// Written by a newer locklab; left untouched, nothing will be saved.
    Newer { found: u32 },
    /// Another locklab has the file open; nothing will be saved.
    Locked,
    /// The lock could not be taken for another reason; nothing will be saved.
    LockFailed(String),
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
pub fn resolve_dir(flag: Option<&Path>) -> Result<PathBuf, String> {
    if let Some(p) = flag {
        return Ok(p.to_path_buf());
    }
    if let Some(v) = std::env::var_os(ENV_DATA_DIR).filter(|v| !v.is_empty()) {
        return Ok(PathBuf::from(v));
    }
    directories::ProjectDirs::from("", "", "locklab")
        .map(|d| d.data_dir().to_path_buf())
        .ok_or_else(|| {
            format!("cannot find a home folder for the progress file; set {ENV_DATA_DIR} or pass --data-dir")
        })
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
        create_dir(dir)?;
        let path = dir.join(FILE_NAME);
        let mut notices = Vec::new();
        use std::os::unix::fs::OpenOptionsExt;
        let lock_file = OpenOptions::new()
            .mode(0o600)
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(dir.join(LOCK_NAME))?;
        let lock = match lock_file.try_lock() {
            Ok(()) => Some(lock_file),
            Err(fs::TryLockError::WouldBlock) => {
                notices.push(Notice::Locked);
                None
            }
            Err(fs::TryLockError::Error(e)) => {
                notices.push(Notice::LockFailed(e.to_string()));
                None
            }
        };
        let mut writable = lock.is_some();
        if writable {
            remove_stale_temps(dir);
        }
        let data = match fs::read_to_string(&path) {
            Err(e) if e.kind() == io::ErrorKind::NotFound => Progress::default(),
            Err(e) => return Err(e),
            Ok(text) => match parse(&text) {
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
            },
        };
        Ok(Store {
            dir: dir.to_path_buf(),
            path,
            data,
            writable,
            _lock: lock,
            notices,
        })
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
        let text = toml::to_string(&self.data).map_err(io::Error::other)?;
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
            let to = unique(&self.dir, &format!("{FILE_NAME}.bak-{now}"));
            fs::copy(&self.path, &to)?;
            File::open(&to)?.sync_all()?;
            Some(to)
        } else {
            None
        };
        self.data = Progress::default();
        self.save()?;
        Ok(backup)
    }
}

/// Reads another progress file (for `merge`), migrating an older layout.
pub fn read_progress(path: &Path) -> Result<Progress, String> {
    let text = fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    match parse(&text).map_err(|e| format!("{}: {e}", path.display()))? {
        Parsed::Current(p) | Parsed::Migrated(p, _) => Ok(p),
        Parsed::Newer(v, _) => Err(format!(
            "{}: written by a newer locklab (schema_version {v})",
            path.display()
        )),
    }
}

enum Parsed {
    Current(Progress),
    Migrated(Progress, u32),
    /// A newer layout; its data when it happens to read as ours.
    Newer(u32, Option<Progress>),
}

fn parse(text: &str) -> Result<Parsed, String> {
    let table: toml::Table = text.parse().map_err(|e: toml::de::Error| e.to_string())?;
    let version = match table.get("schema_version") {
        None => 0,
        Some(toml::Value::Integer(v)) => {
            u32::try_from(*v).map_err(|_| format!("schema_version {v} is out of range"))?
        }
        Some(_) => return Err("schema_version must be a whole number".into()),
    };
    if version > SCHEMA_VERSION {
        let p = toml::Value::Table(table).try_into().ok();
        return Ok(Parsed::Newer(version, p));
    }
    let migrated = migrate(table, version)?;
    let p: Progress = toml::Value::Table(migrated)
        .try_into()
        .map_err(|e: toml::de::Error| e.to_string())?;
    Ok(if version == SCHEMA_VERSION {
        Parsed::Current(p)
    } else {
        Parsed::Migrated(p, version)
    })
}

/// Brings a table written with layout `from` up to [`SCHEMA_VERSION`], one step at a time.
fn migrate(mut t: toml::Table, from: u32) -> Result<toml::Table, String> {
    let mut v = from;
    while v < SCHEMA_VERSION {
        match v {
            // Version 0: files from before the version key; the rest of the layout is the same.
            0 => {
                t.insert("schema_version".into(), toml::Value::Integer(1));
            }
            _ => return Err(format!("no migration from schema_version {v}")),
        }
        v += 1;
    }
    Ok(t)
}

fn backup_path(dir: &Path, now: Time) -> PathBuf {
    unique(dir, &format!("{FILE_NAME}.corrupt-{now}"))
}

/// `dir/name`, or `dir/name-2`, `-3` ... when taken.
fn unique(dir: &Path, name: &str) -> PathBuf {
    let first = dir.join(name);
    if !first.exists() {
        return first;
    }
    (2..)
        .map(|n| dir.join(format!("{name}-{n}")))
        .find(|p| !p.exists())
        .unwrap_or(first)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn migration_from_version_0_adds_the_key() {
        let p = match parse("answers = []\n") {
            Ok(Parsed::Migrated(p, 0)) => p,
            _ => panic!("expected a migration"),
        };
        assert_eq!(p.schema_version, SCHEMA_VERSION);
    }

    #[test]
    fn garbage_and_bad_versions_are_errors() {
        assert!(parse("answers = [").is_err());
        assert!(parse("schema_version = \"one\"").is_err());
        assert!(parse("schema_version = -1").is_err());
        assert!(matches!(
            parse("schema_version = 99\nanswers = 3"),
            Ok(Parsed::Newer(99, None))
        ));
    }
}
