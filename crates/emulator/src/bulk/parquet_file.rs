//! One bulk file: a month of snapshots as Apache Parquet, snappy-compressed,
//! with the interface's columns. It is built a day at a time, so a month's
//! rows are never all in memory as Arrow arrays, only as encoded pages.

use std::sync::Arc;

use arrow_array::builder::{Float64Builder, StringBuilder, TimestampMicrosecondBuilder};
use arrow_array::{ArrayRef, RecordBatch};
use arrow_schema::SchemaRef;
use parquet::arrow::ArrowWriter;
use parquet::basic::Compression;
use parquet::errors::ParquetError;
use parquet::file::properties::WriterProperties;
use serde::ser::{SerializeMap, Serializer};
use serde::Serialize;

use super::records::{day_records, file_days, FileKey, SnapshotRecord};
use crate::world::curves::Curve;
use crate::world::prices::MetadataOut;
use crate::world::World;

/// The value of `time_snapshot`: every row is an end-of-day London snapshot.
pub(crate) const TIME_SNAPSHOT: &str = "london_snapshot";

/// The columns of the interface's Parquet record, in order (the domain's).
pub(crate) fn schema() -> SchemaRef {
    domain::arrow::bulk_file_schema()
}

/// The file of `key`, as bytes. The same key always gives the same bytes.
pub(crate) fn write_month(world: &World, key: &FileKey) -> Result<Vec<u8>, ParquetError> {
    let properties = WriterProperties::builder()
        .set_compression(Compression::SNAPPY)
        .build();
    let mut writer = ArrowWriter::try_new(Vec::new(), schema(), Some(properties))?;
    for day in file_days(key) {
        let batch = day_batch(world, day_records(world, key, day))?;
        if batch.num_rows() > 0 {
            writer.write(&batch)?;
        }
    }
    writer.into_inner()
}

/// `meta_data`: the record's metadata entries as one JSON object, with the
/// curve's id and name so that a row can be tied to its curve.
struct MetaData<'a> {
    entries: &'a [MetadataOut],
    curve: &'a Curve,
}

impl Serialize for MetaData<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.entries.len() + 2))?;
        for entry in self.entries {
            map.serialize_entry(entry.name, &entry.value)?;
        }
        map.serialize_entry("curveId", &self.curve.id)?;
        map.serialize_entry("curveName", &self.curve.name)?;
        map.end()
    }
}

fn json<T: Serialize>(value: &T) -> Result<String, ParquetError> {
    serde_json::to_string(value).map_err(|e| ParquetError::External(Box::new(e)))
}

fn day_batch<'a>(
    world: &World,
    records: impl Iterator<Item = SnapshotRecord<'a>>,
) -> Result<RecordBatch, ParquetError> {
    let mut id = StringBuilder::new();
    let mut generated_on = TimestampMicrosecondBuilder::new().with_timezone("UTC");
    let mut tenor_name = StringBuilder::new();
    let mut price = Float64Builder::new();
    let mut meta_data = StringBuilder::new();
    let mut dependencies = StringBuilder::new();
    let mut time_snapshot = StringBuilder::new();
    for record in records {
        let out = world.record(record.curve, &record.tenor, record.stamp);
        id.append_value(record.id());
        generated_on.append_value(record.stamp.at);
        tenor_name.append_value(out.tenor);
        price.append_value(out.price);
        meta_data.append_value(json(&MetaData {
            entries: &out.metadata,
            curve: record.curve,
        })?);
        dependencies.append_value(json(&out.dependencies)?);
        time_snapshot.append_value(TIME_SNAPSHOT);
    }
    let columns: Vec<ArrayRef> = vec![
        Arc::new(id.finish()),
        Arc::new(generated_on.finish()),
        Arc::new(tenor_name.finish()),
        Arc::new(price.finish()),
        Arc::new(meta_data.finish()),
        Arc::new(dependencies.finish()),
        Arc::new(time_snapshot.finish()),
    ];
    Ok(RecordBatch::try_new(schema(), columns)?)
}

#[cfg(test)]
#[path = "parquet_file_tests.rs"]
mod tests;
