//! Rows a service sends outside the days asked for are not the caller's:
//! a history table holds the window asked for and nothing else. Such rows
//! break the interface; they are dropped and the drop is logged. (The cache
//! never kept them: it writes only the days it planned.)

use arrow_array::cast::AsArray;
use arrow_array::types::{Date32Type, TimestampMicrosecondType};
use arrow_array::{BooleanArray, RecordBatch};
use arrow_select::filter::filter_record_batch;
use chrono::NaiveDate;

use domain::arrow::Table;

/// Days since 1970-01-01, as Date32 counts them.
fn day_number(day: NaiveDate) -> i32 {
    (day - NaiveDate::from_ymd_opt(1970, 1, 1).expect("a date")).num_days() as i32
}

/// Which column dates a row: a settlement's `date`, an intraday value's
/// `generated_on` (its UTC day).
#[derive(Clone, Copy, Debug)]
pub enum DatedBy {
    Date,
    GeneratedOn,
}

/// `table` without the rows dated outside `first..=last`, and how many
/// there were. A row with no date is kept: nothing says it is outside.
pub fn within(
    table: Table,
    dated_by: DatedBy,
    first: NaiveDate,
    last: NaiveDate,
) -> (Table, usize) {
    let (low, high) = (day_number(first), day_number(last));
    let mut dropped = 0;
    let mut batches = Vec::with_capacity(table.batches.len());
    for batch in table.batches {
        let keep = keep_mask(&batch, dated_by, low, high);
        match keep {
            Some(mask) if mask.true_count() < batch.num_rows() => {
                dropped += batch.num_rows() - mask.true_count();
                batches.push(
                    filter_record_batch(&batch, &mask).expect("a mask of the batch's length"),
                );
            }
            _ => batches.push(batch),
        }
    }
    let table = Table {
        schema: table.schema,
        batches,
    };
    (table, dropped)
}

const MICROS_PER_DAY: i64 = 86_400_000_000;

fn keep_mask(batch: &RecordBatch, dated_by: DatedBy, low: i32, high: i32) -> Option<BooleanArray> {
    let inside = |day: i64| i64::from(low) <= day && day <= i64::from(high);
    match dated_by {
        DatedBy::Date => {
            let dates = batch
                .column_by_name("date")?
                .as_primitive_opt::<Date32Type>()?;
            Some(
                dates
                    .iter()
                    .map(|d| Some(d.is_none_or(|d| inside(d.into()))))
                    .collect(),
            )
        }
        DatedBy::GeneratedOn => {
            let times = batch
                .column_by_name("generated_on")?
                .as_primitive_opt::<TimestampMicrosecondType>()?;
            let day = |micros: i64| micros.div_euclid(MICROS_PER_DAY);
            Some(
                times
                    .iter()
                    .map(|t| Some(t.is_none_or(|t| inside(day(t)))))
                    .collect(),
            )
        }
    }
}

/// `table` within the window, logging what a misbehaving service sent
/// outside it.
pub fn keep_within(
    endpoint: &str,
    curve_id: &str,
    table: Table,
    dated_by: DatedBy,
    (first, last): (NaiveDate, NaiveDate),
) -> Table {
    let (table, dropped) = within(table, dated_by, first, last);
    if dropped > 0 {
        log::warn!(
            target: "marketcurves.rest",
            "{endpoint} of curve {curve_id}: {dropped} row(s) dated outside {first}..{last} \
             were sent and left out"
        );
    }
    table
}

#[cfg(test)]
#[path = "in_window_tests.rs"]
mod tests;
