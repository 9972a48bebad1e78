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

use super::names::{NamesRead, Row};
use super::tick::{Tick, TickSource};
use domain::arrow::{schema, TableKind};
use domain::tenor::{Tenor, TenorKind};
use domain::timestamp::{days_since_epoch, Micros};

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

/// Ticks as a batch of the live table, naming no curve.
pub fn ticks_to_batch(ticks: &[Tick]) -> Result<RecordBatch, ArrowError> {
    ticks_to_named_batch(ticks, live_schema())
}

/// Ticks as a batch of `schema`, the live table's with its metadata (a
/// feed's, naming its curves).
pub(crate) fn ticks_to_named_batch(
    ticks: &[Tick],
    schema: SchemaRef,
) -> Result<RecordBatch, ArrowError> {
    let mut columns = Columns::with_capacity(
        ticks.len(),
        ticks.iter().map(|t| t.curve_id.len()).sum(),
        ticks.iter().map(|t| t.tenor.len()).sum(),
    );
    for tick in ticks {
        columns.append(
            &tick.curve_id,
            &tick.tenor,
            tick.generated_on,
            tick.price,
            tick.source,
        );
    }
    columns.finish(schema)
}

/// The rows of a feed, their names looked up in `names`, as a batch of
/// `schema` (the feed's, made once per change of its curves).
pub(crate) fn feed_rows_to_batch(
    rows: &[Row],
    names: &NamesRead<'_>,
    schema: SchemaRef,
) -> Result<RecordBatch, ArrowError> {
    let (mut curve_bytes, mut tenor_bytes) = (0, 0);
    for row in rows {
        let pair = names.pair(row.key);
        curve_bytes += pair.curve_id.len();
        tenor_bytes += pair.tenor.len();
    }
    let mut columns = Columns::with_capacity(rows.len(), curve_bytes, tenor_bytes);
    for row in rows {
        let pair = names.pair(row.key);
        columns.append(
            &pair.curve_id,
            &pair.tenor,
            row.generated_on,
            row.price,
            row.source,
        );
    }
    columns.finish(schema)
}

/// The columns of a batch, filled row by row.
struct Columns {
    curve_id: StringBuilder,
    tenor: StringBuilder,
    kind_keys: Vec<i8>,
    start: Date32Builder,
    end: Date32Builder,
    generated_on: TimestampMicrosecondBuilder,
    price: Float64Builder,
    source: StringBuilder,
    /// The kinds in the order they first appear, as a dictionary builder
    /// would make them, without hashing a string for every row.
    kinds: Vec<TenorKind>,
    /// A batch holds few distinct tenors, each one shared string for the
    /// life of the feed: found by address, each is parsed once.
    tenors: HashMap<*const u8, TenorColumns>,
}

impl Columns {
    fn with_capacity(rows: usize, curve_bytes: usize, tenor_bytes: usize) -> Columns {
        Columns {
            curve_id: StringBuilder::with_capacity(rows, curve_bytes),
            tenor: StringBuilder::with_capacity(rows, tenor_bytes),
            kind_keys: Vec::with_capacity(rows),
            start: Date32Builder::with_capacity(rows),
            end: Date32Builder::with_capacity(rows),
            generated_on: TimestampMicrosecondBuilder::with_capacity(rows).with_timezone("UTC"),
            price: Float64Builder::with_capacity(rows),
            source: StringBuilder::with_capacity(rows, rows * 8),
            kinds: Vec::new(),
            tenors: HashMap::new(),
        }
    }

    fn append(
        &mut self,
        curve_id: &str,
        tenor: &str,
        generated_on: Micros,
        price: f64,
        source: TickSource,
    ) {
        let kinds = &mut self.kinds;
        let columns = *self.tenors.entry(tenor.as_ptr()).or_insert_with(|| {
            let parsed = Tenor::parse_lenient(tenor);
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
        self.curve_id.append_value(curve_id);
        self.tenor.append_value(tenor);
        self.kind_keys.push(columns.kind_key);
        self.start.append_option(columns.start);
        self.end.append_option(columns.end);
        self.generated_on.append_value(generated_on);
        self.price.append_value(price);
        self.source.append_value(source.as_str());
    }

    fn finish(mut self, schema: SchemaRef) -> Result<RecordBatch, ArrowError> {
        let kind_names = StringArray::from_iter_values(self.kinds.iter().map(|k| k.as_str()));
        let kind = DictionaryArray::<Int8Type>::try_new(
            Int8Array::from(self.kind_keys),
            Arc::new(kind_names),
        )?;
        let columns: Vec<ArrayRef> = vec![
            Arc::new(self.curve_id.finish()),
            Arc::new(self.tenor.finish()),
            Arc::new(kind),
            Arc::new(self.start.finish()),
            Arc::new(self.end.finish()),
            Arc::new(self.generated_on.finish()),
            Arc::new(self.price.finish()),
            Arc::new(self.source.finish()),
        ];
        RecordBatch::try_new(schema, columns)
    }
}

#[cfg(test)]
#[path = "batch_tests.rs"]
mod tests;
