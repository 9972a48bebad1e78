//! The REST client: the catalogue, current-day and historical prices as Arrow
//! tables. It chooses the tenors of a call (from the catalogue, which it
//! keeps for ten minutes), then asks the service (`rest::service`,
//! `rest::history`) or, in a cache mode, the history cache over it
//! (`cache::through`), and trims what comes back to the call's days.

use std::sync::atomic::AtomicU64;
use std::sync::Arc;
use std::time::{Duration, Instant};

use chrono::NaiveDate;
use tokio::sync::Mutex;

use crate::cache::info::{self, CacheInfo, Cleared};
use crate::cache::layout::History;
use crate::cache::through::Through;
use crate::cache::{Cache, CacheMode, Dirs};
use crate::rest::expired::expired_tenors;
use crate::rest::http::{Http, HttpConfig};
use crate::rest::in_window::{keep_within, DatedBy};
use crate::rest::intraday_values::IntradayValues;
use crate::rest::progress::Progress;
use crate::rest::query::{CatalogueQuery, Contracts, HistoryQuery, PriceQuery, TenorQuery};
use crate::rest::service::Service;
use crate::rest::tenor_rules::{contracts_of, in_table_order, tenor_offered};
use crate::rest::unlisted::note_empty_unlisted;
use crate::rest::validate;
use crate::rest::values_since::PageHint;
use domain::arrow::{name_table, named_curves, schema, NamedCurve, Table, TableKind};
use domain::decode::PriceEndpoint;
use domain::records::CurveQuotation;
use domain::tenor::Tenor;
use domain::timestamp::Micros;
use places::Closing;
use places::{Advice, Argument, ClientError, Invalid, Rule};

// A call's plan checked against its request budget.
#[path = "client_budget.rs"]
mod budget;

/// How long a fetched catalogue serves tenor look-ups.
const CATALOGUE_TTL: Duration = Duration::from_secs(600);

pub struct RestClient {
    service: Service,
    catalogue: Mutex<Option<(Instant, Arc<Vec<CurveQuotation>>)>>,
    cache: Option<Cache>,
}

impl RestClient {
    pub fn new(config: HttpConfig) -> Result<RestClient, ClientError> {
        Ok(RestClient {
            service: Service::new(config)?,
            catalogue: Mutex::new(None),
            cache: None,
        })
    }

    /// The client with a history cache, whose mode serves calls that do
    /// not choose one.
    pub fn with_cache(mut self, cache: Cache) -> RestClient {
        self.cache = Some(cache);
        self
    }

    pub fn cache(&self) -> Option<&Cache> {
        self.cache.as_ref()
    }

    /// The mode of a call: the one it chose, else the client's (`Off`
    /// without a cache). Choosing one that needs a cache needs one.
    pub fn cache_mode(&self, chosen: Option<CacheMode>) -> Result<CacheMode, ClientError> {
        match (chosen, &self.cache) {
            (None, None) | (Some(CacheMode::Off), _) => Ok(CacheMode::Off),
            (None, Some(cache)) => Ok(cache.mode()),
            (Some(mode), Some(_)) => Ok(mode),
            (Some(mode), None) => Err(ClientError::InvalidRequest(
                Invalid::led(
                    Argument::CacheMode,
                    Rule::Conflict,
                    &format!(" {:?} needs a cache directory", mode.name()),
                )
                .value(mode.name())
                .advice(Advice::CacheFolder),
            )),
        }
    }

    /// Where the cache keeps this client's service's and account's files,
    /// the store checked (`Dirs::check`).
    async fn cache_dirs(&self) -> Result<&Dirs, ClientError> {
        let dirs = self.unchecked_cache_dirs().await?;
        dirs.check().await?;
        Ok(dirs)
    }

    /// Where the cache keeps this client's service's and account's files,
    /// for a call through the cache, which checks the store itself.
    async fn unchecked_cache_dirs(&self) -> Result<&Dirs, ClientError> {
        let cache = self.cache.as_ref().ok_or_else(|| {
            ClientError::InvalidRequest(
                Invalid::new(
                    Argument::CacheFolder,
                    Rule::Conflict,
                    "this client has no cache directory",
                )
                .advice(Advice::CacheFolder),
            )
        })?;
        let http = self.service.http();
        cache.dirs(http.base_url(), http.account()).await
    }

    /// In a store's cache, what a call reads of its curve while its tenors
    /// are learnt (`Through::early`); None otherwise.
    async fn early(
        &self,
        history: History,
        query: &HistoryQuery,
        mode: CacheMode,
    ) -> Option<crate::cache::prefetch::Early> {
        if mode == CacheMode::Off || !self.cache.as_ref()?.is_store() {
            return None;
        }
        let through = self.through_cache().await.ok()?;
        through.early(history, query, mode).await
    }

    /// The service through the cache of this client's service and account.
    async fn through_cache(&self) -> Result<Through<'_>, ClientError> {
        Ok(Through {
            service: &self.service,
            dirs: self.unchecked_cache_dirs().await?,
        })
    }

    /// The HTTP layer, for the bulk module.
    pub fn http(&self) -> &Http {
        self.service.http()
    }

    /// Ends every call in flight, and every live feed started from this
    /// client, with [`ClientError::ClientClosed`]; later calls get it at once,
    /// before anything is sent. Idempotent. The connection pool goes when
    /// the last holder of the client lets it go.
    pub fn close(&self) {
        self.http().closing().close();
    }

    pub fn is_closed(&self) -> bool {
        self.http().closing().is_closed()
    }

    /// The close signal, for work that runs on behalf of this client.
    pub fn closing(&self) -> &Closing {
        self.http().closing()
    }

    /// Every curve quotation matching the filters, all pages, through the
    /// cache in `mode` (see [`cache_mode`](Self::cache_mode)).
    pub async fn catalogue(
        &self,
        query: &CatalogueQuery,
        mode: Option<CacheMode>,
    ) -> Result<Vec<CurveQuotation>, ClientError> {
        let mode = self.cache_mode(mode)?;
        self.catalogue_in(query, mode).await
    }

    /// The quotations of `query`: from the service, or through the cache
    /// in any other mode.
    async fn catalogue_in(
        &self,
        query: &CatalogueQuery,
        mode: CacheMode,
    ) -> Result<Vec<CurveQuotation>, ClientError> {
        match mode {
            CacheMode::Off => self.service.catalogue(query).await,
            mode => self.through_cache().await?.catalogue(query, mode).await,
        }
    }

    /// The whole catalogue, fetched at most every ten minutes (and kept
    /// in the cache in `mode`).
    async fn known_curves(&self, mode: CacheMode) -> Result<Arc<Vec<CurveQuotation>>, ClientError> {
        let mut cached = self.catalogue.lock().await;
        if let Some((at, curves)) = cached.as_ref() {
            if at.elapsed() < CATALOGUE_TTL && mode != CacheMode::Refresh {
                return Ok(Arc::clone(curves));
            }
        }
        let everything = CatalogueQuery::default();
        let curves = Arc::new(self.catalogue_in(&everything, mode).await?);
        *cached = Some((Instant::now(), Arc::clone(&curves)));
        Ok(curves)
    }

    /// Every curve of the catalogue, as [`known_curves`](Self::known_curves)
    /// keeps it, in the client's cache mode.
    pub async fn listed_curves(&self) -> Result<Arc<Vec<CurveQuotation>>, ClientError> {
        let mode = self.cache_mode(None)?;
        self.known_curves(mode).await
    }

    /// `curve_id` as the catalogue describes it (its id alone where it is
    /// not listed, or no catalogue is at hand), for a table that names its
    /// curves. `fetch`: the catalogue is fetched if it is not kept already,
    /// as [`listed_curves`](Self::listed_curves) does, but never refreshed
    /// (as for the client's tables), a failure read as no catalogue; else
    /// only a catalogue kept already, however old, is read (a caller that
    /// must not wait on the service for a name).
    pub async fn named_curve(&self, curve_id: &str, fetch: bool) -> NamedCurve {
        let curves = if fetch {
            let mode = match self.cache_mode(None).unwrap_or(CacheMode::Off) {
                CacheMode::Refresh => CacheMode::Use,
                mode => mode,
            };
            self.known_curves(mode).await.ok()
        } else {
            let kept = self.catalogue.lock().await;
            kept.as_ref().map(|(_, curves)| Arc::clone(curves))
        };
        let catalogue = curves.as_deref().map_or(&[][..], Vec::as_slice);
        named_curves([curve_id], catalogue)
            .pop()
            .unwrap_or_else(|| NamedCurve::unnamed(curve_id))
    }

    /// The tenors to pull: the curve's contracts, or those asked for, checked
    /// against the shapes the curve offers.
    async fn tenors_of(
        &self,
        query: &HistoryQuery,
        mode: CacheMode,
    ) -> Result<Vec<Tenor>, ClientError> {
        let curve_id = query.curve_id();
        let curves = match self.known_curves(mode).await {
            // Offline without a catalogue: tenors named are taken as they
            // are (the cache holds only tenors the service served).
            Err(ClientError::CacheMiss { .. }) if query.tenors().is_some() => {
                return Ok(in_table_order(query.tenors().unwrap_or_default().to_vec()));
            }
            curves => curves?,
        };
        let curve = curves
            .iter()
            .find(|c| c.id.as_deref() == Some(curve_id))
            .ok_or_else(|| ClientError::NotFound {
                endpoint: "GET /catalogue".into(),
                message: format!("no curve {curve_id:?} in the catalogue"),
            })?;
        let contracts = contracts_of(curve);
        let Some(asked) = query.tenors() else {
            let (start, end) = (query.start(), query.end());
            return Ok(in_table_order(match query.contracts() {
                Contracts::Listed => contracts,
                Contracts::Expired => expired_tenors(&contracts, start, end),
                Contracts::All => {
                    let mut all = expired_tenors(&contracts, start, end);
                    all.extend(contracts);
                    all
                }
            }));
        };
        for tenor in asked {
            tenor_offered(curve_id, &contracts, tenor)?;
        }
        Ok(in_table_order(asked.to_vec()))
    }

    /// The tenors a history query pulls: those it names, checked against
    /// the catalogue, or the curve's contracts it asks for (listed, expired
    /// or all), in calendar order.
    pub async fn tenors_to_pull(&self, query: &HistoryQuery) -> Result<Vec<Tenor>, ClientError> {
        let mode = self.cache_mode(None)?;
        self.tenors_of(query, mode).await
    }

    pub async fn last_settlement(&self, query: &PriceQuery) -> Result<Table, ClientError> {
        let endpoints = (
            PriceEndpoint::LastSettlement,
            PriceEndpoint::LastSettlementAll,
        );
        let table = self.service.ongoing(query, endpoints, TableKind::Prices);
        Ok(self.named(table.await?, query.curve_id(), None).await)
    }

    /// Today's assessments, one row per tenor and snapshot.
    pub async fn last_assessments(&self, query: &PriceQuery) -> Result<Table, ClientError> {
        let endpoints = (
            PriceEndpoint::LastAssessments,
            PriceEndpoint::LastAssessmentsAll,
        );
        let table = self
            .service
            .ongoing(query, endpoints, TableKind::Assessments);
        Ok(self.named(table.await?, query.curve_id(), None).await)
    }

    /// Today's intraday values of one tenor, every page.
    pub async fn intraday(
        &self,
        query: &TenorQuery,
        progress: &Progress,
    ) -> Result<Table, ClientError> {
        if query.budget().is_limited() {
            // One request (its first page), and the catalogue that names the table.
            let mode = match self.cache_mode(None).unwrap_or(CacheMode::Off) {
                CacheMode::Refresh => CacheMode::Use,
                mode => mode,
            };
            query
                .budget()
                .check(1 + self.catalogue_requests(mode).await?)?;
        }
        let table = self.service.intraday(query, progress).await?;
        Ok(self.named(table, query.curve_id(), None).await)
    }

    /// `table` naming its curves, `curve_id` first, in its schema metadata
    /// (`domain::arrow::curves_key`), from the catalogue this client keeps,
    /// through the cache in `mode` (the client's if None). The catalogue is
    /// fetched if it is not kept already; a table whose catalogue cannot be
    /// had (offline, the service failing) names its curves by id alone
    /// rather than fail a call whose prices came. Naming never refreshes
    /// the catalogue: a call in the `refresh` mode has just done so.
    async fn named(&self, table: Table, curve_id: &str, mode: Option<CacheMode>) -> Table {
        let mode = match mode.unwrap_or_else(|| self.cache_mode(None).unwrap_or(CacheMode::Off)) {
            CacheMode::Refresh => CacheMode::Use,
            mode => mode,
        };
        match self.known_curves(mode).await {
            Ok(curves) => name_table(table, "curve_id", &[curve_id], &curves),
            Err(_) => name_table(table, "curve_id", &[curve_id], &[]),
        }
    }

    /// `table` (a recording's, any of the design's) naming the curves of
    /// its `curve_id` column: from the catalogue of `client`, fetched if it
    /// is not kept already; by id alone without a client, or when its
    /// catalogue cannot be had. A table without that column is refused: a
    /// bulk dataset's `id` is its record's, not a curve's (the interface),
    /// so its records name no curve.
    pub async fn name_curves(
        client: Option<&RestClient>,
        table: Table,
    ) -> Result<Table, ClientError> {
        if table.schema.column_with_name("curve_id").is_none() {
            return Err(ClientError::invalid(
                places::Argument::Named("table".into()),
                places::Rule::Form,
                "the table has no curve_id column to name curves from \
                 (a bulk dataset's id is its record's, not a curve's)",
            ));
        }
        let curves = match client {
            Some(client) => client.listed_curves().await.ok(),
            None => None,
        };
        let catalogue = curves.as_deref().map_or(&[][..], |c| c.as_slice());
        Ok(name_table(table, "curve_id", &[], catalogue))
    }

    /// End-of-day snapshots from `start` to `end`, one request per tenor,
    /// through the cache in `mode` (see [`cache_mode`](Self::cache_mode)).
    pub async fn settlements(
        &self,
        query: &HistoryQuery,
        progress: &Progress,
        mode: Option<CacheMode>,
    ) -> Result<Table, ClientError> {
        let mode = self.cache_mode(mode)?;
        let history = History::Settlements;
        let (tenors, early) = tokio::join!(
            self.planned_tenors(history, query, mode),
            self.early(history, query, mode)
        );
        let tenors = tenors?;
        let table = match mode {
            CacheMode::Off => self.service.settlements(query, tenors, progress).await?,
            mode => {
                let cached = self.through_cache().await?;
                cached
                    .history(history, query, tenors, progress, mode, early)
                    .await?
            }
        };
        let window = (query.start(), query.end());
        let table = keep_within(
            "settlements",
            query.curve_id(),
            table,
            DatedBy::Date,
            window,
        );
        let table = self.note_empty_unlisted(query, table, mode).await;
        Ok(self.named(table, query.curve_id(), Some(mode)).await)
    }

    /// `table`, noting the tenors asked for by name that the catalogue does
    /// not list for the curve and that returned nothing (`rest::unlisted`).
    /// Without a catalogue (offline) nothing is noted.
    async fn note_empty_unlisted(
        &self,
        query: &HistoryQuery,
        table: Table,
        mode: CacheMode,
    ) -> Table {
        let Some(asked) = query.tenors() else {
            return table;
        };
        let Ok(curves) = self.known_curves(mode).await else {
            return table;
        };
        let curve_id = query.curve_id();
        match curves.iter().find(|c| c.id.as_deref() == Some(curve_id)) {
            Some(curve) => note_empty_unlisted(curve_id, asked, &contracts_of(curve), table),
            None => table,
        }
    }

    /// Intraday values from `start` to `end`: windows of at most 30 days,
    /// every page of each, for every tenor, all concurrently; through the
    /// cache in `mode`. An end past the service's today is taken as today
    /// (no value is published later), so an open-ended range costs no more
    /// than one ending today; what is left may span at most
    /// [`MAX_INTRADAY_HISTORY_DAYS`](crate::rest::windows::MAX_INTRADAY_HISTORY_DAYS).
    /// Before any answer has dated the service's clock this machine's is
    /// used, so a day is added for clocks that disagree: it never cuts off
    /// the service's today, and costs no extra window.
    pub async fn intraday_history(
        &self,
        query: &HistoryQuery,
        progress: &Progress,
        mode: Option<CacheMode>,
    ) -> Result<Table, ClientError> {
        let today = self.http().service_clock().now().date_naive();
        let Some(query) = &query.ending_by(today + chrono::Days::new(1)) else {
            let table = Table {
                schema: schema(TableKind::Prices),
                batches: Vec::new(),
            };
            return Ok(self.named(table, query.curve_id(), mode).await);
        };
        validate::intraday_span(query.start(), query.end())?;
        let mode = self.cache_mode(mode)?;
        let history = History::Intraday;
        let (tenors, early) = tokio::join!(
            self.planned_tenors(history, query, mode),
            self.early(history, query, mode)
        );
        let tenors = tenors?;
        let table = match mode {
            CacheMode::Off => {
                let service = &self.service;
                service.intraday_history(query, &tenors, progress).await?
            }
            mode => {
                let cached = self.through_cache().await?;
                cached
                    .history(history, query, tenors, progress, mode, early)
                    .await?
            }
        };
        let window = (query.start(), query.end());
        let dated_by = DatedBy::GeneratedOn;
        let table = keep_within(
            "intraday history",
            query.curve_id(),
            table,
            dated_by,
            window,
        );
        let table = self.note_empty_unlisted(query, table, mode).await;
        Ok(self.named(table, query.curve_id(), Some(mode)).await)
    }

    /// The intraday values of one tenor published at or after `after`, for
    /// the live feed's backfill (`rest::intraday_values`).
    pub async fn intraday_values(
        &self,
        curve_id: &str,
        tenor: &str,
        days_and_hint: (Option<(NaiveDate, NaiveDate)>, Option<PageHint>),
        after: Micros,
        requests: &AtomicU64,
    ) -> Result<IntradayValues, ClientError> {
        let service = &self.service;
        service
            .intraday_values(curve_id, tenor, days_and_hint, after, requests)
            .await
    }

    /// Files, bytes, and the first and last cached day of each curve.
    pub async fn cache_info(&self) -> Result<CacheInfo, ClientError> {
        let dirs = self.cache_dirs().await?.clone();
        tokio::task::spawn_blocking(move || info::info(&dirs))
            .await
            .map_err(|e| ClientError::internal("reading the cache", e))
    }

    /// Removes the cached history of `curve_id` (every curve if None) of
    /// the days before `before` (every day if None); with neither, the
    /// cached catalogues too.
    pub async fn clear_cache(
        &self,
        curve_id: Option<String>,
        before: Option<NaiveDate>,
    ) -> Result<Cleared, ClientError> {
        let curve_id = curve_id.map(|c| validate::curve_id(&c)).transpose()?;
        let dirs = self.cache_dirs().await?.clone();
        tokio::task::spawn_blocking(move || info::clear(&dirs, curve_id.as_deref(), before))
            .await
            .map_err(|e| ClientError::internal("clearing the cache", e))
    }
}
