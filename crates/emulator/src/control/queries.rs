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
        let key = FileKey {
            vertical: found.bulk_name,
            month,
            denied: licence.denied_quotations,
        };
        Ok(count_rows(&self.state.world, &key))
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
        let world = &self.state.world;
        let curve = world
            .curve(curve_id)
            .ok_or_else(|| ControlError::UnknownCurve(curve_id.to_owned()))?;
        let tenor = Tenor::parse(tenor)?;
        let now = self.state.clock.now();
        let start = start.map_or_else(|| start_of(day_of(now)), |s| s.timestamp_micros());
        let end = end.map_or(now, |e| e.timestamp_micros());
        let values = published_prices(world, curve, &tenor, start, end);
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
mod tests {
    use super::super::tests::{at, controls};
    use super::*;
    use crate::accounts::FULL_EMAIL;

    #[test]
    fn bulk_rows_follow_the_accounts_licence() {
        let controls = controls();
        let demo = controls.bulk_rows("JET", "2025-03", None).unwrap();
        let full = controls
            .bulk_rows("Jet", "2025-03", Some(FULL_EMAIL))
            .unwrap();
        assert!(demo > 0, "the demo account sees most Jet curves");
        assert!(demo < full, "but not those quoted as Sales");
        let unknown = controls.bulk_rows("Jet", "2025-03", Some("nobody@example.com"));
        assert_eq!(unknown, Ok(0), "an unknown account has no licence");
        controls.revoke_licence(None, None).unwrap();
        assert_eq!(controls.bulk_rows("Jet", "2025-03", None), Ok(0));
    }

    #[test]
    fn bulk_rows_name_a_vertical_and_a_month() {
        let controls = controls();
        let vertical = controls.bulk_rows("Coal", "2025-03", None).unwrap_err();
        assert_eq!(vertical.to_string(), "unknown vertical \"Coal\"");
        let month = controls.bulk_rows("Jet", "March", None).unwrap_err();
        assert_eq!(month.to_string(), "month must be YYYY-MM, not \"March\"");
    }

    fn fob(controls: &Controls) -> String {
        let world = &controls.state.world;
        world
            .curves
            .iter()
            .find(|c| c.quotation == "Fob")
            .unwrap()
            .id
            .clone()
    }

    #[test]
    fn published_values_lie_between_both_ends_included() {
        let controls = controls();
        let curve = fob(&controls);
        let start = at("2025-06-12T00:00:00Z");
        let end = at("2025-06-12T23:59:59.999999Z");
        let day = controls
            .published(&curve, "Jul 25", Some(start), Some(end))
            .unwrap();
        assert!(!day.is_empty());
        assert!(day
            .windows(2)
            .all(|w| w[0].generated_on < w[1].generated_on));
        assert!(day
            .iter()
            .all(|v| start <= v.generated_on && v.generated_on <= end));
        let (first, last) = (day[0].generated_on, day[day.len() - 1].generated_on);
        let again = controls
            .published(&curve, "Jul 25", Some(first), Some(last))
            .unwrap();
        assert_eq!(again, day, "both ends are included");
    }

    #[test]
    fn published_values_default_to_today_until_now() {
        let controls = controls();
        let curve = fob(&controls);
        let today = controls.published(&curve, "Jul 25", None, None).unwrap();
        let midnight = at("2025-06-13T00:00:00Z");
        let explicit = controls
            .published(&curve, "Jul 25", Some(midnight), Some(controls.now()))
            .unwrap();
        assert!(!today.is_empty());
        assert_eq!(today, explicit);
    }

    #[test]
    fn published_values_need_a_known_curve_and_a_valid_tenor() {
        let controls = controls();
        let unknown = controls.published("no-such-curve", "Jul 25", None, None);
        assert_eq!(
            unknown.unwrap_err().to_string(),
            "unknown curve id \"no-such-curve\""
        );
        let tenor = controls.published(&fob(&controls), "Q5 25", None, None);
        assert!(matches!(tenor, Err(ControlError::Tenor(_))));
    }
}
