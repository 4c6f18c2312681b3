//! The text of `progress.toml`: read one record at a time, written in the same layout.
//!
//! A long history is mostly `[[answers]]` tables. Parsing the whole document at once builds a
//! tree of every key and value first, several times the size of the data; instead the top-level
//! headers are found with the TOML lexer, each `[[answers]]` and `[[sessions]]` table is parsed
//! on its own, and the rest (the version, the cards, keys this build does not know) is parsed
//! as one small document. A file laid out any other way (say, `answers = [ ... ]` inline, or a
//! sub-table of an answer) is parsed whole, which gives the same result at a higher cost.
//!
//! Errors give the line, column and key path in the file (`answers[3].score`) and quote the
//! line, clipped and with control characters made visible.

use std::collections::BTreeMap;
use std::ops::Range;

use serde::{Deserialize, Serialize};

use super::compact::{Extra, Interner};
use super::error::{FileError, Placed};
use super::{Answer, Progress, SCHEMA_VERSION, SessionRecord, Unknown};
use crate::quiz::sched::Card;

/// How a file's text read.
#[derive(Debug)]
pub enum Parsed {
    Current(Progress),
    Migrated(Progress, u32),
    /// A newer layout; its data when it happens to read as ours.
    Newer(u32, Option<Progress>),
}

/// A card and the keys of it this build does not know.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct CardRecord {
    #[serde(flatten)]
    card: Card,
    #[serde(flatten, default, skip_serializing_if = "Extra::is_empty")]
    extra: Extra,
}

/// Everything but the records parsed one at a time (or, for an unusual layout, everything).
#[derive(Debug, Deserialize)]
struct Root {
    #[serde(default)]
    #[allow(dead_code)] // Read beforehand, from the untyped table.
    schema_version: Option<toml::Value>,
    #[serde(default)]
    answers: Vec<Answer>,
    #[serde(default)]
    cards: BTreeMap<String, CardRecord>,
    #[serde(default)]
    sessions: Vec<SessionRecord>,
    #[serde(flatten, default)]
    extra: Extra,
}

/// Where the pieces of the root document came from in the file, to place its errors.
struct Pieces {
    text: String,
    /// (offset in `text`, offset in the file) at the start of each piece.
    starts: Vec<(usize, usize)>,
}

impl Pieces {
    fn file_offset(&self, at: usize) -> usize {
        let i = self
            .starts
            .partition_point(|(r, _)| *r <= at)
            .saturating_sub(1);
        self.starts.get(i).map_or(at, |(r, f)| f + (at - r))
    }
}

/// The file split at its top-level headers.
struct Layout {
    root: Pieces,
    answers: Vec<Range<usize>>,
    sessions: Vec<Range<usize>>,
}

/// Splits `text` into the records and the rest, or `None` when its layout needs a whole parse.
fn split(text: &str) -> Option<Layout> {
    let mut root = Pieces {
        text: String::new(),
        starts: Vec::new(),
    };
    let mut answers = Vec::new();
    let mut sessions = Vec::new();
    let mut whole = false;
    // The header being read, and what its section is: a record list or the root.
    let mut open: Option<(usize, Option<bool>)> = None;
    let mut close = |open: Option<(usize, Option<bool>)>, next: usize, root: &mut Pieces| {
        let (start, record) = open.unwrap_or((0, None));
        match record {
            Some(true) => answers.push(start..next),
            Some(false) => sessions.push(start..next),
            None => {
                root.starts.push((root.text.len(), start));
                root.text.push_str(&text[start..next]);
                root.text.push('\n');
            }
        }
    };
    let mut first = true;
    crate::toml_place::each_header(text, |h| {
        // The text before the first header is the root's; each later section ends here.
        if std::mem::take(&mut first) || open.is_some() {
            close(open.take(), h.line_start, &mut root);
        }
        let record = match h.keys.first().map(String::as_str) {
            Some("answers") => Some(true),
            Some("sessions") => Some(false),
            _ => None,
        };
        open = match record {
            Some(r) if h.array && h.keys.len() == 1 => Some((h.end, Some(r))),
            // `[answers.x]`, `[answers]` or `[[sessions.y]]`: only a whole parse reads it right.
            Some(_) => {
                whole = true;
                None
            }
            None => Some((h.line_start, None)),
        };
    });
    if whole {
        return None;
    }
    if first || open.is_some() {
        close(open, text.len(), &mut root);
    }
    Some(Layout {
        root,
        answers,
        sessions,
    })
}

/// A parse error at `offset` of the file, with its key path and the line quoted.
fn located(file: &str, offset: usize, key: Option<&str>, message: &str) -> FileError {
    let (line, column) = crate::toml_place::line_col(file, offset);
    let start = file[..offset.min(file.len())]
        .rfind('\n')
        .map_or(0, |i| i + 1);
    let quoted = file[start..].lines().next().unwrap_or("").trim();
    let quoted = crate::text::printable(quoted, false);
    FileError::Syntax(Placed {
        line,
        column,
        key: key.map(|k| crate::text::printable(k, false).into_owned()),
        message: crate::text::printable(message.trim(), false).into_owned(),
        quoted: crate::text::clip(&quoted, 80).to_string(),
    })
}

/// Parses `text` (a part of `file` starting at `base`) as `T`, placing errors in the file.
/// `prefix` is the key path of the part (`answers[3]`); `file_offset` maps a part offset.
fn parse_part<T: serde::de::DeserializeOwned>(
    file: &str,
    text: &str,
    prefix: Option<&str>,
    file_offset: impl Fn(usize) -> usize,
) -> Result<T, FileError> {
    toml::from_str(text).map_err(|e| {
        let (span, key) = crate::toml_place::toml_error_place(text, &e);
        let key = match (prefix, key) {
            (Some(p), Some(k)) => Some(format!("{p}.{k}")),
            (Some(p), None) => Some(p.to_string()),
            (None, k) => k,
        };
        located(file, file_offset(span.start), key.as_deref(), e.message())
    })
}

/// The `schema_version` of a top-level table; 0 for files from before the key.
fn version(table: &toml::Table) -> Result<u32, FileError> {
    match table.get("schema_version") {
        None => Ok(0),
        Some(toml::Value::Integer(v)) => {
            u32::try_from(*v).map_err(|_| FileError::VersionOutOfRange(*v))
        }
        Some(_) => Err(FileError::VersionNotWhole),
    }
}

/// Reads a progress file's text.
pub fn parse(file: &str) -> Result<Parsed, FileError> {
    let layout = split(file);
    let (root_text, offset_of): (&str, Box<dyn Fn(usize) -> usize>) = match &layout {
        Some(l) => (&l.root.text, Box::new(|at| l.root.file_offset(at))),
        None => (file, Box::new(|at| at)),
    };
    // The version first, from the untyped table, so a newer layout is never taken for damage.
    let table: toml::Table = toml::from_str(root_text).map_err(|e: toml::de::Error| {
        let (span, key) = crate::toml_place::toml_error_place(root_text, &e);
        located(file, offset_of(span.start), key.as_deref(), e.message())
    })?;
    let found = version(&table)?;
    drop(table);
    let read = || -> Result<Progress, FileError> {
        let root: Root = parse_part(file, root_text, None, &offset_of)?;
        let mut names = Interner::default();
        let mut p = Progress {
            schema_version: SCHEMA_VERSION,
            answers: root.answers,
            cards: BTreeMap::new(),
            sessions: root.sessions,
            unknown: Unknown::default(),
        };
        if let Some(l) = &layout {
            if !p.answers.is_empty() && !l.answers.is_empty() {
                return Err(FileError::GivenTwice("answers"));
            }
            if !p.sessions.is_empty() && !l.sessions.is_empty() {
                return Err(FileError::GivenTwice("sessions"));
            }
            p.answers.reserve_exact(l.answers.len());
            for (i, r) in l.answers.iter().enumerate() {
                let at = r.start;
                let prefix = format!("answers[{i}]");
                let mut a: Answer = parse_part(file, &file[r.clone()], Some(&prefix), |o| at + o)?;
                // Shared at once, so a million answers never hold a million copies of ids.
                a.question = names.intern(std::mem::take(&mut a.question));
                a.deck = names.intern(std::mem::take(&mut a.deck));
                p.answers.push(a);
            }
            for (i, r) in l.sessions.iter().enumerate() {
                let at = r.start;
                let prefix = format!("sessions[{i}]");
                p.sessions
                    .push(parse_part(file, &file[r.clone()], Some(&prefix), |o| {
                        at + o
                    })?);
            }
        }
        for a in &mut p.answers {
            a.question = names.intern(std::mem::take(&mut a.question));
            a.deck = names.intern(std::mem::take(&mut a.deck));
        }
        for (id, c) in root.cards {
            if !c.extra.is_empty() {
                p.unknown.cards.insert(id.clone(), c.extra);
            }
            p.cards.insert(id, c.card);
        }
        p.unknown.top = root.extra;
        Ok(p)
    };
    if found > SCHEMA_VERSION {
        return Ok(Parsed::Newer(found, read().ok()));
    }
    let p = migrate(read()?, found)?;
    p.validate()?;
    Ok(if found == SCHEMA_VERSION {
        Parsed::Current(p)
    } else {
        Parsed::Migrated(p, found)
    })
}

/// Brings data read from layout `from` up to [`SCHEMA_VERSION`], one step at a time.
fn migrate(mut p: Progress, from: u32) -> Result<Progress, FileError> {
    let mut v = from;
    while v < SCHEMA_VERSION {
        match v {
            // Version 0: files from before the version key; the rest of the layout is the same.
            0 => {}
            _ => return Err(FileError::NoMigration(v)),
        }
        v += 1;
    }
    p.schema_version = SCHEMA_VERSION;
    Ok(p)
}

/// The file's text: the version, the cards and unknown top-level keys, then one table per
/// answer and per session.
pub fn to_text(p: &Progress) -> Result<String, toml::ser::Error> {
    #[derive(Serialize)]
    struct RootOut<'a> {
        schema_version: u32,
        cards: BTreeMap<&'a str, CardRecord>,
        #[serde(flatten)]
        extra: &'a Extra,
    }
    #[derive(Serialize)]
    struct OneAnswer<'a> {
        answers: [&'a Answer; 1],
    }
    #[derive(Serialize)]
    struct OneSession<'a> {
        sessions: [&'a SessionRecord; 1],
    }
    let cards = p
        .cards
        .iter()
        .map(|(id, card)| {
            let extra = p.unknown.cards.get(id).cloned().unwrap_or_default();
            (id.as_str(), CardRecord { card: *card, extra })
        })
        .collect();
    let mut out = toml::to_string(&RootOut {
        schema_version: p.schema_version,
        cards,
        extra: &p.unknown.top,
    })?;
    for a in &p.answers {
        out.push('\n');
        out.push_str(&toml::to_string(&OneAnswer { answers: [a] })?);
    }
    for s in &p.sessions {
        out.push('\n');
        out.push_str(&toml::to_string(&OneSession { sessions: [s] })?);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn migration_from_version_0_adds_the_key() {
        let p = match parse("answers = []\n") {
            Ok(Parsed::Migrated(p, 0)) => p,
            other => panic!("expected a migration, got {other:?}"),
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

    const ANSWER: &str = "at = 1\nquestion = \"q\"\ndeck = \"d\"\nkind = \"model\"\nscore = 1\n\
                          max = 1\nrating = \"good\"\n";

    #[test]
    fn errors_in_a_record_name_the_file_line_and_key_path() {
        let text = format!(
            "schema_version = 1\n\n[[answers]]\n{ANSWER}\n[[answers]]\n{}",
            ANSWER.replace("score = 1", "score = \"x\u{1b}[31m\"")
        );
        let e = parse(&text).unwrap_err().to_string();
        assert!(
            e.starts_with("line 17, column 11, `answers[1].score`: invalid basic string"),
            "{e}"
        );
        assert!(e.contains("(the line reads: score = \"x␛[31m\")"), "{e}");
        assert!(!e.contains('\u{1b}'));
        let e = parse(&text.replace("\u{1b}[31m", ""))
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("line 17, column 9, `answers[1].score`: invalid type: string \"x\""),
            "{e}"
        );
    }

    #[test]
    fn the_split_and_the_whole_parse_agree() {
        let text = format!(
            "schema_version = 1\nfuture = \"kept\"\n[cards.q]\nstability = 1.0\ndifficulty = 5.0\n\
             due = 10\nlast_review = 1\nreps = 1\nshade = \"blue\"\n\n[[answers]]\n{ANSWER}\
             note = \"\"\"\n[[answers]]\n\"\"\"\nmood = 2\n\n[[sessions]]\nstarted = 1\nended = 2\n\
             questions = 1\nanswered = 1\nscore = 1\nmax = 1\n[settings]\nx = 1\n"
        );
        assert!(split(&text).is_some());
        let Ok(Parsed::Current(p)) = parse(&text) else {
            panic!("{:?}", parse(&text))
        };
        assert_eq!(p.answers.len(), 1);
        assert_eq!(p.answers[0].note, "[[answers]]\n");
        assert_eq!(p.answers[0].extra.keys(), ["mood"]);
        assert_eq!(p.sessions.len(), 1);
        assert_eq!(p.unknown.top.keys(), ["future", "settings"]);
        assert_eq!(p.unknown.cards["q"].keys(), ["shade"]);
        // Written and read again, every unknown key is still there.
        let again = to_text(&p).unwrap();
        let Ok(Parsed::Current(q)) = parse(&again) else {
            panic!("{again}")
        };
        assert_eq!(p, q, "{again}");
        // An answer with a sub-table needs the whole parse, and gets the same answer.
        let sub = text.replace("mood = 2\n", "mood = 2\n[answers.meta]\nby = \"hand\"\n");
        assert!(split(&sub).is_none());
        let Ok(Parsed::Current(r)) = parse(&sub) else {
            panic!("{:?}", parse(&sub))
        };
        assert_eq!(r.answers[0].extra.keys(), ["meta", "mood"]);
        let again = to_text(&r).unwrap();
        let Ok(Parsed::Current(s)) = parse(&again) else {
            panic!("{again}")
        };
        assert_eq!(r, s, "{again}");
    }
}
