//! The service's price and catalogue endpoints, as Arrow: one request, or
//! every page of a paged one, decoded as it arrives. No cache and no
//! catalogue look-up: the history cache (`cache::through`) and the
//! [`RestClient`](super::RestClient) are layers over this one.

use arrow_array::RecordBatch;
use chrono::NaiveDate;

use super::http::{Http, HttpConfig};
use super::own_task::in_own_task;
use super::paging::{all_pages, pages_of_each, DecodedPage, Paged};
use super::paths::price_path;
use super::progress::Progress;
use super::query::{CatalogueQuery, PriceQuery, TenorQuery};
use domain::arrow::{build_batch, merge_slice, schema, Table, TableKind};
use domain::decode::{decode_price_rows, DecodeError, PriceEndpoint, RequestContext};
use domain::price_page::{decode_price_page, Detail, PageError};
use domain::records::CurveQuotation;
use domain::rows::PriceRow;
use domain::tenor::Tenor;
use places::give_back;
use places::ClientError;

/// The HTTP layer and how many requests it may have in flight at once.
pub(crate) struct Service {
    pub(super) http: Http,
    concurrency: usize,
}

impl Service {
    pub(crate) fn new(config: HttpConfig) -> Result<Service, ClientError> {
        if config.max_concurrency == 0 {
            return Err(ClientError::InvalidRequest(places::Invalid::led(
                places::Argument::Concurrency,
                places::Rule::Bounds,
                " must be at least 1",
            )));
        }
        Ok(Service {
            concurrency: config.max_concurrency,
            http: Http::new(config)?,
        })
    }

    pub(crate) fn http(&self) -> &Http {
        &self.http
    }

    /// How many requests, or tenors, a call works on at once.
    pub(crate) fn concurrency(&self) -> usize {
        self.concurrency
    }

    /// Every curve quotation matching the filters, all pages.
    pub(crate) async fn catalogue(
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

    /// An ongoing endpoint in its one-tenor form, or its all-tenors form
    /// when no tenor is given.
    pub(crate) async fn ongoing(
        &self,
        query: &PriceQuery,
        (one, all): (PriceEndpoint, PriceEndpoint),
        kind: TableKind,
    ) -> Result<Table, ClientError> {
        let tenor = query.tenor().map(Tenor::name);
        let endpoint = if tenor.is_some() { one } else { all };
        let path = price_path(endpoint, query.curve_id(), tenor);
        let body = self.http.get(endpoint.describe(), &path, &[]).await?;
        let request = RequestContext {
            curve_id: query.curve_id(),
            tenor,
        };
        let rows = decode_price_rows(endpoint, &body, request)?;
        let batch = batch(kind, rows)?;
        Ok(Table {
            schema: batch.schema(),
            batches: vec![batch],
        })
    }

    /// Today's intraday values of one tenor, every page.
    pub(crate) async fn intraday(
        &self,
        query: &TenorQuery,
        progress: &Progress,
    ) -> Result<Table, ClientError> {
        let (curve_id, tenor) = (query.curve_id(), query.tenor().name());
        let endpoint = PriceEndpoint::OngoingIntraday;
        let slices = vec![(tenor, Vec::new())];
        let batches = self
            .paged_batches(endpoint, curve_id, slices, Detail::Full, progress)
            .await?;
        Ok(Table {
            schema: schema(TableKind::Prices),
            batches,
        })
    }

    /// The settlements of one tenor from `first` to `last`: one request.
    pub(crate) async fn settlements_batch(
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
    pub(crate) async fn intraday_batches(
        &self,
        curve_id: &str,
        slices: &[(&Tenor, (NaiveDate, NaiveDate))],
        detail: Detail,
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
        self.paged_batches(endpoint, curve_id, slices, detail, progress)
            .await
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
        detail: Detail,
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
            let decoded = decode_price_page(endpoint, body, request, detail);
            let page = decoded.map_err(|error| match error {
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
}

fn batch(kind: TableKind, rows: Vec<PriceRow>) -> Result<RecordBatch, ClientError> {
    build_batch(kind, rows).map_err(arrow_error)
}

fn arrow_error(error: arrow_schema::ArrowError) -> ClientError {
    ClientError::internal("cannot build the table", error)
}
