//! The intraday values the live feed's backfill needs: `(generatedOn,
//! price)` of one tenor, without the catalogue look-up or the rows the table
//! methods build.

use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::Arc;

use chrono::NaiveDate;

use super::client::{price_path, RestClient};
use super::paging::all_pages;
use super::progress::Progress;
use super::validate;
use super::windows::{split, MAX_INTRADAY_DAYS};
use crate::error::ClientError;
use domain::decode::{page_rows, PriceEndpoint, RequestContext};
use domain::records::PriceRecord;
use domain::rows::PriceRow;
use domain::timestamp::{truncate_to_millis, Micros};

/// What [`RestClient::intraday_values`] found.
#[derive(Debug, Default)]
pub struct IntradayValues {
    /// `(generatedOn, price)` of the values asked for, in no stated order.
    pub values: Vec<(Micros, f64)>,
    /// The earliest `generatedOn` served, asked for or not: it tells which
    /// day the ongoing endpoint holds.
    pub earliest: Option<Micros>,
}

/// The `(generatedOn, price)` of the rows that have a time: all a backfill
/// keeps of them.
fn generated_values(rows: Vec<PriceRow>) -> Vec<(Micros, f64)> {
    rows.into_iter()
        .filter_map(|row| Some((row.generated_on?, row.price)))
        .collect()
}

impl RestClient {
    /// The intraday values of one tenor published at or after `after` (to
    /// the millisecond, as the feed prints times), as `(generatedOn, price)`,
    /// without the catalogue look-up the table methods make: today's (`days`
    /// None, the ongoing endpoint) or those of the days `first..=last` (the
    /// historical endpoint, windows of at most 30 days). The live feed
    /// backfills gaps with it. Each page is reduced to the values wanted as
    /// it arrives: a backfill reads whole days, and holding them made each
    /// reconnect's burst of backfills grow through the day.
    pub async fn intraday_values(
        &self,
        curve_id: &str,
        tenor: &str,
        days: Option<(NaiveDate, NaiveDate)>,
        after: Micros,
    ) -> Result<IntradayValues, ClientError> {
        let progress = Progress::default();
        // Shared and owned: each page is decoded by a task of its own (`paging`).
        let earliest = Arc::new(AtomicI64::new(Micros::MAX));
        let after = truncate_to_millis(after);
        let fetch = |endpoint: PriceEndpoint, query: Vec<(&'static str, String)>| {
            let (progress, earliest) = (&progress, Arc::clone(&earliest));
            let (owned_curve_id, owned_tenor) = (curve_id.to_owned(), tenor.to_owned());
            async move {
                let path = price_path(endpoint, curve_id, Some(tenor));
                let values = move |records: Vec<PriceRecord>| {
                    let request = RequestContext {
                        curve_id: &owned_curve_id,
                        tenor: Some(&owned_tenor),
                    };
                    let rows = page_rows(endpoint, Some(records), request)?;
                    let values = generated_values(rows);
                    if let Some(first) = values.iter().map(|(at, _)| *at).min() {
                        earliest.fetch_min(first, Ordering::Relaxed);
                    }
                    Ok(values
                        .into_iter()
                        .filter(|(at, _)| truncate_to_millis(*at) >= after)
                        .collect())
                };
                let name = endpoint.describe();
                all_pages(
                    &self.http,
                    name,
                    &path,
                    &query,
                    self.concurrency,
                    progress,
                    values,
                )
                .await
            }
        };
        let values = match days {
            None => fetch(PriceEndpoint::OngoingIntraday, Vec::new()).await?,
            Some((first, last)) => {
                validate::date_range(first, last)?;
                let mut values = Vec::new();
                for (start, end) in split(first, last, MAX_INTRADAY_DAYS) {
                    let query = vec![
                        ("startDate", start.to_string()),
                        ("endDate", end.to_string()),
                    ];
                    values.extend(fetch(PriceEndpoint::HistoricalIntraday, query).await?);
                }
                values
            }
        };
        let earliest = earliest.load(Ordering::Relaxed);
        Ok(IntradayValues {
            values,
            earliest: (earliest != Micros::MAX).then_some(earliest),
        })
    }
}
