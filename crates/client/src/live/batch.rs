//! Ticks as an Arrow record batch: the `live` table of the design (curve,
//! tenor and its calendar period, time, price, source), rows in delivery order.

use std::sync::Arc;

use ahash::AHashMap as HashMap;
use arrow_array::builder::{
    Date32Builder, Float64Builder, StringBuilder, TimestampMicrosecondBuilder,
};
use arrow_array::types::Int8Type;
use arrow_array::{ArrayRef, DictionaryArray, Int8Array, RecordBatch, StringArray};
use arrow_schema::{ArrowError, SchemaRef};

use super::tick::Tick;
use domain::arrow::{schema, TableKind};
use domain::tenor::{Tenor, TenorKind};
use domain::timestamp::days_since_epoch;

pub fn live_schema() -> SchemaRef {
    schema(TableKind::Live)
}

/// What a batch needs of one tenor, worked out once per batch: its kind's
/// key in the `tenor_kind` dictionary, and its calendar period.
#[derive(Clone, Copy)]
struct TenorColumns {
    kind_key: i8,
    start: Option<i32>,
    end: Option<i32>,
}

pub fn ticks_to_batch(ticks: &[Tick]) -> Result<RecordBatch, ArrowError> {
    let rows = ticks.len();
    let text_bytes: usize = ticks.iter().map(|t| t.curve_id.len()).sum();
    let mut curve_id = StringBuilder::with_capacity(rows, text_bytes);
    let mut tenor = StringBuilder::with_capacity(rows, rows * 8);
    let mut kind_keys = Vec::with_capacity(rows);
    let mut start = Date32Builder::with_capacity(rows);
    let mut end = Date32Builder::with_capacity(rows);
    let mut generated_on = TimestampMicrosecondBuilder::with_capacity(rows).with_timezone("UTC");
    let mut price = Float64Builder::with_capacity(rows);
    let mut source = StringBuilder::with_capacity(rows, rows * 8);
    // The kinds in the order they first appear, as a dictionary builder
    // would make them, without hashing a string for every row.
    let mut kinds: Vec<TenorKind> = Vec::new();
    // A batch holds few distinct tenors, each one shared string for the
    // life of the feed: found by address, each is parsed once.
    let mut tenors: HashMap<*const u8, TenorColumns> = HashMap::new();
    for tick in ticks {
        let columns = *tenors.entry(tick.tenor.as_ptr()).or_insert_with(|| {
            let parsed = Tenor::parse_lenient(&tick.tenor);
            let kind = parsed.kind();
            let kind_key = match kinds.iter().position(|k| *k == kind) {
                Some(key) => key,
                None => {
                    kinds.push(kind);
                    kinds.len() - 1
                }
            };
            TenorColumns {
                kind_key: kind_key as i8,
                start: parsed.start().map(days_since_epoch),
                end: parsed.end().map(days_since_epoch),
            }
        });
        curve_id.append_value(&tick.curve_id);
        tenor.append_value(&tick.tenor);
        kind_keys.push(columns.kind_key);
        start.append_option(columns.start);
        end.append_option(columns.end);
        generated_on.append_value(tick.generated_on);
        price.append_value(tick.price);
        source.append_value(tick.source.as_str());
    }
    let kind_names = StringArray::from_iter_values(kinds.iter().map(|k| k.as_str()));
    let kind =
        DictionaryArray::<Int8Type>::try_new(Int8Array::from(kind_keys), Arc::new(kind_names))?;
    let columns: Vec<ArrayRef> = vec![
        Arc::new(curve_id.finish()),
        Arc::new(tenor.finish()),
        Arc::new(kind),
        Arc::new(start.finish()),
        Arc::new(end.finish()),
        Arc::new(generated_on.finish()),
        Arc::new(price.finish()),
        Arc::new(source.finish()),
    ];
    RecordBatch::try_new(live_schema(), columns)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::live::tick::TickSource;
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
}
