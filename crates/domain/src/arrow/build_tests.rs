use std::sync::Arc;

use arrow_array::cast::AsArray;
use arrow_array::types::{Date32Type, Float64Type, Int8Type, TimestampMicrosecondType};
use arrow_array::Array;
use arrow_schema::DataType;

use super::*;
use crate::records::Dependency;
use crate::rows::{PriceRow, Snapshot};
use crate::tenor::Tenor;

fn row(curve: &str, tenor: &str, micros: i64, price: f64) -> PriceRow {
    PriceRow {
        curve_id: Arc::from(curve),
        tenor: Tenor::parse_lenient(tenor),
        date: None,
        snapshot: None,
        generated_on: Some(micros),
        price,
        units: Some("$/mt".to_owned()),
        dependencies: None,
        metadata: None,
    }
}

fn names(kind: TableKind) -> Vec<String> {
    schema(kind)
        .fields()
        .iter()
        .map(|f| f.name().clone())
        .collect()
}

#[test]
fn columns_are_in_the_order_of_the_design() {
    let common_tail = ["generated_on", "price", "units", "dependencies", "metadata"];
    let head = [
        "curve_id",
        "tenor",
        "tenor_kind",
        "tenor_start",
        "tenor_end",
    ];
    let prices: Vec<&str> = head.iter().chain(&common_tail).copied().collect();
    assert_eq!(names(TableKind::Prices), prices);
    let mut settlements = prices.clone();
    settlements.insert(5, "date");
    assert_eq!(names(TableKind::Settlements), settlements);
    let mut assessments = prices.clone();
    assessments.insert(5, "snapshot");
    assert_eq!(names(TableKind::Assessments), assessments);
}

#[test]
fn no_rows_give_an_empty_batch_with_the_full_schema() {
    for kind in [
        TableKind::Prices,
        TableKind::Settlements,
        TableKind::Assessments,
    ] {
        let batch = build_batch(kind, vec![]).unwrap();
        assert_eq!(batch.num_rows(), 0);
        assert_eq!(batch.schema(), schema(kind));
    }
}

#[test]
fn rows_are_sorted_by_curve_tenor_and_time() {
    let rows = vec![
        row("b", "Jan 25", 1, 1.0),
        row("a", "Feb 25", 2, 2.0),
        row("a", "Jan 25", 9, 3.0),
        row("a", "Jan 25", 3, 4.0),
        row("a", "C 00", 5, 5.0),
    ];
    let batch = build_batch(TableKind::Prices, rows).unwrap();
    let prices: Vec<f64> = batch
        .column_by_name("price")
        .unwrap()
        .as_primitive::<Float64Type>()
        .values()
        .to_vec();
    assert_eq!(prices, [5.0, 4.0, 3.0, 2.0, 1.0]);
}

#[test]
fn every_column_holds_its_value() {
    let mut settled = row("c", "26-EOM Feb 24", 1_709_135_400_000_000, 612.25);
    settled.date = chrono::NaiveDate::from_ymd_opt(2024, 2, 28);
    settled.dependencies = Some(vec![Dependency {
        id: Some("d1".into()),
        name: Some("Freight".into()),
        value: Some(12.5),
        units: None,
        tenor_name: Some("Mar 24".into()),
    }]);
    settled.metadata = Some(vec![(
        "loadDate".into(),
        Some("2024-02-26T00:00:00.000Z".into()),
    )]);
    let mut bare = row("c", "Cal 25", 0, 1.0);
    bare.generated_on = None;
    bare.units = None;
    let batch = build_batch(TableKind::Settlements, vec![bare, settled]).unwrap();
    assert_eq!(batch.schema(), schema(TableKind::Settlements));

    let kinds = batch.column(2).as_dictionary::<Int8Type>();
    let kind_values = kinds.values().as_string::<i32>();
    let kind_of = |i: usize| kind_values.value(kinds.keys().value(i) as usize).to_owned();
    assert_eq!(
        (kind_of(0), kind_of(1)),
        ("window".to_owned(), "other".to_owned())
    );

    let start = batch.column(3).as_primitive::<Date32Type>();
    let end = batch.column(4).as_primitive::<Date32Type>();
    assert_eq!((start.value(0), end.value(0)), (19_779, 19_782)); // 2024-02-26 .. 2024-02-29
    assert!(start.is_null(1) && end.is_null(1));
    assert_eq!(
        batch.column(5).as_primitive::<Date32Type>().value(0),
        19_781
    );

    let generated = batch.column(6).as_primitive::<TimestampMicrosecondType>();
    assert_eq!(generated.value(0), 1_709_135_400_000_000);
    assert!(generated.is_null(1));
    assert!(batch.column(8).is_null(1));

    let deps = batch.column(9).as_list::<i32>();
    assert!(deps.is_null(1));
    let first = deps.value(0);
    let first = first.as_struct();
    assert_eq!(first.len(), 1);
    assert_eq!(first.column(1).as_string::<i32>().value(0), "Freight");
    assert_eq!(first.column(2).as_primitive::<Float64Type>().value(0), 12.5);
    assert!(first.column(3).is_null(0));
    assert_eq!(first.column(4).as_string::<i32>().value(0), "Mar 24");

    let metadata = batch.column(10).as_map();
    assert!(metadata.is_null(1));
    assert_eq!(metadata.value_length(0), 1);
    assert_eq!(metadata.keys().as_string::<i32>().value(0), "loadDate");
}

#[test]
fn assessments_carry_the_snapshot_name() {
    let mut london = row("c", "Jan 25", 2, 2.0);
    london.snapshot = Some(Snapshot::London);
    let mut singapore = row("c", "Jan 25", 1, 1.0);
    singapore.snapshot = Some(Snapshot::Singapore);
    let batch = build_batch(TableKind::Assessments, vec![london, singapore]).unwrap();
    let snapshot = batch.column_by_name("snapshot").unwrap().as_string::<i32>();
    assert_eq!(
        (snapshot.value(0), snapshot.value(1)),
        ("singapore", "london")
    );
    assert_eq!(
        batch
            .schema()
            .field_with_name("generated_on")
            .unwrap()
            .data_type(),
        &DataType::Timestamp(arrow_schema::TimeUnit::Microsecond, Some("UTC".into()))
    );
}
