//! The question bank and question selection: by deck, topic, "due for review", or a mixed exam
//! of N, in an order fixed by the seed.

use std::collections::BTreeMap;

use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;
use rand::seq::SliceRandom;

use super::item::{self, Item, PrepareError};
use super::sched::{self, Calendar, Card, Time};
use crate::content::deck::{self, DeckFile, Question};
use crate::i18n::Lang;
use crate::preset::{self, Preset};
use crate::source::Source;

/// Every deck and the presets model questions may name.
#[derive(Debug, Clone)]
pub struct Bank {
    pub decks: Vec<DeckFile>,
    pub presets: Vec<Preset>,
}

impl Bank {
    /// Loads every deck; the first deck that fails to parse is the error (`locklab check` lists
    /// them all).
    pub fn load(source: &Source) -> Result<Bank, String> {
        let presets = preset::load_all(source).map_err(|e| e.to_string())?;
        let mut decks = Vec::new();
        for d in deck::load_all(source).map_err(|e| e.to_string())? {
            decks.push(d.map_err(|e| e.to_string())?);
        }
        Ok(Bank { decks, presets })
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
        picked.truncate(n);
    }
    Ok(picked)
}

/// Prepares the selected questions; a model question the engine cannot answer is left out and
/// reported rather than asked with an invented answer.
pub fn prepare_all(
    bank: &Bank,
    picked: &[(&DeckFile, &Question)],
    seed: u64,
    lang: Lang,
) -> (Vec<Item>, Vec<PrepareError>) {
    let mut items = Vec::new();
    let mut errors = Vec::new();
    for (d, q) in picked {
        match item::prepare(d, q, seed, lang, &bank.presets) {
            Ok(i) => items.push(i),
            Err(e) => errors.push(e),
        }
    }
    (items, errors)
}
