use std::sync::Arc;

use arrow_array::{Date32Array, Float64Array, StringArray, TimestampMicrosecondArray};

use super::{DROPPED_TENORS, PRICE_FROM_TEXT, UNDATED_ROWS};
use crate::test_tables::{day, settlements, table};
use crate::{build, BuildSpec, Holidays};
use domain::arrow::Table;

fn built(table: &Table) -> Table {
    let spec = BuildSpec::new("flat", "calendar", Holidays::default()).unwrap();
    build(table, &spec).unwrap()
}

fn note(table: &Table, key: &str) -> Option<String> {
    table.schema.metadata().get(key).cloned()
}

#[test]
fn tenors_without_delivery_days_are_noted_by_curve_but_continuous_ones() {
    let rows = [
        ("b", "Jan 25", "2024-12-02", 1.0),
        ("b", "Cal 26", "2024-12-02", 2.0),
        ("b", "Q5 25", "2024-12-02", 2.0),
        ("a", "Jan 25", "2024-12-02", 1.0),
        ("a", "C 00", "2024-12-02", 1.0),
        ("a", "Balmo", "2024-12-02", 1.0),
    ];
    let out = built(&settlements(&rows, "$/bbl"));
    assert_eq!(
        note(&out, DROPPED_TENORS).unwrap(),
        r#"{"a":["Balmo"],"b":["Cal 26","Q5 25"]}"#
    );
    // A table of months only has nothing to note.
    let plain = built(&settlements(&rows[3..5], "$/bbl"));
    assert!(plain.schema.metadata().is_empty());
}

#[test]
fn a_price_column_of_text_is_noted_with_what_did_not_read() {
    let text = table(vec![
        ("curve_id", Arc::new(StringArray::from(vec!["a"; 3]))),
        (
            "tenor",
            Arc::new(StringArray::from(vec!["Jan 25", "Feb 25", "Mar 25"])),
        ),
        (
            "date",
            Arc::new(Date32Array::from(vec![day("2024-12-02"); 3])),
        ),
        (
            "price",
            Arc::new(StringArray::from(vec![Some("1.5"), Some("n/a"), None])),
        ),
    ]);
    let out = built(&text);
    assert_eq!(
        note(&out, PRICE_FROM_TEXT).unwrap(),
        r#"{"not_numbers":1,"type":"Utf8"}"#
    );
    // Jan alone: the text that is not a number is no price.
    assert_eq!(out.batches[0].num_rows(), 31);
}

#[test]
fn rows_with_a_generated_on_but_no_date_are_counted() {
    let dated = |d: Option<&str>| d.map(day);
    let keyed = table(vec![
        ("curve_id", Arc::new(StringArray::from(vec!["a"; 3]))),
        ("tenor", Arc::new(StringArray::from(vec!["Jan 25"; 3]))),
        (
            "date",
            Arc::new(Date32Array::from(vec![
                dated(Some("2024-12-02")),
                None,
                None,
            ])),
        ),
        (
            "generated_on",
            Arc::new(
                TimestampMicrosecondArray::from(vec![Some(1), Some(2), None]).with_timezone("UTC"),
            ),
        ),
        ("price", Arc::new(Float64Array::from(vec![1.0, 2.0, 3.0]))),
    ]);
    let out = built(&keyed);
    // The third row has no time at all: it is not the key's doing.
    assert_eq!(note(&out, UNDATED_ROWS).unwrap(), "1");
    assert_eq!(out.batches[0].num_rows(), 31);
}
