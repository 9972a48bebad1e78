//! What a cached call keeps of what it fetched: the final days of each
//! fetched run, as a file of their own, or, when a request's days are
//! spread over many files, one file of them all (see `cache::finality` for
//! what is final). A failure to write is a warning: the call has its data.
//!
//! Many writers, on many machines, may keep the same days at once. Each
//! file is created whole or not at all, only if its name is free
//! (`Put::Create`; a refresh replaces it); a writer that loses the race has
//! its rows for its caller all the same, and drops its copy. A merge
//! removes the files its own new file covers, and only once that file is
//! whole: whatever it removes, a whole file holds, so a reader that finds
//! a listed file gone plans again from the listing and finds the days in
//! the new one (or, if that too was merged away meanwhile, fetches them:
//! a miss, never an error; `through::read_cached`).

use std::path::Path;

use arrow_array::RecordBatch;
use chrono::{NaiveDate, TimeDelta};

use super::days::{
    from_epoch_days, in_day_order, last_day_with_rows, row_days, slice_days, to_epoch_days,
};
use super::files::{Files, Put, Written};
use super::finality::{keep_through, last_final_day};
use super::layout::{segments, History, Segment};
use super::segment;
use super::through::{Call, RunRows, Through};
use super::CacheMode;

/// More files than this for one request's days are merged into one.
const MERGE_ABOVE: usize = 4;

impl Through<'_> {
    /// Keeps the final days of what was fetched, each run as a file; merges
    /// the request's files into one when there are many. A failure to
    /// write is a warning: the call has its data either way. Returns the
    /// runs of days the cache holds now, read or kept (a pack's, `through_pack`).
    pub(super) async fn keep(
        &self,
        call: &Call<'_>,
        tenor: &str,
        dir: &Path,
        runs: &[RunRows],
    ) -> Vec<(NaiveDate, NaiveDate)> {
        let now = self.service.http().service_clock().now();
        let last_final = last_final_day(now, call.history.margin());
        let today = now.date_naive();
        // (first, last, rows) of every run of days the files now hold.
        let mut kept: Vec<(NaiveDate, NaiveDate, Vec<RecordBatch>)> = Vec::new();
        let mut written = Vec::new();
        for run in runs {
            let RunRows::Have {
                first,
                last,
                batches,
                cached,
            } = run
            else {
                continue;
            };
            if *cached {
                kept.push((*first, *last, batches.clone()));
                continue;
            }
            let Some(rows) = final_rows(
                call.history,
                *first,
                (*last).min(last_final),
                today,
                batches,
            ) else {
                continue;
            };
            written.push(Segment::in_dir(dir, rows.0, rows.1));
            kept.push(rows);
        }
        let held = kept
            .iter()
            .map(|(first, last, _)| (*first, *last))
            .collect();
        let merge = kept.len() > MERGE_ABOVE && contiguous(&kept);
        let files: Vec<(Segment, Vec<RecordBatch>)> = if merge {
            let (first, last) = (kept[0].0, kept[kept.len() - 1].1);
            let rows = kept.into_iter().flat_map(|(_, _, b)| b).collect();
            vec![(Segment::in_dir(dir, first, last), rows)]
        } else {
            let mut rows_of = kept
                .into_iter()
                .map(|(f, l, b)| ((f, l), b))
                .collect::<Vec<_>>();
            written
                .into_iter()
                .filter_map(|s| {
                    let index = rows_of
                        .iter()
                        .position(|(days, _)| *days == (s.first, s.last))?;
                    Some((s, rows_of.swap_remove(index).1))
                })
                .collect()
        };
        let (history, curve_id, tenor, dir) = (
            call.history,
            call.curve_id.to_owned(),
            tenor.to_owned(),
            dir.to_owned(),
        );
        let put = match call.mode {
            CacheMode::Refresh => Put::Replace,
            _ => Put::Create,
        };
        let store = self.dirs.files.clone();
        let writing = tokio::task::spawn_blocking(move || {
            write_segments(&store, put, (history, &curve_id, &tenor), &dir, files)
        });
        let _ = writing.await;
        held
    }
}

/// The rows of the final days `first..=through` of a fetched run, trimmed
/// of recent days without values; None if nothing is worth keeping (or the
/// rows are not in day order, which a kept file must be).
fn final_rows(
    history: History,
    first: NaiveDate,
    through: NaiveDate,
    today: NaiveDate,
    batches: &[RecordBatch],
) -> Option<(NaiveDate, NaiveDate, Vec<RecordBatch>)> {
    if through < first {
        return None;
    }
    let days: Vec<Vec<Option<i32>>> = batches.iter().map(|b| row_days(b, history)).collect();
    let all: Vec<Option<i32>> = days.iter().flatten().copied().collect();
    if !in_day_order(&all) {
        log::debug!(target: "marketcurves.cache", "rows without a day, or out of order: not kept");
        return None;
    }
    let last_with_value =
        last_day_with_rows(&all, to_epoch_days(through)).and_then(from_epoch_days);
    let through = keep_through(first, through, last_with_value, today)?;
    let (from, to) = (to_epoch_days(first), to_epoch_days(through));
    let rows = batches
        .iter()
        .zip(&days)
        .map(|(batch, days)| slice_days(batch, days, from, to))
        .filter(|b| b.num_rows() > 0)
        .collect();
    Some((first, through, rows))
}

fn contiguous(runs: &[(NaiveDate, NaiveDate, Vec<RecordBatch>)]) -> bool {
    runs.windows(2)
        .all(|pair| pair[0].1 + TimeDelta::days(1) == pair[1].0)
}

/// Writes each file, then removes the files it makes needless (those whose
/// days are all within it), once it is whole and ours.
fn write_segments(
    store: &Files,
    put: Put,
    of: (History, &str, &str),
    dir: &Path,
    files: Vec<(Segment, Vec<RecordBatch>)>,
) {
    for (file, rows) in files {
        match segment::write(store, &file, put, of, &rows) {
            Ok(Written::Whole) => {}
            Ok(Written::Lost) => {
                // Another writer kept these very days first: its file
                // serves, and its writer removes what it covers.
                log::debug!(
                    target: "marketcurves.cache",
                    "{} was kept by another writer first", store.shown(&file.path)
                );
                continue;
            }
            Err(e) => {
                let path = store.shown(&file.path);
                log::warn!(target: "marketcurves.cache", "cannot write {path}: {e}");
                continue;
            }
        }
        for old in segments(store, dir) {
            if old != file && file.first <= old.first && old.last <= file.last {
                let _ = store.delete(&old.path);
            }
        }
    }
}
