//! What the emulated world holds, for tests to compare a client's results
//! with: the rows of a bulk file and the values the live feed published.

use chrono::{DateTime, Utc};

use super::checks::{ControlError, ControlResult};
use super::{account, Controls};
use crate::bulk::records::{count_rows, FileKey};
use crate::calendar::{day_of, start_of};
use crate::world::published::published_prices;
use domain::month::Month;
use domain::tenor::Tenor;
use domain::vocabulary::find_vertical;

/// One value the live feed published, with the microseconds the intraday
/// endpoints carry (the feed prints `generatedOn` truncated to milliseconds).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PublishedValue {
    pub generated_on: DateTime<Utc>,
    pub price: f64,
}

impl Controls {
    /// How many rows the bulk file of `vertical` (either spelling) and
    /// `month` (`YYYY-MM`) holds for an account's quotation licence (default:
    /// the demo account); 0 for a revoked licence. The month is not checked
    /// against the account's bulk licence start. Slow for big verticals: it
    /// walks every record of the month.
    pub fn bulk_rows(
        &self,
        vertical: &str,
        month: &str,
        email: Option<&str>,
    ) -> ControlResult<u64> {
        let found = find_vertical(vertical)
            .ok_or_else(|| ControlError::UnknownVertical(vertical.to_owned()))?;
        let month = Month::parse(month).ok_or_else(|| ControlError::Month(month.to_owned()))?;
        let licence = self.state.accounts.licence(account(email));
        if licence.revoked {
            return Ok(0);
        }
        let world = self.state.world();
        let key = FileKey {
            vertical: found.bulk_name,
            month,
            denied: licence.denied_quotations,
            curves: world.curves.len(),
        };
        Ok(count_rows(&world, &key))
    }

    /// Every value the live feed published for a curve and tenor from
    /// `start` to `end`, both included, oldest first (default: from the
    /// start of the emulator's current UTC day to now). Firehose values are
    /// not among them.
    pub fn published(
        &self,
        curve_id: &str,
        tenor: &str,
        start: Option<DateTime<Utc>>,
        end: Option<DateTime<Utc>>,
    ) -> ControlResult<Vec<PublishedValue>> {
        let world = self.state.world();
        let curve = world
            .curve(curve_id)
            .ok_or_else(|| ControlError::UnknownCurve(curve_id.to_owned()))?;
        let tenor = Tenor::parse(tenor)?;
        let now = self.state.clock.now();
        let start = start.map_or_else(|| start_of(day_of(now)), |s| s.timestamp_micros());
        let end = end.map_or(now, |e| e.timestamp_micros());
        let values = published_prices(&world, curve, &tenor, start, end);
        Ok(values
            .into_iter()
            .map(|(at, price)| PublishedValue {
                generated_on: DateTime::from_timestamp_micros(at).expect("in range"),
                price,
            })
            .collect())
    }
}

#[cfg(test)]
#[path = "queries_tests.rs"]
mod tests;
