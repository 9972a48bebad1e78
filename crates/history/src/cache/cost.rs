//! What a call through the cache will send, known before it sends anything,
//! for its request budget (`rest::budget`): only the runs of days the
//! cache lacks are fetched, so only they are counted, as `through` fetches
//! them (one request per run of settlements, one per 30-day window of a run
//! of intraday values), plus, in a cache that accounts share, the one that
//! confirms the account's licence for the curve where none is remembered.
//! It reads the cache's listing of the curve and its packs' notes
//! (`prefetch::cached_days`), not the rows.

use chrono::NaiveDate;

use super::catalogue;
use super::layout::{catalogue_file, History};
use super::prefetch::cached_days;
use super::through::Through;
use super::CacheMode;
use crate::rest::query::CatalogueQuery;
use crate::rest::windows::{split, MAX_INTRADAY_DAYS};
use domain::tenor::Tenor;
use places::ClientError;

/// The runs of `start..=end` that `held` (runs of days, in order, joined
/// where they touch: `prefetch::cached_days`) does not cover.
pub(crate) fn missing(
    held: &[(NaiveDate, NaiveDate)],
    start: NaiveDate,
    end: NaiveDate,
) -> Vec<(NaiveDate, NaiveDate)> {
    let mut gaps = Vec::new();
    let mut next = Some(start);
    for &(first, last) in held {
        let Some(from) = next.filter(|day| *day <= end) else {
            break;
        };
        if last < from {
            continue;
        }
        if first > from {
            gaps.push((from, first.pred_opt().unwrap_or(first).min(end)));
        }
        next = last.succ_opt();
    }
    if let Some(from) = next.filter(|day| *day <= end) {
        gaps.push((from, end));
    }
    gaps
}

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
        let files = self.dirs.files.clone();
        let service = self.dirs.history.clone();
        let (curve_id_owned, names) = (
            curve_id.to_owned(),
            tenors
                .iter()
                .map(|t| t.name().to_owned())
                .collect::<Vec<_>>(),
        );
        let counting = tokio::task::spawn_blocking(move || {
            let held = cached_days(&files, &service, history, &curve_id_owned);
            let mut needed = 0;
            for name in names {
                let runs = held.get(&name).map_or(&[][..], Vec::as_slice);
                for (first, last) in missing(runs, start, end) {
                    needed += run_requests(history, first, last);
                }
            }
            needed
        });
        let history_requests = counting
            .await
            .map_err(|e| ClientError::internal("reading the cache failed", e))?;
        Ok(history_requests + self.licence_requests(curve_id))
    }

    /// The request a cache that accounts share sends to confirm that the
    /// account may read `curve_id` (`licence`): one, unless the session or
    /// the machine remembers that it may.
    fn licence_requests(&self, curve_id: &str) -> u64 {
        match &self.dirs.licences {
            Some(licences) => u64::from(!licences.known(curve_id).is_some_and(|a| a.licensed)),
            None => 0,
        }
    }

    /// Whether the cache serves `query`'s catalogue in `mode` without
    /// fetching it (as `through_catalogue` would).
    pub(crate) async fn catalogue_kept(&self, query: &CatalogueQuery, mode: CacheMode) -> bool {
        match mode {
            CacheMode::Offline => true,
            CacheMode::Use => {
                let path = catalogue_file(&self.dirs.account, &query.cache_key());
                let offset = self.service.http().service_clock().offset();
                let files = self.dirs.files.clone();
                let reading = tokio::task::spawn_blocking(move || catalogue::read(&files, &path));
                matches!(reading.await, Ok(Ok(Some((fetched, _)))) if !fetched.expired(offset))
            }
            CacheMode::Refresh | CacheMode::Off => false,
        }
    }
}

#[cfg(test)]
#[path = "cost_tests.rs"]
mod tests;
