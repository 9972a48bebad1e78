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
#[path = "batch_tests.rs"]
mod tests;
