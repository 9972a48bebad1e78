//! Small tables for the unit tests, with only the columns the analytics read.

use std::sync::Arc;

use arrow_array::cast::AsArray;
use arrow_array::types::{Date32Type, Float64Type};
use arrow_array::{
    Array, ArrayRef, Date32Array, Float64Array, RecordBatch, StringArray, TimestampMicrosecondArray,
};
use arrow_schema::{DataType, Field, Schema, TimeUnit};
use chrono::NaiveDate;

use domain::arrow::Table;
use domain::timestamp::days_since_epoch;

pub(crate) fn day(text: &str) -> i32 {
    days_since_epoch(NaiveDate::parse_from_str(text, "%Y-%m-%d").unwrap())
}

pub(crate) fn date_text(days: i32) -> String {
    (NaiveDate::from_ymd_opt(1970, 1, 1).unwrap() + chrono::Duration::days(i64::from(days)))
        .to_string()
}

/// Settlements of (curve, tenor, date, price) in `units`.
pub(crate) fn settlements(rows: &[(&str, &str, &str, f64)], units: &str) -> Table {
    let curve: StringArray = rows.iter().map(|r| Some(r.0)).collect();
    let tenor: StringArray = rows.iter().map(|r| Some(r.1)).collect();
    let date: Date32Array = rows.iter().map(|r| Some(day(r.2))).collect();
    let price: Float64Array = rows.iter().map(|r| Some(r.3)).collect();
    let units: StringArray = rows.iter().map(|_| Some(units)).collect();
    table(vec![
        ("curve_id", Arc::new(curve)),
        ("tenor", Arc::new(tenor)),
        ("date", Arc::new(date)),
        ("price", Arc::new(price)),
        ("units", Arc::new(units)),
    ])
}

/// Prices of (curve, tenor, microseconds, price) in `units`, keyed by time.
pub(crate) fn prices(rows: &[(&str, &str, i64, f64)], units: &str) -> Table {
    let curve: StringArray = rows.iter().map(|r| Some(r.0)).collect();
    let tenor: StringArray = rows.iter().map(|r| Some(r.1)).collect();
    let time = TimestampMicrosecondArray::from(rows.iter().map(|r| r.2).collect::<Vec<_>>())
        .with_timezone("UTC");
    let price: Float64Array = rows.iter().map(|r| Some(r.3)).collect();
    let units: StringArray = rows.iter().map(|_| Some(units)).collect();
    table(vec![
        ("curve_id", Arc::new(curve)),
        ("tenor", Arc::new(tenor)),
        ("generated_on", Arc::new(time)),
        ("price", Arc::new(price)),
        ("units", Arc::new(units)),
    ])
}

pub(crate) fn table(columns: Vec<(&str, ArrayRef)>) -> Table {
    let fields: Vec<Field> = columns
        .iter()
        .map(|(n, a)| Field::new(*n, a.data_type().clone(), true))
        .collect();
    let schema = Arc::new(Schema::new(fields));
    let batch =
        RecordBatch::try_new(schema.clone(), columns.into_iter().map(|c| c.1).collect()).unwrap();
    Table {
        schema,
        batches: vec![batch],
    }
}

pub(crate) fn column<'a>(table: &'a Table, name: &str) -> &'a ArrayRef {
    table.batches[0].column_by_name(name).unwrap()
}

pub(crate) fn floats(table: &Table, name: &str) -> Vec<Option<f64>> {
    column(table, name)
        .as_primitive::<Float64Type>()
        .iter()
        .collect()
}

pub(crate) fn texts(table: &Table, name: &str) -> Vec<Option<String>> {
    column(table, name)
        .as_string::<i32>()
        .iter()
        .map(|s| s.map(str::to_owned))
        .collect()
}

pub(crate) fn dates(table: &Table) -> Vec<String> {
    column(table, "date")
        .as_primitive::<Date32Type>()
        .iter()
        .map(|d| date_text(d.unwrap()))
        .collect()
}

pub(crate) fn names(table: &Table) -> Vec<String> {
    table
        .schema
        .fields()
        .iter()
        .map(|f| f.name().clone())
        .collect()
}

#[allow(dead_code)]
pub(crate) fn micros_type() -> DataType {
    DataType::Timestamp(TimeUnit::Microsecond, Some("UTC".into()))
}

#[allow(dead_code)]
pub(crate) fn is_null(table: &Table, name: &str, row: usize) -> bool {
    column(table, name).is_null(row)
}
