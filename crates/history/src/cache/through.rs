//! The history cache as a layer over the service: each tenor's days are
//! served from its files where they are, fetched where they are not (one
//! request, or one 30-day window, per run of missing days), and the
//! fetched days that are final are kept (`keep`). The table is the very
//! table an uncached call returns: a tenor's rows are in time order and
//! days do not overlap, so cached and fetched runs, put in day order, are
//! its rows. The catalogue goes through it too (`through_catalogue`).

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::SystemTime;

use arrow_array::RecordBatch;
use chrono::{NaiveDate, TimeDelta};
use futures_util::stream::{self, StreamExt, TryStreamExt};

use super::days::slice_batches;
use super::files::Files;
use super::layout::{curve_dir, segments, tenor_dir, History, Segment};
use super::plan::{plan, Run};
use super::prefetch::{Early, Prefetched};
use super::segment::{self, ReadError};
use super::through_pack::cached_spans;
use super::{CacheMode, Dirs};
use crate::rest::expired::Skipped;
use crate::rest::progress::Progress;
use crate::rest::query::{Contracts, HistoryQuery};
use crate::rest::service::Service;
use crate::rest::windows::{split, MAX_INTRADAY_DAYS};
use domain::arrow::{schema, Table};
use domain::price_page::Detail;
use domain::tenor::Tenor;
use places::ClientError;

/// The service seen through the cache of one service and account.
pub(crate) struct Through<'a> {
    pub(crate) service: &'a Service,
    /// Where the service's and account's files are (`Cache::dirs`).
    pub(crate) dirs: &'a Dirs,
}

/// Days of one tenor: rows in hand, or days to fetch.
pub(super) enum RunRows {
    Have {
        first: NaiveDate,
        last: NaiveDate,
        batches: Vec<RecordBatch>,
        /// Read from a file (else fetched now).
        cached: bool,
    },
    Missing {
        first: NaiveDate,
        last: NaiveDate,
    },
}

/// One tenor's share of a call.
#[derive(Default)]
pub(super) struct TenorResult {
    pub(super) batches: Vec<RecordBatch>,
    cached_days: i64,
    fetched_days: i64,
    /// Offline: the runs of days the cache lacks.
    missing: Vec<(NaiveDate, NaiveDate)>,
    /// The runs of days the cache holds now (read, or kept by the call).
    pub(super) held: Vec<(NaiveDate, NaiveDate)>,
}

fn days_between(first: NaiveDate, last: NaiveDate) -> i64 {
    (last - first).num_days() + 1
}

/// What one call needs to know, shared by its tenors.
pub(super) struct Call<'a> {
    pub(super) history: History,
    pub(super) curve_id: &'a str,
    pub(super) start: NaiveDate,
    pub(super) end: NaiveDate,
    pub(super) mode: CacheMode,
    progress: &'a Progress,
    /// When the call stops waiting on other writers' claims (`through_claim`).
    pub(super) claims_until: SystemTime,
}

impl Through<'_> {
    /// `history` of `tenors` over the query's days, in `mode` (which is
    /// not `Off`).
    pub(crate) async fn history(
        &self,
        history: History,
        query: &HistoryQuery,
        tenors: Vec<Tenor>,
        progress: &Progress,
        mode: CacheMode,
        early: Option<Early>,
    ) -> Result<Table, ClientError> {
        let call = Call {
            history,
            curve_id: query.curve_id(),
            start: query.start(),
            end: query.end(),
            mode,
            progress,
            claims_until: SystemTime::now() + super::claim::lifetime(),
        };
        let call = &call;
        // A store's files are read while the licence is confirmed (one
        // request, at most, and not after the read); no row is served
        // unless it is.
        let licence = async {
            match mode.reads() {
                true => self.may_serve(call, &tenors).await,
                false => Ok(()),
            }
        };
        let prefetch = async {
            match mode.reads() && self.dirs.files.is_store() {
                true => self.prefetch(call, &tenors, early).await.map(Some),
                false => Ok(None),
            }
        };
        let (checked, licence, prefetched) = tokio::join!(self.dirs.check(), licence, prefetch);
        checked?;
        licence?;
        let prefetched = &prefetched?;
        let skippable = query.contracts() != Contracts::Listed;
        let skipped = &Skipped::default();
        let results: Result<Vec<(Tenor, TenorResult)>, ClientError> = stream::iter(tenors)
            .map(|tenor| async move {
                let result = match self.tenor_history(call, &tenor, prefetched).await {
                    Err(e) if skippable && skipped.skip(&tenor, &e) => TenorResult::default(),
                    result => result?,
                };
                Ok::<_, ClientError>((tenor, result))
            })
            .buffered(self.service.concurrency())
            .try_collect()
            .await;
        let fetched_any =
            |results: &Vec<(Tenor, TenorResult)>| results.iter().any(|(_, r)| r.fetched_days > 0);
        self.heard(call.curve_id, results.as_ref().map(fetched_any));
        let results = results?;
        let missing: Vec<(String, Vec<(NaiveDate, NaiveDate)>)> = results
            .iter()
            .filter(|(_, r)| !r.missing.is_empty())
            .map(|(t, r)| (t.name().to_owned(), r.missing.clone()))
            .collect();
        if !missing.is_empty() {
            return Err(cache_miss(history, call.curve_id, missing));
        }
        let cached: i64 = results.iter().map(|(_, r)| r.cached_days).sum();
        let fetched: i64 = results.iter().map(|(_, r)| r.fetched_days).sum();
        if mode != CacheMode::Offline && self.dirs.files.is_store() {
            if mode == CacheMode::Refresh {
                self.drop_packs_over(call).await;
            }
            self.keep_pack(call, &results, prefetched.as_deref()).await;
        }
        log::debug!(
            target: "marketcurves.cache",
            "{} of {} from {} to {}: {} tenors, {cached} tenor-days from the cache, {fetched} fetched",
            history.name(), call.curve_id, call.start, call.end, results.len()
        );
        let batches = results
            .into_iter()
            .flat_map(|(_, r)| r.batches)
            .filter(|b| b.num_rows() > 0)
            .collect();
        let table = Table {
            schema: schema(history.table_kind()),
            batches,
        };
        let table = skipped.mark(call.curve_id, table);
        Ok(super::counted::counted(table, cached, fetched))
    }

    /// In a store, what a call of `query` reads of its curve before it
    /// knows its tenors (`prefetch::Early`), so that the listing and the
    /// packs are read while the catalogue is; None in a folder, in a mode
    /// that does not read, or if it could not be read (the call then reads
    /// as it would have).
    pub(crate) async fn early(
        &self,
        history: History,
        query: &HistoryQuery,
        mode: CacheMode,
    ) -> Option<Early> {
        if !mode.reads() || !self.dirs.files.is_store() {
            return None;
        }
        let files = self.dirs.files.clone();
        let curve = curve_dir(&self.dirs.history, history, query.curve_id());
        let days = (query.start(), query.end());
        let curve_id = query.curve_id().to_owned();
        // Tenors named: packs only if they are enough; else the curve's
        // contracts, as many as its packs hold (a curve of few has none).
        let packs = query
            .tenors()
            .is_none_or(|t| t.len() >= super::through_pack::PACK_TENORS);
        let reading = tokio::task::spawn_blocking(move || {
            Early::read(&files, &curve, days, (history, &curve_id), packs)
        });
        reading.await.ok()
    }

    /// A store's files of the call's curve: one listing, the files the
    /// tenors' plans need read at once (`prefetch`).
    async fn prefetch(
        &self,
        call: &Call<'_>,
        tenors: &[Tenor],
        early: Option<Early>,
    ) -> Result<Arc<Prefetched>, ClientError> {
        let files = self.dirs.files.clone();
        let curve = curve_dir(&self.dirs.history, call.history, call.curve_id);
        let tenor_dirs: Vec<PathBuf> = tenors
            .iter()
            .map(|t| tenor_dir(&self.dirs.history, call.history, call.curve_id, t.name()))
            .collect();
        let days = (call.start, call.end);
        let (history, curve_id) = (call.history, call.curve_id.to_owned());
        tokio::task::spawn_blocking(move || {
            let of = (history, curve_id.as_str());
            Arc::new(match early {
                Some(early) => Prefetched::planned(&files, &curve, early, &tenor_dirs, days),
                None => Prefetched::read(&files, &curve, &tenor_dirs, days, of),
            })
        })
        .await
        .map_err(|e| ClientError::internal("reading the cache", e))
    }

    async fn tenor_history(
        &self,
        call: &Call<'_>,
        tenor: &Tenor,
        prefetched: &Option<Arc<Prefetched>>,
    ) -> Result<TenorResult, ClientError> {
        let dir = tenor_dir(
            &self.dirs.history,
            call.history,
            call.curve_id,
            tenor.name(),
        );
        let mut runs = if call.mode.reads() {
            read_cached(
                &self.dirs.files,
                call,
                tenor.name(),
                &dir,
                prefetched.clone(),
            )
            .await?
        } else {
            vec![RunRows::Missing {
                first: call.start,
                last: call.end,
            }]
        };
        // A shared cache is looked at again just before the fetch, and what
        // is left to fetch claimed (`through_claim`).
        let mut claim = None;
        let fetching = call.mode != CacheMode::Offline;
        if fetching && call.mode.reads() && self.dirs.files.is_store() {
            (runs, claim) = self.before_fetch(call, tenor, &dir, runs).await?;
        }
        let cached_days: i64 = runs
            .iter()
            .map(|run| match run {
                RunRows::Have { first, last, .. } => days_between(*first, *last),
                RunRows::Missing { .. } => 0,
            })
            .sum();
        if cached_days > 0 {
            call.progress.plan(1);
            call.progress.finish(1);
        }
        if call.mode == CacheMode::Offline {
            let missing: Vec<_> = runs
                .iter()
                .filter_map(|p| match p {
                    RunRows::Missing { first, last } => Some((*first, *last)),
                    RunRows::Have { .. } => None,
                })
                .collect();
            let held = cached_spans(&runs);
            let batches = take_batches(runs);
            return Ok(TenorResult {
                batches,
                cached_days,
                fetched_days: 0,
                missing,
                held,
            });
        }
        // Every run of missing days at once (the HTTP layer bounds them).
        let fetches = runs.iter().map(|run| async move {
            match run {
                RunRows::Missing { first, last } => Some(
                    self.fetch_days(call, tenor, *first, *last)
                        .await
                        .map(|b| (*first, *last, b)),
                ),
                RunRows::Have { .. } => None,
            }
        });
        let fetched = futures_util::future::join_all(fetches).await;
        if fetched.iter().any(|r| matches!(r, Some(Err(_)))) {
            super::through_claim::release(claim.take()).await?;
        }
        let mut fetched_days = 0;
        for (run, result) in runs.iter_mut().zip(fetched) {
            if let Some(result) = result {
                let (first, last, batches) = result?;
                fetched_days += days_between(first, last);
                *run = RunRows::Have {
                    first,
                    last,
                    batches,
                    cached: false,
                };
            }
        }
        let held = match fetched_days > 0 {
            true => self.keep(call, tenor.name(), &dir, &runs).await,
            false => cached_spans(&runs),
        };
        super::through_claim::release(claim).await?;
        Ok(TenorResult {
            batches: take_batches(runs),
            cached_days,
            fetched_days,
            missing: Vec::new(),
            held,
        })
    }

    /// The rows of `first..=last` of one tenor, from the service.
    async fn fetch_days(
        &self,
        call: &Call<'_>,
        tenor: &Tenor,
        first: NaiveDate,
        last: NaiveDate,
    ) -> Result<Vec<RecordBatch>, ClientError> {
        match call.history {
            History::Settlements => {
                call.progress.plan(1);
                let batch = self
                    .service
                    .settlements_batch(call.curve_id, tenor, first, last)
                    .await;
                call.progress.finish(1);
                Ok(vec![batch?])
            }
            History::Intraday => {
                let windows = split(first, last, MAX_INTRADAY_DAYS);
                let slices: Vec<_> = windows.into_iter().map(|w| (tenor, w)).collect();
                // The cache keeps every field, whatever the call keeps.
                self.service
                    .intraday_batches(call.curve_id, &slices, Detail::Full, call.progress)
                    .await
            }
        }
    }
}

/// The runs of a tenor's request from its files: each cached part read
/// and cut to its days. A file that another writer merged away meanwhile
/// sends the plan back to the folder once (then its days are fetched: a
/// miss, never an error); a corrupt one is removed, with a warning, and its
/// days fetched again (and kept anew). In a store, the first plan is made
/// from the call's one listing and its files taken as read (`prefetch`).
pub(super) async fn read_cached(
    files: &Files,
    call: &Call<'_>,
    tenor: &str,
    dir: &Path,
    prefetched: Option<Arc<Prefetched>>,
) -> Result<Vec<RunRows>, ClientError> {
    let (history, curve_id, start, end) =
        (call.history, call.curve_id.to_owned(), call.start, call.end);
    let (tenor, dir): (String, PathBuf) = (tenor.to_owned(), dir.to_owned());
    let files = files.clone();
    let reading = tokio::task::spawn_blocking(move || {
        let mut runs = Vec::new();
        for attempt in 0..2 {
            runs.clear();
            let mut gone = false;
            let listed = match (&prefetched, attempt) {
                (Some(prefetched), 0) => prefetched.segments(&dir),
                _ => segments(&files, &dir),
            };
            for run in plan(&listed, start, end) {
                match run {
                    Run::Missing { first, last } => push_missing(&mut runs, first, last),
                    Run::Cached {
                        segment,
                        first,
                        last,
                    } => match read_segment(
                        &files,
                        prefetched.as_deref(),
                        &segment,
                        (history, &curve_id, &tenor),
                    ) {
                        Ok(batches) => {
                            let batches = slice_batches(&batches, history, first, last);
                            runs.push(RunRows::Have {
                                first,
                                last,
                                batches,
                                cached: true,
                            });
                        }
                        Err(ReadError::Gone) => {
                            gone = true;
                            push_missing(&mut runs, first, last);
                        }
                        Err(ReadError::Corrupt(why)) => {
                            log::warn!(
                                target: "marketcurves.cache",
                                "{} is corrupt ({why}); removed, and its days fetched again",
                                files.shown(&segment.path)
                            );
                            let _ = files.delete(&segment.path);
                            push_missing(&mut runs, first, last);
                        }
                        Err(ReadError::Unanswered(why)) => {
                            log::warn!(
                                target: "marketcurves.cache",
                                "cannot read {} ({why}); its days are fetched",
                                files.shown(&segment.path)
                            );
                            push_missing(&mut runs, first, last);
                        }
                    },
                }
            }
            if !gone || attempt == 1 {
                break;
            }
        }
        runs
    });
    reading
        .await
        .map_err(|e| ClientError::internal("reading the cache", e))
}

/// A segment, from what the call's prefetch read (a pack's share of the
/// tenor, or a segment's file), else from its file.
fn read_segment(
    files: &Files,
    prefetched: Option<&Prefetched>,
    segment: &Segment,
    what: (History, &str, &str),
) -> Result<Vec<RecordBatch>, ReadError> {
    if let Some(pack) = prefetched.and_then(|p| p.pack(&segment.path)) {
        return pack.rows(what.2).ok_or(ReadError::Gone);
    }
    match prefetched.and_then(|p| p.take(&segment.path)) {
        Some(file) => segment::from_file(file, files.is_store(), segment, what),
        None => segment::read(files, segment, what.0, what.1, what.2),
    }
}

/// Adds missing days, joined to the missing run before if they touch.
fn push_missing(runs: &mut Vec<RunRows>, first: NaiveDate, last: NaiveDate) {
    if let Some(RunRows::Missing { last: previous, .. }) = runs.last_mut() {
        if *previous + TimeDelta::days(1) == first {
            *previous = last;
            return;
        }
    }
    runs.push(RunRows::Missing { first, last });
}

fn take_batches(runs: Vec<RunRows>) -> Vec<RecordBatch> {
    runs.into_iter()
        .flat_map(|p| match p {
            RunRows::Have { batches, .. } => batches,
            RunRows::Missing { .. } => Vec::new(),
        })
        .collect()
}

/// The error of an offline call: which tenors lack which days.
fn cache_miss(
    history: History,
    curve_id: &str,
    missing: Vec<(String, Vec<(NaiveDate, NaiveDate)>)>,
) -> ClientError {
    let runs = |runs: &[(NaiveDate, NaiveDate)]| {
        runs.iter()
            .map(|(first, last)| {
                if first == last {
                    first.to_string()
                } else {
                    format!("{first} to {last}")
                }
            })
            .collect::<Vec<_>>()
            .join(", ")
    };
    // Tenors that lack the same days are named together.
    let mut groups: Vec<(String, Vec<&str>)> = Vec::new();
    for (tenor, days) in &missing {
        let days = runs(days);
        match groups.iter_mut().find(|(d, _)| *d == days) {
            Some((_, tenors)) => tenors.push(tenor),
            None => groups.push((days, vec![tenor])),
        }
    }
    let lines: Vec<String> = groups
        .iter()
        .map(|(days, tenors)| format!("{} on {days}", tenors.join(", ")))
        .collect();
    ClientError::CacheMiss {
        message: format!(
            "offline, and the cache lacks {} of curve {curve_id}: {}",
            history.name(),
            lines.join("; ")
        ),
        curve_id: Some(curve_id.to_owned()),
        missing,
        advice: None,
    }
}
