//! A call's plan checked against its request budget (`rest::budget`)
//! before anything is sent: the catalogue where it must be fetched, and the
//! history requests for the days the cache (if any) lacks.

use super::{RestClient, CATALOGUE_TTL};
use crate::cache::cost::run_requests;
use crate::cache::layout::History;
use crate::cache::CacheMode;
use crate::rest::query::{CatalogueQuery, HistoryQuery};
use crate::rest::tenor_rules::in_table_order;
use domain::tenor::Tenor;
use places::ClientError;

impl RestClient {
    /// The requests [`tenors_to_pull`](Self::tenors_to_pull) costs in the
    /// client's mode: one for the catalogue if it must be fetched, else none.
    pub async fn tenors_requests(&self) -> Result<u64, ClientError> {
        let mode = self.cache_mode(None)?;
        self.catalogue_requests(mode).await
    }

    /// The tenors `query` pulls, its plan checked against its request
    /// budget first: the catalogue (one request where it is neither kept
    /// nor cached) and `history`'s requests for the days it must fetch.
    /// With tenors named, all of it before anything is sent; else the
    /// curve's tenors are known only from the catalogue, so the catalogue
    /// alone is checked before it is fetched, and the whole plan after.
    pub(super) async fn planned_tenors(
        &self,
        history: History,
        query: &HistoryQuery,
        mode: CacheMode,
    ) -> Result<Vec<Tenor>, ClientError> {
        let budget = query.budget();
        if !budget.is_limited() {
            return self.tenors_of(query, mode).await;
        }
        let catalogue = self.catalogue_requests(mode).await?;
        let before = match query.tenors() {
            Some(named) => {
                let named = in_table_order(named.to_vec());
                self.history_requests(history, query, &named, mode).await?
            }
            None => 0,
        };
        budget.check(catalogue + before)?;
        let tenors = self.tenors_of(query, mode).await?;
        budget.check(catalogue + self.history_requests(history, query, &tenors, mode).await?)?;
        Ok(tenors)
    }

    /// The requests the catalogue costs a call in `mode`: none where it is
    /// kept (fetched within ten minutes) or cached, else one. A catalogue of
    /// several pages costs one more per further page, which only its first
    /// answer says.
    pub(super) async fn catalogue_requests(&self, mode: CacheMode) -> Result<u64, ClientError> {
        if mode != CacheMode::Refresh {
            let kept = self.catalogue.lock().await;
            if matches!(kept.as_ref(), Some((at, _)) if at.elapsed() < CATALOGUE_TTL) {
                return Ok(0);
            }
        }
        if mode == CacheMode::Off {
            return Ok(1);
        }
        let everything = CatalogueQuery::default();
        let cached = self.through_cache().await?;
        Ok(u64::from(!cached.catalogue_kept(&everything, mode).await))
    }

    /// The first-page requests `history` of `tenors` over the query's days
    /// sends in `mode`: one per tenor and run of days to fetch (per 30-day
    /// window of it for intraday values); cached days cost nothing.
    async fn history_requests(
        &self,
        history: History,
        query: &HistoryQuery,
        tenors: &[Tenor],
        mode: CacheMode,
    ) -> Result<u64, ClientError> {
        let days = (query.start(), query.end());
        match mode {
            CacheMode::Off => Ok(tenors.len() as u64 * run_requests(history, days.0, days.1)),
            mode => {
                let cached = self.through_cache().await?;
                let curve_id = query.curve_id();
                cached.requests(history, curve_id, tenors, days, mode).await
            }
        }
    }
}
