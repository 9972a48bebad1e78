//! Compaction: a closed day's files merged into one, `day-<date>.parquet`,
//! its rows sorted by curve, tenor and time.
//!
//! The compacted file is written whole first, its note naming the parts it
//! replaces; only then are they deleted. A compaction cut short in between
//! leaves parts that the next start of the recorder, the next compaction
//! and `read_ticks` all recognise and skip, so no tick is ever counted
//! twice by them. (A plain Parquet reader would see those ticks twice until
//! then.) Two compactions of one day must not run at once: the recorder
//! compacts only days it has closed, so run `marketcurves compact` on
//! days a running recorder has not compacted itself, or while none runs.

use chrono::NaiveDate;
use serde::Serialize;

use super::checkpoint::data_files;
use super::file::{batch_rows, decode, encode, recorded_rows_to_batch, FileNote, Recorded};
use super::layout::{day_name, DataFile, FileKind};
use domain::tenor::Tenor;
use places::storage::{Operation, Place, PlaceError};

/// What compacting one day did.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CompactedDay {
    pub day: NaiveDate,
    /// The files merged (the day's earlier compacted file among them).
    pub files: usize,
    pub rows: u64,
}

/// Compacts every day before `before` that has more than one file.
/// Backfilled files are left as they are (`layout`).
pub async fn compact(dest: &Place, before: NaiveDate) -> Result<Vec<CompactedDay>, PlaceError> {
    let mut files = data_files(dest).await?;
    files.retain(|f| f.kind != FileKind::Backfill);
    let mut days: Vec<NaiveDate> = files
        .iter()
        .map(|f| f.day)
        .filter(|d| *d < before)
        .collect();
    days.sort();
    days.dedup();
    let mut done = Vec::new();
    for day in days {
        let of_day: Vec<DataFile> = files.iter().filter(|f| f.day == day).cloned().collect();
        if of_day.len() > 1 {
            done.push(compact_day(dest, day, &of_day).await?);
        }
    }
    Ok(done)
}

/// Merges `files` (all of `day`) into the day's compacted file.
pub async fn compact_day(
    dest: &Place,
    day: NaiveDate,
    files: &[DataFile],
) -> Result<CompactedDay, PlaceError> {
    let mut rows: Vec<Recorded> = Vec::new();
    let mut note = FileNote::default();
    for file in files {
        let bytes = dest
            .get(&file.name)
            .await?
            .ok_or_else(|| PlaceError::new(&file.name, Operation::Gone("compacting"), ""))?;
        let (batches, file_note) =
            decode(bytes).map_err(|e| PlaceError::new(&file.name, Operation::Compact, e))?;
        for batch in &batches {
            rows.extend(
                batch_rows(batch)
                    .map_err(|e| PlaceError::new(&file.name, Operation::Compact, e))?,
            );
        }
        for ((curve_id, tenor), at) in file_note.map(|n| n.last).unwrap_or_default() {
            note.saw(&curve_id, &tenor, at);
        }
        if file.kind == FileKind::Part {
            note.replaces.push(file.name.clone());
        }
    }
    sort_rows(&mut rows);
    note.rows = rows.len() as u64;
    for row in &rows {
        note.saw(&row.tick.curve_id, &row.tick.tenor, row.tick.generated_on);
    }
    let batch = recorded_rows_to_batch(&rows).map_err(PlaceError::encoding)?;
    let bytes = encode(&[batch], &note).map_err(PlaceError::encoding)?;
    dest.put(&day_name(day), bytes).await?;
    for name in &note.replaces {
        dest.delete(name).await?;
    }
    log::info!(
        target: "marketcurves.record",
        "compacted {day}: {} files, {} ticks, into {}",
        files.len(),
        note.rows,
        day_name(day)
    );
    Ok(CompactedDay {
        day,
        files: files.len(),
        rows: note.rows,
    })
}

/// By curve, tenor in calendar order, then time (then arrival).
pub fn sort_rows(rows: &mut [Recorded]) {
    rows.sort_by_cached_key(|row| {
        let tick = &row.tick;
        let order = Tenor::parse_lenient(&tick.tenor).sort_key();
        (
            std::sync::Arc::clone(&tick.curve_id),
            order,
            std::sync::Arc::clone(&tick.tenor),
            tick.generated_on,
            row.recorded_at,
        )
    });
}

#[cfg(test)]
#[path = "compact_tests.rs"]
mod tests;
