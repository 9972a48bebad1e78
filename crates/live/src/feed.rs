//! The handle of a live feed: what the binding wraps.

use std::sync::{Arc, Weak};
use std::time::Duration;

use arrow_array::RecordBatch;
use arrow_schema::ArrowError;
use futures_util::future::BoxFuture;
use tokio::sync::{mpsc, oneshot};
use tokio::task::JoinHandle;

use super::config::LiveConfig;
use super::driven::{Driven, Driving};
use super::event::{EventSink, FeedEvent};
use super::reader::Reader;
use super::registry::{checked_subscription, SubscriptionSet};
use super::session::Session;
use super::shared::{feed_closed, Request, Shared, Stopping};
use super::sources::{Backfiller, TokenSource};
use super::stats::FeedStats;
use super::tick::Tick;
use domain::arrow::NamedCurve;
use domain::live::Subscription;
use domain::timestamp::Micros;
use history::RestClient;
use places::{ClientError, Closing};

/// How long `close` waits for the session to finish.
const CLOSE_WAIT: Duration = Duration::from_secs(2);

/// What a strict subscription is checked against. Not held: a closed
/// client waits for every holder of itself, and the handle may outlive the
/// session by long.
enum Listing {
    /// The catalogue: the curve and contract must be listed.
    Catalogue(Weak<dyn Backfiller>),
    /// The producer of a driven feed (a replay): it must hold values of
    /// the subscription; it also keeps the feed's time.
    Driven(Arc<dyn Driven>),
}

/// A live feed: one session task that connects at once and keeps a
/// connection until closed. Methods take `&self`; the feed may be shared.
pub struct LiveFeed {
    shared: Arc<Shared>,
    reader: Reader,
    events: EventSink,
    requests: mpsc::UnboundedSender<Request>,
    stopping: Stopping,
    session: tokio::sync::Mutex<Option<JoinHandle<()>>>,
    subscribe_timeout: Duration,
    /// What a strict subscription is checked against, and a driven feed's
    /// time.
    listing: Listing,
}

impl LiveFeed {
    /// Spawns the session task on the current tokio runtime (call inside
    /// it) and starts connecting at once. Tokens, backfills and the network
    /// settings (proxies, trusted certificates) come from `rest`; closing
    /// `rest` ends the feed with [`ClientError::ClientClosed`].
    pub fn start(rest: Arc<RestClient>, config: LiveConfig) -> Result<LiveFeed, ClientError> {
        let config = LiveConfig {
            network: rest.http().network().clone(),
            ..config
        };
        let stopping = Stopping::of_client(rest.closing());
        let tokens: Arc<dyn TokenSource> = Arc::clone(&rest) as Arc<dyn TokenSource>;
        let backfiller: Arc<dyn Backfiller> = rest;
        LiveFeed::start_stoppable(tokens, backfiller, config, stopping)
    }

    /// [`start`](Self::start) with any source of tokens and backfills.
    pub fn start_with(
        tokens: Arc<dyn TokenSource>,
        backfiller: Arc<dyn Backfiller>,
        config: LiveConfig,
    ) -> Result<LiveFeed, ClientError> {
        let stopping = Stopping::of_client(&Closing::default());
        LiveFeed::start_stoppable(tokens, backfiller, config, stopping)
    }

    fn start_stoppable(
        tokens: Arc<dyn TokenSource>,
        backfiller: Arc<dyn Backfiller>,
        config: LiveConfig,
        stopping: Stopping,
    ) -> Result<LiveFeed, ClientError> {
        if stopping.client.is_closed() {
            return Err(ClientError::ClientClosed);
        }
        config.validate()?;
        if tokio::runtime::Handle::try_current().is_err() {
            return Err(ClientError::invalid(
                places::Argument::Request,
                places::Rule::Unusable,
                "a live feed must be started within a tokio runtime",
            ));
        }
        let shared = Arc::new(Shared::new(config.queue_size));
        let (requests, requests_rx) = mpsc::unbounded_channel();
        let events = EventSink::default();
        let subscribe_timeout = config.subscribe_timeout;
        let listing = Arc::downgrade(&backfiller);
        let session = Session::new(
            config,
            Arc::clone(&shared),
            tokens,
            backfiller,
            events.clone(),
            requests_rx,
            stopping.clone(),
        );
        let session_task = tokio::spawn(session.run());
        Ok(LiveFeed {
            reader: Reader::new(Arc::clone(&shared)),
            shared,
            events,
            requests,
            stopping,
            session: tokio::sync::Mutex::new(Some(session_task)),
            subscribe_timeout,
            listing: Listing::Catalogue(listing),
        })
    }

    /// A feed driven by a producer other than the live session (a replay,
    /// in the lake crate), behind the same handle: every method works as on
    /// the live feed. `drive` is given the feed's queue, its requests and
    /// its stopping, and returns the producer's task, which the feed spawns,
    /// and what keeps its time and checks its strict subscriptions.
    /// Subscriptions take `subscribe_timeout` at most. Closing `closing` (its
    /// client's) ends it.
    pub fn start_driven(
        queue_size: usize,
        closing: &Closing,
        subscribe_timeout: Duration,
        drive: impl FnOnce(Driving) -> (BoxFuture<'static, ()>, Arc<dyn Driven>),
    ) -> Result<LiveFeed, ClientError> {
        if closing.is_closed() {
            return Err(ClientError::ClientClosed);
        }
        if tokio::runtime::Handle::try_current().is_err() {
            return Err(ClientError::invalid(
                places::Argument::Request,
                places::Rule::Unusable,
                "a driven feed must be started within a tokio runtime",
            ));
        }
        let stopping = Stopping::of_client(closing);
        let shared = Arc::new(Shared::new(queue_size));
        let (requests, requests_rx) = mpsc::unbounded_channel();
        let (task, driven) = drive(Driving {
            shared: Arc::clone(&shared),
            requests: requests_rx,
            stopping: stopping.clone(),
        });
        let session_task = tokio::spawn(task);
        Ok(LiveFeed {
            reader: Reader::new(Arc::clone(&shared)),
            shared,
            events: EventSink::default(),
            requests,
            stopping,
            session: tokio::sync::Mutex::new(Some(session_task)),
            subscribe_timeout,
            listing: Listing::Driven(driven),
        })
    }

    /// A replay's current time; None for the live feed.
    pub fn now(&self) -> Option<Micros> {
        self.now_unread(0)
    }

    /// [`now`](Self::now) for a caller that holds the last `unread` ticks
    /// of its last [`next_ticks`](Self::next_ticks) still unread: at full
    /// speed, a replay's time is that of the last value handed out.
    pub fn now_unread(&self, unread: usize) -> Option<Micros> {
        match &self.listing {
            Listing::Driven(driven) => Some(driven.now_handed(self.reader.handed(unread))),
            Listing::Catalogue(_) => None,
        }
    }

    /// For a replay, gives back the last `unread` ticks of the last
    /// [`next_ticks`](Self::next_ticks), which the caller handed out no
    /// further, and every tick held for the next reads: a subscription
    /// then takes effect at the time of the last value handed out, and its
    /// values come in time order among those. Call before a subscription
    /// change; the caller drops the ticks it held. No-op on the live feed.
    pub fn give_back(&self, unread: usize) {
        if matches!(self.listing, Listing::Driven(_)) {
            self.reader.give_back_unread(unread);
        }
    }

    /// Subscribes to a tenor of a curve, or to every calendar tenor with `*`,
    /// and waits until the service has processed it (up to
    /// `subscribe_timeout`, waiting for a connection if there is none).
    ///
    /// The arguments are checked before anything is sent; with `strict`, the
    /// curve must be in the catalogue and the tenor (unless `*`) one of its
    /// listed contracts (`live::listed`: the service would answer anything
    /// else with silence). The subscription is
    /// recorded at once and made again after every reconnect. A refusal
    /// (`NO_ACCESS`: [`ClientError::AccessDenied`]; `ERROR_PARSING`, or
    /// `UNEXPECTED_ERROR` after two retries: [`ClientError::Live`]) drops it.
    /// On a timeout it stays recorded and is sent once connected; a refusal
    /// then comes through [`next_ticks`](Self::next_ticks). From then on
    /// the feed's batches name the curve (`live::curves`).
    pub async fn subscribe(
        &self,
        curve_id: &str,
        tenor: &str,
        strict: bool,
    ) -> Result<(), ClientError> {
        let subscription = checked_subscription(curve_id, tenor)?;
        self.ensure_open()?;
        self.give_back(0);
        if strict {
            self.check_listed(&subscription).await?;
        }
        // Before the request: the batch of the first tick names the curve.
        self.name_curve(&subscription.curve_id, strict).await;
        let request = |reply| Request::Subscribe(subscription.clone(), reply);
        let change = |registry: &mut SubscriptionSet| {
            registry.add(subscription.clone());
        };
        self.ask(change, request, "subscribe", &subscription).await
    }

    /// Removes a subscription (with `*`, every subscription of the curve,
    /// explicit tenors too, as the service does) and tells the service,
    /// waiting for it to have processed that when connected.
    ///
    /// Ticks of the subscription already queued are still delivered.
    pub async fn unsubscribe(&self, curve_id: &str, tenor: &str) -> Result<(), ClientError> {
        let subscription = checked_subscription(curve_id, tenor)?;
        self.ensure_open()?;
        self.give_back(0);
        let request = |reply| Request::Unsubscribe(subscription.clone(), reply);
        let change = |registry: &mut SubscriptionSet| {
            registry.remove(&subscription);
        };
        self.ask(change, request, "unsubscribe", &subscription)
            .await
    }

    fn ensure_open(&self) -> Result<(), ClientError> {
        if self.stopping.client.is_closed() || self.shared.is_closed() {
            return Err(self.ended());
        }
        Ok(())
    }

    /// A strict subscription's check: listed in the catalogue, or held by
    /// the replay's source.
    async fn check_listed(&self, subscription: &Subscription) -> Result<(), ClientError> {
        match &self.listing {
            Listing::Catalogue(catalogue) => {
                let catalogue = catalogue.upgrade().ok_or_else(|| self.ended())?;
                catalogue.check_listed(subscription).await
            }
            Listing::Driven(driven) => match driven.check(subscription) {
                Some(check) => check.await,
                None => Err(self.ended()),
            },
        }
    }

    /// Names `curve_id` in the feed's batches (`live::curves`): from the
    /// catalogue (fetched for a strict subscription, which has just read
    /// it; else read only if kept already), or the replay's; by id alone
    /// where neither describes it. Looked up once per curve described.
    async fn name_curve(&self, curve_id: &str, strict: bool) {
        let curves = &self.shared.curves;
        if curves.described(curve_id) {
            return;
        }
        let curve = match &self.listing {
            Listing::Catalogue(catalogue) => match catalogue.upgrade() {
                Some(catalogue) => catalogue.describe(curve_id, strict).await,
                None => NamedCurve::unnamed(curve_id),
            },
            Listing::Driven(driven) => driven.describe(curve_id).await,
        };
        curves.name(curve);
    }

    /// Why the feed no longer takes requests: its client was closed, or it was.
    fn ended(&self) -> ClientError {
        if self.stopping.client.is_closed() {
            ClientError::ClientClosed
        } else {
            self.shared.stopped_by().unwrap_or_else(feed_closed)
        }
    }

    /// Changes the registry and queues the request for the session under
    /// the registry's lock, which a new connection's resubscription also
    /// takes: it finds both or neither, so a subscription is never sent
    /// twice on one connection (twice, a refusal would also reach the
    /// consumer as an error nobody waited for).
    async fn ask(
        &self,
        change: impl FnOnce(&mut SubscriptionSet),
        request: impl FnOnce(super::inflight::Reply) -> Request,
        verb: &str,
        subscription: &Subscription,
    ) -> Result<(), ClientError> {
        let (reply, answer) = oneshot::channel();
        {
            let mut registry = self.shared.registry();
            change(&mut registry);
            self.requests
                .send(request(reply))
                .map_err(|_| self.ended())?;
        }
        match tokio::time::timeout(self.subscribe_timeout, answer).await {
            Ok(Ok(result)) => result,
            Ok(Err(_)) => Err(self.ended()),
            Err(_) => Err(self.unanswered(verb, subscription)),
        }
    }

    fn unanswered(&self, verb: &str, subscription: &Subscription) -> ClientError {
        let state = if self
            .shared
            .counters
            .connected
            .load(std::sync::atomic::Ordering::Relaxed)
        {
            "connected, but the service did not answer".to_owned()
        } else {
            match self.shared.last_failure() {
                Some(reason) => format!("not connected; last attempt: {reason}"),
                None => "not connected yet".to_owned(),
            }
        };
        let kept = if verb == "subscribe" {
            "; it stays recorded and is sent once connected"
        } else {
            ""
        };
        ClientError::Service {
            endpoint: format!(
                "live {verb} to curve {} tenor {:?}",
                subscription.curve_id, subscription.tenor
            ),
            status: None,
            attempts: 1,
            message: format!(
                "no answer within {:.1} s ({state}){kept}",
                self.subscribe_timeout.as_secs_f64()
            ),
            advice: None,
        }
    }

    /// Up to `max` ticks in delivery order, waiting until at least one is
    /// there or `timeout` passes (then none; `None` waits for ever).
    ///
    /// Errors the session surfaces (a refused resubscription, `AuthError`
    /// after a second refused token) come once each, in order with the ticks.
    /// After [`close`](Self::close) or a fatal error, once the queue is
    /// drained: `None`, the end (never an error). Cancel-safe, as every
    /// read: a call abandoned while waiting takes nothing from the queue.
    pub async fn next_ticks(
        &self,
        max: usize,
        timeout: Option<Duration>,
    ) -> Result<Option<Vec<Tick>>, ClientError> {
        self.reader.ticks(max, timeout).await
    }

    /// What is queued, up to `max`, without waiting (errors and the end as
    /// in `next_ticks`).
    pub fn try_next_ticks(&self, max: usize) -> Result<Option<Vec<Tick>>, ClientError> {
        self.reader.ready_ticks(max)
    }

    /// The next tick: `Some(None)` if `timeout` passes first, `None` at the
    /// end (errors as in `next_ticks`). Ticks are taken from the queue a
    /// [`CHUNK`](super::CHUNK) at a time; the rest wait here for the next
    /// reads of any kind.
    pub async fn next_tick(
        &self,
        timeout: Option<Duration>,
    ) -> Result<Option<Option<Tick>>, ClientError> {
        self.reader.tick(timeout).await
    }

    /// Up to `max_rows` ticks (1 to [`MAX_BATCH_ROWS`](super::MAX_BATCH_ROWS)),
    /// at least one: returned once `max_rows` are there or, after the first
    /// row arrived, once `timeout` (longer than zero) has passed; `None`
    /// returns full batches only.
    ///
    /// An error met after some rows were gathered is returned by the next
    /// read, so those rows are delivered first; once closed and drained:
    /// `None`, the end. Abandoned while waiting, it gives back the rows it
    /// had gathered to the next read.
    pub async fn next_batch(
        &self,
        max_rows: usize,
        timeout: Option<Duration>,
    ) -> Result<Option<Vec<Tick>>, ClientError> {
        self.reader.batch(max_rows, timeout).await
    }

    /// [`next_batch`](Self::next_batch) as an Arrow record batch of the
    /// `live` table ([`live_schema`](super::live_schema)), built straight
    /// from the queue's rows: what a consumer of batches needs, at the
    /// least cost per row. Its schema's metadata names every curve
    /// subscribed to so far (`live::curves`).
    pub async fn next_record_batch(
        &self,
        max_rows: usize,
        timeout: Option<Duration>,
    ) -> Result<Option<RecordBatch>, ClientError> {
        self.reader.record_batch(max_rows, timeout).await
    }

    /// Ticks already handed out (a caller's, not the queue's) as a batch
    /// like [`next_record_batch`](Self::next_record_batch)'s, naming the
    /// feed's curves.
    pub fn ticks_to_batch(&self, ticks: &[Tick]) -> Result<RecordBatch, ArrowError> {
        super::batch::ticks_to_named_batch(ticks, self.shared.curves.schema())
    }

    /// The events since the last call, oldest first: at most
    /// [`EVENTS_KEPT`](super::EVENTS_KEPT), the oldest unread ones dropped
    /// (every event is logged as it happens).
    pub fn drain_events(&self) -> Vec<FeedEvent> {
        self.events.drain()
    }

    pub fn stats(&self) -> FeedStats {
        let mut stats = self.shared.stats();
        stats.queued += self.reader.held_len();
        stats
    }

    /// The recorded subscriptions, by curve then tenor.
    pub fn subscriptions(&self) -> Vec<Subscription> {
        self.shared.subscriptions()
    }

    /// Stops reconnecting, closes the socket with a close frame and waits for
    /// the session to end, at most about two seconds before aborting it.
    /// Idempotent. Queued ticks can still be taken; then `next_ticks` says the end (`None`).
    pub async fn close(&self) {
        let mut session = self.session.lock().await;
        self.stopping.feed.close();
        self.shared
            .closed
            .store(true, std::sync::atomic::Ordering::Relaxed);
        if let Some(mut task) = session.take() {
            if tokio::time::timeout(CLOSE_WAIT, &mut task).await.is_err() {
                task.abort();
                let _ = task.await;
            }
        }
        self.shared.queue.close();
    }

    /// Closed by [`close`](Self::close), or ended by a fatal error.
    pub fn is_closed(&self) -> bool {
        self.shared.is_closed()
    }
}

impl Drop for LiveFeed {
    /// Without `close()`: the session task is aborted (its socket dropped
    /// without a close frame).
    fn drop(&mut self) {
        self.stopping.feed.close();
        if let Some(task) = self.session.get_mut().take() {
            task.abort();
        }
    }
}

#[cfg(test)]
#[path = "feed_tests.rs"]
mod tests;
