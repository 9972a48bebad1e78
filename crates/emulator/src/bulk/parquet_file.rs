//! One bulk file: a month of snapshots as Apache Parquet, snappy-compressed,
//! with the interface's columns. It is built a day at a time, so a month's
//! rows are never all in memory as Arrow arrays, only as encoded pages.

use std::sync::{Arc, OnceLock};

use arrow_array::builder::{Float64Builder, StringBuilder, TimestampMicrosecondBuilder};
use arrow_array::{ArrayRef, RecordBatch};
use arrow_schema::{DataType, Field, Schema, SchemaRef, TimeUnit};
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
pub const TIME_SNAPSHOT: &str = "london_snapshot";

/// The columns of the interface's Parquet record, in order.
pub fn schema() -> SchemaRef {
    static SCHEMA: OnceLock<SchemaRef> = OnceLock::new();
    let utc = Some(Arc::from("UTC"));
    SCHEMA
        .get_or_init(|| {
            Arc::new(Schema::new(vec![
                Field::new("id", DataType::Utf8, true),
                Field::new(
                    "generated_on",
                    DataType::Timestamp(TimeUnit::Microsecond, utc),
                    true,
                ),
                Field::new("tenor_name", DataType::Utf8, true),
                Field::new("price", DataType::Float64, true),
                Field::new("meta_data", DataType::Utf8, true),
                Field::new("dependencies", DataType::Utf8, true),
                Field::new("time_snapshot", DataType::Utf8, true),
            ]))
        })
        .clone()
}

/// The file of `key`, as bytes. The same key always gives the same bytes.
pub fn write_month(world: &World, key: &FileKey) -> Result<Vec<u8>, ParquetError> {
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
        tenor_name.append_value(&out.tenor);
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
mod tests {
    use super::*;
    use crate::bulk::records::count_rows;
    use crate::calendar::{Calendar, EarlyClose};
    use arrow_array::{Array, Float64Array, StringArray, TimestampMicrosecondArray};
    use bytes::Bytes;
    use chrono::NaiveDate;
    use domain::month::Month;
    use domain::rows::Snapshot;
    use domain::tenor::Tenor;
    use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
    use serde_json::Value;

    fn world() -> World {
        World::new(0, Calendar::new(EarlyClose::ChristmasAndNewYearsEve))
    }

    fn key(month: &str) -> FileKey {
        FileKey {
            vertical: "FUEL_OIL",
            month: Month::parse(month).unwrap(),
            denied: ["Sales".to_owned()].into(),
        }
    }

    fn read(bytes: Vec<u8>) -> Vec<RecordBatch> {
        let builder = ParquetRecordBatchReaderBuilder::try_new(Bytes::from(bytes)).unwrap();
        let codecs: Vec<Compression> = builder
            .metadata()
            .row_groups()
            .iter()
            .flat_map(|g| g.columns().iter().map(|c| c.compression()))
            .collect();
        assert!(
            codecs.iter().all(|c| *c == Compression::SNAPPY),
            "{codecs:?}"
        );
        builder.build().unwrap().map(Result::unwrap).collect()
    }

    fn column<'a, T: 'static>(batch: &'a RecordBatch, name: &str) -> &'a T {
        batch
            .column_by_name(name)
            .unwrap()
            .as_any()
            .downcast_ref::<T>()
            .unwrap()
    }

    #[test]
    fn a_month_reads_back_with_the_schema_and_every_record() {
        let (world, key) = (world(), key("2025-05"));
        let batches = read(write_month(&world, &key).unwrap());
        assert_eq!(batches[0].schema(), schema());
        let rows: usize = batches.iter().map(RecordBatch::num_rows).sum();
        assert_eq!(rows as u64, count_rows(&world, &key));

        // The first row is the first curve's first tenor on the first weekday.
        let batch = &batches[0];
        let day = NaiveDate::from_ymd_opt(2025, 5, 1).unwrap();
        let first = day_records(&world, &key, day).next().unwrap();
        let record = world.record(first.curve, &first.tenor, first.stamp);
        assert_eq!(column::<StringArray>(batch, "id").value(0), first.id());
        let generated_on = column::<TimestampMicrosecondArray>(batch, "generated_on");
        assert_eq!(generated_on.value(0), first.stamp.at);
        assert_eq!(generated_on.timezone(), Some("UTC"));
        assert_eq!(
            column::<StringArray>(batch, "tenor_name").value(0),
            record.tenor
        );
        assert_eq!(
            column::<Float64Array>(batch, "price").value(0),
            record.price
        );
        assert_eq!(
            column::<StringArray>(batch, "time_snapshot").value(0),
            TIME_SNAPSHOT
        );
        let meta: Value =
            serde_json::from_str(column::<StringArray>(batch, "meta_data").value(0)).unwrap();
        assert_eq!(meta["curveId"], first.curve.id.as_str());
        assert_eq!(meta["curveName"], first.curve.name.as_str());
        for entry in &record.metadata {
            assert_eq!(meta[entry.name], entry.value.as_str());
        }
        let deps: Value =
            serde_json::from_str(column::<StringArray>(batch, "dependencies").value(0)).unwrap();
        assert_eq!(deps, serde_json::to_value(&record.dependencies).unwrap());
        assert_eq!(batch.column(0).null_count(), 0);
    }

    #[test]
    fn the_same_key_gives_the_same_bytes() {
        let (world, key) = (world(), key("2024-12"));
        assert_eq!(
            write_month(&world, &key).unwrap(),
            write_month(&world, &key).unwrap()
        );
    }

    #[test]
    fn prices_equal_the_settlement_of_the_same_day() {
        let (world, key) = (world(), key("2025-02"));
        let batches = read(write_month(&world, &key).unwrap());
        let batch = batches.last().unwrap();
        let row = batch.num_rows() - 1;
        let meta: Value =
            serde_json::from_str(column::<StringArray>(batch, "meta_data").value(row)).unwrap();
        let curve = world.curve(meta["curveId"].as_str().unwrap()).unwrap();
        let tenor = Tenor::parse(column::<StringArray>(batch, "tenor_name").value(row)).unwrap();
        let last_friday = NaiveDate::from_ymd_opt(2025, 2, 28).unwrap();
        let stamp = world
            .snapshot(curve, &tenor, last_friday, Snapshot::London, i64::MAX)
            .unwrap();
        let at = column::<TimestampMicrosecondArray>(batch, "generated_on").value(row);
        assert_eq!(at, stamp.at);
        assert_eq!(
            column::<Float64Array>(batch, "price").value(row),
            world.record(curve, &tenor, stamp).price
        );
    }
}
