//! What the session needs from outside the socket, as traits so that tests
//! can stand in for the service: a fresh token for each authentication, and
//! the values of a tenor published since a given time (the gap backfill),
//! and the catalogue's word on a subscription and on a curve's name.
//! [`RestClient`] provides them.

use std::collections::HashMap;
use std::sync::atomic::AtomicU64;
use std::sync::{Arc, Mutex};

use chrono::{DateTime, NaiveDate};
use futures_util::future::BoxFuture;

use domain::arrow::NamedCurve;
use domain::live::Subscription;
use domain::timestamp::Micros;
use history::rest::intraday_values::IntradayValues;
use history::rest::values_since::PageHint;
use history::RestClient;
use places::{ClientError, Secret};

/// Tokens for the live feed's `auth` command.
pub trait TokenSource: Send + Sync + 'static {
    /// A token fetched now (interface, Authentication 3: a new valid token is
    /// needed for every authentication).
    fn fresh_token(&self) -> BoxFuture<'_, Result<Secret, ClientError>>;
}

/// Where one tenor's gap lies, on the service's clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GapSpan {
    /// Time of the last value delivered: only values from it on are wanted.
    pub after: Micros,
    /// The earliest time a missing value can have (at or after `after`); it
    /// chooses the days to ask for.
    pub from: Micros,
    /// The newest missing value, when the tenor's snapshot told it: later
    /// ones come live.
    pub until: Option<Micros>,
    /// The service's "now", as far as the feed has shown it.
    pub now: Micros,
}

/// What the backfills of one curve learned of its pages: None until the
/// first has read today's pages; locked by that first while it reads.
type CurveHint = Arc<tokio::sync::Mutex<Option<Option<PageHint>>>>;

/// Where each curve's newest intraday values were found by the backfills
/// of one reconnect: the first backfill of a curve finds out, and the
/// others of the curve wait for it and start there ([`PageHint`]).
#[derive(Default)]
pub struct PageHints {
    curves: Mutex<HashMap<Arc<str>, CurveHint>>,
}

impl PageHints {
    fn of_curve(&self, curve_id: &str) -> CurveHint {
        let mut curves = self.curves.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(cell) = curves.get(curve_id) {
            return Arc::clone(cell);
        }
        let cell = Arc::default();
        curves.insert(Arc::from(curve_id), Arc::clone(&cell));
        cell
    }
}

/// Values a disconnection kept from the feed.
pub trait Backfiller: Send + Sync + 'static {
    /// `(generatedOn, price)` of the values of one tenor published in `gap`,
    /// in any order. It may hold values at or before `gap.after` as well;
    /// the caller keeps those later than what it delivered. `counted` holds
    /// the hints shared by the backfills of one reconnect, and the counter
    /// of the requests sent.
    fn published_since<'a>(
        &'a self,
        curve_id: &'a str,
        tenor: &'a str,
        gap: GapSpan,
        counted: (&'a PageHints, &'a AtomicU64),
    ) -> BoxFuture<'a, Result<Vec<(Micros, f64)>, ClientError>>;

    /// That a strict subscription names what the catalogue lists
    /// (`live::listed`). A stand-in with no catalogue takes anything.
    fn check_listed<'a>(
        &'a self,
        _subscription: &'a Subscription,
    ) -> BoxFuture<'a, Result<(), ClientError>> {
        Box::pin(async { Ok(()) })
    }

    /// `curve_id` as the catalogue describes it, for the batches' metadata
    /// (`live::curves`); its id alone where the catalogue does not list it.
    /// `fetch`: the catalogue may be fetched (a strict subscription has
    /// just read it, so it is kept); else only one kept already is read,
    /// so that a subscription that skips the catalogue never waits on it.
    /// A stand-in with no catalogue names by id alone.
    fn describe<'a>(&'a self, curve_id: &'a str, _fetch: bool) -> BoxFuture<'a, NamedCurve> {
        Box::pin(async move { NamedCurve::unnamed(curve_id) })
    }
}

impl TokenSource for RestClient {
    fn fresh_token(&self) -> BoxFuture<'_, Result<Secret, ClientError>> {
        Box::pin(self.http().fresh_token())
    }
}

impl Backfiller for RestClient {
    fn check_listed<'a>(
        &'a self,
        subscription: &'a Subscription,
    ) -> BoxFuture<'a, Result<(), ClientError>> {
        Box::pin(async move {
            let curves = self.listed_curves().await?;
            super::listed::check_listed(
                &curves,
                subscription,
                super::listed::Remedy::Advice(super::listed::SUBSCRIBE_ANYWAY),
            )
        })
    }

    fn describe<'a>(&'a self, curve_id: &'a str, fetch: bool) -> BoxFuture<'a, NamedCurve> {
        Box::pin(self.named_curve(curve_id, fetch))
    }

    fn published_since<'a>(
        &'a self,
        curve_id: &'a str,
        tenor: &'a str,
        gap: GapSpan,
        (hints, requests): (&'a PageHints, &'a AtomicU64),
    ) -> BoxFuture<'a, Result<Vec<(Micros, f64)>, ClientError>> {
        Box::pin(async move {
            // Today first: if it reaches back to the gap's start, the gap is
            // all there; if not, the day its values carry tells which days
            // only the history still holds. Both read only the pages that
            // hold the gap, where the pages' order allows it; today's starts
            // where a sibling tenor's newest values were, once one has read.
            let cell = hints.of_curve(curve_id);
            let mut learned = cell.lock().await;
            if let Some(hint) = *learned {
                drop(learned);
                let today = self
                    .intraday_values(curve_id, tenor, (None, hint), gap.after, requests)
                    .await;
                return with_history(self, curve_id, tenor, gap, requests, today).await;
            }
            // The curve's first backfill: its siblings wait for what it learns.
            let today = self
                .intraday_values(curve_id, tenor, (None, None), gap.after, requests)
                .await;
            if let Ok(today) = &today {
                *learned = Some(today.hint);
            }
            drop(learned);
            with_history(self, curve_id, tenor, gap, requests, today).await
        })
    }
}

/// Today's values of a gap, and those of the days before it that only
/// the history holds, if today's do not reach back to the gap's start.
async fn with_history(
    rest: &RestClient,
    curve_id: &str,
    tenor: &str,
    gap: GapSpan,
    requests: &AtomicU64,
    today: Result<IntradayValues, ClientError>,
) -> Result<Vec<(Micros, f64)>, ClientError> {
    let today = none_if_unknown(today)?;
    let mut values = today.values;
    if today.reaches_back {
        return Ok(values);
    }
    let now = gap.until.map_or(gap.now, |until| until.min(gap.now));
    if let Some(days) = historical_days(gap.from, now, today.earliest) {
        let history = rest
            .intraday_values(curve_id, tenor, (Some(days), None), gap.after, requests)
            .await;
        values.extend(none_if_unknown(history)?.values);
    }
    Ok(values)
}

/// A tenor the service no longer knows (one that expired while the feed
/// was away, or since an earlier run recorded it) has published nothing
/// since: its gap is empty, not failed.
fn none_if_unknown(
    result: Result<IntradayValues, ClientError>,
) -> Result<IntradayValues, ClientError> {
    match result {
        Err(ClientError::NotFound { .. }) => Ok(IntradayValues::default()),
        other => other,
    }
}

fn utc_day(at: Micros) -> NaiveDate {
    DateTime::from_timestamp_micros(at)
        .unwrap_or_default()
        .date_naive()
}

/// The UTC days of a gap from `from` to `now` (both on the service's clock)
/// that only the historical intraday endpoint holds: those before the day
/// the ongoing endpoint served, read from its `earliest` value. When it
/// served none, its day is unknown: the service may have passed midnight
/// since `now` (a weekend, a holiday, a quiet night), so `now`'s day is
/// asked of the history too, which costs little as that day then has few
/// values of the tenor or none.
pub(crate) fn historical_days(
    from: Micros,
    now: Micros,
    earliest: Option<Micros>,
) -> Option<(NaiveDate, NaiveDate)> {
    let first = utc_day(from);
    let last = match earliest {
        Some(at) => utc_day(at).pred_opt()?,
        None => utc_day(now),
    };
    (first <= last).then_some((first, last))
}

#[cfg(test)]
#[path = "sources_tests.rs"]
mod tests;
