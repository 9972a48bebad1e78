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
use std::sync::Arc;

use chrono::{NaiveDate, Utc};
use futures_util::{stream, StreamExt, TryStreamExt};
use serde::Serialize;

use super::held::{curve_day, CurveDay};
use super::plan::BackfillTask;
use super::rows::backfilled_rows;
use crate::record::compact::sort_rows;
use crate::record::file::{encode, recorded_rows_to_batch, FileNote, Recorded};
use crate::record::layout::{backfill_name, utc_day};
use crate::record::read::each_value_once;
use history::cache::finality::{keep_through, last_final_day, INTRADAY_MARGIN};
use history::rest::{HistoryQuery, Progress};
use history::RestClient;
use places::one_thread::OneThread;
use places::storage::{Place, PlaceError};
use places::ClientError;

/// Tenors fetched at once: each fans out to its window's pages, so a few
/// keep the client's bound on requests busy.
const TENORS_IN_FLIGHT: usize = 4;

/// Days of a task written at once.
const DAYS_IN_FLIGHT: usize = 4;

/// What one task wrote.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct TaskOutcome {
    /// Values fetched and written.
    pub values: u64,
    /// Days of a tenor marked complete.
    pub days_complete: u64,
    pub files_written: u64,
    /// Files that could not be read as the lake's, renamed `<name>.corrupt`.
    pub set_aside: Vec<String>,
    /// Days marked complete without a value: `(curve_id, tenor, first,
    /// last)`, a tenor's days before its first value in the task (all of
    /// them if it has none: before the curve's history, or a tenor the
    /// service has no values of), when they hold a business day.
    pub empty: Vec<(String, String, NaiveDate, NaiveDate)>,
}

/// Runs `task` into `dest`; the requests it sends are counted in `progress`.
pub async fn run_task(
    rest: &RestClient,
    dest: &Place,
    task: &BackfillTask,
    progress: &Progress,
) -> Result<TaskOutcome, ClientError> {
    let received = Utc::now().timestamp_micros();
    // A tenor at a time (a few at once), each table made rows at once: a
    // task holds its window's values, not its window's tables.
    let queries = task
        .tenors
        .iter()
        .map(|tenor| {
            let named = Some(vec![tenor.clone()]);
            // The lake keeps times and prices: the rest is not read.
            HistoryQuery::new(&task.curve_id, task.start, task.end, named).map(|q| q.values_only())
        })
        .collect::<Result<Vec<_>, _>>()?;
    // Each tenor's rows go to their days as they arrive, and its table and
    // rows are freed: a task holds its window's values once, never a copy.
    let fetched = stream::iter(queries)
        .map(|query| fetch_rows(rest, query, progress, received))
        .buffer_unordered(TENORS_IN_FLIGHT)
        .try_fold(ByDay::default(), |mut by_day, rows| async move {
            by_day.add(rows);
            Ok(by_day)
        })
        .await?;
    let now = rest.http().service_clock().now();
    let complete_through = complete_through(task, &fetched.last_with_value, now);
    let empty = empty_runs(task, &fetched.first_with_value, &complete_through);
    let mut by_day = fetched.rows;
    let tag = format!("{:04x}", fastrand::u16(..));
    let days: Vec<(NaiveDate, Vec<Recorded>, Vec<String>)> = task
        .start
        .iter_days()
        .take_while(|d| *d <= task.end)
        .map(|day| {
            let complete = task
                .tenors
                .iter()
                .filter(|t| {
                    complete_through
                        .get(*t)
                        .is_some_and(|through| day <= *through)
                })
                .cloned()
                .collect();
            (day, by_day.remove(&day).unwrap_or_default(), complete)
        })
        .collect();
    let tag = &tag;
    // The days' files are made on one thread of the task's own
    // (`one_thread`): written in parallel from the blocking pool, each of its
    // threads kept a file's memory.
    let maker = OneThread::start("marketcurves-backfill", "writing a backfill's files")?;
    let maker = &maker;
    let written: Vec<TaskOutcome> = stream::iter(days)
        .map(|(day, fetched, complete)| write_day(dest, maker, (task, day), fetched, complete, tag))
        .buffer_unordered(DAYS_IN_FLIGHT)
        .try_collect()
        .await?;
    let mut outcome = TaskOutcome {
        empty,
        ..TaskOutcome::default()
    };
    for day in written {
        outcome.values += day.values;
        outcome.days_complete += day.days_complete;
        outcome.files_written += day.files_written;
        outcome.set_aside.extend(day.set_aside);
    }
    for (curve_id, tenor, first, last) in &outcome.empty {
        log::warn!(
            target: "marketcurves::backfill",
            "{curve_id} {tenor}: no value from {first} to {last}, marked complete (before the \
             curve's history, or a tenor the service has no values of)"
        );
    }
    // The window's pages, rows and files are freed, on whichever threads
    // decoded and wrote them: give them back, so that a worker's memory after
    // many tasks is that of one (`give_back`).
    places::give_back::trim();
    Ok(outcome)
}

/// One tenor's values over the task's days, as rows.
async fn fetch_rows(
    rest: &RestClient,
    query: HistoryQuery,
    progress: &Progress,
    received: i64,
) -> Result<Vec<Recorded>, ClientError> {
    let table = rest.intraday_history(&query, progress, None).await?;
    Ok(backfilled_rows(&table, received).map_err(PlaceError::encoding)?)
}

/// A task's fetched rows by UTC day, and the last day each tenor has a
/// value on.
#[derive(Default)]
struct ByDay {
    rows: BTreeMap<NaiveDate, Vec<Recorded>>,
    last_with_value: BTreeMap<Arc<str>, NaiveDate>,
    first_with_value: BTreeMap<Arc<str>, NaiveDate>,
}

impl ByDay {
    fn add(&mut self, rows: Vec<Recorded>) {
        for row in rows {
            let day = utc_day(row.tick.generated_on);
            let last = self
                .last_with_value
                .entry(Arc::clone(&row.tick.tenor))
                .or_insert(day);
            *last = (*last).max(day);
            let first = self
                .first_with_value
                .entry(Arc::clone(&row.tick.tenor))
                .or_insert(day);
            *first = (*first).min(day);
            self.rows.entry(day).or_default().push(row);
        }
    }
}

/// The last day each tenor of `task` is complete through: final on the
/// service's clock (`now`), with the history cache's rule for trailing
/// days without a value (`cache::finality`).
fn complete_through(
    task: &BackfillTask,
    last_with_value: &BTreeMap<Arc<str>, NaiveDate>,
    now: chrono::DateTime<Utc>,
) -> BTreeMap<String, NaiveDate> {
    let last_final = last_final_day(now, INTRADAY_MARGIN).min(task.end);
    task.tenors
        .iter()
        .filter_map(|tenor| {
            let with_value = last_with_value.get(tenor.as_str()).copied();
            let through = keep_through(task.start, last_final, with_value, now.date_naive())?;
            Some((tenor.clone(), through))
        })
        .collect()
}

/// The runs of days marked complete before each tenor's first value in
/// the task (all of them without a value), holding a business day: a
/// weekend before a Monday's first value says nothing.
fn empty_runs(
    task: &BackfillTask,
    first_with_value: &BTreeMap<Arc<str>, NaiveDate>,
    complete_through: &BTreeMap<String, NaiveDate>,
) -> Vec<(String, String, NaiveDate, NaiveDate)> {
    use chrono::{Datelike, Weekday};
    let mut runs = Vec::new();
    for tenor in &task.tenors {
        let Some(through) = complete_through.get(tenor) else {
            continue;
        };
        let last = match first_with_value.get(tenor.as_str()) {
            Some(first) => first.pred_opt().unwrap_or(*first).min(*through),
            None => *through,
        };
        let business = task
            .start
            .iter_days()
            .take_while(|d| *d <= last)
            .any(|d| !matches!(d.weekday(), Weekday::Sat | Weekday::Sun));
        if business {
            runs.push((task.curve_id.clone(), tenor.clone(), task.start, last));
        }
    }
    runs
}

/// Writes `task`'s curve's file of `day`: the values `fetched` of the
/// task's tenors, and what the current files hold of its other tenors
/// (of a file whose rows contradict its note, only its rows of the curve
/// and day, none complete). A file that cannot be read as the lake's is
/// set aside first, renamed `<name>.corrupt`.
async fn write_day(
    dest: &Place,
    maker: &OneThread,
    (task, day): (&BackfillTask, NaiveDate),
    fetched: Vec<Recorded>,
    complete: Vec<String>,
    tag: &str,
) -> Result<TaskOutcome, PlaceError> {
    let CurveDay {
        held,
        stale,
        unreadable,
    } = curve_day(dest, &task.curve_id, day).await?;
    let mut set_aside = Vec::new();
    for (name, why) in unreadable {
        set_aside.push(put_aside(dest, &name, &why).await?);
    }
    let ours = |tenor: &str| task.tenors.iter().any(|t| t == tenor);
    let held_ours = held
        .iter()
        .any(|f| !f.trusted || f.rows.iter().any(|r| ours(&r.tick.tenor)));
    if fetched.is_empty() && complete.is_empty() && !held_ours {
        return Ok(TaskOutcome {
            set_aside,
            ..TaskOutcome::default()
        });
    }
    let days_complete = complete.len() as u64;
    let mut done: BTreeSet<String> = complete.into_iter().collect();
    let mut rows = Vec::new();
    let mut replaces = stale;
    for file in held {
        let belongs = |r: &Recorded| {
            !ours(&r.tick.tenor)
                && *r.tick.curve_id == *task.curve_id
                && utc_day(r.tick.generated_on) == day
        };
        if file.trusted {
            done.extend(file.note.complete.into_iter().filter(|t| !ours(t)));
        } else {
            log::warn!(
                target: "marketcurves::backfill",
                "{}: its rows contradict its note; written again from what is fetched",
                file.name
            );
        }
        rows.extend(file.rows.into_iter().filter(belongs));
        replaces.push(file.name);
    }
    let values = fetched.len() as u64;
    rows.extend(fetched);
    let curve_id = task.curve_id.clone();
    // Sorting and encoding are the CPU of a write: off the runtime's
    // threads, which fetch and write the other days meanwhile.
    let (bytes, replaces) = maker
        .run(move || {
            sort_rows(&mut rows);
            // Two current files of a day (two runs that wrote it at once) hold
            // their other tenors twice: carried over once.
            let rows = each_value_once(rows);
            let note = FileNote {
                replaces,
                curve_id: Some(curve_id),
                complete: done.into_iter().collect(),
                ..FileNote::of_rows(&rows)
            };
            let batch = recorded_rows_to_batch(&rows)?;
            Ok::<_, String>((encode(&[batch], &note)?, note.replaces))
        })
        .await?
        .map_err(PlaceError::encoding)?;
    let name = backfill_name(day, &task.curve_id, Utc::now().timestamp_micros(), tag);
    dest.put(&name, bytes).await?;
    for old in &replaces {
        dest.delete(old).await?;
    }
    Ok(TaskOutcome {
        values,
        days_complete,
        files_written: 1,
        set_aside,
        ..TaskOutcome::default()
    })
}

/// Renames a file that cannot be read as the lake's to `<name>.corrupt`
/// (a name no reader takes), with a warning; its new name.
async fn put_aside(dest: &Place, name: &str, why: &str) -> Result<String, PlaceError> {
    let aside = format!("{name}.corrupt");
    log::warn!(target: "marketcurves::backfill", "{why}: set aside as {aside}, its day fetched again");
    if let Some(bytes) = dest.get(name).await? {
        dest.put(&aside, bytes).await?;
    }
    dest.delete(name).await?;
    Ok(aside)
}

#[cfg(test)]
#[path = "task_tests.rs"]
mod tests;
