//! The curves a feed's batches name in their schema's metadata
//! (`domain::arrow::curves_key`): every curve subscribed to since the feed
//! opened, in the order first subscribed, as the catalogue describes it
//! (by id alone where the feed knows no description).
//!
//! The list only grows, as the feed's names do: a tick of a curve
//! unsubscribed since may still be queued, and its batch names it all the
//! same, so every curve of a batch is named (a batch may name a curve it
//! has no row of, as a history table names a curve asked for that returned
//! none). The schema is built when the list changes, once per curve, never
//! per batch: a batch takes an `Arc` of it.

use std::sync::{Mutex, MutexGuard};

use arrow_schema::SchemaRef;

use super::batch::live_schema;
use domain::arrow::{schema_with_curves, NamedCurve};

pub struct FeedCurves {
    state: Mutex<State>,
}

struct State {
    curves: Vec<NamedCurve>,
    /// The live table's schema naming `curves`.
    schema: SchemaRef,
}

impl Default for FeedCurves {
    fn default() -> FeedCurves {
        FeedCurves {
            state: Mutex::new(State {
                curves: Vec::new(),
                schema: live_schema(),
            }),
        }
    }
}

impl FeedCurves {
    fn state(&self) -> MutexGuard<'_, State> {
        // Nothing that could panic runs under this lock; a poisoned one is intact.
        self.state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Whether `curve_id` is named with more than its id: a later
    /// subscription to it needs no look-up.
    pub fn described(&self, curve_id: &str) -> bool {
        self.state()
            .curves
            .iter()
            .any(|c| c.id == curve_id && !is_bare(c))
    }

    /// Names `curve`: added if new, its description replaced if it brings
    /// one (a description is never replaced by the id alone).
    pub fn name(&self, curve: NamedCurve) {
        let mut state = self.state();
        match state.curves.iter_mut().find(|c| c.id == curve.id) {
            Some(known) if *known == curve || is_bare(&curve) => return,
            Some(known) => *known = curve,
            None => state.curves.push(curve),
        }
        state.schema = schema_with_curves(&live_schema(), &state.curves);
    }

    /// The schema of the feed's batches now.
    pub fn schema(&self) -> SchemaRef {
        SchemaRef::clone(&self.state().schema)
    }
}

/// A curve named by its id alone.
fn is_bare(curve: &NamedCurve) -> bool {
    curve.name.is_none() && curve.units.is_none() && curve.quotation.is_none()
}

#[cfg(test)]
#[path = "curves_tests.rs"]
mod tests;
