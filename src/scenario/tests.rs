//! Scenario files read as a user writes them: good ones, and mistakes placed at their key.

use super::parse;
use crate::engine::params::{Fault, Params, WatchMode};
use crate::toml_place::line_col;

const ABOUT: &str = "[about]\nzh = \"说明\"\nen = \"About\"\n";

#[test]
fn errors_name_the_file_line_column_and_key() {
    let text = format!("family = \"frozen\"\n{ABOUT}[params]\nttl = 45\n");
    let err = parse("x", "my.toml", &text).unwrap_err();
    assert_eq!((err.line, err.column), (6, 7));
    assert_eq!(err.key.as_deref(), Some("ttl"));
    assert_eq!(
        err.to_string(),
        "my.toml:6:7: `ttl`: ttl must be 1 to 30 s (got 45)"
    );

    let text = format!("family = \"frozen\"\n{ABOUT}[params]\ncolour = 1\n");
    let err = parse("x", "my.toml", &text).unwrap_err();
    assert!(
        err.to_string().contains("valid parameters: ttl, keepalive"),
        "{err}"
    );

    let text = format!("family = \"frozen\"\n{ABOUT}[params]\nttl = \"ten\"\n");
    let err = parse("x", "my.toml", &text).unwrap_err();
    assert_eq!(err.to_string(), "my.toml:6:7: `ttl`: must be a number");

    let err = parse("x", "bad.toml", "family = \"frozen\"\nttl = 3\n").unwrap_err();
    assert_eq!(err.line, 2);
    assert_eq!(err.key.as_deref(), Some("ttl"));

    let err = parse("x", "bad.toml", "family = [\n").unwrap_err();
    assert_eq!(err.file, "bad.toml");
    assert_eq!(err.line, 1);
}

#[test]
fn abc_files_take_variants_and_faults() {
    let text = format!(
        "family = \"abc\"\n{ABOUT}[params]\nwatch = \"children\"\nfencing = false\n\n\
         [[faults]]\nkind = \"freeze\"\nclient = \"a\"\nat = 0.5\nlen = 8\n"
    );
    let p = parse("x", "f.toml", &text).unwrap();
    let Params::Abc(abc) = p.params else {
        panic!("abc")
    };
    assert_eq!(abc.watch, WatchMode::Children);
    assert!(!abc.fencing);
    assert_eq!(
        abc.faults,
        [Fault::Freeze {
            client: "A".into(),
            at_ms: 500,
            len_ms: 8_000
        }]
    );

    let text = format!("family = \"abc\"\n{ABOUT}\n[[faults]]\nkind = \"melt\"\nclient = \"A\"\n");
    let err = parse("x", "f.toml", &text).unwrap_err();
    assert_eq!((err.line, err.key.as_deref()), (7, Some("kind")));
    assert!(err.message.contains("known faults: freeze"));
}

#[test]
fn scripts_are_validated_at_load() {
    let base = format!("family = \"frozen\"\nlocked = [\"ttl\"]\n{ABOUT}");
    let good = format!(
        "{base}\n[[script]]\nat = 20\nzh = \"看\"\nen = \"Look\"\nask = \"holder_at\"\n\
         question = {{ zh = \"谁？\", en = \"Who?\" }}\n\n[[script]]\nset = {{ fencing = false }}\n\
         zh = \"关\"\nen = \"Off\"\n"
    );
    let p = parse("x", "s.toml", &good).unwrap();
    assert_eq!(p.locked, ["ttl"]);
    assert_eq!(p.script.len(), 2);
    assert_eq!(p.script[0].at_ms, Some(20_000));
    let Params::Frozen(second) = &p.script[1].params else {
        panic!("frozen")
    };
    assert!(!second.fencing && p.script[1].changes_params);

    let late = format!("{base}[[script]]\nat = 41\nzh = \"a\"\nen = \"a\"\n");
    let err = parse("x", "s.toml", &late).unwrap_err();
    assert_eq!((err.line, err.key.as_deref()), (7, Some("at")));
    assert!(err.message.contains("0 to 40 s"), "{err}");

    let unknown = format!("{base}[[script]]\nset = {{ colour = 1 }}\nzh = \"a\"\nen = \"a\"\n");
    let err = parse("x", "s.toml", &unknown).unwrap_err();
    assert_eq!(err.key.as_deref(), Some("colour"));
    assert!(err.message.contains("valid parameters"), "{err}");

    let wrong = format!(
        "{base}[[script]]\nzh = \"a\"\nen = \"a\"\nask = \"total_notifications\"\n\
         question = {{ zh = \"?\", en = \"?\" }}\n"
    );
    let err = parse("x", "s.toml", &wrong).unwrap_err();
    assert!(err.message.contains("cannot answer"), "{err}");

    let bad_lock = format!("family = \"frozen\"\nlocked = [\"speed\"]\n{ABOUT}");
    assert_eq!(
        parse("x", "s.toml", &bad_lock).unwrap_err().key.as_deref(),
        Some("locked")
    );
}

#[test]
fn line_col_counts_characters() {
    assert_eq!(line_col("ab\n中文x", 9), (2, 3));
}
