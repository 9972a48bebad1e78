//! The columns a curve function reads, cast to the types of the design's
//! schema, so tables that went through pandas or polars (large strings,
//! dictionaries, naive timestamps) are read alike.

use arrow_array::cast::AsArray;
use arrow_array::types::{Date32Type, Float64Type, Int64Type, TimestampMicrosecondType};
use arrow_array::{
    Array, ArrayRef, Date32Array, Float64Array, Int64Array, RecordBatch, StringArray,
};
use arrow_cast::cast;
use arrow_schema::{DataType, TimeUnit};
use arrow_select::concat::concat_batches;

use super::CurveError;
use domain::arrow::Table;

/// Which column keys a row in time: a settlement's `date`, or the
/// `generated_on` of any other price.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeKey {
    Date,
    GeneratedOn,
}

impl TimeKey {
    pub fn column(self) -> &'static str {
        match self {
            TimeKey::Date => "date",
            TimeKey::GeneratedOn => "generated_on",
        }
    }

    /// The day a time falls on (UTC), as days since 1970-01-01.
    pub fn day(self, time: i64) -> i32 {
        match self {
            TimeKey::Date => time as i32,
            TimeKey::GeneratedOn => time.div_euclid(86_400_000_000) as i32,
        }
    }

    /// A time as messages name it: `2025-01-31`, or `2025-01-31T16:30:00Z`.
    pub fn describe(self, time: i64) -> String {
        let day = |days: i64| chrono::DateTime::UNIX_EPOCH + chrono::Duration::days(days);
        match self {
            TimeKey::Date => day(time).date_naive().to_string(),
            TimeKey::GeneratedOn => chrono::DateTime::from_timestamp_micros(time)
                .map(|t| t.to_rfc3339_opts(chrono::SecondsFormat::AutoSi, true))
                .unwrap_or_else(|| format!("{time} µs")),
        }
    }

    pub fn data_type(self) -> DataType {
        match self {
            TimeKey::Date => DataType::Date32,
            TimeKey::GeneratedOn => DataType::Timestamp(TimeUnit::Microsecond, Some("UTC".into())),
        }
    }
}

/// A table's rows as the columns the analytics use.
pub struct Input {
    /// Every column, in one batch (convert rewrites two of them).
    pub batch: RecordBatch,
    pub curve_id: StringArray,
    pub tenor: StringArray,
    pub key: TimeKey,
    /// Days (dates) or microseconds (times); null where the row has none.
    pub time: Int64Array,
    pub values: Float64Array,
}

impl Input {
    /// Reads `curve_id`, `tenor`, the time key and the numbers of `values`.
    pub fn read(table: &Table, values: &str) -> Result<Input, CurveError> {
        let batch = one_batch(table)?;
        let key = if batch.column_by_name("date").is_some() {
            TimeKey::Date
        } else {
            TimeKey::GeneratedOn
        };
        Input::keyed(batch, values, key)
    }

    /// Reads as [`read`](Input::read) does, keyed by `generated_on` even
    /// where the table has dates too.
    pub fn read_times(table: &Table, values: &str) -> Result<Input, CurveError> {
        Input::keyed(one_batch(table)?, values, TimeKey::GeneratedOn)
    }

    fn keyed(batch: RecordBatch, values: &str, key: TimeKey) -> Result<Input, CurveError> {
        let curve_id = strings(&batch, "curve_id")?;
        let tenor = strings(&batch, "tenor")?;
        let time = times(&batch, key)?;
        let values = numbers(&batch, values)?;
        Ok(Input {
            batch,
            curve_id,
            tenor,
            key,
            time,
            values,
        })
    }

    pub fn num_rows(&self) -> usize {
        self.batch.num_rows()
    }
}

/// A table's rows in one batch.
pub(crate) fn one_batch(table: &Table) -> Result<RecordBatch, CurveError> {
    // One batch (what the package returns) is read in place, not copied.
    Ok(match table.batches.as_slice() {
        [one] => one.clone(),
        _ => concat_batches(&table.schema, &table.batches)?,
    })
}

/// The time key's column as days (dates) or microseconds (times).
pub(crate) fn times(batch: &RecordBatch, key: TimeKey) -> Result<Int64Array, CurveError> {
    let time = column(batch, key.column(), &key.data_type())?;
    // Times are read as they are stored (no copy); dates widen to i64.
    Ok(match key {
        TimeKey::Date => time.as_primitive::<Date32Type>().unary(i64::from),
        TimeKey::GeneratedOn => time
            .as_primitive::<TimestampMicrosecondType>()
            .reinterpret_cast::<Int64Type>(),
    })
}

/// A column as dates (days since 1970-01-01).
pub(crate) fn days(batch: &RecordBatch, name: &str) -> Result<Date32Array, CurveError> {
    Ok(column(batch, name, &DataType::Date32)?
        .as_primitive::<Date32Type>()
        .clone())
}

/// A column as strings.
pub(crate) fn strings(batch: &RecordBatch, name: &str) -> Result<StringArray, CurveError> {
    Ok(column(batch, name, &DataType::Utf8)?
        .as_string::<i32>()
        .clone())
}

/// A column as float64 numbers.
pub(crate) fn numbers(batch: &RecordBatch, name: &str) -> Result<Float64Array, CurveError> {
    let array = column(batch, name, &DataType::Float64)?;
    Ok(array.as_primitive::<Float64Type>().clone())
}

fn column(batch: &RecordBatch, name: &str, to: &DataType) -> Result<ArrayRef, CurveError> {
    let array = batch.column_by_name(name).ok_or_else(|| {
        CurveError::new(format!(
            "the table has no column {name:?}; it needs curve_id, tenor, date or generated_on, \
             and the values"
        ))
    })?;
    if array.data_type() == to {
        return Ok(array.clone());
    }
    cast(array, to).map_err(|e| {
        CurveError::new(format!(
            "column {name:?} is {} and cannot be read as {to}: {e}",
            array.data_type()
        ))
    })
}
