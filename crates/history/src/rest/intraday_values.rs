//! The intraday values the live feed's backfill needs: `(generatedOn,
//! price)` of one tenor from a given time on, without the catalogue look-up
//! or the rows the table methods build, reading only the pages that hold
//! them where the pages' order allows it (`values_since`).

use std::sync::atomic::{AtomicU64, Ordering};

use chrono::NaiveDate;

use super::paths::price_path;
use super::service::Service;
use super::validate;
use super::values_since::{values_since, PageHint, Since, TimedPage};
use super::windows::{split, MAX_INTRADAY_DAYS};
use domain::decode::{decode_json, page_rows, PriceEndpoint, RequestContext};
use domain::records::{Page, PriceRecord};
use domain::timestamp::Micros;
use places::ClientError;

/// What [`RestClient::intraday_values`](super::RestClient::intraday_values) found.
#[derive(Debug, Default)]
pub struct IntradayValues {
    /// `(generatedOn, price)` of the values asked for, in no stated order.
    pub values: Vec<(Micros, f64)>,
    /// A value at or before `after` was served: the days asked for reach
    /// back to it, so earlier days hold none of the values asked for.
    pub reaches_back: bool,
    /// The earliest `generatedOn` of the pages read: it tells which day the
    /// ongoing endpoint holds.
    pub earliest: Option<Micros>,
    /// Where the newest values were found (today's only), for the tenor's
    /// siblings to start at.
    pub hint: Option<PageHint>,
}

impl Service {
    /// The intraday values of one tenor published at or after `after` (to
    /// the millisecond, as the feed prints times), as `(generatedOn, price)`:
    /// today's (`days` None, the ongoing endpoint) or those of the days
    /// `first..=last` (the historical endpoint, windows of at most 30 days).
    /// The live feed backfills gaps with it. Today's read starts at `hint`'s
    /// page if given. Each request is counted in `requests`.
    pub(crate) async fn intraday_values(
        &self,
        curve_id: &str,
        tenor: &str,
        (days, hint): (Option<(NaiveDate, NaiveDate)>, Option<PageHint>),
        after: Micros,
        requests: &AtomicU64,
    ) -> Result<IntradayValues, ClientError> {
        let read = |endpoint: PriceEndpoint, query: Vec<(&'static str, String)>, hint| {
            let path = price_path(endpoint, curve_id, Some(tenor));
            let fetch = move |page: usize, size: usize| {
                let mut query = query.clone();
                query.push(("page", page.to_string()));
                query.push(("pageSize", size.to_string()));
                let path = path.clone();
                async move {
                    requests.fetch_add(1, Ordering::Relaxed);
                    let body = self.http.get(endpoint.describe(), &path, &query).await?;
                    timed_page(endpoint, curve_id, tenor, page, &body)
                }
            };
            values_since(endpoint.describe(), after, hint, fetch)
        };
        let (found, hint) = match days {
            None => read(PriceEndpoint::OngoingIntraday, Vec::new(), hint).await?,
            Some((first, last)) => {
                validate::date_range(first, last)?;
                let mut found = Since::default();
                // Newest window first: one that reaches back ends the read.
                for (start, end) in split(first, last, MAX_INTRADAY_DAYS).into_iter().rev() {
                    let query = vec![
                        ("startDate", start.to_string()),
                        ("endDate", end.to_string()),
                    ];
                    let (window, _) = read(PriceEndpoint::HistoricalIntraday, query, None).await?;
                    found.values.extend(window.values);
                    found.earliest = found.earliest.into_iter().chain(window.earliest).min();
                    if window.reaches_back {
                        found.reaches_back = true;
                        break;
                    }
                }
                (found, None)
            }
        };
        Ok(IntradayValues {
            values: found.values,
            reaches_back: found.reaches_back,
            earliest: found.earliest,
            hint,
        })
    }
}

/// One intraday page's `(generatedOn, price)` in page order, and its links.
fn timed_page(
    endpoint: PriceEndpoint,
    curve_id: &str,
    tenor: &str,
    page: usize,
    body: &[u8],
) -> Result<TimedPage, ClientError> {
    let what = format!("{} (page {page})", endpoint.describe());
    let decoded: Page<PriceRecord> = decode_json(&what, body)?;
    let request = RequestContext {
        curve_id,
        tenor: Some(tenor),
    };
    let records = decoded.items.as_ref().map_or(0, Vec::len);
    let rows = page_rows(endpoint, decoded.items, request)?;
    Ok(TimedPage {
        values: rows
            .into_iter()
            .filter_map(|row| Some((row.generated_on?, row.price)))
            .collect(),
        records,
        next: decoded.next,
        last: decoded.last,
    })
}
