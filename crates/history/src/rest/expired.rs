//! Contracts that have left the catalogue's list: their names come from the
//! shapes the curve lists and the range asked for (`Tenor::range`), and one
//! the service does not know (404) is skipped, noted in the table's schema
//! metadata and logged, rather than failing the whole pull.

use std::collections::{BTreeSet, HashSet};
use std::sync::{Arc, Mutex};

use chrono::NaiveDate;

use domain::arrow::Table;
use domain::tenor::{Tenor, TenorKind};
use places::ClientError;

/// The schema metadata key under which a table lists the tenors skipped,
/// as a JSON array of names.
pub const SKIPPED_TENORS: &str = "marketcurves.skipped_tenors";

/// The calendar tenors of the kinds `listed` has, overlapping
/// `start..=end`, that `listed` does not name; in calendar order.
pub fn expired_tenors(listed: &[Tenor], start: NaiveDate, end: NaiveDate) -> Vec<Tenor> {
    let kinds: BTreeSet<&str> = listed
        .iter()
        .map(Tenor::kind)
        .filter(|k| matches!(k, TenorKind::Month | TenorKind::Quarter | TenorKind::Window))
        .map(TenorKind::as_str)
        .collect();
    let names: HashSet<&str> = listed.iter().map(Tenor::name).collect();
    let mut out: Vec<Tenor> = kinds
        .into_iter()
        .flat_map(|kind| Tenor::range(kind, start, end).unwrap_or_default())
        .filter(|t| !names.contains(t.name()))
        .collect();
    out.sort();
    out
}

/// The tenors a pull skipped because the service did not know them.
#[derive(Clone, Default)]
pub struct Skipped(Arc<Mutex<Vec<String>>>);

impl Skipped {
    /// Whether the error of `tenor` is one to skip; if so it is noted.
    pub fn skip(&self, tenor: &Tenor, error: &ClientError) -> bool {
        if !matches!(error, ClientError::NotFound { .. }) {
            return false;
        }
        self.0
            .lock()
            .expect("not poisoned")
            .push(tenor.name().to_owned());
        true
    }

    /// The table with the skipped tenors in its schema's metadata (and a
    /// warning logged), or as it was when none were.
    pub fn mark(&self, curve_id: &str, table: Table) -> Table {
        let mut names = self.0.lock().expect("not poisoned").clone();
        if names.is_empty() {
            return table;
        }
        names.sort_by_cached_key(|n| Tenor::parse_lenient(n));
        log::warn!(
            target: "marketcurves.rest",
            "curve {curve_id}: the service does not know {} tenor(s), skipped: {}",
            names.len(),
            names.join(", ")
        );
        super::unlisted::noted(table, SKIPPED_TENORS, &names)
    }
}

#[cfg(test)]
#[path = "expired_tests.rs"]
mod tests;
