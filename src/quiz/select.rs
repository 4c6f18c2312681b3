//! The question bank and question selection: by deck, topic, kind, difficulty, "due for
//! review", or a mixed exam of N balanced across kinds and difficulties, in an order fixed by
//! the seed; the question chains of an interview; the self-test's fixed list.

use std::collections::BTreeMap;

use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;
use rand::seq::SliceRandom;

use super::item::{self, PrepareError, PreparedQuestion, Rounds};
use super::sched::{self, Calendar, Card, Time};
use crate::content::deck::{self, DeckFile, Kind, Question};
use crate::i18n::Lang;
use crate::scenario::{self, Preset};
use crate::source::Source;

/// Why the question bank cannot be loaded: the content is at fault, so the user can fix it.
#[derive(Debug, thiserror::Error)]
pub enum BankError {
    #[error("{0}")]
    Presets(#[from] scenario::LoadError),
    #[error("{0}")]
    Decks(std::io::Error),
    #[error("{0}")]
    Deck(crate::content::Located),
    #[error("{0}")]
    SelfTest(crate::content::Located),
}

impl From<BankError> for crate::error::UserError {
    fn from(e: BankError) -> Self {
        Self::usage(e.to_string())
    }
}

/// Every deck and the presets model questions may name.
#[derive(Debug, Clone)]
pub struct Bank {
    pub decks: Vec<DeckFile>,
    pub presets: Vec<Preset>,
    /// The self-test's question ids, in order; empty when the content has no list.
    pub self_test: Vec<String>,
    /// The question whose follow-up rounds close the self-test, if the list names one.
    pub self_test_rounds: Option<String>,
}

impl Bank {
    /// Loads every deck; the first deck that fails to parse is the error (`locklab check` lists
    /// them all).
    pub fn load(source: &Source) -> Result<Bank, BankError> {
        // The embedded decks cannot change while locklab runs, and every screen that opens the
        // quizzes loads them: parse them once.
        if matches!(source, Source::Embedded) {
            static EMBEDDED: std::sync::OnceLock<Option<Bank>> = std::sync::OnceLock::new();
            if let Some(bank) = EMBEDDED.get_or_init(|| Self::parse(source).ok()) {
                return Ok(bank.clone());
            }
        }
        Self::parse(source)
    }

    /// Reads and checks every deck of `source`.
    fn parse(source: &Source) -> Result<Bank, BankError> {
        let presets = scenario::load_all(source)?;
        let mut decks = Vec::new();
        for d in deck::load_all(source).map_err(BankError::Decks)? {
            decks.push(d.map_err(BankError::Deck)?);
        }
        let list = super::selftest::load(source).map_err(BankError::SelfTest)?;
        let self_test = list
            .as_ref()
            .map(|st| st.ids().into_iter().map(str::to_string).collect())
            .unwrap_or_default();
        let self_test_rounds = list.and_then(|st| st.rounds.map(|r| r.into_inner()));
        Ok(Bank {
            decks,
            presets,
            self_test,
            self_test_rounds,
        })
    }

    pub fn questions(&self) -> impl Iterator<Item = (&DeckFile, &Question)> {
        self.decks
            .iter()
            .flat_map(|d| d.deck.questions.iter().map(move |q| (d, q)))
    }

    pub fn find(&self, id: &str) -> Option<(&DeckFile, &Question)> {
        self.questions().find(|(_, q)| q.id.get_ref() == id)
    }

    /// Earlier ids of renamed questions, each mapped to the current id.
    pub fn aliases(&self) -> BTreeMap<String, String> {
        self.questions()
            .flat_map(|(_, q)| {
                q.aliases
                    .iter()
                    .map(|a| (a.clone(), q.id.get_ref().clone()))
            })
            .collect()
    }

    /// Deck ids, in file order.
    pub fn deck_ids(&self) -> Vec<&str> {
        self.decks
            .iter()
            .map(|d| d.deck.deck.get_ref().as_str())
            .collect()
    }
}

/// Which questions to ask.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Selection {
    /// A deck id (`leases`) or file stem (`06-leases`).
    pub deck: Option<String>,
    pub topic: Option<String>,
    /// Only questions of this kind.
    pub kind: Option<Kind>,
    /// Only questions of this difficulty (1 to 3).
    pub difficulty: Option<u8>,
    /// Only questions due for review by the end of today.
    pub due: bool,
    /// At most this many (a mixed exam when no deck is named).
    pub count: Option<usize>,
    pub seed: u64,
    /// Where "today" ends for `due`.
    pub calendar: Calendar,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SelectError {
    UnknownDeck { name: String, known: Vec<String> },
    UnknownTopic(String),
}

/// The questions matching `sel`, shuffled with its seed. `cards` is the scheduler state by id.
pub fn select<'b>(
    bank: &'b Bank,
    sel: &Selection,
    cards: &BTreeMap<String, Card>,
    now: Time,
) -> Result<Vec<(&'b DeckFile, &'b Question)>, SelectError> {
    if let Some(name) = &sel.deck
        && !bank
            .decks
            .iter()
            .any(|d| d.deck.deck.get_ref() == name || &d.stem == name)
    {
        return Err(SelectError::UnknownDeck {
            name: name.clone(),
            known: bank.deck_ids().iter().map(|s| s.to_string()).collect(),
        });
    }
    if let Some(t) = &sel.topic
        && !bank.questions().any(|(_, q)| q.topics.contains(t))
    {
        return Err(SelectError::UnknownTopic(t.clone()));
    }
    let mut picked: Vec<(&DeckFile, &Question)> = bank
        .questions()
        .filter(|(d, _)| {
            sel.deck
                .as_ref()
                .is_none_or(|n| d.deck.deck.get_ref() == n || &d.stem == n)
        })
        .filter(|(_, q)| sel.topic.as_ref().is_none_or(|t| q.topics.contains(t)))
        .filter(|(_, q)| sel.kind.is_none_or(|k| q.kind == k))
        .filter(|(_, q)| sel.difficulty.is_none_or(|d| *q.difficulty.get_ref() == d))
        .filter(|(_, q)| {
            !sel.due
                || cards
                    .get(q.id.get_ref())
                    .is_some_and(|c| sched::due_today(c, now, sel.calendar))
        })
        .collect();
    // Xoshiro256++ is named and stable: the same seed gives the same order in every version.
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(sel.seed);
    picked.shuffle(&mut rng);
    if let Some(n) = sel.count {
        picked = balanced(picked, n);
        // The balancing visits kinds in turn; the order asked must not show it.
        picked.shuffle(&mut rng);
    }
    Ok(picked)
}

/// Takes `n` of the (already shuffled) questions so that kinds come in turn and, within each
/// kind, the difficulty least taken so far comes next: a mixed exam of ten from a bank of a
/// hundred recall questions and twenty of each other kind still asks every kind.
fn balanced<'b>(
    picked: Vec<(&'b DeckFile, &'b Question)>,
    n: usize,
) -> Vec<(&'b DeckFile, &'b Question)> {
    const KINDS: [Kind; 4] = [Kind::Recall, Kind::Choice, Kind::Order, Kind::Model];
    // queues[kind][difficulty - 1], each in the shuffled order.
    let mut queues: Vec<[std::collections::VecDeque<(&DeckFile, &Question)>; 3]> =
        KINDS.iter().map(|_| Default::default()).collect();
    for (d, q) in picked {
        let k = KINDS.iter().position(|k| *k == q.kind).unwrap_or(0);
        let level = usize::from(q.difficulty.get_ref().clamp(&1, &3) - 1);
        queues[k][level].push_back((d, q));
    }
    let mut taken_per_level = [0usize; 3];
    // Never more than there are questions, whatever was asked for.
    let available: usize = queues.iter().flatten().map(|q| q.len()).sum();
    let n = n.min(available);
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        let mut any = false;
        for kind in queues.iter_mut() {
            if out.len() == n {
                break;
            }
            let level = (0..3)
                .filter(|l| !kind[*l].is_empty())
                .min_by_key(|l| (taken_per_level[*l], *l));
            if let Some(l) = level
                && let Some(q) = kind[l].pop_front()
            {
                taken_per_level[l] += 1;
                out.push(q);
                any = true;
            }
        }
        if !any {
            break;
        }
    }
    out
}

/// The recall questions an interview asks: those with follow-up rounds (the deepest chains
/// first, each depth in the seed's order), from `deck` when one is named; at most `count`.
pub fn chains<'b>(
    bank: &'b Bank,
    deck: Option<&str>,
    seed: u64,
    count: usize,
) -> Result<Vec<(&'b DeckFile, &'b Question)>, SelectError> {
    let sel = Selection {
        deck: deck.map(str::to_string),
        kind: Some(Kind::Recall),
        seed,
        ..Selection::default()
    };
    let mut picked = select(bank, &sel, &BTreeMap::new(), 0)?;
    picked.retain(|(_, q)| q.rounds().next().is_some());
    // A stable sort keeps the seed's order within each depth.
    picked.sort_by_key(|(_, q)| std::cmp::Reverse(q.rounds().count().min(3)));
    picked.truncate(count);
    Ok(picked)
}

/// The self-test's questions in their fixed order; ids the bank lacks are left out (`locklab
/// check` reports them).
pub fn self_test(bank: &Bank) -> Vec<(&DeckFile, &Question)> {
    bank.self_test
        .iter()
        .filter_map(|id| bank.find(id))
        .collect()
}

/// The self-test ready to ask: its questions without follow-ups, then the closing question
/// with all its rounds (which the session asks as an interviewer does).
pub fn self_test_items(bank: &Bank, lang: Lang) -> (Vec<PreparedQuestion>, Vec<PrepareError>) {
    let (mut items, mut errors) = prepare_all(bank, &self_test(bank), 0, lang, Rounds::None);
    let closing: Vec<_> = bank
        .self_test_rounds
        .iter()
        .filter_map(|id| bank.find(id))
        .collect();
    let (more, failed) = prepare_all(bank, &closing, 0, lang, Rounds::All);
    items.extend(more);
    errors.extend(failed);
    (items, errors)
}

/// Prepares the selected questions; a model question the engine cannot answer is left out and
/// reported rather than asked with an invented answer.
pub fn prepare_all(
    bank: &Bank,
    picked: &[(&DeckFile, &Question)],
    seed: u64,
    lang: Lang,
    rounds: Rounds,
) -> (Vec<PreparedQuestion>, Vec<PrepareError>) {
    let mut items = Vec::new();
    let mut errors = Vec::new();
    for (d, q) in picked {
        match item::prepare(d, q, seed, lang, &bank.presets, rounds) {
            Ok(i) => items.push(i),
            Err(e) => errors.push(e),
        }
    }
    (items, errors)
}
