//! One segment file: the rows of some final days of one tenor, as Parquet
//! any engine reads, with a note in the footer saying what it holds. A
//! file is trusted only if it reads whole and agrees with that note and
//! with its name: anything else (cut short, damaged, another version's) is
//! corrupt, and its days are fetched again.

use std::io;

use arrow_array::RecordBatch;
use bytes::Bytes;
use serde::{Deserialize, Serialize};

use super::days::{in_day_order, row_days, to_epoch_days};
use super::files::{Files, Put, Written};
use super::layout::{History, Segment};
use super::noted;
use domain::arrow::{compact_dictionaries, schema};

/// The footer key of the note.
const NOTE_KEY: &str = "marketcurves.cache";
const NOTE_VERSION: u32 = 1;

/// What a segment says it holds.
#[derive(Debug, PartialEq, Serialize, Deserialize)]
struct Note {
    version: u32,
    history: String,
    curve_id: String,
    tenor: String,
    first: String,
    last: String,
    rows: usize,
}

impl Note {
    fn of(history: History, curve_id: &str, tenor: &str, segment: &Segment, rows: usize) -> Note {
        Note {
            version: NOTE_VERSION,
            history: history.name().into(),
            curve_id: curve_id.into(),
            tenor: tenor.into(),
            first: segment.first.to_string(),
            last: segment.last.to_string(),
            rows,
        }
    }
}

/// Why a segment could not be used.
#[derive(Debug)]
pub enum ReadError {
    /// Gone since it was listed: another writer merged it away.
    Gone,
    /// Unreadable, or not what it says: the reason.
    Corrupt(String),
    /// A store that did not answer: its days are fetched, the object left
    /// alone (it may well be whole).
    Unanswered(String),
}

/// Writes the rows of `batches` (which must all be within the segment's
/// days, in day order) as the segment's file: `Put::Create` unless the
/// caller means to replace what the service said before (a refresh).
pub fn write(
    files: &Files,
    segment: &Segment,
    put: Put,
    (history, curve_id, tenor): (History, &str, &str),
    batches: &[RecordBatch],
) -> io::Result<Written> {
    let rows = batches.iter().map(RecordBatch::num_rows).sum();
    let note = Note::of(history, curve_id, tenor, segment, rows);
    let schema = schema(history.table_kind());
    noted::write(
        files,
        &segment.path,
        put,
        (schema, batches),
        NOTE_KEY,
        &note,
    )
}

/// Reads a segment whole, one batch per row group (joining them would
/// copy every buffer), checked against its note and its name.
pub fn read(
    files: &Files,
    segment: &Segment,
    history: History,
    curve_id: &str,
    tenor: &str,
) -> Result<Vec<RecordBatch>, ReadError> {
    let file = files.read(&segment.path);
    from_file(file, files.is_store(), segment, (history, curve_id, tenor))
}

/// A segment from what reading its file gave (`Files::read`), checked as
/// [`read`] checks it; `store` if it came from a store.
pub fn from_file(
    file: io::Result<Option<Bytes>>,
    store: bool,
    segment: &Segment,
    (history, curve_id, tenor): (History, &str, &str),
) -> Result<Vec<RecordBatch>, ReadError> {
    let file = match file {
        Ok(Some(bytes)) => bytes,
        Ok(None) => return Err(ReadError::Gone),
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Err(ReadError::Gone),
        Err(e) if store => return Err(ReadError::Unanswered(e.to_string())),
        Err(e) => return Err(ReadError::Corrupt(format!("cannot open it: {e}"))),
    };
    let corrupt = |why: String| ReadError::Corrupt(why);
    let (builder, note): (_, Note) = noted::open(file, NOTE_KEY).map_err(corrupt)?;
    let expected_schema = schema(history.table_kind());
    let largest_group = builder
        .metadata()
        .row_groups()
        .iter()
        .map(|group| group.num_rows())
        .max()
        .unwrap_or(0);
    let reader = builder
        .with_batch_size((largest_group as usize).max(1))
        .build()
        .map_err(|e| corrupt(format!("cannot read it: {e}")))?;
    let mut batches = Vec::new();
    for batch in reader {
        let batch = batch.map_err(|e| corrupt(format!("cannot read it: {e}")))?;
        // The table's own schema, without the file's metadata: a cached
        // table is the very table a fetch gives.
        let batch = RecordBatch::try_new(expected_schema.clone(), batch.columns().to_vec())
            .and_then(compact_dictionaries)
            .map_err(|e| corrupt(format!("not a {} table: {e}", history.name())))?;
        batches.push(batch);
    }
    let rows = batches.iter().map(RecordBatch::num_rows).sum();
    let expected = Note::of(history, curve_id, tenor, segment, rows);
    if note != expected {
        return Err(corrupt(format!(
            "it says it holds {note:?}, but its name and rows say {expected:?}"
        )));
    }
    let days: Vec<Option<i32>> = batches
        .iter()
        .flat_map(|batch| row_days(batch, history))
        .collect();
    let (first, last) = (to_epoch_days(segment.first), to_epoch_days(segment.last));
    let inside = days.iter().flatten().all(|d| (first..=last).contains(d));
    if !in_day_order(&days) || !inside {
        return Err(corrupt("its rows are not its days, in order".into()));
    }
    Ok(batches)
}

#[cfg(test)]
#[path = "segment_tests.rs"]
mod tests;
