//! Where a replay's values come from: a lake ([`super::lake`]) or the
//! service ([`super::service`]), a span of UTC days at a time.

use chrono::NaiveDate;
use futures_util::future::BoxFuture;

use super::values::Values;
use domain::live::Subscription;
use domain::tenor::{Tenor, TenorKind};
use places::ClientError;

/// A source of a replay's values.
pub trait ReplaySource: Send + Sync {
    /// The values of `subscriptions` published on the days `first..=last`,
    /// in replay order, each once.
    fn days<'a>(
        &'a self,
        first: NaiveDate,
        last: NaiveDate,
        subscriptions: &'a [Subscription],
    ) -> BoxFuture<'a, Result<Values, ClientError>>;

    /// How many days the replay reads at once: what one read of the source
    /// costs least for (a lake's day; the service's 30-day window).
    fn days_at_once(&self) -> u64;

    /// A strict subscribe's check: Err(`InvalidRequest`) if the source
    /// holds nothing of `subscription` on the days `first..=last`, which a
    /// replay would deliver nothing for (a mistyped tenor, a curve that is
    /// not there).
    fn check<'a>(
        &'a self,
        subscription: &'a Subscription,
        first: NaiveDate,
        last: NaiveDate,
    ) -> BoxFuture<'a, Result<(), ClientError>>;
}

/// Whether `subscription` takes `curve_id`'s `tenor`: `*` takes the
/// calendar tenors, as the live feed's does.
pub fn takes(subscription: &Subscription, curve_id: &str, tenor: &str) -> bool {
    subscription.curve_id == curve_id
        && if subscription.is_all_tenors() {
            Tenor::parse_lenient(tenor).kind() != TenorKind::Continuous
        } else {
            subscription.tenor == tenor
        }
}
