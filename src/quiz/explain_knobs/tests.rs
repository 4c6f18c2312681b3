//! Each knob family's explanation, for a real question of the embedded decks: the drawn
//! numbers and the engine's answer are in it, in both languages, and another draw reads
//! differently.

use crate::content::deck::{self, Question};
use crate::content::model::{self, ModelAnswer, ModelDraw, fmt_value};
use crate::i18n::Lang;
use crate::quiz::explain::worked;
use crate::source::Source;

/// A question of the embedded decks, by id.
fn question(id: &str) -> Question {
    deck::load_all(&Source::Embedded)
        .expect("the embedded decks load")
        .into_iter()
        .filter_map(Result::ok)
        .flat_map(|d| d.deck.questions)
        .find(|q| q.id.get_ref() == id)
        .unwrap_or_else(|| panic!("no question {id} in the embedded decks"))
}

/// One attempt: what was drawn, the engine's answer, and the explanation in zh and en.
struct Attempt {
    variant: ModelDraw,
    answer: String,
    zh: String,
    en: String,
}

fn attempt(q: &Question, seed: u64) -> Attempt {
    let variant = model::variant(q, seed, crate::scenario::builtin()).expect("a variant");
    let (answer, trace) = model::run(q, &variant).expect("the engine answers");
    let ModelAnswer::Number(n) = answer else {
        panic!("a numeric answer, got {answer:?}")
    };
    Attempt {
        zh: worked(q, &variant, &trace, Lang::Zh),
        en: worked(q, &variant, &trace, Lang::En),
        answer: fmt_value(n),
        variant,
    }
}

fn drawn(a: &Attempt, key: &str) -> String {
    fmt_value(*a.variant.drawn.get(key).expect("a drawn value"))
}

/// The first seed after 0 whose answer differs from seed 0's, so two draws that must be told
/// apart are compared.
fn two_draws(q: &Question) -> (Attempt, Attempt) {
    let first = attempt(q, 0);
    let other = (1..200)
        .map(|seed| attempt(q, seed))
        .find(|a| a.answer != first.answer)
        .expect("some draw changes the answer");
    (first, other)
}

fn assert_has(text: &str, want: &str) {
    assert!(text.contains(want), "{want:?} missing from: {text}");
}

/// Both draws name their own numbers, and read differently.
fn check_both(q: &Question, check: impl Fn(&Attempt)) {
    let (a, b) = two_draws(q);
    check(&a);
    check(&b);
    assert_ne!(a.zh, b.zh);
    assert_ne!(a.en, b.en);
}

#[test]
fn a_read_write_lock_draw_is_explained_with_its_hold_and_its_grants() {
    let q = question("recipes.model-grants-before-writer");
    check_both(&q, |a| {
        let (hold, k) = (drawn(a, "hold"), &a.answer);
        assert_has(&a.zh, &format!("拿到锁后各持有 {hold} 秒"));
        assert_has(&a.en, &format!("holds the lock for {hold} s once granted"));
        assert_has(&a.zh, &format!("此前锁授予了 {k} 次"));
        // The drawn case names the writer: B or D under the fair rule, C or D otherwise.
        let writer = ["B", "D", "C", "D"][a.variant.case.unwrap()];
        assert_has(
            &a.en,
            &format!("The first writer to be granted was {writer}, at "),
        );
        assert_has(&a.en, &format!(", after {k} grant"));
        // The drawn rule is the one explained.
        let fair = a.variant.case.unwrap() < 2;
        assert_eq!(a.zh.contains("按公平规则"), fair, "{}", a.zh);
        assert_eq!(a.en.contains("Under the fair rule"), fair, "{}", a.en);
    });
}

#[test]
fn a_semaphore_draw_is_explained_with_its_permits_and_the_most_inside() {
    let q = question("recipes.model-lowered-permits");
    check_both(&q, |a| {
        let (permits, most) = (drawn(a, "permits"), &a.answer);
        assert_has(&a.zh, &format!("信号量起初有 {permits} 个许可"));
        assert_has(
            &a.en,
            &format!("the semaphore starts with {permits} permit"),
        );
        assert_has(&a.zh, &format!("同一时刻最多有 {most} 个客户端持有许可"));
        assert_has(&a.en, &format!("clients holding a permit at once: {most}"));
        // The moment the count is lowered is drawn too, and the explanation names it.
        let lower = drawn(a, "lower_at");
        assert_has(&a.zh, &format!("{lower} 秒时许可数"));
        assert_has(&a.en, &format!("At {lower} s the permit count"));
    });
}

#[test]
fn an_election_draw_is_explained_with_its_epoch_version_and_final_epoch() {
    let q = question("recipes.model-epoch-after-takeover");
    check_both(&q, |a| {
        let (epoch, version) = (drawn(a, "first_epoch"), drawn(a, "row_version"));
        let last = &a.answer;
        assert_has(&a.zh, &format!("A 以任期号 {epoch} 担任领导者"));
        assert_has(&a.zh, &format!("作业行在版本 {version}"));
        assert_has(&a.en, &format!("A leads with epoch {epoch}; "));
        assert_has(&a.en, &format!("the job's row is at version {version},"));
        assert_has(&a.zh, &format!("：任期号 {last}，版本"));
        assert_has(&a.en, &format!(": epoch {last}, version"));
        assert_has(&a.zh, "这次停顿持续了 20 秒。");
        assert_has(&a.en, "The pause lasted 20 s.");
    });
}

#[test]
fn a_task_draw_is_explained_with_its_pause_and_the_charges() {
    let q = question("task-leases.model-charges-after-pause");
    check_both(&q, |a| {
        let (pause, charges) = (drawn(a, "pause_len"), &a.answer);
        assert_has(&a.zh, &format!("这次停顿持续了 {pause} 秒。"));
        assert_has(&a.en, &format!("The pause lasted {pause} s."));
        assert_has(&a.zh, &format!("外部系统一共执行了 {charges} 次"));
        assert_has(&a.en, &format!("The outside system acted {charges} time"));
    });
}

/// The grants before the first writer come from the engine's metric: the writer's place in
/// the grant order, for the fair and the reader-preferring presets.
#[test]
fn grants_before_the_writer_are_the_writers_place_in_the_grant_order() {
    use crate::engine::trace::Metrics;
    for (name, k) in [("rwlock-fair", 2), ("rwlock-starved", 9)] {
        let preset = crate::scenario::find(name).expect("a shipped preset");
        let trace = crate::engine::run(&preset.params);
        let Metrics::Queue(m) = &trace.metrics else {
            panic!("queue metrics")
        };
        assert_eq!(m.grants_before_writer, Some(k), "{name}");
        assert_eq!(m.grant_order[k as usize], "C", "{name}");
    }
    let preset = crate::scenario::find("semaphore-expiry").expect("a shipped preset");
    let trace = crate::engine::run(&preset.params);
    let Metrics::Queue(m) = &trace.metrics else {
        panic!("queue metrics")
    };
    assert_eq!(m.grants_before_writer, None);
}
