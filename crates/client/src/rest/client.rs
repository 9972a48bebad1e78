//! The REST client: the catalogue, current-day and historical prices as Arrow
//! record batches, with windows, pages and tenors fetched concurrently.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::{Duration, Instant};

use arrow_array::RecordBatch;
use chrono::NaiveDate;
use futures_util::stream::{self, StreamExt, TryStreamExt};
use tokio::sync::Mutex;

use super::expired::{expired_tenors, Skipped};
use super::give_back;
use super::http::{Http, HttpConfig};
use super::in_window::{keep_within, DatedBy};
use super::own_task::in_own_task;
use super::paging::{all_pages, pages_of_each, DecodedPage, Paged};
use super::paths::price_path;
use super::progress::Progress;
use super::query::{CatalogueQuery, Contracts, HistoryQuery, PriceQuery, TenorQuery};
use super::tenor_rules::{contracts_of, tenor_offered};
use super::unlisted::note_empty_unlisted;
use super::validate;
use super::windows::{split, MAX_INTRADAY_DAYS};
use crate::cache::layout::History;
use crate::cache::{Cache, CacheMode};
use crate::closing::Closing;
use crate::error::ClientError;
use domain::arrow::{build_batch, merge_slice, schema, Table, TableKind};
use domain::decode::{decode_price_rows, DecodeError, PriceEndpoint, RequestContext};
use domain::price_page::{decode_price_page, PageError};
use domain::records::CurveQuotation;
use domain::rows::PriceRow;
use domain::tenor::Tenor;

/// How long a fetched catalogue serves tenor look-ups.
const CATALOGUE_TTL: Duration = Duration::from_secs(600);

pub struct RestClient {
    pub(super) http: Http,
    pub(super) concurrency: usize,
    catalogue: Mutex<Option<(Instant, Arc<Vec<CurveQuotation>>)>>,
    pub(super) cache: Option<Cache>,
}

impl RestClient {
    pub fn new(config: HttpConfig) -> Result<RestClient, ClientError> {
        if config.max_concurrency == 0 {
            return Err(ClientError::InvalidRequest(
                "max_concurrency must be at least 1".into(),
            ));
        }
        Ok(RestClient {
            concurrency: config.max_concurrency,
            http: Http::new(config)?,
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
            (Some(mode), None) => Err(ClientError::InvalidRequest(format!(
                "cache={:?} needs a cache directory: pass cache_dir= to the client, \
                 or set MARKETCURVES_CACHE_DIR",
                mode.name()
            ))),
        }
    }

    /// The cache's folder for this client's service and account.
    pub(super) async fn cache_dir(&self) -> Result<&std::path::Path, ClientError> {
        let cache = self.cache.as_ref().ok_or_else(|| {
            ClientError::InvalidRequest(
                "this client has no cache directory: pass cache_dir= to the client, \
                 or set MARKETCURVES_CACHE_DIR"
                    .into(),
            )
        })?;
        cache
            .service_dir(self.http.base_url(), self.http.account())
            .await
    }

    /// The HTTP layer, for the bulk module.
    pub fn http(&self) -> &Http {
        &self.http
    }

    /// Ends every call in flight, and every live feed started from this
    /// client, with [`ClientError::ClientClosed`]; later calls get it at once,
    /// before anything is sent. Idempotent. The connection pool goes when
    /// the last holder of the client lets it go.
    pub fn close(&self) {
        self.http.closing().close();
    }

    pub fn is_closed(&self) -> bool {
        self.http.closing().is_closed()
    }

    /// The close signal, for work that runs on behalf of this client.
    pub fn closing(&self) -> &Closing {
        self.http.closing()
    }

    /// Every curve quotation matching the filters, all pages, through the
    /// cache in `mode` (see [`cache_mode`](Self::cache_mode)).
    pub async fn catalogue(
        &self,
        query: &CatalogueQuery,
        mode: Option<CacheMode>,
    ) -> Result<Vec<CurveQuotation>, ClientError> {
        let mode = self.cache_mode(mode)?;
        self.catalogue_through_cache(query, mode).await
    }

    /// Every curve quotation matching the filters, from the service.
    pub(super) async fn fetch_catalogue(
        &self,
        query: &CatalogueQuery,
    ) -> Result<Vec<CurveQuotation>, ClientError> {
        let params = query.params();
        let params: Vec<(&str, String)> = params
            .iter()
            .map(|(k, v)| (k.as_str(), v.clone()))
            .collect();
        let progress = Progress::default();
        all_pages(
            &self.http,
            "GET /catalogue",
            "/catalogue",
            &params,
            self.concurrency,
            &progress,
            Ok,
        )
        .await
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
        let curves = Arc::new(self.catalogue_through_cache(&everything, mode).await?);
        *cached = Some((Instant::now(), Arc::clone(&curves)));
        Ok(curves)
    }

    /// Every curve of the catalogue, as [`known_curves`](Self::known_curves)
    /// keeps it, in the client's cache mode.
    pub(crate) async fn listed_curves(&self) -> Result<Arc<Vec<CurveQuotation>>, ClientError> {
        let mode = self.cache_mode(None)?;
        self.known_curves(mode).await
    }

    /// The tenors to pull: the curve's contracts, or those asked for, checked
    /// against the shapes the curve offers.
    pub(super) async fn tenors_of(
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

    async fn get_rows(
        &self,
        endpoint: PriceEndpoint,
        curve_id: &str,
        tenor: Option<&str>,
        query: &[(&str, String)],
    ) -> Result<Vec<PriceRow>, ClientError> {
        let path = price_path(endpoint, curve_id, tenor);
        let body = self.http.get(endpoint.describe(), &path, query).await?;
        let request = RequestContext { curve_id, tenor };
        Ok(decode_price_rows(endpoint, &body, request)?)
    }

    /// Every page of a paged endpoint for each (tenor, query), as one batch
    /// each, in the order given: each page becomes Arrow as it arrives, and
    /// a slice's pages are merged as soon as they are all in, so only Arrow
    /// data accumulates, and about one slice's pages at a time.
    async fn paged_batches(
        &self,
        endpoint: PriceEndpoint,
        curve_id: &str,
        slices: Vec<(&str, Vec<(&'static str, String)>)>,
        progress: &Progress,
    ) -> Result<Vec<RecordBatch>, ClientError> {
        // Owned: each page is decoded by a task of its own (`paging`).
        let tenors: Vec<String> = slices.iter().map(|(t, _)| t.to_string()).collect();
        let resources: Vec<Paged> = slices
            .into_iter()
            .map(|(tenor, query)| Paged {
                path: price_path(endpoint, curve_id, Some(tenor)),
                query,
            })
            .collect();
        let owned_curve_id = curve_id.to_owned();
        let to_batch = move |slice: usize, what: &str, body: &[u8]| {
            let request = RequestContext {
                curve_id: &owned_curve_id,
                tenor: Some(&tenors[slice]),
            };
            let page = decode_price_page(endpoint, body, request).map_err(|error| match error {
                // Named with its page, as every paged endpoint's errors are.
                PageError::Decode(error) => ClientError::from(DecodeError {
                    endpoint: what.to_owned(),
                    ..error
                }),
                PageError::Arrow(error) => arrow_error(error),
            })?;
            Ok(DecodedPage {
                items: vec![page.batch],
                records: page.records,
                next: page.next,
                last: page.last,
            })
        };
        let merge = |_: usize, pages: Vec<RecordBatch>| {
            if pages.iter().all(|page| page.num_rows() == 0) {
                // An empty window holds no buffers: a long range's many
                // empty windows cost nothing.
                return Ok(RecordBatch::new_empty(schema(TableKind::Prices)));
            }
            merge_slice(schema(TableKind::Prices), &pages).map_err(arrow_error)
        };
        let name = endpoint.describe();
        let batches = pages_of_each(
            &self.http,
            name,
            &resources,
            self.concurrency,
            progress,
            to_batch,
            merge,
        )
        .await?;
        give_back::after_pull(&batches);
        Ok(batches)
    }

    pub async fn last_settlement(&self, query: &PriceQuery) -> Result<Table, ClientError> {
        let endpoints = (
            PriceEndpoint::LastSettlement,
            PriceEndpoint::LastSettlementAll,
        );
        self.ongoing(query, endpoints, TableKind::Prices).await
    }

    /// Today's assessments, one row per tenor and snapshot.
    pub async fn last_assessments(&self, query: &PriceQuery) -> Result<Table, ClientError> {
        let endpoints = (
            PriceEndpoint::LastAssessments,
            PriceEndpoint::LastAssessmentsAll,
        );
        self.ongoing(query, endpoints, TableKind::Assessments).await
    }

    /// An ongoing endpoint in its one-tenor form, or its all-tenors form
    /// when no tenor is given.
    async fn ongoing(
        &self,
        query: &PriceQuery,
        (one, all): (PriceEndpoint, PriceEndpoint),
        kind: TableKind,
    ) -> Result<Table, ClientError> {
        let tenor = query.tenor().map(Tenor::name);
        let endpoint = if tenor.is_some() { one } else { all };
        let rows = self
            .get_rows(endpoint, query.curve_id(), tenor, &[])
            .await?;
        table(kind, rows)
    }

    /// Today's intraday values of one tenor, every page.
    pub async fn intraday(
        &self,
        query: &TenorQuery,
        progress: &Progress,
    ) -> Result<Table, ClientError> {
        let (curve_id, tenor) = (query.curve_id(), query.tenor().name());
        let endpoint = PriceEndpoint::OngoingIntraday;
        let slices = vec![(tenor, Vec::new())];
        let batches = self
            .paged_batches(endpoint, curve_id, slices, progress)
            .await?;
        Ok(Table {
            schema: schema(TableKind::Prices),
            batches,
        })
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
        let table = match mode {
            CacheMode::Off => self.fetch_settlements(query, progress).await?,
            mode => {
                self.cached_history(History::Settlements, query, progress, mode)
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
        Ok(self.note_empty_unlisted(query, table, mode).await)
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
    /// [`MAX_INTRADAY_HISTORY_DAYS`](super::windows::MAX_INTRADAY_HISTORY_DAYS).
    /// Before any answer has dated the service's clock this machine's is
    /// used, so a day is added for clocks that disagree: it never cuts off
    /// the service's today, and costs no extra window.
    pub async fn intraday_history(
        &self,
        query: &HistoryQuery,
        progress: &Progress,
        mode: Option<CacheMode>,
    ) -> Result<Table, ClientError> {
        let today = self.http.service_clock().now().date_naive();
        let Some(query) = &query.ending_by(today + chrono::Days::new(1)) else {
            return Ok(Table {
                schema: schema(TableKind::Prices),
                batches: Vec::new(),
            });
        };
        validate::intraday_span(query.start(), query.end())?;
        let mode = self.cache_mode(mode)?;
        let table = match mode {
            CacheMode::Off => self.fetch_intraday_history(query, progress).await?,
            mode => {
                self.cached_history(History::Intraday, query, progress, mode)
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
        Ok(self.note_empty_unlisted(query, table, mode).await)
    }

    /// The settlements of one tenor from `first` to `last`: one request.
    pub(super) async fn settlements_batch(
        &self,
        curve_id: &str,
        tenor: &Tenor,
        first: NaiveDate,
        last: NaiveDate,
    ) -> Result<RecordBatch, ClientError> {
        let query = [
            ("startDate", first.to_string()),
            ("endDate", last.to_string()),
        ];
        let endpoint = PriceEndpoint::HistoricalSettlements;
        let path = price_path(endpoint, curve_id, Some(tenor.name()));
        let body = self.http.get(endpoint.describe(), &path, &query).await?;
        let (curve_id, tenor) = (curve_id.to_owned(), tenor.name().to_owned());
        in_own_task(move || {
            let request = RequestContext {
                curve_id: &curve_id,
                tenor: Some(&tenor),
            };
            let rows = decode_price_rows(endpoint, &body, request)?;
            batch(TableKind::Settlements, rows)
        })
        .await
    }

    /// The intraday values of each tenor in each of its windows of at most
    /// 30 days, every page: one batch per (tenor, window), in the order given.
    pub(super) async fn intraday_batches(
        &self,
        curve_id: &str,
        slices: &[(&Tenor, (NaiveDate, NaiveDate))],
        progress: &Progress,
    ) -> Result<Vec<RecordBatch>, ClientError> {
        let slices = slices
            .iter()
            .map(|(tenor, (first, last))| {
                let query = vec![
                    ("startDate", first.to_string()),
                    ("endDate", last.to_string()),
                ];
                (tenor.name(), query)
            })
            .collect();
        let endpoint = PriceEndpoint::HistoricalIntraday;
        self.paged_batches(endpoint, curve_id, slices, progress)
            .await
    }

    async fn fetch_settlements(
        &self,
        query: &HistoryQuery,
        progress: &Progress,
    ) -> Result<Table, ClientError> {
        let tenors = self.tenors_of(query, CacheMode::Off).await?;
        let (curve_id, start, end) = (query.curve_id(), query.start(), query.end());
        progress.plan(tenors.len() as u64);
        let skippable = query.contracts() != Contracts::Listed;
        let skipped = Skipped::default();
        let mut jobs: Vec<Job<'_>> = Vec::new();
        for (index, tenor) in tenors.into_iter().enumerate() {
            let skipped = skipped.clone();
            jobs.push(Box::pin(async move {
                let batch = self.settlements_batch(curve_id, &tenor, start, end).await;
                progress.finish(1);
                match batch {
                    Err(e) if skippable && skipped.skip(&tenor, &e) => Ok((
                        index,
                        RecordBatch::new_empty(schema(TableKind::Settlements)),
                    )),
                    batch => Ok((index, batch?)),
                }
            }));
        }
        let table = ordered_table(TableKind::Settlements, jobs, self.concurrency).await?;
        Ok(skipped.mark(curve_id, table))
    }

    async fn fetch_intraday_history(
        &self,
        query: &HistoryQuery,
        progress: &Progress,
    ) -> Result<Table, ClientError> {
        let tenors = self.tenors_of(query, CacheMode::Off).await?;
        let windows = split(query.start(), query.end(), MAX_INTRADAY_DAYS);
        // Slices in table order (tenor, then time), so their batches form
        // the table without a global sort.
        let slices: Vec<(&Tenor, (NaiveDate, NaiveDate))> = tenors
            .iter()
            .flat_map(|t| windows.iter().map(move |w| (t, *w)))
            .collect();
        let batches = self
            .intraday_batches(query.curve_id(), &slices, progress)
            .await?;
        Ok(Table {
            schema: schema(TableKind::Prices),
            batches: batches.into_iter().filter(|b| b.num_rows() > 0).collect(),
        })
    }
}

/// Runs jobs, each giving the batch of one slice of the table (a tenor, a
/// window), `concurrency` at a time. Jobs come in table order, so their
/// batches, put back in that order, form the table without a global sort; and
/// each is built as soon as its pages are in, so memory holds Arrow batches
/// rather than records.
async fn ordered_table(
    kind: TableKind,
    jobs: Vec<Job<'_>>,
    concurrency: usize,
) -> Result<Table, ClientError> {
    let mut batches: Vec<(usize, RecordBatch)> = stream::iter(jobs)
        .buffer_unordered(concurrency.max(1))
        .try_collect()
        .await?;
    batches.sort_by_key(|(index, _)| *index);
    let batches = batches.into_iter().map(|(_, b)| b);
    Ok(Table {
        schema: schema(kind),
        batches: batches.filter(|b| b.num_rows() > 0).collect(),
    })
}

/// The work of one slice of a table: its batch, numbered by its place in the table.
type Job<'a> = Pin<Box<dyn Future<Output = Result<(usize, RecordBatch), ClientError>> + Send + 'a>>;

/// Tenors in calendar order, each once: the order of a table's slices.
fn in_table_order(mut tenors: Vec<Tenor>) -> Vec<Tenor> {
    tenors.sort();
    tenors.dedup();
    tenors
}

fn batch(kind: TableKind, rows: Vec<PriceRow>) -> Result<RecordBatch, ClientError> {
    build_batch(kind, rows).map_err(arrow_error)
}

fn arrow_error(error: arrow_schema::ArrowError) -> ClientError {
    ClientError::Internal(format!("cannot build the table: {error}"))
}

fn table(kind: TableKind, rows: Vec<PriceRow>) -> Result<Table, ClientError> {
    let batch = batch(kind, rows)?;
    Ok(Table {
        schema: batch.schema(),
        batches: vec![batch],
    })
}
