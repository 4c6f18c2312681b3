//! An order question scores each step in its place, so it must have exactly one valid order.
//! Where a deck lets that be decided, a second valid order is refused: a step marked as able to
//! swap with the one above it, two steps that read the same (either could stand in either
//! place), and two steps in a row that open as alternatives ("On success …", "On failure …"),
//! which are branches of one step rather than a sequence.

use super::Located;
use super::deck::{DeckFile, Kind, Question, Step};

/// How a step opens when it is one branch of a choice: two such steps in a row are
/// alternatives, and either could be listed first. "Otherwise" is not among them: it refers to
/// the step above, so it can only come after it.
const BRANCH_OPENERS_EN: [&str; 6] = [
    "if ",
    "on success",
    "on failure",
    "when ",
    "unless ",
    "in case ",
];
const BRANCH_OPENERS_ZH: [&str; 7] = ["如果", "若", "假如", "成功则", "失败则", "成功时", "失败时"];

/// The problems of one question; none unless it is an order question.
pub fn question(d: &DeckFile, q: &Question) -> Vec<Located> {
    if q.kind != Kind::Order {
        return Vec::new();
    }
    let qid = q.id.get_ref();
    let at = |message: String| d.problem(q.id.span().start, Some("steps"), message);
    let mut out = Vec::new();
    let fix = "merge them into one step or rewrite them so that one must come first";
    for (i, s) in q.steps.iter().enumerate().skip(1) {
        if s.swaps_with_previous {
            out.push(at(format!(
                "steps {i} and {} of `{qid}` are marked as able to swap, so the order given is not the only valid one: {fix}",
                i + 1
            )));
        }
        if is_branch(&q.steps[i - 1]) && is_branch(s) {
            out.push(at(format!(
                "steps {i} and {} of `{qid}` open as alternatives, so either could be listed first: {fix}",
                i + 1
            )));
        }
    }
    if q.steps.first().is_some_and(|s| s.swaps_with_previous) {
        out.push(at(format!(
            "step 1 of `{qid}` is marked as able to swap with the step above it, and there is none"
        )));
    }
    for (i, a) in q.steps.iter().enumerate() {
        for (j, b) in q.steps.iter().enumerate().skip(i + 1) {
            if same(&a.en, &b.en) || same(&a.zh, &b.zh) {
                out.push(at(format!(
                    "steps {} and {} of `{qid}` read the same, so they can swap places: {fix}",
                    i + 1,
                    j + 1
                )));
            }
        }
    }
    out
}

/// Whether a step opens as one branch of a choice, in either language.
fn is_branch(s: &Step) -> bool {
    let en = s.en.trim_start().to_lowercase();
    let zh = s.zh.trim_start();
    BRANCH_OPENERS_EN.iter().any(|o| en.starts_with(o))
        || BRANCH_OPENERS_ZH.iter().any(|o| zh.starts_with(o))
}

fn same(a: &str, b: &str) -> bool {
    let (a, b) = (a.trim(), b.trim());
    !a.is_empty() && a == b
}
