//! Where content comes from: the copy embedded in the binary, or a folder given with `--content`,
//! and the one way locklab reads a user's file: regular files only, up to a size, as UTF-8.

use std::borrow::Cow;
use std::fmt;
use std::io::Read;
use std::path::{Path, PathBuf};

mod embedded {
    include!(concat!(env!("OUT_DIR"), "/embedded.rs"));
}

/// One content file: the path to show in messages, and its text.
#[derive(Debug, Clone)]
pub struct SourceFile {
    /// Relative to the content root (`assets/scenarios/chain.toml`).
    pub rel: String,
    /// What to call the file in an error message.
    pub display: String,
    pub text: Cow<'static, str>,
    /// Why the file could not be read as text (its text is then empty): kept with the file, so
    /// one bad file is a problem of that file, not of the whole folder.
    pub unreadable: Option<Unreadable>,
}

/// Where and why a content file is not readable text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unreadable {
    /// 1-based; 0 when the problem concerns the file as a whole.
    pub line: usize,
    pub column: usize,
    pub message: String,
}

/// A `--content` folder locklab cannot read from: input the user can fix.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ContentDirError {
    #[error("content folder {0} does not exist or is not a folder")]
    NotAFolder(String),
    #[error("content folder {dir} has {}", missing.join(", "))]
    Lacking { dir: String, missing: Vec<String> },
}

impl From<ContentDirError> for crate::error::UserError {
    fn from(e: ContentDirError) -> Self {
        Self::usage(e.to_string())
    }
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum Source {
    #[default]
    Embedded,
    /// A folder laid out like the repository: `content/`, `quizzes/`, `assets/`.
    Dir(PathBuf),
}

impl Source {
    /// The folder given with `--content`, once it is known to hold what locklab reads: lessons,
    /// quiz decks and presets. A folder that does not exist, or lacks any of them, is an error
    /// naming what is missing, so a mistyped path is not taken for empty content.
    pub fn from_dir(dir: PathBuf) -> Result<Source, ContentDirError> {
        if !dir.is_dir() {
            return Err(ContentDirError::NotAFolder(dir.display().to_string()));
        }
        let shown = dir.display().to_string();
        let source = Source::Dir(dir);
        let parts = [
            (
                "content",
                "md",
                "no lessons (content/zh/*.md, content/en/*.md)",
            ),
            ("quizzes", "toml", "no quiz decks (quizzes/*.toml)"),
            (
                "assets/scenarios",
                "toml",
                "no presets (assets/scenarios/*.toml)",
            ),
        ];
        let mut missing = Vec::new();
        for (folder, ext, what) in parts {
            match source.files(folder, ext) {
                Ok(files) if files.is_empty() => missing.push(what.to_string()),
                Ok(_) => {}
                Err(e) => missing.push(format!("{what}: {e}")),
            }
        }
        if missing.is_empty() {
            Ok(source)
        } else {
            Err(ContentDirError::Lacking {
                dir: shown,
                missing,
            })
        }
    }

    /// The files directly or indirectly under `folder` whose names end with `.ext`, sorted.
    pub fn files(&self, folder: &str, ext: &str) -> std::io::Result<Vec<SourceFile>> {
        let suffix = format!(".{ext}");
        match self {
            Source::Embedded => Ok(embedded::FILES
                .iter()
                .filter(|(rel, _)| rel.starts_with(folder) && rel.ends_with(&suffix))
                .map(|(rel, text)| SourceFile {
                    rel: rel.to_string(),
                    display: rel.to_string(),
                    text: Cow::Borrowed(text),
                    unreadable: None,
                })
                .collect()),
            Source::Dir(root) => {
                let mut out = Vec::new();
                collect(root, &root.join(folder), &suffix, &mut out)?;
                out.sort_by(|a, b| a.rel.cmp(&b.rel));
                Ok(out)
            }
        }
    }
}

fn collect(
    root: &Path,
    dir: &Path,
    suffix: &str,
    out: &mut Vec<SourceFile>,
) -> std::io::Result<()> {
    let entries = match std::fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(e),
    };
    for entry in entries {
        let path = entry?.path();
        if path.is_dir() {
            collect(root, &path, suffix, out)?;
        } else if path.to_string_lossy().ends_with(suffix) {
            let rel = path
                .strip_prefix(root)
                .unwrap_or(&path)
                .to_string_lossy()
                .replace('\\', "/");
            let (text, unreadable) = match read_text(&path, CONTENT_LIMIT, Links::Follow) {
                Ok(text) => (text, None),
                Err(ReadError::NotUtf8 { line, column, .. }) => {
                    let message = "not valid UTF-8 text".to_string();
                    (
                        String::new(),
                        Some(Unreadable {
                            line,
                            column,
                            message,
                        }),
                    )
                }
                Err(e) => {
                    let message = format!("cannot read: {e}");
                    let u = Unreadable {
                        line: 0,
                        column: 0,
                        message,
                    };
                    (String::new(), Some(u))
                }
            };
            out.push(SourceFile {
                rel,
                display: path.display().to_string(),
                text: Cow::Owned(text),
                unreadable,
            });
        }
    }
    Ok(())
}

/// The most a lesson, deck, glossary or scenario file may hold.
pub const CONTENT_LIMIT: u64 = 4 << 20;

/// The most one line of standard input may hold: the same as a file.
pub const LINE_LIMIT: u64 = CONTENT_LIMIT;

/// A line of input longer than the limit: its bytes are not kept.
#[derive(Debug)]
pub struct LineTooLong {
    pub limit: u64,
}

impl fmt::Display for LineTooLong {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "a line of input is longer than {} MiB, the most locklab reads",
            self.limit >> 20
        )
    }
}

impl std::error::Error for LineTooLong {}

/// Reads one line (its newline included) holding at most `limit` bytes, the one way locklab
/// reads standard input: `None` at the end of input, an error wrapping [`LineTooLong`] past the
/// limit, so endless input without a newline (`< /dev/zero`) cannot exhaust memory.
pub fn read_line(
    input: &mut impl std::io::BufRead,
    limit: u64,
) -> std::io::Result<Option<Vec<u8>>> {
    use std::io::{BufRead, Read};
    let mut bytes = Vec::new();
    let n = input
        .by_ref()
        .take(limit + 1)
        .read_until(b'\n', &mut bytes)?;
    if n == 0 {
        return Ok(None);
    }
    let body = bytes.len() - usize::from(bytes.ends_with(b"\n"));
    if body as u64 > limit {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            LineTooLong { limit },
        ));
    }
    Ok(Some(bytes))
}

/// Whether an input error is a line past the limit (bad input, not a failure).
pub fn is_line_too_long(e: &std::io::Error) -> bool {
    e.get_ref().is_some_and(|r| r.is::<LineTooLong>())
}

/// Why a file could not be read as text.
#[derive(Debug)]
pub enum ReadError {
    Io(std::io::Error),
    /// A folder, device, pipe or socket: reading it could block or never end.
    NotRegular,
    /// A symbolic link where locklab does not follow one.
    Symlink,
    TooLarge {
        limit: u64,
    },
    /// Not UTF-8: the place of the first bad byte, and the text before it.
    NotUtf8 {
        line: usize,
        column: usize,
        valid: String,
    },
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadError::Io(e) => write!(f, "{e}"),
            ReadError::NotRegular => write!(f, "not a regular file"),
            ReadError::Symlink => write!(f, "a symbolic link, which locklab does not follow here"),
            ReadError::TooLarge { limit } => {
                write!(f, "larger than {} MiB, the most locklab reads", limit >> 20)
            }
            ReadError::NotUtf8 { line, column, .. } => {
                write!(f, "line {line}, column {column}: not valid UTF-8 text")
            }
        }
    }
}

impl std::error::Error for ReadError {}

impl From<std::io::Error> for ReadError {
    fn from(e: std::io::Error) -> Self {
        ReadError::Io(e)
    }
}

/// Whether a symbolic link at the path itself is followed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Links {
    Follow,
    Refuse,
}

/// Reads a regular file of at most `limit` bytes as UTF-8. A pipe or device is refused without
/// blocking on it, and a file that grows while it is read stops at the limit.
pub fn read_text(path: &Path, limit: u64, links: Links) -> Result<String, ReadError> {
    use std::os::unix::fs::OpenOptionsExt;
    let mut flags = libc::O_NONBLOCK;
    if links == Links::Refuse {
        flags |= libc::O_NOFOLLOW;
    }
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(flags)
        .open(path)
        .map_err(|e| match e.raw_os_error() {
            Some(libc::ELOOP) if links == Links::Refuse => ReadError::Symlink,
            _ => ReadError::Io(e),
        })?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(ReadError::NotRegular);
    }
    if meta.len() > limit {
        return Err(ReadError::TooLarge { limit });
    }
    let mut bytes = Vec::with_capacity(usize::try_from(meta.len()).unwrap_or(0));
    file.take(limit + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(ReadError::TooLarge { limit });
    }
    String::from_utf8(bytes).map_err(|e| {
        let good = e.utf8_error().valid_up_to();
        let mut bytes = e.into_bytes();
        bytes.truncate(good);
        let valid = String::from_utf8(bytes).unwrap_or_default();
        let (line, column) = crate::toml_place::line_col(&valid, good);
        ReadError::NotUtf8 {
            line,
            column,
            valid,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_of_exactly_the_limit_is_read_and_one_byte_more_refused() {
        let mut ok = std::io::Cursor::new(b"abcd\nrest".to_vec());
        assert_eq!(
            read_line(&mut ok, 4).ok().flatten(),
            Some(b"abcd\n".to_vec())
        );
        assert_eq!(read_line(&mut ok, 4).ok().flatten(), Some(b"rest".to_vec()));
        assert_eq!(read_line(&mut ok, 4).ok(), Some(None), "then the end");
        let mut long = std::io::Cursor::new(b"abcde\n".to_vec());
        let e = read_line(&mut long, 4).expect_err("five bytes are past a limit of four");
        assert!(is_line_too_long(&e), "{e}");
    }

    #[test]
    fn endless_input_without_a_newline_stops_at_the_limit() {
        let mut zeros = std::io::BufReader::new(std::io::repeat(0));
        let e = read_line(&mut zeros, LINE_LIMIT).expect_err("refused");
        assert!(is_line_too_long(&e));
        assert!(e.to_string().contains("longer than 4 MiB"), "{e}");
    }
}
