//! What a call through the cache will send, known before it sends anything,
//! for its request budget (`rest::budget`): only the runs of days the
//! cache lacks are fetched, so only they are counted, as `through` fetches
//! them (one request per run of settlements, one per 30-day window of a run
//! of intraday values). It reads the folders' listings, not the files.

use chrono::NaiveDate;

use super::catalogue;
use super::layout::{catalogue_file, segments, tenor_dir, History};
use super::plan::{plan, Run};
use super::through::Through;
use super::CacheMode;
use crate::rest::query::CatalogueQuery;
use crate::rest::windows::{split, MAX_INTRADAY_DAYS};
use domain::tenor::Tenor;
use places::ClientError;

/// The requests one run of missing days costs.
pub(crate) fn run_requests(history: History, first: NaiveDate, last: NaiveDate) -> u64 {
    match history {
        History::Settlements => 1,
        History::Intraday => split(first, last, MAX_INTRADAY_DAYS).len() as u64,
    }
}

impl Through<'_> {
    /// The first-page requests `history` of `tenors` of `curve_id` over
    /// `start..=end` sends in `mode` (which is not `Off`): none offline,
    /// every day's in `refresh`, the days no file holds otherwise.
    pub(crate) async fn requests(
        &self,
        history: History,
        curve_id: &str,
        tenors: &[Tenor],
        (start, end): (NaiveDate, NaiveDate),
        mode: CacheMode,
    ) -> Result<u64, ClientError> {
        if mode == CacheMode::Offline {
            return Ok(0);
        }
        if !mode.reads() {
            return Ok(tenors.len() as u64 * run_requests(history, start, end));
        }
        let dirs: Vec<_> = tenors
            .iter()
            .map(|t| tenor_dir(self.dir, history, curve_id, t.name()))
            .collect();
        let counting = tokio::task::spawn_blocking(move || {
            let mut needed = 0;
            for dir in dirs {
                for run in plan(&segments(&dir), start, end) {
                    if let Run::Missing { first, last } = run {
                        needed += run_requests(history, first, last);
                    }
                }
            }
            needed
        });
        counting
            .await
            .map_err(|e| ClientError::internal("reading the cache failed", e))
    }

    /// Whether the cache serves `query`'s catalogue in `mode` without
    /// fetching it (as `through_catalogue` would).
    pub(crate) async fn catalogue_kept(&self, query: &CatalogueQuery, mode: CacheMode) -> bool {
        match mode {
            CacheMode::Offline => true,
            CacheMode::Use => {
                let path = catalogue_file(self.dir, &query.cache_key());
                let offset = self.service.http().service_clock().offset();
                let reading = tokio::task::spawn_blocking(move || catalogue::read(&path));
                matches!(reading.await, Ok(Ok(Some((fetched, _)))) if !fetched.expired(offset))
            }
            CacheMode::Refresh | CacheMode::Off => false,
        }
    }
}

#[cfg(test)]
#[path = "cost_tests.rs"]
mod tests;
