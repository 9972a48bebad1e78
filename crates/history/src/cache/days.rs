//! The UTC day of each row of a history table, and the rows of some days:
//! a settlement's `date`, an intraday value's `generated_on`. A tenor's rows
//! are in time order, so the rows of a run of days are one slice.

use arrow_array::cast::AsArray;
use arrow_array::types::{Date32Type, TimestampMicrosecondType};
use arrow_array::{Array, RecordBatch};
use chrono::NaiveDate;

use super::layout::History;

const MICROS_PER_DAY: i64 = 86_400_000_000;
/// Days from 0001-01-01 to 1970-01-01, to turn Arrow's dates into chrono's.
const EPOCH_FROM_CE: i32 = 719_163;

pub fn to_epoch_days(day: NaiveDate) -> i32 {
    use chrono::Datelike;
    day.num_days_from_ce() - EPOCH_FROM_CE
}

pub fn from_epoch_days(days: i32) -> Option<NaiveDate> {
    NaiveDate::from_num_days_from_ce_opt(days.checked_add(EPOCH_FROM_CE)?)
}

/// The day of each row, None where the table has no time for it.
pub fn row_days(batch: &RecordBatch, history: History) -> Vec<Option<i32>> {
    match history {
        History::Settlements => {
            let dates = batch
                .column_by_name("date")
                .expect("a settlements table has a date")
                .as_primitive::<Date32Type>();
            (0..dates.len())
                .map(|i| dates.is_valid(i).then(|| dates.value(i)))
                .collect()
        }
        History::Intraday => {
            let times = batch
                .column_by_name("generated_on")
                .expect("a price table has generated_on")
                .as_primitive::<TimestampMicrosecondType>();
            (0..times.len())
                .map(|i| {
                    times
                        .is_valid(i)
                        .then(|| times.value(i).div_euclid(MICROS_PER_DAY) as i32)
                })
                .collect()
        }
    }
}

/// Whether every row has a day, in order: what a batch must be to be kept.
pub fn in_day_order(days: &[Option<i32>]) -> bool {
    days.iter().all(Option::is_some) && days.windows(2).all(|pair| pair[0] <= pair[1])
}

/// The rows of `first..=last` of a batch in day order.
pub fn slice_days(batch: &RecordBatch, days: &[Option<i32>], first: i32, last: i32) -> RecordBatch {
    let from = days.partition_point(|d| d.is_some_and(|d| d < first));
    let to = days.partition_point(|d| d.is_some_and(|d| d <= last));
    batch.slice(from, to.saturating_sub(from))
}

/// The rows of `first..=last` of batches in day order, empty ones left out.
pub fn slice_batches(
    batches: &[RecordBatch],
    history: History,
    first: NaiveDate,
    last: NaiveDate,
) -> Vec<RecordBatch> {
    let (from, to) = (to_epoch_days(first), to_epoch_days(last));
    batches
        .iter()
        .map(|batch| slice_days(batch, &row_days(batch, history), from, to))
        .filter(|batch| batch.num_rows() > 0)
        .collect()
}

/// The last day of a batch in day order with a row in `..=last`.
pub fn last_day_with_rows(days: &[Option<i32>], last: i32) -> Option<i32> {
    days.iter().rev().flatten().find(|d| **d <= last).copied()
}

#[cfg(test)]
#[path = "days_tests.rs"]
mod tests;
