//! A pack: the final days of many tenors of one curve in one file, so that
//! a call over a store reads a curve's days with one request, not one per
//! tenor (a store answers in milliseconds what a folder answers in
//! microseconds: the number of objects a call reads is its cost).
//!
//! A pack is written by a call that has its tenors' final days in hand (a
//! cold pull, or a warm one that read many files), from the table it
//! returns: no request of the service more. It lives in the curve's folder
//! beside the tenors' folders, `<first>_<last>_<digest>.pack.parquet`
//! (`first` and `last` the widest days of its tenors, the digest of its
//! tenors and their days, so that two packs of different contents never
//! share a name), and never replaces the tenors' segments: it is an index
//! that a reader takes when it is there and whole, and a reader that does
//! not know packs ignores.
//!
//! Its note names each tenor it holds and the days of it (every final day
//! of `first..=last`, rows or none), with its rows; its rows are the
//! tenors' in the note's order, each tenor's in day order. A pack is
//! trusted only if it reads whole and its rows are exactly what its note
//! says, as a segment is (`segment`).

use std::collections::HashMap;
use std::io;
use std::path::{Path, PathBuf};

use arrow_array::cast::AsArray;
use arrow_array::{Array, RecordBatch};
use bytes::Bytes;
use chrono::NaiveDate;
use serde::{Deserialize, Serialize};

use super::days::{in_day_order, row_days, to_epoch_days};
use super::files::{Files, Put, Written};
use super::layout::History;
use super::noted;
use super::segment::ReadError;
use domain::arrow::{compact_dictionaries, schema};
use places::digest::digest;

/// The key of every cache file's note (a pack's says more: its tenors).
const NOTE_KEY: &str = "marketcurves.cache";
const NOTE_VERSION: u32 = 1;
const SUFFIX: &str = ".pack.parquet";

/// A pack's file, as its name describes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PackFile {
    pub path: PathBuf,
    pub first: NaiveDate,
    pub last: NaiveDate,
}

impl PackFile {
    /// The file of a pack of `tenors` (each with its days) in `curve_dir`.
    pub fn of(curve_dir: &Path, tenors: &[TenorDays]) -> Option<PackFile> {
        let first = tenors.iter().map(|t| t.first).min()?;
        let last = tenors.iter().map(|t| t.last).max()?;
        let what: Vec<String> = tenors
            .iter()
            .map(|t| format!("{}\n{}\n{}", t.tenor, t.first, t.last))
            .collect();
        let key = &digest(&what.join("\n"))[..12];
        Some(PackFile {
            path: curve_dir.join(format!("{first}_{last}_{key}{SUFFIX}")),
            first,
            last,
        })
    }

    /// The pack a file name in a curve's folder describes.
    pub fn from_name(curve_dir: &Path, name: &str) -> Option<PackFile> {
        let mut parts = name.strip_suffix(SUFFIX)?.splitn(3, '_');
        let first: NaiveDate = parts.next()?.parse().ok()?;
        let last: NaiveDate = parts.next()?.parse().ok()?;
        let key = parts.next()?;
        let plain = !key.is_empty() && key.bytes().all(|b| b.is_ascii_alphanumeric());
        (plain && first <= last).then(|| PackFile {
            path: curve_dir.join(name),
            first,
            last,
        })
    }
}

/// The days of one tenor a pack holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TenorDays {
    pub tenor: String,
    pub first: NaiveDate,
    pub last: NaiveDate,
}

/// What a pack says it holds.
#[derive(Debug, PartialEq, Serialize, Deserialize)]
struct Note {
    version: u32,
    history: String,
    curve_id: String,
    tenors: Vec<TenorNote>,
}

#[derive(Debug, PartialEq, Serialize, Deserialize)]
struct TenorNote {
    tenor: String,
    first: String,
    last: String,
    rows: usize,
}

/// A pack read whole and checked: each tenor's days and rows.
#[derive(Debug)]
pub struct Pack {
    pub file: PackFile,
    tenors: HashMap<String, (TenorDays, RecordBatch)>,
}

impl Pack {
    /// The tenors it holds, with their days.
    pub fn spans(&self) -> impl Iterator<Item = &TenorDays> {
        self.tenors.values().map(|(days, _)| days)
    }

    /// The rows of `tenor` (all its days), if it holds the tenor.
    pub fn rows(&self, tenor: &str) -> Option<Vec<RecordBatch>> {
        let (_, batch) = self.tenors.get(tenor)?;
        Some(vec![batch.clone()])
    }
}

/// Writes a pack of `tenors`, each with its rows (in day order, within its
/// days), whole or not at all.
pub fn write(
    files: &Files,
    file: &PackFile,
    put: Put,
    (history, curve_id): (History, &str),
    tenors: &[(TenorDays, Vec<RecordBatch>)],
) -> io::Result<Written> {
    let note = Note {
        version: NOTE_VERSION,
        history: history.name().into(),
        curve_id: curve_id.into(),
        tenors: tenors
            .iter()
            .map(|(days, batches)| TenorNote {
                tenor: days.tenor.clone(),
                first: days.first.to_string(),
                last: days.last.to_string(),
                rows: batches.iter().map(RecordBatch::num_rows).sum(),
            })
            .collect(),
    };
    let batches: Vec<RecordBatch> = tenors
        .iter()
        .flat_map(|(_, b)| b.iter().filter(|b| b.num_rows() > 0).cloned())
        .collect();
    let schema = schema(history.table_kind());
    noted::write(files, &file.path, put, (schema, &batches), NOTE_KEY, &note)
}

/// A pack from what reading its file gave, checked against its note: Err
/// as a segment's read (`segment::from_file`).
pub fn from_file(
    bytes: io::Result<Option<Bytes>>,
    store: bool,
    file: &PackFile,
    (history, curve_id): (History, &str),
) -> Result<Pack, ReadError> {
    let bytes = match bytes {
        Ok(Some(bytes)) => bytes,
        Ok(None) => return Err(ReadError::Gone),
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Err(ReadError::Gone),
        Err(e) if store => return Err(ReadError::Unanswered(e.to_string())),
        Err(e) => return Err(ReadError::Corrupt(format!("cannot open it: {e}"))),
    };
    let corrupt = ReadError::Corrupt;
    let (builder, note): (_, Note) = noted::open(bytes, NOTE_KEY).map_err(corrupt)?;
    let expected = schema(history.table_kind());
    let total = builder.metadata().file_metadata().num_rows().max(1) as usize;
    let reader = builder
        .with_batch_size(total)
        .build()
        .map_err(|e| corrupt(format!("cannot read it: {e}")))?;
    let mut batches = Vec::new();
    for batch in reader {
        let batch = batch.map_err(|e| corrupt(format!("cannot read it: {e}")))?;
        let batch = RecordBatch::try_new(expected.clone(), batch.columns().to_vec())
            .map_err(|e| corrupt(format!("not a {} table: {e}", history.name())))?;
        batches.push(batch);
    }
    let all = arrow_select::concat::concat_batches(&expected, &batches)
        .map_err(|e| corrupt(format!("cannot read it: {e}")))?;
    if note.version != NOTE_VERSION || note.history != history.name() || note.curve_id != curve_id {
        return Err(corrupt(format!(
            "it says it holds {} of {} (version {}), not {} of {curve_id}",
            note.history,
            note.curve_id,
            note.version,
            history.name()
        )));
    }
    let noted_rows: usize = note.tenors.iter().map(|t| t.rows).sum();
    if noted_rows != all.num_rows() {
        return Err(corrupt(format!(
            "it says it holds {noted_rows} rows, but has {}",
            all.num_rows()
        )));
    }
    let mut tenors = HashMap::new();
    let mut offset = 0;
    for noted in note.tenors {
        let days =
            tenor_days(&noted).ok_or_else(|| corrupt("its note's days do not read".into()))?;
        // Each tenor's rows as a fetch gives them: their own dictionaries.
        let rows = compact_dictionaries(all.slice(offset, noted.rows))
            .map_err(|e| corrupt(format!("cannot read it: {e}")))?;
        offset += noted.rows;
        check_rows(&rows, &days, history).map_err(corrupt)?;
        let (within_name, tenor) = (
            file.first <= days.first && days.last <= file.last,
            &noted.tenor,
        );
        if !within_name || tenors.contains_key(tenor) {
            return Err(corrupt(format!(
                "its note's {tenor} is not what its name says"
            )));
        }
        tenors.insert(noted.tenor.clone(), (days, rows));
    }
    Ok(Pack {
        file: file.clone(),
        tenors,
    })
}

fn tenor_days(noted: &TenorNote) -> Option<TenorDays> {
    let (first, last) = (noted.first.parse().ok()?, noted.last.parse().ok()?);
    (first <= last).then(|| TenorDays {
        tenor: noted.tenor.clone(),
        first,
        last,
    })
}

/// Whether a tenor's rows are its own, in day order, within its days.
fn check_rows(rows: &RecordBatch, days: &TenorDays, history: History) -> Result<(), String> {
    let names = rows
        .column_by_name("tenor")
        .and_then(|c| c.as_string_opt::<i32>())
        .ok_or("it has no tenor column")?;
    if (0..names.len()).any(|i| names.is_null(i) || names.value(i) != days.tenor) {
        return Err(format!(
            "rows noted as {}'s are another tenor's",
            days.tenor
        ));
    }
    let row_days = row_days(rows, history);
    let (first, last) = (to_epoch_days(days.first), to_epoch_days(days.last));
    let inside = row_days
        .iter()
        .flatten()
        .all(|d| (first..=last).contains(d));
    if !in_day_order(&row_days) || !inside {
        return Err(format!("{}'s rows are not its days, in order", days.tenor));
    }
    Ok(())
}

#[cfg(test)]
#[path = "pack_tests.rs"]
mod tests;
