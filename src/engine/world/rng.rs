//! The World's one seeded generator, and a wrapper for bookkeeping that equality ignores.

/// The seeded generator, compared and hashed by how many values it has given: with one seed,
/// that count fixes its state.
#[derive(Debug, Clone)]
pub struct Rng {
    inner: rand::rngs::Xoshiro256PlusPlus,
    draws: u32,
}

impl Rng {
    pub fn new(seed: u64) -> Self {
        use rand::SeedableRng;
        Self {
            inner: rand::rngs::Xoshiro256PlusPlus::seed_from_u64(seed),
            draws: 0,
        }
    }

    pub fn next_u32(&mut self) -> u32 {
        use rand::Rng as _;
        self.draws += 1;
        self.inner.next_u32()
    }
}

impl PartialEq for Rng {
    fn eq(&self, other: &Self) -> bool {
        self.draws == other.draws
    }
}
impl Eq for Rng {}
impl std::hash::Hash for Rng {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.draws.hash(h)
    }
}

/// A value kept for scheduling or the trace that two otherwise equal states may differ in:
/// it never takes part in comparison or hashing.
#[derive(Debug, Clone, Copy, Default)]
pub struct Bookkeeping<T>(pub T);

impl<T> PartialEq for Bookkeeping<T> {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}
impl<T> Eq for Bookkeeping<T> {}
impl<T> std::hash::Hash for Bookkeeping<T> {
    fn hash<H: std::hash::Hasher>(&self, _: &mut H) {}
}
