//! A decoded price, ready for an Arrow table: one row per price record.

use std::cmp::Ordering;
use std::sync::Arc;

use chrono::NaiveDate;

use super::records::Dependency;
use super::tenor::Tenor;
use super::timestamp::Micros;

/// Which daily assessment a row is, in the order they are taken each UTC day.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Snapshot {
    Singapore,
    London,
    NewYork,
}

impl Snapshot {
    pub fn as_str(self) -> &'static str {
        match self {
            Snapshot::Singapore => "singapore",
            Snapshot::London => "london",
            Snapshot::NewYork => "new_york",
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct PriceRow {
    pub curve_id: Arc<str>,
    pub tenor: Tenor,
    /// The settlement day (historical settlements only).
    pub date: Option<NaiveDate>,
    /// The assessment (last assessments only).
    pub snapshot: Option<Snapshot>,
    pub generated_on: Option<Micros>,
    pub price: f64,
    pub units: Option<String>,
    pub dependencies: Option<Vec<Dependency>>,
    /// Entries in the order received; a value may be null.
    pub metadata: Option<Vec<(String, Option<String>)>>,
}

impl PriceRow {
    /// The order of rows in every table: curve, tenor in calendar order, then time.
    pub fn table_order(&self, other: &Self) -> Ordering {
        self.curve_id
            .cmp(&other.curve_id)
            .then_with(|| self.tenor.cmp(&other.tenor))
            .then_with(|| self.date.cmp(&other.date))
            .then_with(|| self.generated_on.cmp(&other.generated_on))
            .then_with(|| self.snapshot.cmp(&other.snapshot))
            // Two answers for one record (a value the service revised): the
            // order, and so which one is kept, does not depend on arrival.
            .then_with(|| self.price.total_cmp(&other.price))
    }

    /// Whether two rows are the same record: same curve, tenor, day,
    /// snapshot and time. A table keeps one of them.
    pub fn same_record(&self, other: &Self) -> bool {
        self.curve_id == other.curve_id
            && self.tenor.name() == other.tenor.name()
            && self.date == other.date
            && self.snapshot == other.snapshot
            && self.generated_on == other.generated_on
    }
}
