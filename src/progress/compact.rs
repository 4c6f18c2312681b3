//! Small pieces of the answer records that keep a long history cheap to hold in memory.
//!
//! A learner's file repeats the same few hundred question and deck ids across up to millions
//! of answers, so an id is a shared [`Name`] (one allocation per distinct id, handed out by an
//! [`Interner`] while a file loads). Keys this build does not know are kept in [`Extra`], which
//! costs one pointer when, as almost always, there are none.

use std::collections::HashSet;
use std::fmt;
use std::sync::Arc;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// An id shared between every record that names it.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Name(Arc<str>);

impl Name {
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl std::ops::Deref for Name {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl std::borrow::Borrow<str> for Name {
    fn borrow(&self) -> &str {
        &self.0
    }
}

impl AsRef<str> for Name {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl From<&str> for Name {
    fn from(s: &str) -> Self {
        Name(Arc::from(s))
    }
}

impl From<String> for Name {
    fn from(s: String) -> Self {
        Name(Arc::from(s))
    }
}

impl From<&String> for Name {
    fn from(s: &String) -> Self {
        Name(Arc::from(s.as_str()))
    }
}

impl PartialEq<str> for Name {
    fn eq(&self, other: &str) -> bool {
        &*self.0 == other
    }
}

impl PartialEq<&str> for Name {
    fn eq(&self, other: &&str) -> bool {
        &*self.0 == *other
    }
}

impl PartialEq<String> for Name {
    fn eq(&self, other: &String) -> bool {
        &*self.0 == other.as_str()
    }
}

impl fmt::Debug for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&*self.0, f)
    }
}

impl fmt::Display for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl Serialize for Name {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.0)
    }
}

impl<'de> Deserialize<'de> for Name {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        String::deserialize(d).map(Name::from)
    }
}

/// Hands out one shared [`Name`] per distinct id.
#[derive(Debug, Default)]
pub struct Interner(HashSet<Name>);

impl Interner {
    pub fn intern(&mut self, name: Name) -> Name {
        if let Some(have) = self.0.get(name.as_str()) {
            return have.clone();
        }
        self.0.insert(name.clone());
        name
    }
}

/// Keys of a record (or of the whole file) that this build does not know, written back as they
/// were read: a file from a newer locklab with the same layout, or edited by hand, loses nothing.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Extra(Option<Box<toml::Table>>);

impl Extra {
    pub fn is_empty(&self) -> bool {
        self.0.as_ref().is_none_or(|t| t.is_empty())
    }

    /// The unknown keys' names, for messages and tests.
    pub fn keys(&self) -> Vec<&str> {
        self.0
            .as_ref()
            .map(|t| t.keys().map(String::as_str).collect())
            .unwrap_or_default()
    }

    pub fn table(&self) -> Option<&toml::Table> {
        self.0.as_deref()
    }
}

impl From<toml::Table> for Extra {
    fn from(t: toml::Table) -> Self {
        Extra((!t.is_empty()).then(|| Box::new(t)))
    }
}

impl Serialize for Extra {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match &self.0 {
            Some(t) => t.serialize(s),
            None => s.collect_map(std::iter::empty::<(String, String)>()),
        }
    }
}

impl<'de> Deserialize<'de> for Extra {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        toml::Table::deserialize(d).map(Extra::from)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_shared_and_compare_as_text() {
        let mut i = Interner::default();
        let a = i.intern(Name::from("leases.a"));
        let b = i.intern(Name::from(String::from("leases.a")));
        assert!(Arc::ptr_eq(&a.0, &b.0));
        assert_eq!(a, "leases.a");
        assert_eq!(format!("{a} {a:?}"), "leases.a \"leases.a\"");
        assert_eq!(std::mem::size_of::<Name>(), 16);
        assert_eq!(std::mem::size_of::<Extra>(), 8);
    }
}
