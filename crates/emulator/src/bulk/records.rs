//! Which records a bulk file holds: every end-of-day London snapshot of every
//! curve of the vertical that the licence covers, for every tenor the curve
//! offers that day, over the business days of one month. They are the very
//! records `GET /historical/settlements` serves.

use std::collections::BTreeSet;

use chrono::NaiveDate;

use crate::calendar::days;
use crate::hash::{combine, of_str, uuid};
use crate::world::contracts::contracts;
use crate::world::curves::Curve;
use crate::world::prices::Stamp;
use crate::world::{World, FIRST_DAY};
use domain::month::Month;
use domain::rows::Snapshot;
use domain::tenor::Tenor;
use domain::timestamp::Micros;
use domain::vocabulary::{Vertical, VERTICALS};

/// A job only covers months that ended before it was submitted, so every
/// snapshot of them is out: reading them "as of the end of time" gives the
/// same records and keeps the file independent of when it is built.
const EVERYTHING_PUBLISHED: Micros = Micros::MAX;

/// What a file's content depends on (with the world's seed): two jobs with
/// the same key share one file.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct FileKey {
    /// The bulk spelling of the vertical (`FUEL_OIL`).
    pub vertical: &'static str,
    pub month: Month,
    /// Quotations outside the licence of the job's account.
    pub denied: BTreeSet<String>,
    /// How many curves the catalogue had when the job was submitted: curves
    /// added later are not in its files.
    pub curves: usize,
}

impl FileKey {
    pub fn vertical(&self) -> &'static Vertical {
        VERTICALS
            .iter()
            .find(|v| v.bulk_name == self.vertical)
            .expect("keys are made from known verticals")
    }
}

/// One snapshot of one curve and tenor.
pub(crate) struct SnapshotRecord<'a> {
    pub curve: &'a Curve,
    pub tenor: Tenor,
    pub stamp: Stamp,
}

impl SnapshotRecord<'_> {
    /// The record's identifier: a UUID-shaped hash of what identifies it, so
    /// that the same record has the same id in every file and every run.
    pub(crate) fn id(&self) -> String {
        uuid(combine(&[
            self.curve.key,
            of_str(self.tenor.name()),
            self.stamp.at as u64,
            of_str("bulk-record"),
        ]))
    }
}

/// The curves of a file, in catalogue order.
fn curves<'a>(world: &'a World, key: &'a FileKey) -> impl Iterator<Item = &'a Curve> + 'a {
    world
        .curves
        .iter()
        .take(key.curves)
        .filter(move |c| c.vertical.bulk_name == key.vertical)
        .filter(move |c| !key.denied.contains(c.quotation))
}

/// The days of the file's month, oldest first; none before history starts.
pub(crate) fn file_days(key: &FileKey) -> impl Iterator<Item = NaiveDate> {
    days(key.month.first_day().max(FIRST_DAY), key.month.last_day())
}

/// The records of one day of a file: curve by curve, tenors in calendar order.
pub(crate) fn day_records<'a>(
    world: &'a World,
    key: &'a FileKey,
    day: NaiveDate,
) -> impl Iterator<Item = SnapshotRecord<'a>> + 'a {
    curves(world, key).flat_map(move |curve| {
        contracts(curve, day).into_iter().filter_map(move |tenor| {
            let stamp =
                world.snapshot(curve, &tenor, day, Snapshot::London, EVERYTHING_PUBLISHED)?;
            Some(SnapshotRecord {
                curve,
                tenor,
                stamp,
            })
        })
    })
}

/// How many rows the file of `key` has, without building it.
pub(crate) fn count_rows(world: &World, key: &FileKey) -> u64 {
    file_days(key)
        .map(|day| day_records(world, key, day).count() as u64)
        .sum()
}

#[cfg(test)]
#[path = "records_tests.rs"]
mod tests;
