//! Starting a session: what was asked for (the quiz command's filters, an interview or the
//! self-test), the questions chosen from the bank for it, and the new session's state.

use super::QuizState;
use crate::content::deck::Kind;
use crate::content::lesson::Lesson;
use crate::i18n::Lang;
use crate::quiz::item::Rounds;
use crate::quiz::sched::Time;
use crate::quiz::select::{self, SelectError, Selection};
use crate::quiz::session::SessionKind;
use crate::quiz::words::{Label, label};
use crate::tui::app::ScreenId;
use crate::tui::learn::Learning;

/// How many questions "Mixed exam" asks.
pub const EXAM_SIZE: usize = 10;

/// What to ask: the quiz command's filters, or an interview, or the self-test.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct QuizRequest {
    pub deck: Option<String>,
    pub topic: Option<String>,
    pub kind: Option<Kind>,
    pub difficulty: Option<u8>,
    pub due: bool,
    pub count: Option<usize>,
    /// Fixes the order and the drawn model variants; the clock otherwise.
    pub seed: Option<u64>,
    pub mode: SessionKind,
    /// An interview's time limit.
    pub minutes: Option<u32>,
}

impl QuizRequest {
    pub fn interview(
        deck: Option<String>,
        count: Option<usize>,
        minutes: Option<u32>,
        seed: Option<u64>,
    ) -> Self {
        Self {
            deck,
            count,
            minutes,
            seed,
            mode: SessionKind::Interview,
            ..Self::default()
        }
    }

    pub fn self_test() -> Self {
        Self {
            mode: SessionKind::SelfTest,
            ..Self::default()
        }
    }
}

/// Chooses the questions `req` asks for and prepares the session; `from` is where its end goes
/// back to, and `lessons` gives the result screen its lesson sections in a language. `Err` is
/// what Home says instead when there is nothing to ask.
pub fn begin(
    req: &QuizRequest,
    learn: &Learning,
    lessons: impl Fn(Lang) -> Vec<Lesson>,
    lang: Lang,
    from: ScreenId,
    now: Time,
) -> Result<QuizState, String> {
    let Some(bank) = &learn.bank else {
        return Err(learn.messages(lang).join(" "));
    };
    let seed = req.seed.unwrap_or(now as u64);
    let sel = Selection {
        deck: req.deck.clone(),
        topic: req.topic.clone(),
        kind: req.kind,
        difficulty: req.difficulty,
        due: req.due,
        count: req.count,
        seed,
        calendar: learn.calendar,
    };
    let empty = Default::default();
    let cards = learn.store.as_ref().map_or(&empty, |s| &s.data().cards);
    let chosen = match req.mode {
        SessionKind::Quiz => select::select(bank, &sel, cards, now),
        SessionKind::Interview => select::chains(
            bank,
            req.deck.as_deref(),
            seed,
            req.count.unwrap_or(crate::quiz::session::INTERVIEW_SIZE),
        ),
        SessionKind::SelfTest => Ok(Vec::new()),
    };
    let picked = match chosen {
        Ok(p) => p,
        Err(SelectError::UnknownDeck { name, .. }) => {
            return Err(format!("{} `{name}`", label(Label::UnknownDeck, lang)));
        }
        Err(SelectError::UnknownTopic(t)) => {
            return Err(format!("{} `{t}`", label(Label::NoSuchTopic, lang)));
        }
    };
    let rounds = match req.mode {
        SessionKind::Quiz => Rounds::First,
        SessionKind::Interview => Rounds::All,
        SessionKind::SelfTest => Rounds::None,
    };
    let prepared = |lang| {
        if req.mode == SessionKind::SelfTest {
            select::self_test_items(bank, lang)
        } else {
            select::prepare_all(bank, &picked, seed, lang, rounds)
        }
    };
    let (items, errors) = prepared(lang);
    if items.is_empty() {
        let why = match req.mode {
            SessionKind::Interview => Label::NoChains,
            SessionKind::SelfTest => Label::NoSelfTestList,
            SessionKind::Quiz if req.due => Label::NothingDue,
            SessionKind::Quiz => Label::NoMatch,
        };
        return Err(label(why, lang).to_string());
    }
    let mut q = QuizState::of_kind(items, req.mode, seed, lang, from, now);
    q.skipped = errors.len();
    if req.mode == SessionKind::Interview {
        q.limit = req.minutes.map(|m| Time::from(m) * 60);
    }
    // The result screen's study links name lesson sections in either language, and the
    // same questions (same seed, same variants) wait in the other one for `L` at the end.
    q.lessons = lessons(lang);
    q.lessons.extend(lessons(lang.toggle()));
    q.translated = prepared(lang.toggle()).0;
    Ok(q)
}
