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
        curves: usize::MAX,
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
        assert_eq!(meta[entry.name], &*entry.value);
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
