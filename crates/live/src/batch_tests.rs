use super::*;
use crate::tick::TickSource;
use arrow_array::cast::AsArray;
use arrow_array::types::{Date32Type, Float64Type, TimestampMicrosecondType};
use arrow_array::Array;
use arrow_schema::{DataType, TimeUnit};

fn tick(tenor: &str, at: i64, source: TickSource) -> Tick {
    Tick {
        curve_id: Arc::from("c-1"),
        tenor: Arc::from(tenor),
        generated_on: at,
        price: at as f64 / 2.0,
        source,
    }
}

#[test]
fn the_schema_has_the_design_columns_in_order() {
    let schema = live_schema();
    let names: Vec<&str> = schema.fields().iter().map(|f| f.name().as_str()).collect();
    assert_eq!(
        names,
        [
            "curve_id",
            "tenor",
            "tenor_kind",
            "tenor_start",
            "tenor_end",
            "generated_on",
            "price",
            "source"
        ]
    );
    assert_eq!(
        schema.field(5).data_type(),
        &DataType::Timestamp(TimeUnit::Microsecond, Some("UTC".into()))
    );
    assert_eq!(
        schema.field(2).data_type(),
        &DataType::Dictionary(Box::new(DataType::Int8), Box::new(DataType::Utf8))
    );
    assert_eq!(schema.field(7).data_type(), &DataType::Utf8);
    assert_eq!(TableKind::parse("live"), Some(TableKind::Live));
}

#[test]
fn ticks_become_rows_in_delivery_order() {
    let ticks = vec![
        tick("Feb 26", 2_000, TickSource::Snapshot),
        tick("C 00", 1_000, TickSource::Update),
        tick("Feb 26", 3_000, TickSource::Backfill),
    ];
    let batch = ticks_to_batch(&ticks).unwrap();
    assert_eq!(batch.schema(), live_schema());
    assert_eq!(batch.num_rows(), 3);
    let tenor = batch.column(1).as_string::<i32>();
    assert_eq!(tenor.value(0), "Feb 26");
    assert_eq!(tenor.value(1), "C 00");
    let kind = batch.column(2).as_dictionary::<Int8Type>();
    let kinds = kind.values().as_string::<i32>();
    let kind_of = |row: usize| kinds.value(kind.keys().value(row) as usize);
    assert_eq!((kind_of(0), kind_of(1)), ("month", "continuous"));
    // One entry per kind, in the order of first appearance.
    let names: Vec<&str> = kinds.iter().map(Option::unwrap).collect();
    assert_eq!(names, ["month", "continuous"]);
    assert_eq!(kind_of(2), "month");
    let start = batch.column(3).as_primitive::<Date32Type>();
    let end = batch.column(4).as_primitive::<Date32Type>();
    // 2026-02-01 and 2026-02-28 as days since the epoch.
    assert_eq!((start.value(0), end.value(0)), (20_485, 20_512));
    assert!(start.is_null(1) && end.is_null(1));
    let at = batch.column(5).as_primitive::<TimestampMicrosecondType>();
    assert_eq!(at.values().to_vec(), vec![2_000, 1_000, 3_000]);
    let price = batch.column(6).as_primitive::<Float64Type>();
    assert_eq!(price.value(2), 1_500.0);
    let source = batch.column(7).as_string::<i32>();
    let sources: Vec<&str> = source.iter().map(Option::unwrap).collect();
    assert_eq!(sources, ["snapshot", "update", "backfill"]);
    assert_eq!(ticks_to_batch(&[]).unwrap().num_rows(), 0);
}
