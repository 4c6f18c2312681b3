//! The interview and self-test transcripts through the real binary, a hand-edited score past
//! its maximum, and `locklab check` refusing questions that can be memorised.

use crate::common;

use std::path::Path;
use std::process::Command;

use common::bank;
use locklab::content::deck::Kind;
use locklab::i18n::Lang;
use locklab::progress::store;
use locklab::quiz::item::{Body, PreparedQuestion, Rounds};
use locklab::quiz::select;

use super::cli_quiz::{locklab, locklab_in, text};

/// Lines that reveal, tick the first point and rate partial, for every round of `it`.
fn recall_lines(it: &PreparedQuestion) -> String {
    let Body::Recall { follow_ups, .. } = &it.body else {
        panic!("recall")
    };
    format!("{}2\n", "\n1\n".repeat(1 + follow_ups.len()))
}

/// An interview's lines for `it`: answer every round, then tick the first point of each
/// reference, then rate partial.
pub(crate) fn interview_lines(it: &PreparedQuestion) -> String {
    let Body::Recall { follow_ups, .. } = &it.body else {
        panic!("recall")
    };
    let rounds = 1 + follow_ups.len();
    format!("{}{}2\n", "\n".repeat(rounds), "1\n".repeat(rounds))
}

#[test]
fn interview_transcripts_in_both_languages() {
    for (lang, want) in [
        (
            "en",
            [
                "locklab interview: 1 question, each with follow-ups",
                "Follow-up 1/3: ",
                "Follow-up 3/3: ",
                "By round: question ",
                "Points missed, by topic:",
                "Study: lesson \"",
            ],
        ),
        (
            "zh",
            [
                "locklab 模拟面试：1 道题",
                "追问 1/3：",
                "追问 3/3：",
                "各轮得分：主问题 ",
                "按主题列出漏掉的要点：",
                "去看：课程《",
            ],
        ),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let b = bank();
        let picked = select::chains(&b, Some("fencing"), 3, 1).unwrap();
        let l = Lang::parse(lang).unwrap();
        let it = &select::prepare_all(&b, &picked, 3, l, Rounds::All).0[0];
        let args = [
            "interview",
            "--plain",
            "--deck",
            "fencing",
            "--count",
            "1",
            "--seed",
            "3",
        ];
        let out = locklab_in(lang, dir.path(), &args, interview_lines(it).as_bytes());
        let stdout = text(&out.stdout);
        assert!(out.status.success(), "{stdout}\n{}", text(&out.stderr));
        for w in want {
            assert!(stdout.contains(w), "{w:?} missing:\n{stdout}");
        }
        let p = store::read_progress(&dir.path().join(store::FILE_NAME)).unwrap();
        assert_eq!(p.answers.len(), 1);
        assert_eq!(p.answers[0].question, it.id);
        assert_eq!(
            p.sessions[0].kind,
            locklab::quiz::session::SessionKind::Interview
        );
        // One point ticked per round: the score is the sum of those points.
        let Body::Recall { points, follow_ups } = &it.body else {
            unreachable!()
        };
        let score = points[0].value + follow_ups.iter().map(|f| f.points[0].value).sum::<u32>();
        assert_eq!(
            (p.answers[0].score, p.answers[0].max),
            (score, it.max_score())
        );
    }
}

#[test]
fn self_test_transcripts_in_both_languages_keep_a_history() {
    for (lang, want) in [
        (
            "en",
            [
                "locklab self-test: the same 12",
                "Self-ratings: solid 0 · partial 13 · forgot 0",
                "Self-test history:",
            ],
        ),
        (
            "zh",
            [
                "locklab 闭卷自测：固定的 12 道",
                "自评：牢固 0 · 部分 13 · 忘了 0",
                "闭卷自测记录：",
            ],
        ),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let b = bank();
        let l = Lang::parse(lang).unwrap();
        let (items, _) = select::self_test_items(&b, l);
        // The twelve, then the closing question asked as in an interview.
        assert_eq!(items.len(), 13);
        let input: String = items[..12]
            .iter()
            .map(recall_lines)
            .chain(std::iter::once(interview_lines(&items[12])))
            .collect();
        for run in 1..=2 {
            let out = locklab_in(
                lang,
                dir.path(),
                &["self-test", "--plain"],
                input.as_bytes(),
            );
            let stdout = text(&out.stdout);
            assert!(out.status.success(), "{stdout}\n{}", text(&out.stderr));
            for w in want {
                assert!(stdout.contains(w), "{w:?} missing:\n{stdout}");
            }
            // The same twelve, in the same order, every time.
            let at: Vec<usize> = items
                .iter()
                .enumerate()
                .map(|(i, it)| {
                    let line = format!("{}/13 · {} · ", i + 1, text_kind(l));
                    let pos = stdout.find(&line).unwrap_or_else(|| panic!("{line}"));
                    assert!(stdout[pos..].lines().next().unwrap().ends_with(&it.id));
                    pos
                })
                .collect();
            assert!(at.windows(2).all(|w| w[0] < w[1]));
            let p = store::read_progress(&dir.path().join(store::FILE_NAME)).unwrap();
            let runs: Vec<_> = p
                .sessions
                .iter()
                .filter(|s| s.kind == locklab::quiz::session::SessionKind::SelfTest)
                .collect();
            assert_eq!(runs.len(), run);
            let tiers = runs[run - 1].tiers.unwrap();
            assert_eq!((tiers.solid, tiers.partial, tiers.forgot), (0, 13, 0));
            // The history lists every run so far.
            let history = stdout.split(want[2]).nth(1).unwrap_or_default();
            assert_eq!(
                history.lines().filter(|l| l.contains("%)")).count(),
                run,
                "{stdout}"
            );
        }
    }
}

/// A self-rating is shown beside the tier the points give: answers that tick no point but are
/// rated solid count as forgotten there, and the run says how many were rated too high.
#[test]
fn the_self_test_sets_the_points_tier_beside_the_self_rating() {
    for (lang, want) in [
        (
            "en",
            [
                "Self-ratings: solid 13 · partial 0 · forgot 0",
                "By the points: solid 0 · partial 0 · forgot 13",
                "13 answers were rated higher than their points show.",
                "(by the points: solid 0 · partial 0 · forgot 13)",
            ],
        ),
        (
            "zh",
            [
                "自评：牢固 13 · 部分 0 · 忘了 0",
                "按要点：牢固 0 · 部分 0 · 忘了 13",
                "有 13 题的自评高于要点得分。",
                "（按要点：牢固 0 · 部分 0 · 忘了 13）",
            ],
        ),
    ] {
        let dir = tempfile::tempdir().unwrap();
        // Each answer left empty, no point ticked, rated solid; the closing question's four
        // rounds are answered first, then their four references ticked.
        let input = format!("{}{}3\n", "\n\n3\n".repeat(12), "\n".repeat(8));
        let out = locklab_in(
            lang,
            dir.path(),
            &["self-test", "--plain"],
            input.as_bytes(),
        );
        let stdout = text(&out.stdout);
        assert!(out.status.success(), "{stdout}\n{}", text(&out.stderr));
        for w in want {
            assert!(stdout.contains(w), "{w:?} missing:\n{stdout}");
        }
        let p = store::read_progress(&dir.path().join(store::FILE_NAME)).unwrap();
        let run = p.sessions.last().unwrap();
        let (rated, scored) = (run.tiers.unwrap(), run.scored_tiers.unwrap());
        assert_eq!((rated.solid, scored.solid, scored.forgot), (13, 0, 13));
    }
}

fn text_kind(l: Lang) -> &'static str {
    locklab::quiz::words::kind(Kind::Recall, l)
}

#[test]
fn a_score_above_its_maximum_sets_the_file_aside() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(store::FILE_NAME);
    let edited = "schema_version = 1\n\n[[answers]]\nat = 1790000000\nquestion = \"leases.danger-window\"\ndeck = \"leases\"\nkind = \"model\"\nscore = 26666666\nmax = 1\nrating = \"easy\"\n";
    std::fs::write(&path, edited).unwrap();
    let out = locklab(dir.path(), &["progress"], "");
    assert!(out.status.success());
    let err = text(&out.stderr);
    assert!(
        err.contains("could not be read") && err.contains("scores 26666666 of at most 1"),
        "{err}"
    );
    let stdout = text(&out.stdout);
    assert!(!stdout.contains("26666666"), "{stdout}");
    // The hand-edited file is kept intact beside the fresh one.
    let kept: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| {
            e.file_name()
                .to_string_lossy()
                .starts_with("progress.toml.corrupt-")
        })
        .collect();
    assert_eq!(kept.len(), 1);
    assert_eq!(std::fs::read_to_string(kept[0].path()).unwrap(), edited);
}

/// A copy of the shipped content in a temporary folder, to break on purpose.
fn content_copy() -> tempfile::TempDir {
    fn copy(from: &Path, to: &Path) {
        std::fs::create_dir_all(to).unwrap();
        for entry in std::fs::read_dir(from).unwrap() {
            let path = entry.unwrap().path();
            let target = to.join(path.file_name().unwrap());
            if path.is_dir() {
                copy(&path, &target);
            } else {
                std::fs::copy(&path, &target).unwrap();
            }
        }
    }
    let dir = tempfile::tempdir().unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for folder in ["content", "quizzes", "assets"] {
        copy(&root.join(folder), &dir.path().join(folder));
    }
    dir
}

fn replace_in(path: &Path, from: &str, to: &str) {
    let text = std::fs::read_to_string(path).unwrap();
    assert!(text.contains(from), "{from} not in {}", path.display());
    std::fs::write(path, text.replacen(from, to, 1)).unwrap();
}

#[test]
fn check_refuses_questions_that_can_be_memorised_and_broken_extras() {
    let c = content_copy();
    let q = c.path().join("quizzes");
    // A model question that draws nothing.
    replace_in(
        &q.join("05-fencing.toml"),
        "[questions.model.vary]\nfreeze_len = [1.0, 8.0, 0.5]\n\n[[questions]]",
        "[[questions]]",
    );
    // One whose draw never changes its answer: the hold time does not change a count.
    replace_in(
        &q.join("08-coordination-services.toml"),
        "[questions.model.vary]\nfanout = [1, 20, 1]",
        "[questions.model.vary]\nhold_ms = [50, 150, 50]",
    );
    // A case without words in one language, and a hint on a choice question.
    replace_in(
        &q.join("03-lost-create.toml"),
        "en = \"C's create takes effect but its reply is lost, so C creates another node and forgets the first.\"",
        "en = \"\"",
    );
    let deck = std::fs::read_to_string(q.join("01-ephemeral-nodes.toml")).unwrap();
    let choice = deck.find("kind = \"choice\"").unwrap();
    let mut edited = deck.clone();
    edited.insert_str(choice, "hint = { zh = \"提示\", en = \"a hint\" }\n");
    std::fs::write(q.join("01-ephemeral-nodes.toml"), edited).unwrap();
    // A study link to a section the lesson does not have; a self-test list of eleven.
    replace_in(
        &q.join("12-task-leases.toml"),
        "\"lesson:12-task-leases#3\"",
        "\"lesson:12-task-leases#30\"",
    );
    replace_in(
        &q.join("self-test.toml"),
        "    \"task-leases.cancel-race\",\n",
        "",
    );
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_locklab"))
        .args(["--lang", "en", "--content"])
        .arg(c.path())
        .arg("--data-dir")
        .arg(dir.path())
        .arg("check")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let report = text(&out.stdout);
    for want in [
        "`fencing.gc-pause-takeover` draws nothing",
        "`coordination-services.fanout-total-notifications` has the same answer",
        "needs zh and en words for {case}",
        "only recall and model questions take a hint",
        "asks for section 30",
        "the self-test lists 11 questions; it needs 12",
    ] {
        assert!(report.contains(want), "{want:?} missing:\n{report}");
    }
    // Each problem names its file and line.
    assert!(report.contains("05-fencing.toml:"), "{report}");
    assert!(report.contains("self-test.toml:"), "{report}");
}
