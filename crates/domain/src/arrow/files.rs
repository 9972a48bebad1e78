//! The schemas of the Parquet files the package reads and writes, beside
//! the tables' (`schema.rs`): the service's bulk file and the dataset read
//! back from a folder of them, and a recording's.
//! One definition each, shared by the client and the emulator.

use std::sync::{Arc, OnceLock};

use arrow_array::{ArrayRef, Int32Array, StringArray};
use arrow_schema::{DataType, Field, Schema, SchemaRef, TimeUnit};

fn utc_micros() -> DataType {
    DataType::Timestamp(TimeUnit::Microsecond, Some("UTC".into()))
}

/// The interface's Parquet record, one row per record, in its order: `id`,
/// `generated_on`, `tenor_name`, `price`, `meta_data` (JSON text),
/// `dependencies` (JSON text), `time_snapshot`. Every column may be null
/// (the interface does not say which are absent).
pub fn bulk_file_schema() -> SchemaRef {
    static SCHEMA: OnceLock<SchemaRef> = OnceLock::new();
    Arc::clone(SCHEMA.get_or_init(|| {
        let text = |name| Field::new(name, DataType::Utf8, true);
        Arc::new(Schema::new(vec![
            text("id"),
            Field::new("generated_on", utc_micros(), true),
            text("tenor_name"),
            Field::new("price", DataType::Float64, true),
            text("meta_data"),
            text("dependencies"),
            text("time_snapshot"),
        ]))
    }))
}

/// The columns a bulk dataset's reader adds to each file's own, from the
/// partition folders it lies in (`vertical=…/year=…/month=…`), in this
/// order, none null: the vertical's name, the year and the month (1 to 12).
pub const BULK_PARTITION_COLUMNS: [&str; 3] = ["vertical", "year", "month"];

/// A bulk dataset's table as read back: a file's `schema`, then the
/// [partition columns](BULK_PARTITION_COLUMNS).
pub fn bulk_dataset_schema(schema: &Schema) -> SchemaRef {
    let [vertical, year, month] = BULK_PARTITION_COLUMNS;
    let mut fields: Vec<Field> = schema.fields().iter().map(|f| f.as_ref().clone()).collect();
    fields.push(Field::new(vertical, DataType::Utf8, false));
    fields.push(Field::new(year, DataType::Int32, false));
    fields.push(Field::new(month, DataType::Int32, false));
    Arc::new(Schema::new(fields))
}

/// The partition columns of `rows` rows of one partition's file, in the
/// order of [`BULK_PARTITION_COLUMNS`].
pub fn bulk_partition_columns(vertical: &str, year: i32, month: u32, rows: usize) -> [ArrayRef; 3] {
    [
        Arc::new(StringArray::from(vec![vertical; rows])),
        Arc::new(Int32Array::from(vec![year; rows])),
        Arc::new(Int32Array::from(vec![month as i32; rows])),
    ]
}

/// A recording's file (the recorder's, and a backfill's), in this order:
/// `curve_id`, `tenor`, `generated_on`, `price`, `source` (snapshot, update
/// or backfill) and `recorded_at`, none null.
pub fn recording_schema() -> SchemaRef {
    static SCHEMA: OnceLock<SchemaRef> = OnceLock::new();
    Arc::clone(SCHEMA.get_or_init(|| {
        Arc::new(Schema::new(vec![
            Field::new("curve_id", DataType::Utf8, false),
            Field::new("tenor", DataType::Utf8, false),
            Field::new("generated_on", utc_micros(), false),
            Field::new("price", DataType::Float64, false),
            Field::new("source", DataType::Utf8, false),
            Field::new("recorded_at", utc_micros(), false),
        ]))
    }))
}

#[cfg(test)]
#[path = "files_tests.rs"]
mod tests;
