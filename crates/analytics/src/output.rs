//! Output tables: the key columns (curve, time) and value columns.

use std::sync::Arc;

use arrow_array::builder::{Date32Builder, StringBuilder, TimestampMicrosecondBuilder};
use arrow_array::{ArrayRef, Float64Array, RecordBatch};
use arrow_schema::{Field, Schema};

use super::input::TimeKey;
use super::CurveError;
use domain::arrow::Table;

/// A column of strings, nulls where `None`.
pub(crate) fn string_column<'a>(values: impl Iterator<Item = Option<&'a str>>) -> ArrayRef {
    let mut builder = StringBuilder::new();
    for value in values {
        builder.append_option(value);
    }
    Arc::new(builder.finish())
}

pub(crate) fn float_column(values: Vec<Option<f64>>) -> ArrayRef {
    Arc::new(Float64Array::from(values))
}

/// The time key column of the output, typed as in the input's schema.
pub(crate) fn time_column(key: TimeKey, times: &[i64]) -> ArrayRef {
    time_array(key, times.iter().map(|&t| Some(t)))
}

/// A time key column with nulls where `None`.
pub(crate) fn optional_time_column(key: TimeKey, times: &[Option<i64>]) -> ArrayRef {
    time_array(key, times.iter().copied())
}

fn time_array(key: TimeKey, times: impl ExactSizeIterator<Item = Option<i64>>) -> ArrayRef {
    match key {
        TimeKey::Date => {
            let mut builder = Date32Builder::with_capacity(times.len());
            for t in times {
                builder.append_option(t.map(|t| t as i32));
            }
            Arc::new(builder.finish())
        }
        TimeKey::GeneratedOn => {
            let mut builder =
                TimestampMicrosecondBuilder::with_capacity(times.len()).with_timezone("UTC");
            for t in times {
                builder.append_option(t);
            }
            Arc::new(builder.finish())
        }
    }
}

/// A one-batch table of named columns; a column's nullability follows its nulls.
pub(crate) fn table(columns: Vec<(String, ArrayRef)>) -> Result<Table, CurveError> {
    let fields: Vec<Field> = columns
        .iter()
        .map(|(name, array)| {
            let nullable = !matches!(name.as_str(), "curve_id" | "date" | "generated_on")
                || array.null_count() > 0;
            Field::new(name, array.data_type().clone(), nullable)
        })
        .collect();
    let schema = Arc::new(Schema::new(fields));
    let arrays = columns.into_iter().map(|(_, a)| a).collect();
    let batch = RecordBatch::try_new(schema.clone(), arrays)?;
    Ok(Table {
        schema,
        batches: vec![batch],
    })
}
