//! A feed driven by a producer other than the live session: the replay of
//! the lake crate. The producer is handed the feed's delivery queue, the
//! handle's subscribe and unsubscribe requests and the feed's stopping
//! ([`Driving`]), pushes rows named by the feed's own names, and tells the
//! handle its time, whether it holds a strict subscription and what its
//! curves are called ([`Driven`]).

use futures_util::future::BoxFuture;
use tokio::sync::mpsc;

use domain::arrow::NamedCurve;
use domain::live::Subscription;
use domain::timestamp::Micros;
use places::ClientError;

pub use super::inflight::Reply;
pub use super::names::{NameKey, Names, NamesRead, Pair, Row};
pub use super::queue::{DeliveryQueue, Pushed, Taken};
pub use super::registry::SubscriptionSet;
pub use super::shared::{Request, Shared, Stopping};
pub use super::stats::Counters;

/// What the producer of a driven feed is handed when the feed starts.
pub struct Driving {
    /// The queue, the names, the counters and the registry of subscriptions.
    pub shared: std::sync::Arc<Shared>,
    /// The handle's subscribe and unsubscribe requests, each to be answered.
    pub requests: mpsc::UnboundedReceiver<Request>,
    /// Ends the producer when the feed or its client is closed.
    pub stopping: Stopping,
}

/// The producer's side of the handle.
pub trait Driven: Send + Sync {
    /// The feed's time, given the time of the last value handed to the
    /// consumer (`Shared::handed`).
    fn now_handed(&self, handed: Micros) -> Micros;

    /// Checks a strict subscription against what the producer holds; None
    /// if the producer is gone.
    fn check<'a>(
        &'a self,
        subscription: &'a Subscription,
    ) -> Option<BoxFuture<'a, Result<(), ClientError>>>;

    /// `curve_id` as the producer's catalogue describes it, for the
    /// batches' metadata (`live::curves`); by id alone if it has none.
    fn describe<'a>(&'a self, curve_id: &'a str) -> BoxFuture<'a, NamedCurve> {
        Box::pin(async move { NamedCurve::unnamed(curve_id) })
    }
}

#[cfg(test)]
#[path = "driven_tests.rs"]
mod tests;
