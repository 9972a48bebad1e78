//! The schemas of the Parquet files the package reads and writes, beside
//! the tables' (`schema.rs`): the service's bulk file, and a recording's.
//! One definition each, shared by the client and the emulator.

use std::sync::{Arc, OnceLock};

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
