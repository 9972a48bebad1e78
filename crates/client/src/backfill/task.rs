//! One task of a backfill: a curve's tenors over at most 30 days, fetched
//! from the historical intraday endpoint and written one file per day.
//!
//! A day's file holds every value the lake has backfilled of the curve
//! that day: what an earlier file held of other tenors is carried over,
//! and the tenors fetched replace theirs. The new file, named afresh, is
//! written whole and names the files it replaces in its note; only then
//! are they deleted. So a task killed at any point, or run twice (a worker
//! lost, a rerun), leaves each value in one current file, never two.

use std::collections::{BTreeMap, BTreeSet};

use chrono::{NaiveDate, Utc};
use serde::Serialize;

use super::held::curve_day;
use super::plan::BackfillTask;
use super::rows::backfilled_rows;
use crate::cache::finality::{keep_through, last_final_day, INTRADAY_MARGIN};
use crate::record::compact::sort_rows;
use crate::record::file::{encode, recorded_rows_to_batch, FileNote, Recorded};
use crate::record::layout::{backfill_name, utc_day};
use crate::record::read::each_value_once;
use crate::rest::{HistoryQuery, Progress, RestClient};
use crate::storage::{Place, PlaceError};
use crate::ClientError;

/// What one task wrote.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct TaskOutcome {
    /// Values fetched and written.
    pub values: u64,
    /// Days of a tenor marked complete.
    pub days_complete: u64,
    pub files_written: u64,
}

/// Runs `task` into `dest`; the requests it sends are counted in `progress`.
pub async fn run_task(
    rest: &RestClient,
    dest: &Place,
    task: &BackfillTask,
    progress: &Progress,
) -> Result<TaskOutcome, ClientError> {
    let query = HistoryQuery::new(
        &task.curve_id,
        task.start,
        task.end,
        Some(task.tenors.clone()),
    )?;
    let table = rest.intraday_history(&query, progress, None).await?;
    let now = rest.http().service_clock().now();
    let received = Utc::now().timestamp_micros();
    let rows = backfilled_rows(&table, received).map_err(ClientError::Destination)?;
    let complete_through = complete_through(task, &rows, now);
    let mut by_day: BTreeMap<NaiveDate, Vec<Recorded>> = BTreeMap::new();
    for row in rows {
        by_day
            .entry(utc_day(row.tick.generated_on))
            .or_default()
            .push(row);
    }
    let tag = format!("{:04x}", fastrand::u16(..));
    let mut outcome = TaskOutcome::default();
    for day in task.start.iter_days().take_while(|d| *d <= task.end) {
        let fetched = by_day.remove(&day).unwrap_or_default();
        let complete: Vec<&String> = task
            .tenors
            .iter()
            .filter(|t| {
                complete_through
                    .get(*t)
                    .is_some_and(|through| day <= *through)
            })
            .collect();
        let day_outcome = write_day(dest, task, day, fetched, &complete, &tag).await?;
        outcome.values += day_outcome.values;
        outcome.days_complete += day_outcome.days_complete;
        outcome.files_written += day_outcome.files_written;
    }
    Ok(outcome)
}

/// The last day each tenor of `task` is complete through: final on the
/// service's clock (`now`), with the history cache's rule for trailing
/// days without a value (`cache::finality`).
fn complete_through(
    task: &BackfillTask,
    rows: &[Recorded],
    now: chrono::DateTime<Utc>,
) -> BTreeMap<String, NaiveDate> {
    let last_final = last_final_day(now, INTRADAY_MARGIN).min(task.end);
    let mut last_with_value: BTreeMap<&str, NaiveDate> = BTreeMap::new();
    for row in rows {
        let day = utc_day(row.tick.generated_on);
        let last = last_with_value.entry(&row.tick.tenor).or_insert(day);
        *last = (*last).max(day);
    }
    task.tenors
        .iter()
        .filter_map(|tenor| {
            let with_value = last_with_value.get(tenor.as_str()).copied();
            let through = keep_through(task.start, last_final, with_value, now.date_naive())?;
            Some((tenor.clone(), through))
        })
        .collect()
}

/// Writes `task`'s curve's file of `day`: the values `fetched` of the
/// task's tenors, and what the current files hold of its other tenors.
async fn write_day(
    dest: &Place,
    task: &BackfillTask,
    day: NaiveDate,
    fetched: Vec<Recorded>,
    complete: &[&String],
    tag: &str,
) -> Result<TaskOutcome, PlaceError> {
    let (held, stale) = curve_day(dest, &task.curve_id, day).await?;
    let ours = |tenor: &str| task.tenors.iter().any(|t| t == tenor);
    let held_ours = held
        .iter()
        .any(|f| f.rows.iter().any(|r| ours(&r.tick.tenor)));
    if fetched.is_empty() && complete.is_empty() && !held_ours {
        return Ok(TaskOutcome::default());
    }
    let mut done: BTreeSet<String> = complete.iter().map(|t| t.to_string()).collect();
    let mut rows = Vec::new();
    let mut replaces = stale;
    for file in held {
        done.extend(file.note.complete.into_iter().filter(|t| !ours(t)));
        rows.extend(file.rows.into_iter().filter(|r| !ours(&r.tick.tenor)));
        replaces.push(file.name);
    }
    let values = fetched.len() as u64;
    rows.extend(fetched);
    sort_rows(&mut rows);
    // Two current files of a day (two runs that wrote it at once) hold
    // their other tenors twice: carried over once.
    let rows = each_value_once(rows);
    let note = FileNote {
        replaces,
        curve_id: Some(task.curve_id.clone()),
        complete: done.into_iter().collect(),
        ..FileNote::of_rows(&rows)
    };
    let batch = recorded_rows_to_batch(&rows).map_err(PlaceError)?;
    let bytes = encode(&[batch], &note).map_err(PlaceError)?;
    let name = backfill_name(day, &task.curve_id, Utc::now().timestamp_micros(), tag);
    dest.put(&name, bytes).await?;
    for old in &note.replaces {
        dest.delete(old).await?;
    }
    Ok(TaskOutcome {
        values,
        days_complete: complete.len() as u64,
        files_written: 1,
    })
}

#[cfg(test)]
#[path = "task_tests.rs"]
mod tests;
