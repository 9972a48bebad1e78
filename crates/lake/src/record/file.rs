//! One file of a recording: the ticks as Parquet, with a note in the footer
//! that says, for each curve and tenor in it, the time of its last value
//! (what a restart resumes from, readable from the footer alone), and for a
//! compacted day, the parts it replaces; for a backfilled file, which of
//! its tenors' days are complete.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use arrow_array::builder::{Float64Builder, StringBuilder, TimestampMicrosecondBuilder};
use arrow_array::{Array, RecordBatch, StringArray, TimestampMicrosecondArray};
use arrow_schema::{DataType, Field, FieldRef, Schema, SchemaRef};
use bytes::Bytes;
use parquet::arrow::arrow_reader::{
    ArrowReaderMetadata, ArrowReaderOptions, ParquetRecordBatchReader,
    ParquetRecordBatchReaderBuilder,
};
use parquet::file::metadata::ParquetMetaData;
use serde::{Deserialize, Serialize};

use domain::timestamp::{truncate_to_millis, Micros};
use live::{Tick, TickSource};
use places::storage::noted::{note_in, write_noted};

/// The footer key of the note.
pub const NOTE_KEY: &str = "marketcurves.ticks";

/// A tick as recorded: when the recorder received it, too.
#[derive(Clone, Debug, PartialEq)]
pub struct Recorded {
    pub tick: Tick,
    pub recorded_at: Micros,
}

/// `(curve_id, tenor)`.
pub type TenorKey = (String, String);

/// What a file's footer says of it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct FileNote {
    pub rows: u64,
    /// The last `generated_on` (truncated to milliseconds) per tenor.
    #[serde(with = "last_as_list")]
    pub last: BTreeMap<TenorKey, Micros>,
    /// For a compacted day, or a backfilled file written again: the files
    /// it replaces, relative to the destination.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub replaces: Vec<String>,
    /// For a backfilled file: the curve it holds...
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub curve_id: Option<String>,
    /// ...and its tenors whose day is complete: final, so never fetched again.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub complete: Vec<String>,
    /// The digest of its values, written with them (`rows_digest`), so
    /// that a reader can tell a note from a file whose rows were changed
    /// since; files written before it was added have none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub digest: Option<String>,
}

impl FileNote {
    pub fn of_rows(rows: &[Recorded]) -> FileNote {
        let mut note = FileNote {
            rows: rows.len() as u64,
            digest: Some(rows_digest(rows)),
            ..FileNote::default()
        };
        for row in rows {
            note.saw(&row.tick.curve_id, &row.tick.tenor, row.tick.generated_on);
        }
        note
    }

    /// What the rows of a file of `day` contradict in this note: its rows'
    /// count, their day, its curve, each tenor's last time, its digest. A
    /// footer is not the truth: a file copied into another day's folder,
    /// or cut short by another tool, keeps its note.
    pub fn disagrees(&self, day: chrono::NaiveDate, rows: &[Recorded]) -> Option<String> {
        if self.rows != rows.len() as u64 {
            return Some(format!(
                "its note says {} rows, and it holds {}",
                self.rows,
                rows.len()
            ));
        }
        let elsewhere: BTreeMap<chrono::NaiveDate, u64> =
            rows.iter().fold(BTreeMap::new(), |mut days, row| {
                let of = super::layout::utc_day(row.tick.generated_on);
                if of != day {
                    *days.entry(of).or_default() += 1;
                }
                days
            });
        if let Some((other, count)) = elsewhere.iter().next() {
            return Some(format!(
                "{count} of its rows are of {other}, not of {day}, the day of its folder"
            ));
        }
        let noted_days: BTreeSet<chrono::NaiveDate> = self
            .last
            .values()
            .map(|at| super::layout::utc_day(*at))
            .filter(|d| *d != day)
            .collect();
        if let Some(other) = noted_days.first() {
            return Some(format!("its note claims values of {other}, not of {day}"));
        }
        if let Some(curve_id) = &self.curve_id {
            if let Some(row) = rows.iter().find(|r| *r.tick.curve_id != **curve_id) {
                return Some(format!(
                    "its note names curve {curve_id}, and it holds values of {}",
                    row.tick.curve_id
                ));
            }
        }
        let mut last = BTreeMap::new();
        for row in rows {
            saw(
                &mut last,
                &row.tick.curve_id,
                &row.tick.tenor,
                row.tick.generated_on,
            );
        }
        if last != self.last {
            return Some("its note's tenors and last times are not those of its rows".into());
        }
        match &self.digest {
            Some(digest) if *digest != rows_digest(rows) => {
                Some("its values are not those it was written with (digest)".into())
            }
            _ => None,
        }
    }

    /// Counts a value of `curve_id`/`tenor` at `at` into `last`.
    pub fn saw(&mut self, curve_id: &str, tenor: &str, at: Micros) {
        saw(&mut self.last, curve_id, tenor, at);
    }
}

/// Moves the last time of a tenor in `last` to `at` if that is later.
pub fn saw(last: &mut BTreeMap<TenorKey, Micros>, curve_id: &str, tenor: &str, at: Micros) {
    let at = truncate_to_millis(at);
    match last.get_mut(&(curve_id.to_owned(), tenor.to_owned())) {
        Some(seen) => *seen = (*seen).max(at),
        None => {
            last.insert((curve_id.to_owned(), tenor.to_owned()), at);
        }
    }
}

/// The SHA-256 of the rows' curves, tenors, times and prices, in order.
pub fn rows_digest(rows: &[Recorded]) -> String {
    use sha2::{Digest, Sha256};
    let mut hasher = Sha256::new();
    for row in rows {
        hasher.update(row.tick.curve_id.as_bytes());
        hasher.update([0x1f]);
        hasher.update(row.tick.tenor.as_bytes());
        hasher.update([0x1f]);
        hasher.update(row.tick.generated_on.to_le_bytes());
        hasher.update(row.tick.price.to_bits().to_le_bytes());
    }
    hasher
        .finalize()
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect()
}

/// The tenors as a list of `[curve_id, tenor, micros]`: JSON has no tuple keys.
pub(super) mod last_as_list {
    use super::*;
    use serde::{Deserializer, Serializer};

    pub(crate) fn serialize<S: Serializer>(
        last: &BTreeMap<TenorKey, Micros>,
        s: S,
    ) -> Result<S::Ok, S::Error> {
        let list: Vec<(&str, &str, Micros)> = last
            .iter()
            .map(|((c, t), at)| (c.as_str(), t.as_str(), *at))
            .collect();
        list.serialize(s)
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(
        d: D,
    ) -> Result<BTreeMap<TenorKey, Micros>, D::Error> {
        let list: Vec<(String, String, Micros)> = Vec::deserialize(d)?;
        Ok(list.into_iter().map(|(c, t, at)| ((c, t), at)).collect())
    }
}

/// The columns of a recording, in this order (the domain's).
pub fn tick_schema() -> SchemaRef {
    domain::arrow::recording_schema()
}

/// A batch of the recording's schema from recorded rows.
pub fn recorded_rows_to_batch(rows: &[Recorded]) -> Result<RecordBatch, String> {
    let n = rows.len();
    let mut curve_id = StringBuilder::with_capacity(n, n * 16);
    let mut tenor = StringBuilder::with_capacity(n, n * 8);
    let mut generated_on = TimestampMicrosecondBuilder::with_capacity(n).with_timezone("UTC");
    let mut price = Float64Builder::with_capacity(n);
    let mut source = StringBuilder::with_capacity(n, n * 8);
    let mut recorded_at = TimestampMicrosecondBuilder::with_capacity(n).with_timezone("UTC");
    for row in rows {
        curve_id.append_value(&row.tick.curve_id);
        tenor.append_value(&row.tick.tenor);
        generated_on.append_value(row.tick.generated_on);
        price.append_value(row.tick.price);
        source.append_value(row.tick.source.as_str());
        recorded_at.append_value(row.recorded_at);
    }
    RecordBatch::try_new(
        tick_schema(),
        vec![
            Arc::new(curve_id.finish()),
            Arc::new(tenor.finish()),
            Arc::new(generated_on.finish()),
            Arc::new(price.finish()),
            Arc::new(source.finish()),
            Arc::new(recorded_at.finish()),
        ],
    )
    .map_err(|e| e.to_string())
}

/// The Parquet bytes of `batches`, with `note` in the footer.
pub fn encode(batches: &[RecordBatch], note: &FileNote) -> Result<Bytes, String> {
    let mut out = Vec::new();
    write_noted(&mut out, tick_schema(), batches, NOTE_KEY, note)?;
    Ok(Bytes::from(out))
}

/// The note in a file's footer, if it has one.
pub fn note_of(metadata: &ParquetMetaData) -> Option<FileNote> {
    note_in(metadata, NOTE_KEY)
}

/// A whole file's batches and note; Err with the reason if it is not a
/// whole Parquet file of the recording's columns.
pub fn decode(bytes: Bytes) -> Result<(Vec<RecordBatch>, Option<FileNote>), String> {
    let (reader, note) = open_batches(bytes)?;
    let batches = reader
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| e.to_string())?;
    Ok((batches, note))
}

/// A file's batches one at a time (a reader holds one decoded batch, not
/// the file's), and its note.
pub fn open_batches(bytes: Bytes) -> Result<(ParquetRecordBatchReader, Option<FileNote>), String> {
    open(bytes, false)
}

/// [`open_batches`], its text columns (curve, tenor, source) read as
/// dictionaries of `Int32` keys: a file's few distinct texts are decoded
/// once each rather than once a row, and its reader looks each up once.
pub fn open_keyed_batches(
    bytes: Bytes,
) -> Result<(ParquetRecordBatchReader, Option<FileNote>), String> {
    open(bytes, true)
}

fn open(bytes: Bytes, keyed: bool) -> Result<(ParquetRecordBatchReader, Option<FileNote>), String> {
    let builder = ParquetRecordBatchReaderBuilder::try_new(bytes.clone())
        .map_err(|e| format!("not a whole Parquet file: {e}"))?;
    let note = note_of(builder.metadata());
    // Names and types, not nullability: a file written by another tool
    // (pyarrow marks every column nullable) is read alike.
    let shape = |schema: &Schema| -> Vec<(String, DataType)> {
        schema
            .fields()
            .iter()
            .map(|f| (f.name().clone(), f.data_type().clone()))
            .collect()
    };
    if shape(builder.schema()) != shape(&tick_schema()) {
        return Err("its columns are not those of a recording".into());
    }
    let builder = if keyed {
        let keyed = |f: &FieldRef| match f.data_type() {
            DataType::Utf8 => f.as_ref().clone().with_data_type(DataType::Dictionary(
                Box::new(DataType::Int32),
                Box::new(DataType::Utf8),
            )),
            _ => f.as_ref().clone(),
        };
        let schema = builder.schema();
        let fields: Vec<Field> = schema.fields().iter().map(keyed).collect();
        let schema = Schema::new_with_metadata(fields, schema.metadata().clone());
        let options = ArrowReaderOptions::new().with_schema(Arc::new(schema));
        let metadata = ArrowReaderMetadata::try_new(Arc::clone(builder.metadata()), options)
            .map_err(|e| e.to_string())?;
        ParquetRecordBatchReaderBuilder::new_with_metadata(bytes, metadata)
    } else {
        builder
    };
    let reader = builder.build().map_err(|e| e.to_string())?;
    Ok((reader, note))
}

/// The rows of decoded batches, for the recorder's own re-reading (compaction).
pub fn batch_rows(batch: &RecordBatch) -> Result<Vec<Recorded>, String> {
    let text = |i: usize| {
        batch
            .column(i)
            .as_any()
            .downcast_ref::<StringArray>()
            .ok_or("a text column is not text")
    };
    let time = |i: usize| {
        batch
            .column(i)
            .as_any()
            .downcast_ref::<TimestampMicrosecondArray>()
            .ok_or("a time column is not a timestamp")
    };
    let (curves, tenors, sources) = (text(0)?, text(1)?, text(4)?);
    let (generated, recorded) = (time(2)?, time(5)?);
    let prices = batch
        .column(3)
        .as_any()
        .downcast_ref::<arrow_array::Float64Array>()
        .ok_or("price is not a float")?;
    if [
        curves.null_count(),
        tenors.null_count(),
        prices.null_count(),
    ] != [0, 0, 0]
    {
        return Err("a column has nulls".into());
    }
    let mut rows = Vec::with_capacity(batch.num_rows());
    // One shared string per distinct name, as the feed gives them.
    let mut names: BTreeMap<String, Arc<str>> = BTreeMap::new();
    let mut shared = |text: &str| -> Arc<str> {
        if let Some(name) = names.get(text) {
            return Arc::clone(name);
        }
        let name: Arc<str> = Arc::from(text);
        names.insert(text.to_owned(), Arc::clone(&name));
        name
    };
    for i in 0..batch.num_rows() {
        let source = match sources.value(i) {
            "snapshot" => TickSource::Snapshot,
            "update" => TickSource::Update,
            "backfill" => TickSource::Backfill,
            other => return Err(format!("unknown source {other:?}")),
        };
        rows.push(Recorded {
            tick: Tick {
                curve_id: shared(curves.value(i)),
                tenor: shared(tenors.value(i)),
                generated_on: generated.value(i),
                price: prices.value(i),
                source,
            },
            recorded_at: recorded.value(i),
        });
    }
    Ok(rows)
}

#[cfg(test)]
#[path = "file_tests.rs"]
mod tests;
