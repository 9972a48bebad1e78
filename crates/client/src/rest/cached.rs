//! Settlements and intraday history through the cache: each tenor's days
//! are served from its files where they are, fetched where they are not
//! (one request, or one 30-day window, per run of missing days), and the
//! fetched days that are final are kept. The table is the very table an
//! uncached call returns: a tenor's rows are in time order and days do not
//! overlap, so cached and fetched pieces, put in day order, are its rows.

use std::path::{Path, PathBuf};

use arrow_array::RecordBatch;
use chrono::{NaiveDate, TimeDelta};
use futures_util::stream::{self, StreamExt, TryStreamExt};

use super::client::RestClient;
use super::expired::Skipped;
use super::progress::Progress;
use super::query::{Contracts, HistoryQuery};
use crate::cache::days::slice_batches;
use crate::cache::layout::{segments, tenor_dir, History};
use crate::cache::plan::{plan, Part};
use crate::cache::segment::{self, ReadError};
use crate::cache::CacheMode;
use crate::error::ClientError;
use domain::arrow::{schema, Table};
use domain::tenor::Tenor;

/// Days of one tenor: rows in hand, or days to fetch.
pub(super) enum Piece {
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
struct TenorResult {
    batches: Vec<RecordBatch>,
    cached_days: i64,
    fetched_days: i64,
    /// Offline: the runs of days the cache lacks.
    missing: Vec<(NaiveDate, NaiveDate)>,
}

fn days_between(first: NaiveDate, last: NaiveDate) -> i64 {
    (last - first).num_days() + 1
}

/// What one call needs to know, shared by its tenors.
pub(super) struct Call<'a> {
    pub(super) history: History,
    pub(super) curve_id: &'a str,
    start: NaiveDate,
    end: NaiveDate,
    mode: CacheMode,
    service: &'a Path,
    progress: &'a Progress,
}

impl RestClient {
    /// `history` of the query's tenors through the cache, in `mode`.
    pub(super) async fn cached_history(
        &self,
        history: History,
        query: &HistoryQuery,
        progress: &Progress,
        mode: CacheMode,
    ) -> Result<Table, ClientError> {
        let tenors = self.tenors_of(query, mode).await?;
        let service = self.cache_dir().await?;
        let call = Call {
            history,
            curve_id: query.curve_id(),
            start: query.start(),
            end: query.end(),
            mode,
            service,
            progress,
        };
        let call = &call;
        let skippable = query.contracts() != Contracts::Listed;
        let skipped = &Skipped::default();
        let results: Vec<(Tenor, TenorResult)> = stream::iter(tenors)
            .map(|tenor| async move {
                let result = match self.tenor_history(call, &tenor).await {
                    Err(e) if skippable && skipped.skip(&tenor, &e) => TenorResult::default(),
                    result => result?,
                };
                Ok::<_, ClientError>((tenor, result))
            })
            .buffered(self.concurrency.max(1))
            .try_collect()
            .await?;
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
        Ok(skipped.mark(call.curve_id, table))
    }

    async fn tenor_history(
        &self,
        call: &Call<'_>,
        tenor: &Tenor,
    ) -> Result<TenorResult, ClientError> {
        let dir = tenor_dir(call.service, call.history, call.curve_id, tenor.name());
        let mut pieces = if call.mode.reads() {
            read_cached(call, tenor.name(), &dir).await?
        } else {
            vec![Piece::Missing {
                first: call.start,
                last: call.end,
            }]
        };
        let cached_days: i64 = pieces
            .iter()
            .map(|p| match p {
                Piece::Have { first, last, .. } => days_between(*first, *last),
                Piece::Missing { .. } => 0,
            })
            .sum();
        if cached_days > 0 {
            call.progress.plan(1);
            call.progress.finish(1);
        }
        if call.mode == CacheMode::Offline {
            let missing: Vec<_> = pieces
                .iter()
                .filter_map(|p| match p {
                    Piece::Missing { first, last } => Some((*first, *last)),
                    Piece::Have { .. } => None,
                })
                .collect();
            let batches = take_batches(pieces);
            return Ok(TenorResult {
                batches,
                cached_days,
                fetched_days: 0,
                missing,
            });
        }
        // Every run of missing days at once (the HTTP layer bounds them).
        let fetches = pieces.iter().map(|piece| async move {
            match piece {
                Piece::Missing { first, last } => Some(
                    self.fetch_days(call, tenor, *first, *last)
                        .await
                        .map(|b| (*first, *last, b)),
                ),
                Piece::Have { .. } => None,
            }
        });
        let fetched = futures_util::future::join_all(fetches).await;
        let mut fetched_days = 0;
        for (piece, result) in pieces.iter_mut().zip(fetched) {
            if let Some(result) = result {
                let (first, last, batches) = result?;
                fetched_days += days_between(first, last);
                *piece = Piece::Have {
                    first,
                    last,
                    batches,
                    cached: false,
                };
            }
        }
        if fetched_days > 0 {
            self.keep(call, tenor.name(), &dir, &pieces).await;
        }
        Ok(TenorResult {
            batches: take_batches(pieces),
            cached_days,
            fetched_days,
            missing: Vec::new(),
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
                    .settlements_batch(call.curve_id, tenor, first, last)
                    .await;
                call.progress.finish(1);
                Ok(vec![batch?])
            }
            History::Intraday => {
                let windows = super::windows::split(first, last, super::windows::MAX_INTRADAY_DAYS);
                let slices: Vec<_> = windows.into_iter().map(|w| (tenor, w)).collect();
                self.intraday_batches(call.curve_id, &slices, call.progress)
                    .await
            }
        }
    }
}

/// The pieces of a tenor's request from its files: each cached part read
/// and cut to its days. A file that another writer merged away meanwhile
/// sends the plan back to the folder once; a corrupt one is removed, with
/// a warning, and its days fetched again.
async fn read_cached(call: &Call<'_>, tenor: &str, dir: &Path) -> Result<Vec<Piece>, ClientError> {
    let (history, curve_id, start, end) =
        (call.history, call.curve_id.to_owned(), call.start, call.end);
    let (tenor, dir): (String, PathBuf) = (tenor.to_owned(), dir.to_owned());
    let reading = tokio::task::spawn_blocking(move || {
        let mut pieces = Vec::new();
        for attempt in 0..2 {
            pieces.clear();
            let mut gone = false;
            for part in plan(&segments(&dir), start, end) {
                match part {
                    Part::Missing { first, last } => push_missing_piece(&mut pieces, first, last),
                    Part::Cached {
                        segment,
                        first,
                        last,
                    } => match segment::read(&segment, history, &curve_id, &tenor) {
                        Ok(batches) => {
                            let batches = slice_batches(&batches, history, first, last);
                            pieces.push(Piece::Have {
                                first,
                                last,
                                batches,
                                cached: true,
                            });
                        }
                        Err(ReadError::Gone) => {
                            gone = true;
                            push_missing_piece(&mut pieces, first, last);
                        }
                        Err(ReadError::Corrupt(why)) => {
                            log::warn!(
                                target: "marketcurves.cache",
                                "{:?} is corrupt ({why}); removed, and its days fetched again",
                                segment.path
                            );
                            let _ = std::fs::remove_file(&segment.path);
                            push_missing_piece(&mut pieces, first, last);
                        }
                    },
                }
            }
            if !gone || attempt == 1 {
                break;
            }
        }
        pieces
    });
    reading
        .await
        .map_err(|e| ClientError::Internal(format!("reading the cache failed: {e}")))
}

/// Adds missing days, joined to the missing run before if they touch.
fn push_missing_piece(pieces: &mut Vec<Piece>, first: NaiveDate, last: NaiveDate) {
    if let Some(Piece::Missing { last: previous, .. }) = pieces.last_mut() {
        if *previous + TimeDelta::days(1) == first {
            *previous = last;
            return;
        }
    }
    pieces.push(Piece::Missing { first, last });
}

fn take_batches(pieces: Vec<Piece>) -> Vec<RecordBatch> {
    pieces
        .into_iter()
        .flat_map(|p| match p {
            Piece::Have { batches, .. } => batches,
            Piece::Missing { .. } => Vec::new(),
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
    }
}
