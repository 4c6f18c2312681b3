//! The progress store: round trip, permissions, corrupt, newer and older files, the lock,
//! merge, aliases and export.

use std::collections::BTreeMap;
use std::os::unix::fs::PermissionsExt;

use locklab::content::deck::Kind;
use locklab::progress::store::{self, Notice, Store};
use locklab::progress::{Progress, SCHEMA_VERSION, export};
use locklab::quiz::sched::{Rating, SelfRating};
use locklab::quiz::session::Graded;

const NOW: i64 = 1_790_000_000;

fn graded(id: &str, at: i64, score: u32, max: u32) -> Graded {
    Graded {
        id: id.into(),
        deck: id.split('.').next().unwrap_or(id).into(),
        kind: if max > 1 { Kind::Recall } else { Kind::Model },
        topics: vec!["t".into()],
        score,
        earned: score,
        max,
        rating: if max > 1 {
            Rating::Hard
        } else {
            Rating::from_score(score, max)
        },
        self_rating: (max > 1).then_some(SelfRating::Partial),
        missed: if max > 1 { vec![1] } else { vec![] },
        at,
        note: if max > 1 {
            "said \"TTL\", missed, the rest".into()
        } else {
            String::new()
        },
        hint: false,
        rounds: Vec::new(),
    }
}

fn sample() -> Progress {
    let mut p = Progress::default();
    p.record(&graded("leases.a", NOW, 2, 5));
    p.record(&graded("fencing.b", NOW + 10, 1, 1));
    p.record(&graded("leases.a", NOW + 86_400, 5, 5));
    p
}

#[test]
fn round_trip_keeps_everything_and_the_file_is_private() {
    let dir = tempfile::tempdir().unwrap();
    {
        let mut s = Store::open(dir.path(), NOW).unwrap();
        assert!(s.is_writable() && s.notices.is_empty());
        *s.data_mut() = sample();
        assert!(s.save().unwrap());
    }
    let path = dir.path().join(store::FILE_NAME);
    let mode = std::fs::metadata(&path).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o600);
    let s = Store::open(dir.path(), NOW).unwrap();
    assert_eq!(s.data(), &sample());
    assert_eq!(s.data().cards["leases.a"].reps, 2);
    assert_eq!(s.data().schema_version, SCHEMA_VERSION);
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.starts_with("schema_version = 1"), "{text}");
}

#[test]
fn a_corrupt_file_is_moved_aside_and_a_fresh_one_started() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(store::FILE_NAME);
    std::fs::write(&path, "schema_version = 1\n[[answers]\nat = ").unwrap();
    let mut s = Store::open(dir.path(), NOW).unwrap();
    let moved = match &s.notices[..] {
        [Notice::Corrupt { moved_to, .. }] => moved_to.clone(),
        other => panic!("{other:?}"),
    };
    assert_eq!(
        moved,
        dir.path().join(format!("progress.toml.corrupt-{NOW}"))
    );
    assert_eq!(
        std::fs::read_to_string(&moved).unwrap(),
        "schema_version = 1\n[[answers]\nat = "
    );
    assert!(s.is_writable() && s.data().answers.is_empty());
    s.data_mut().record(&graded("leases.a", NOW, 1, 5));
    s.save().unwrap();
    drop(s);
    // A file of the right syntax but the wrong shape is corrupt too; a second backup does not
    // overwrite the first.
    std::fs::write(&path, "schema_version = 1\nanswers = 5\n").unwrap();
    let s = Store::open(dir.path(), NOW).unwrap();
    assert!(
        matches!(&s.notices[..], [Notice::Corrupt { moved_to, .. }] if moved_to != &moved && moved_to.exists())
    );
    assert!(moved.exists());
}

#[test]
fn a_newer_file_is_left_untouched_and_nothing_is_saved() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(store::FILE_NAME);
    let text = "schema_version = 7\n[future]\nthing = true\n";
    std::fs::write(&path, text).unwrap();
    let mut s = Store::open(dir.path(), NOW).unwrap();
    assert_eq!(s.notices, [Notice::Newer { found: 7 }]);
    assert!(!s.is_writable());
    s.data_mut().record(&graded("leases.a", NOW, 1, 5));
    assert!(!s.save().unwrap());
    assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
}

#[test]
fn an_unversioned_file_migrates_and_is_written_back() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(store::FILE_NAME);
    let mut old = toml::to_string(&sample()).unwrap();
    old = old.replace("schema_version = 1\n", "");
    assert!(!old.contains("schema_version"));
    std::fs::write(&path, old).unwrap();
    let mut s = Store::open(dir.path(), NOW).unwrap();
    assert_eq!(s.notices, [Notice::Migrated { from: 0 }]);
    assert_eq!(s.data().answers, sample().answers);
    s.save().unwrap();
    assert!(
        std::fs::read_to_string(&path)
            .unwrap()
            .contains("schema_version = 1")
    );
}

#[test]
fn a_second_store_opens_read_only_while_the_first_holds_the_lock() {
    let dir = tempfile::tempdir().unwrap();
    let mut first = Store::open(dir.path(), NOW).unwrap();
    first.data_mut().record(&graded("leases.a", NOW, 1, 5));
    first.save().unwrap();
    let mut second = Store::open(dir.path(), NOW).unwrap();
    assert_eq!(second.notices, [Notice::Locked]);
    assert!(!second.is_writable());
    // The second one still reads what is there.
    assert_eq!(second.data().answers.len(), 1);
    second.data_mut().record(&graded("leases.a", NOW + 1, 5, 5));
    assert!(!second.save().unwrap());
    drop(first);
    let third = Store::open(dir.path(), NOW).unwrap();
    assert!(third.is_writable());
    assert_eq!(third.data().answers.len(), 1);
}

#[test]
fn stale_temp_files_are_cleared_and_reset_keeps_a_backup() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join(".progress-abc.tmp"), "half").unwrap();
    let mut s = Store::open(dir.path(), NOW).unwrap();
    assert!(!dir.path().join(".progress-abc.tmp").exists());
    *s.data_mut() = sample();
    s.save().unwrap();
    let backup = s.reset(NOW).unwrap().unwrap();
    assert!(s.data().answers.is_empty());
    let kept = store::read_progress(&backup).unwrap();
    assert_eq!(kept, sample());
    let now_file = store::read_progress(s.path()).unwrap();
    assert!(now_file.answers.is_empty());
}

#[test]
fn merge_adds_only_missing_answers_and_replays_the_schedule() {
    let mine = sample();
    let mut theirs = Progress::default();
    theirs.record(&graded("fencing.b", NOW + 10, 1, 1)); // already in mine
    theirs.record(&graded("herd.c", NOW + 20, 0, 1));
    theirs.record(&graded("leases.a", NOW + 30, 3, 5));
    let mut merged = mine.clone();
    assert_eq!(merged.merge(&theirs), 2);
    assert_eq!(merged.answers.len(), 5);
    assert!(merged.answers.windows(2).all(|w| w[0].at <= w[1].at));
    // Merging again, either way round, adds nothing.
    assert_eq!(merged.merge(&theirs), 0);
    assert_eq!(merged.merge(&mine), 0);
    assert_eq!(merged.answers.len(), 5);
    let mut other_way = theirs.clone();
    other_way.merge(&mine);
    assert_eq!(other_way.answers, merged.answers);
    assert_eq!(other_way.cards, merged.cards);
    assert_eq!(merged.cards["leases.a"].reps, 3);
    assert_eq!(merged.cards["herd.c"].reps, 1);
}

#[test]
fn renamed_questions_keep_their_history_and_removed_ones_keep_theirs() {
    let mut p = sample();
    let aliases = BTreeMap::from([("leases.a".to_string(), "leases.renamed".to_string())]);
    assert_eq!(p.apply_aliases(&aliases), 2);
    assert!(
        p.answers
            .iter()
            .filter(|a| a.question == "leases.renamed")
            .count()
            == 2
    );
    assert_eq!(p.cards["leases.renamed"].reps, 2);
    assert!(!p.cards.contains_key("leases.a"));
    // fencing.b is in no bank here; its history stays.
    assert!(p.cards.contains_key("fencing.b"));
}

#[test]
fn export_csv_and_json() {
    let p = sample();
    let csv = export::csv(&p);
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines[0], export::CSV_HEADER);
    assert_eq!(lines.len(), 4);
    assert!(lines[1].starts_with("2026-09-21T"), "{}", lines[1]);
    assert!(
        lines[1].contains(
            ",leases.a,leases,recall,2,5,hard,partial,\"said \"\"TTL\"\", missed, the rest\""
        ),
        "{}",
        lines[1]
    );
    assert!(
        lines[2].ends_with(",fencing.b,fencing,model,1,1,easy,,"),
        "{}",
        lines[2]
    );
    let json: serde_json::Value = serde_json::from_str(&export::json(&p).unwrap()).unwrap();
    assert_eq!(json["schema_version"], 1);
    assert_eq!(json["answers"].as_array().unwrap().len(), 3);
    assert_eq!(json["answers"][1]["rating"], "easy");
    assert_eq!(json["cards"]["leases.a"]["reps"], 2);
}
