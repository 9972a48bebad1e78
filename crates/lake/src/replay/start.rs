//! Starting a replay: the live feed's own handle, driven by a replay
//! session over a source instead of the live session.

use std::sync::{Arc, Weak};
use std::time::Duration;

use futures_util::future::BoxFuture;
use futures_util::FutureExt;

use super::clock::ReplayClock;
use super::config::ReplayConfig;
use super::session::ReplaySession;
use super::source::ReplaySource;
use domain::arrow::NamedCurve;
use domain::live::Subscription;
use domain::timestamp::Micros;
use history::RestClient;
use live::driven::Driven;
use live::LiveFeed;
use places::{ClientError, Closing};

/// How long a replay's subscribe may take: it reads the days its snapshots
/// look back over.
const REPLAY_SUBSCRIBE_TIMEOUT: Duration = Duration::from_secs(120);

/// A replay of `source` behind the live feed's handle: every method works
/// as on the live feed; subscriptions take effect at the replay's time
/// ([`LiveFeed::now`]), and the feed ends, once drained, at the replay's
/// end. Closing `closing` (its client's) ends it too. Its batches name
/// each curve subscribed to as the catalogue of `client` describes it
/// (fetched if not kept, as `read_ticks` names a recording's curves), by
/// id alone without a client or when its catalogue cannot be had.
pub fn start(
    source: Arc<dyn ReplaySource>,
    config: ReplayConfig,
    closing: &Closing,
    client: Option<&Arc<RestClient>>,
) -> Result<LiveFeed, ClientError> {
    if closing.is_closed() {
        return Err(ClientError::ClientClosed);
    }
    config.validate()?;
    if tokio::runtime::Handle::try_current().is_err() {
        return Err(ClientError::invalid(
            places::Argument::Request,
            places::Rule::Unusable,
            "a replay must be started within a tokio runtime",
        ));
    }
    let queue_size = config.queue_size;
    LiveFeed::start_driven(queue_size, closing, REPLAY_SUBSCRIBE_TIMEOUT, |driving| {
        let clock = Arc::new(ReplayClock::new(config, Arc::clone(&driving.shared.handed)));
        // The source is not held by the handle: a closed client waits for
        // every holder of itself, and the handle may outlive the session by
        // long.
        let time = Arc::new(ReplayTime {
            clock: Arc::clone(&clock),
            source: Arc::downgrade(&source),
            client: client.map(Arc::downgrade),
        });
        let session = ReplaySession::new(
            driving.shared,
            source,
            driving.requests,
            driving.stopping,
            clock,
        );
        (session.run().boxed(), time as Arc<dyn Driven>)
    })
}

/// The replay's side of the handle: its clock, its source for a strict
/// subscription's check, and its client for the curves' names (neither
/// held, as above).
struct ReplayTime {
    clock: Arc<ReplayClock>,
    source: Weak<dyn ReplaySource>,
    client: Option<Weak<RestClient>>,
}

impl Driven for ReplayTime {
    fn now_handed(&self, handed: Micros) -> Micros {
        self.clock.now_handed(handed)
    }

    /// The source must hold values of the subscription over the days a
    /// subscription made now would read.
    fn check<'a>(
        &'a self,
        subscription: &'a Subscription,
    ) -> Option<BoxFuture<'a, Result<(), ClientError>>> {
        let source = self.source.upgrade()?;
        let (first, last) = self.clock.days_read_from_now();
        Some(async move { source.check(subscription, first, last).await }.boxed())
    }

    fn describe<'a>(&'a self, curve_id: &'a str) -> BoxFuture<'a, NamedCurve> {
        let client = self.client.as_ref().and_then(Weak::upgrade);
        async move {
            match client {
                Some(client) => client.named_curve(curve_id, true).await,
                None => NamedCurve::unnamed(curve_id),
            }
        }
        .boxed()
    }
}
