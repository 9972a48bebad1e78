//! The names of a recording, relative to its destination:
//!
//! ```text
//! date=2026-11-24/part-20261124T101500.123456Z-3f9a-000017.parquet   one closed file
//! date=2026-11-23/day-2026-11-23.parquet                              a compacted day
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
