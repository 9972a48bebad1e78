//! A range of history from the service, uncached: settlements one request
//! per tenor, intraday values one request per 30-day window of each tenor,
//! every page, all under the concurrency bound, put together in table order.

use std::future::Future;
use std::pin::Pin;

use arrow_array::RecordBatch;
use chrono::NaiveDate;
use futures_util::stream::{self, StreamExt, TryStreamExt};

use super::expired::Skipped;
use super::progress::Progress;
use super::query::{Contracts, HistoryQuery};
use super::service::Service;
use super::windows::{split, MAX_INTRADAY_DAYS};
use domain::arrow::{schema, Table, TableKind};
use domain::tenor::Tenor;
use places::ClientError;

impl Service {
    /// The settlements of `tenors` over the query's days. A tenor the
    /// service does not know is skipped (and noted) when the query reaches
    /// for expired contracts, since a guessed one may never have existed.
    pub(crate) async fn settlements(
        &self,
        query: &HistoryQuery,
        tenors: Vec<Tenor>,
        progress: &Progress,
    ) -> Result<Table, ClientError> {
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
        let table = ordered_table(TableKind::Settlements, jobs, self.concurrency()).await?;
        Ok(skipped.mark(curve_id, table))
    }

    /// The intraday values of `tenors` over the query's days. As with
    /// settlements, a tenor the service does not know is skipped (and
    /// noted) when the query reaches for expired contracts.
    pub(crate) async fn intraday_history(
        &self,
        query: &HistoryQuery,
        tenors: &[Tenor],
        progress: &Progress,
    ) -> Result<Table, ClientError> {
        if query.contracts() == Contracts::Listed {
            return self.intraday_tenors(query, tenors, progress).await;
        }
        // Tenor by tenor, so that one 404 drops its tenor and not the pull;
        // the HTTP layer still bounds the requests in flight.
        let skipped = Skipped::default();
        // By index: over borrowed tenors the compiler cannot show the future
        // `Send` for every lifetime (rust-lang/rust#102211).
        let tables: Vec<Table> = stream::iter(0..tenors.len())
            .map(|index| {
                let skipped = skipped.clone();
                async move {
                    let tenor = &tenors[index];
                    let one = std::slice::from_ref(tenor);
                    match self.intraday_tenors(query, one, progress).await {
                        Err(e) if skipped.skip(tenor, &e) => Ok(Table {
                            schema: schema(TableKind::Prices),
                            batches: Vec::new(),
                        }),
                        table => table,
                    }
                }
            })
            .buffered(self.concurrency().max(1))
            .try_collect()
            .await?;
        let table = Table {
            schema: schema(TableKind::Prices),
            batches: tables.into_iter().flat_map(|t| t.batches).collect(),
        };
        Ok(skipped.mark(query.curve_id(), table))
    }

    /// The intraday values of `tenors`, every window and page of each.
    async fn intraday_tenors(
        &self,
        query: &HistoryQuery,
        tenors: &[Tenor],
        progress: &Progress,
    ) -> Result<Table, ClientError> {
        let windows = split(query.start(), query.end(), MAX_INTRADAY_DAYS);
        // Slices in table order (tenor, then time), so their batches form
        // the table without a global sort.
        let slices: Vec<(&Tenor, (NaiveDate, NaiveDate))> = tenors
            .iter()
            .flat_map(|t| windows.iter().map(move |w| (t, *w)))
            .collect();
        let batches = self
            .intraday_batches(query.curve_id(), &slices, query.detail(), progress)
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
