use std::sync::Arc;

use arrow_array::{Array, Date32Array, TimestampMicrosecondArray};
use arrow_schema::{DataType, Field, Schema, TimeUnit};

use super::*;

fn day(text: &str) -> NaiveDate {
    text.parse().unwrap()
}

fn one_column(name: &str, column: Arc<dyn Array>) -> Table {
    let schema = Arc::new(Schema::new(vec![Field::new(
        name,
        column.data_type().clone(),
        true,
    )]));
    let batch = RecordBatch::try_new(schema.clone(), vec![column]).unwrap();
    Table {
        schema,
        batches: vec![batch],
    }
}

#[test]
fn settlements_outside_the_days_asked_for_are_left_out() {
    let days = ["2025-05-31", "2025-06-01", "2025-06-02", "2025-06-03"];
    let numbers: Vec<Option<i32>> = days
        .iter()
        .map(|d| Some(day_number(day(d))))
        .chain([None])
        .collect();
    let table = one_column("date", Arc::new(Date32Array::from(numbers)));
    let (kept, dropped) = within(table, DatedBy::Date, day("2025-06-01"), day("2025-06-02"));
    assert_eq!(dropped, 2);
    let left = kept.batches[0].column(0).as_primitive::<Date32Type>();
    let expected = [
        Some(day_number(day("2025-06-01"))),
        Some(day_number(day("2025-06-02"))),
        None,
    ];
    assert_eq!(
        left.iter().collect::<Vec<_>>(),
        expected,
        "a row with no date is kept"
    );
}

#[test]
fn intraday_values_are_dated_by_their_utc_day() {
    let midnight = i64::from(day_number(day("2025-06-02"))) * MICROS_PER_DAY;
    let times = vec![
        midnight - 1,
        midnight,
        midnight + MICROS_PER_DAY - 1,
        midnight + MICROS_PER_DAY,
    ];
    let column = TimestampMicrosecondArray::from(times).with_timezone("UTC");
    assert_eq!(
        column.data_type(),
        &DataType::Timestamp(TimeUnit::Microsecond, Some("UTC".into()))
    );
    let table = one_column("generated_on", Arc::new(column));
    let (kept, dropped) = within(
        table,
        DatedBy::GeneratedOn,
        day("2025-06-02"),
        day("2025-06-02"),
    );
    assert_eq!((dropped, kept.batches[0].num_rows()), (2, 2));
}
