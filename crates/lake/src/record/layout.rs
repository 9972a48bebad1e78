//! The names of a recording, relative to its destination:
//!
//! ```text
//! date=2026-11-24/part-20261124T101500.123456Z-3f9a-000017.parquet   one closed file
//! date=2026-11-23/day-2026-11-23.parquet                              a compacted day
//! date=2026-11-22/backfill-<curve>-20261125T093000.000001Z-7c2e.parquet   one curve's day, backfilled
//! _checkpoint.json   the last value kept per curve and tenor, and the files it counts
//! _status.json       for monitoring
//! _lock              held by the recorder writing into the folder (lock.rs)
//! ```
//!
//! Days are UTC days of `generated_on`, as Hive partitions, so that
//! `pyarrow.dataset.dataset(dest, partitioning="hive")` reads the data.
//! A part's name begins with the time it was closed, so names sort in the
//! order files were written; the run's random tag and a counter keep two
//! runs, or two files of one run in one microsecond, apart. Readers skip
//! names that begin with `.` or `_` (pyarrow does too): temporary files and
//! the recorder's own notes.
//!
//! A backfilled file holds one curve's values of one day, fetched from the
//! historical intraday endpoint (`crate::backfill`); `<curve>` is a digest
//! of the curve id (an id may hold any character but a control). The
//! recorder's compaction leaves these files alone: their notes say which
//! tenors' days are complete, which a merged file would blur.

use chrono::{DateTime, NaiveDate};

use domain::timestamp::Micros;

pub const CHECKPOINT: &str = "_checkpoint.json";
pub const STATUS: &str = "_status.json";

/// What a data file of the recording is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FileKind {
    /// Ticks as recorded, one file per rotation.
    Part,
    /// A day's parts merged into one by compaction.
    Day,
    /// One curve's values of a day, from the historical endpoint.
    Backfill,
}

/// A data file found in a recording.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DataFile {
    /// Relative to the destination, with `/` between parts.
    pub name: String,
    pub day: NaiveDate,
    pub kind: FileKind,
}

pub fn utc_day(at: Micros) -> NaiveDate {
    DateTime::from_timestamp_micros(at)
        .unwrap_or_default()
        .date_naive()
}

fn partition(day: NaiveDate) -> String {
    format!("date={}", day.format("%Y-%m-%d"))
}

/// The name of a part of `day` closed at `closed` (wall clock).
pub fn part_name(day: NaiveDate, closed: Micros, run: &str, sequence: u64) -> String {
    let closed = DateTime::from_timestamp_micros(closed).unwrap_or_default();
    format!(
        "{}/part-{}-{run}-{sequence:06}.parquet",
        partition(day),
        closed.format("%Y%m%dT%H%M%S%.6fZ")
    )
}

/// The name of `day`'s compacted file.
pub fn day_name(day: NaiveDate) -> String {
    format!("{}/day-{}.parquet", partition(day), day.format("%Y-%m-%d"))
}

/// The digest of a curve id in the names of its backfilled files: 16 hex
/// digits (64 bits), enough to keep a desk's curves apart.
pub fn curve_tag(curve_id: &str) -> String {
    places::digest::digest(curve_id)[..16].to_owned()
}

/// The name of a file of `curve_id`'s backfilled values of `day`, written
/// at `written` (wall clock) by a writer tagged `tag`.
pub fn backfill_name(day: NaiveDate, curve_id: &str, written: Micros, tag: &str) -> String {
    let written = DateTime::from_timestamp_micros(written).unwrap_or_default();
    format!(
        "{}/{BACKFILL_PREFIX}{}-{}-{tag}.parquet",
        partition(day),
        curve_tag(curve_id),
        written.format("%Y%m%dT%H%M%S%.6fZ")
    )
}

/// The curve digest in a backfilled file's name.
pub fn backfill_curve_tag(name: &str) -> Option<&str> {
    let file = name.rsplit('/').next()?;
    let tag = file.strip_prefix(BACKFILL_PREFIX)?.split('-').next()?;
    (tag.len() == 16).then_some(tag)
}

/// The folder of `day`'s files, relative to the destination.
pub fn day_folder(day: NaiveDate) -> String {
    partition(day)
}

const BACKFILL_PREFIX: &str = "backfill-";

/// Whether a name (any part of a path) is one readers skip.
pub fn hidden(name: &str) -> bool {
    name.split('/')
        .any(|part| part.starts_with('.') || part.starts_with('_'))
}

/// The data file a relative name is, if it is one.
pub fn data_file(name: &str) -> Option<DataFile> {
    if hidden(name) {
        return None;
    }
    let (folder, file) = name.split_once('/')?;
    let day = NaiveDate::parse_from_str(folder.strip_prefix("date=")?, "%Y-%m-%d").ok()?;
    let stem = file.strip_suffix(".parquet")?;
    let kind = if stem.starts_with("part-") {
        FileKind::Part
    } else if stem == format!("day-{}", day.format("%Y-%m-%d")) {
        FileKind::Day
    } else if backfill_curve_tag(name).is_some() {
        FileKind::Backfill
    } else {
        return None;
    };
    Some(DataFile {
        name: name.to_owned(),
        day,
        kind,
    })
}

#[cfg(test)]
#[path = "layout_tests.rs"]
mod tests;
