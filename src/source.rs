//! Where content comes from: the copy embedded in the binary, or a folder given with `--content`.

use std::borrow::Cow;
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
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum Source {
    #[default]
    Embedded,
    /// A folder laid out like the repository: `content/`, `quizzes/`, `assets/`.
    Dir(PathBuf),
}

impl Source {
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
            let text = std::fs::read_to_string(&path)?;
            out.push(SourceFile {
                rel,
                display: path.display().to_string(),
                text: Cow::Owned(text),
            });
        }
    }
    Ok(())
}
