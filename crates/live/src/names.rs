//! The (curve, tenor) pairs a feed has seen, each named by a small integer
//! for the life of the feed, and the values the queue holds under it.
//!
//! The session and the consumer run on different threads. A value that
//! carried its names as shared strings cost two reference counts raised by
//! the session and lowered by the consumer, on the same few counters, so
//! that every value moved their cache lines from one core to the other; and
//! the queue hashed those strings to conflate. A [`Row`] carries a
//! [`NameKey`] instead: the names are looked up once per read, not per
//! value, and only a read that hands out [`Tick`]s takes references.

use std::sync::{Arc, RwLock, RwLockReadGuard};

use super::tick::{Tick, TickSource};
use domain::timestamp::Micros;

/// A (curve, tenor) pair of a feed: an index into its [`Names`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct NameKey(u32);

impl NameKey {
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// A key made up by a test, with no [`Names`] behind it.
    #[cfg(test)]
    pub fn from_index(index: u32) -> NameKey {
        NameKey(index)
    }
}

/// One delivered value as the session produces it and the queue holds it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Row {
    pub key: NameKey,
    pub generated_on: Micros,
    pub price: f64,
    pub source: TickSource,
}

pub struct Pair {
    pub curve_id: Arc<str>,
    pub tenor: Arc<str>,
}

/// Every pair named so far; a pair is added once and never removed, so a
/// key stays valid for the life of the feed.
#[derive(Default)]
pub struct Names {
    pairs: RwLock<Vec<Pair>>,
}

impl Names {
    /// Names a pair not named before (the book keeps the key).
    pub fn add(&self, curve_id: &Arc<str>, tenor: &Arc<str>) -> NameKey {
        let mut pairs = self
            .pairs
            .write()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        // A feed would run out of memory for its tenors long before this.
        let key = NameKey(u32::try_from(pairs.len()).expect("fewer than 2^32 tenors"));
        pairs.push(Pair {
            curve_id: Arc::clone(curve_id),
            tenor: Arc::clone(tenor),
        });
        key
    }

    /// The pairs as they are now, for the rows of one read. The session
    /// waits on this only when it meets a tenor for the first time.
    pub fn read(&self) -> NamesRead<'_> {
        // Nothing that could panic runs under this lock; a poisoned one is intact.
        NamesRead(
            self.pairs
                .read()
                .unwrap_or_else(|poisoned| poisoned.into_inner()),
        )
    }
}

pub struct NamesRead<'a>(RwLockReadGuard<'a, Vec<Pair>>);

impl NamesRead<'_> {
    /// The pair of a key of this feed: the key was made before any row
    /// carrying it, so it is there.
    pub fn pair(&self, key: NameKey) -> &Pair {
        &self.0[key.index()]
    }

    pub fn tick(&self, row: &Row) -> Tick {
        let pair = self.pair(row.key);
        Tick {
            curve_id: Arc::clone(&pair.curve_id),
            tenor: Arc::clone(&pair.tenor),
            generated_on: row.generated_on,
            price: row.price,
            source: row.source,
        }
    }

    pub fn ticks(&self, rows: &[Row]) -> Vec<Tick> {
        rows.iter().map(|row| self.tick(row)).collect()
    }
}
