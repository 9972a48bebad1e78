//! The curve as of a time: for each curve, each time asked for and each
//! tenor with a value at or before it, that tenor's last value.
//!
//! The rows are named (`rows.rs`) and sorted once, by curve, tenor and
//! time: counted into their curve and tenor in linear time, and only a
//! tenor's run of values not already in time order sorted (the package's
//! tables come by curve, tenor and time; a live feed's batches by time).
//! Then each curve's tenors are swept through the times in order together,
//! each tenor's place moving only forward.

use std::ops::Range;
use std::sync::Arc;

use arrow_array::builder::{Float64Builder, StringBuilder, TimestampMicrosecondBuilder};
use arrow_array::{ArrayRef, RecordBatch};
use arrow_schema::{DataType, Field, Schema, TimeUnit};

use super::grid::At;
use super::grouping::counting_sort;
use super::input::Input;
use super::named::carried;
use super::rows::{NamedCurve, NamedRows, Row};
use super::CurveError;
use domain::arrow::{dates, tenor_kind_column, Table};
use domain::tenor::Tenor;

/// The most rows an answer may have: a frequency across months of ticks of
/// a whole catalogue would not fit in memory, and is surely a mistake.
pub(crate) const MAX_ROWS: usize = 100_000_000;

/// One row per curve, time of `at` and tenor with a value at or before it,
/// by curve, time and tenor in calendar order: `curve_id`, `as_of`,
/// `tenor`, `tenor_kind`, `tenor_start`, `tenor_end`, `generated_on` (of
/// the value) and `price`. Rows are keyed by `generated_on` (settlements'
/// dates are not times of day); rows without a curve, tenor, time or price
/// are left out. Of two values of a tenor at one time, the table's later
/// row is the one taken.
pub fn as_of(table: &Table, at: &At) -> Result<Table, CurveError> {
    carried(&[table], as_of_unnamed(table, at))
}

fn as_of_unnamed(table: &Table, at: &At) -> Result<Table, CurveError> {
    let input = Input::read_times(table, "price")?;
    let NamedRows { curves, rows } = NamedRows::read(&input);
    let rows = by_curve_and_tenor(rows, &curves);
    let span = rows
        .iter()
        .map(|r| r.time)
        .min()
        .zip(rows.iter().map(|r| r.time).max());
    let times = at.times(span)?;
    let runs = tenor_runs(&rows);
    // Counted before anything is built: each run writes a row for each
    // time from its first value on.
    let total: usize = runs
        .iter()
        .map(|run| times.len() - times.partition_point(|&t| t < rows[run.start].time))
        .sum();
    if total > MAX_ROWS {
        return Err(CurveError::new(format!(
            "the curve as of {} times would be {total} rows, more than {MAX_ROWS}: \
             ask for fewer times, or fewer curves or tenors",
            times.len()
        )));
    }
    let mut out = Columns::with_capacity(total);
    for curve in runs.chunk_by(|a, b| rows[a.start].curve == rows[b.start].curve) {
        let named = &curves[rows[curve[0].start].curve as usize];
        let mut next: Vec<usize> = curve.iter().map(|run| run.start).collect();
        let first = curve.iter().map(|run| rows[run.start].time).min();
        let from = times.partition_point(|&t| Some(t) < first);
        for &time in &times[from..] {
            for (run, next) in curve.iter().zip(&mut next) {
                while *next < run.end && rows[*next].time <= time {
                    *next += 1;
                }
                if *next > run.start {
                    let row = &rows[*next - 1];
                    let tenor = &named.contracts[row.contract as usize];
                    let price = input.values.value(row.row as usize);
                    out.push(&named.curve_id, time, tenor, row.time, price);
                }
            }
        }
    }
    out.finish()
}

/// `rows` sorted by curve, tenor and time; of one tenor's values at one
/// time, in the table's order.
fn by_curve_and_tenor(rows: Vec<Row>, curves: &[NamedCurve]) -> Vec<Row> {
    let mut first_key = Vec::with_capacity(curves.len());
    let mut keys = 0;
    for curve in curves {
        first_key.push(keys);
        keys += curve.contracts.len();
    }
    let key = |r: &Row| first_key[r.curve as usize] + r.contract as usize;
    let mut rows = counting_sort(rows, keys, key);
    for run in rows.chunk_by_mut(|a, b| key(a) == key(b)) {
        if !run.is_sorted_by_key(|r| r.time) {
            // Stable: rows of one time stay in the table's order.
            run.sort_by_key(|r| r.time);
        }
    }
    rows
}

/// The ranges of `rows` (sorted by curve, tenor and time) of one curve and tenor.
fn tenor_runs(rows: &[Row]) -> Vec<Range<usize>> {
    let mut runs = Vec::new();
    let mut start = 0;
    for run in rows.chunk_by(|a, b| (a.curve, a.contract) == (b.curve, b.contract)) {
        runs.push(start..start + run.len());
        start += run.len();
    }
    runs
}

/// The answer's columns as they are filled.
struct Columns<'a> {
    curve_id: StringBuilder,
    as_of: TimestampMicrosecondBuilder,
    tenors: Vec<&'a Tenor>,
    generated_on: TimestampMicrosecondBuilder,
    price: Float64Builder,
}

impl<'a> Columns<'a> {
    fn with_capacity(rows: usize) -> Columns<'a> {
        let times = || TimestampMicrosecondBuilder::with_capacity(rows).with_timezone("UTC");
        Columns {
            curve_id: StringBuilder::with_capacity(rows, rows * 16),
            as_of: times(),
            tenors: Vec::with_capacity(rows),
            generated_on: times(),
            price: Float64Builder::with_capacity(rows),
        }
    }

    fn push(&mut self, curve_id: &str, as_of: i64, tenor: &'a Tenor, time: i64, price: f64) {
        self.curve_id.append_value(curve_id);
        self.as_of.append_value(as_of);
        self.tenors.push(tenor);
        self.generated_on.append_value(time);
        self.price.append_value(price);
    }

    fn finish(mut self) -> Result<Table, CurveError> {
        let mut names = StringBuilder::with_capacity(self.tenors.len(), self.tenors.len() * 8);
        for tenor in &self.tenors {
            names.append_value(tenor.name());
        }
        let utc = || DataType::Timestamp(TimeUnit::Microsecond, Some("UTC".into()));
        let columns: Vec<(Field, ArrayRef)> = vec![
            (
                Field::new("curve_id", DataType::Utf8, false),
                Arc::new(self.curve_id.finish()),
            ),
            (
                Field::new("as_of", utc(), false),
                Arc::new(self.as_of.finish()),
            ),
            (
                Field::new("tenor", DataType::Utf8, false),
                Arc::new(names.finish()),
            ),
            (
                Field::new(
                    "tenor_kind",
                    DataType::Dictionary(Box::new(DataType::Int8), Box::new(DataType::Utf8)),
                    false,
                ),
                tenor_kind_column(self.tenors.iter().map(|t| t.kind().as_str())),
            ),
            (
                Field::new("tenor_start", DataType::Date32, true),
                dates(self.tenors.iter().map(|t| t.start())),
            ),
            (
                Field::new("tenor_end", DataType::Date32, true),
                dates(self.tenors.iter().map(|t| t.end())),
            ),
            (
                Field::new("generated_on", utc(), false),
                Arc::new(self.generated_on.finish()),
            ),
            (
                Field::new("price", DataType::Float64, false),
                Arc::new(self.price.finish()),
            ),
        ];
        let (fields, arrays): (Vec<Field>, Vec<ArrayRef>) = columns.into_iter().unzip();
        let schema = Arc::new(Schema::new(fields));
        let batch = RecordBatch::try_new(schema.clone(), arrays)?;
        Ok(Table {
            schema,
            batches: vec![batch],
        })
    }
}

#[cfg(test)]
#[path = "as_of_tests.rs"]
mod tests;
