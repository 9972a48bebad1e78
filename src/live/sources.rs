//! What the session needs from outside the socket, as traits so that tests
//! can stand in for the service: a fresh token for each authentication, and
//! the values of a tenor published since a given time (the gap backfill).
//! [`RestClient`] provides both.

use chrono::{DateTime, NaiveDate};
use futures_util::future::BoxFuture;

use crate::client::{ClientError, RestClient, Secret};
use crate::domain::timestamp::Micros;

/// Tokens for the live feed's `auth` command.
pub trait TokenSource: Send + Sync + 'static {
    /// A token fetched now (interface, Authentication 3: a new valid token is
    /// needed for every authentication).
    fn fresh_token(&self) -> BoxFuture<'_, Result<Secret, ClientError>>;
}

/// Values a disconnection kept from the feed.
pub trait Backfiller: Send + Sync + 'static {
    /// `(generatedOn, price)` of the values of one tenor published from the
    /// UTC day of `since` to `now`, in any order; the caller keeps those
    /// later than what it delivered.
    fn published_since<'a>(
        &'a self,
        curve_id: &'a str,
        tenor: &'a str,
        since: Micros,
        now: Micros,
    ) -> BoxFuture<'a, Result<Vec<(Micros, f64)>, ClientError>>;
}

impl TokenSource for RestClient {
    fn fresh_token(&self) -> BoxFuture<'_, Result<Secret, ClientError>> {
        Box::pin(self.http().fresh_token())
    }
}

impl Backfiller for RestClient {
    fn published_since<'a>(
        &'a self,
        curve_id: &'a str,
        tenor: &'a str,
        since: Micros,
        now: Micros,
    ) -> BoxFuture<'a, Result<Vec<(Micros, f64)>, ClientError>> {
        Box::pin(async move {
            let mut values = Vec::new();
            if let Some(days) = historical_days(since, now) {
                values.extend(self.intraday_values(curve_id, tenor, Some(days)).await?);
            }
            values.extend(self.intraday_values(curve_id, tenor, None).await?);
            Ok(values)
        })
    }
}

fn utc_day(at: Micros) -> NaiveDate {
    DateTime::from_timestamp_micros(at)
        .unwrap_or_default()
        .date_naive()
}

/// The UTC days a gap from `since` to `now` (both on the service's clock)
/// touches, for the historical intraday endpoint. Its last day is asked of
/// the history too, not only of the ongoing endpoint: when the newest value
/// seen is from an earlier day than the service's today (a weekend, a
/// holiday), the ongoing endpoint would no longer hold it.
pub(crate) fn historical_days(since: Micros, now: Micros) -> Option<(NaiveDate, NaiveDate)> {
    let (first, last) = (utc_day(since), utc_day(now));
    (first <= last).then_some((first, last))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::timestamp::parse_timestamp;

    fn at(text: &str) -> Micros {
        parse_timestamp(text).unwrap()
    }

    fn day(text: &str) -> NaiveDate {
        NaiveDate::parse_from_str(text, "%Y-%m-%d").unwrap()
    }

    #[test]
    fn a_gap_asks_the_history_for_every_day_it_touches() {
        let now = at("2025-06-13T15:00:00");
        let today = Some((day("2025-06-13"), day("2025-06-13")));
        assert_eq!(historical_days(at("2025-06-13T00:00:00"), now), today);
        assert_eq!(historical_days(at("2025-06-13T14:59:59.999"), now), today);
        assert_eq!(historical_days(at("2025-06-14T01:00:00"), now), None);
    }

    #[test]
    fn a_gap_across_midnight_asks_for_both_days() {
        let now = at("2025-06-13T00:05:00");
        assert_eq!(
            historical_days(at("2025-06-12T23:58:00"), now),
            Some((day("2025-06-12"), day("2025-06-13")))
        );
        assert_eq!(
            historical_days(at("2025-05-01T08:00:00"), now),
            Some((day("2025-05-01"), day("2025-06-13")))
        );
    }
}
