//! The handle of a live feed: what the binding wraps.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{mpsc, oneshot};
use tokio::task::JoinHandle;

use super::config::LiveConfig;
use super::event::{EventHandler, EventSink};
use super::queue::Taken;
use super::registry::checked_subscription;
use super::session::Session;
use super::shared::{Request, Shared, Stopping};
use super::sources::{Backfiller, TokenSource};
use super::stats::{Counters, FeedStats};
use super::tick::Tick;
use crate::rest::RestClient;
use crate::{ClientError, Closing};
use domain::live::Subscription;

/// How long `close` waits for the session and the event handler to finish.
const CLOSE_WAIT: Duration = Duration::from_secs(2);

struct Tasks {
    session: Option<JoinHandle<()>>,
    events: Option<JoinHandle<()>>,
}

/// A live feed: one session task that connects at once and keeps a
/// connection until closed. Methods take `&self`; the feed may be shared.
pub struct LiveFeed {
    shared: Arc<Shared>,
    requests: mpsc::UnboundedSender<Request>,
    stopping: Stopping,
    tasks: tokio::sync::Mutex<Tasks>,
    subscribe_timeout: Duration,
}

impl LiveFeed {
    /// Spawns the session task on the current tokio runtime (call inside
    /// it) and starts connecting at once. Tokens, backfills and the network
    /// settings (proxies, trusted certificates) come from `rest`; closing
    /// `rest` ends the feed with [`ClientError::ClientClosed`].
    pub fn start(
        rest: Arc<RestClient>,
        config: LiveConfig,
        on_event: Option<EventHandler>,
    ) -> Result<LiveFeed, ClientError> {
        let config = LiveConfig {
            network: rest.http().network().clone(),
            ..config
        };
        let stopping = Stopping::of_client(rest.closing());
        let tokens: Arc<dyn TokenSource> = Arc::clone(&rest) as Arc<dyn TokenSource>;
        let backfiller: Arc<dyn Backfiller> = rest;
        LiveFeed::start_stoppable(tokens, backfiller, config, on_event, stopping)
    }

    /// [`start`](Self::start) with any source of tokens and backfills.
    pub fn start_with(
        tokens: Arc<dyn TokenSource>,
        backfiller: Arc<dyn Backfiller>,
        config: LiveConfig,
        on_event: Option<EventHandler>,
    ) -> Result<LiveFeed, ClientError> {
        let stopping = Stopping::of_client(&Closing::default());
        LiveFeed::start_stoppable(tokens, backfiller, config, on_event, stopping)
    }

    fn start_stoppable(
        tokens: Arc<dyn TokenSource>,
        backfiller: Arc<dyn Backfiller>,
        config: LiveConfig,
        on_event: Option<EventHandler>,
        stopping: Stopping,
    ) -> Result<LiveFeed, ClientError> {
        if stopping.client.is_closed() {
            return Err(ClientError::ClientClosed);
        }
        config.validate()?;
        if tokio::runtime::Handle::try_current().is_err() {
            return Err(ClientError::InvalidRequest(
                "a live feed must be started within a tokio runtime".into(),
            ));
        }
        let shared = Arc::new(Shared::new(config.queue_capacity));
        let (requests, requests_rx) = mpsc::unbounded_channel();
        let (events, events_task) = EventSink::new(on_event);
        let subscribe_timeout = config.subscribe_timeout;
        let session = Session::new(
            config,
            Arc::clone(&shared),
            tokens,
            backfiller,
            events,
            requests_rx,
            stopping.clone(),
        );
        let session_task = tokio::spawn(session.run());
        Ok(LiveFeed {
            shared,
            requests,
            stopping,
            tasks: tokio::sync::Mutex::new(Tasks {
                session: Some(session_task),
                events: events_task,
            }),
            subscribe_timeout,
        })
    }

    /// Subscribes to a tenor of a curve, or to every calendar tenor with `*`,
    /// and waits until the service has processed it (up to
    /// `subscribe_timeout`, waiting for a connection if there is none).
    ///
    /// The arguments are checked before anything is sent. The subscription is
    /// recorded at once and made again after every reconnect. A refusal
    /// (`NO_ACCESS`: [`ClientError::AccessDenied`]; `ERROR_PARSING`, or
    /// `UNEXPECTED_ERROR` after two retries: [`ClientError::Live`]) drops it.
    /// On a timeout it stays recorded and is sent once connected; a refusal
    /// then comes through [`next_ticks`](Self::next_ticks).
    pub async fn subscribe(&self, curve_id: &str, tenor: &str) -> Result<(), ClientError> {
        let subscription = checked_subscription(curve_id, tenor)?;
        self.ensure_open()?;
        self.shared.registry().add(subscription.clone());
        let request = |reply| Request::Subscribe(subscription.clone(), reply);
        self.ask(request, "subscribe", &subscription).await
    }

    /// Removes a subscription (with `*`, every subscription of the curve,
    /// explicit tenors too, as the service does) and tells the service,
    /// waiting for it to have processed that when connected.
    ///
    /// Ticks of the subscription already queued are still delivered.
    pub async fn unsubscribe(&self, curve_id: &str, tenor: &str) -> Result<(), ClientError> {
        let subscription = checked_subscription(curve_id, tenor)?;
        self.ensure_open()?;
        self.shared.registry().remove(&subscription);
        let request = |reply| Request::Unsubscribe(subscription.clone(), reply);
        self.ask(request, "unsubscribe", &subscription).await
    }

    fn ensure_open(&self) -> Result<(), ClientError> {
        if self.stopping.client.is_closed() || self.shared.is_closed() {
            return Err(self.ended());
        }
        Ok(())
    }

    /// Why the feed no longer takes requests: its client was closed, or it was.
    fn ended(&self) -> ClientError {
        if self.stopping.client.is_closed() {
            ClientError::ClientClosed
        } else {
            self.shared.stopped_by().unwrap_or(ClientError::Closed)
        }
    }

    async fn ask(
        &self,
        request: impl FnOnce(super::inflight::Reply) -> Request,
        verb: &str,
        subscription: &Subscription,
    ) -> Result<(), ClientError> {
        let (reply, answer) = oneshot::channel();
        self.requests
            .send(request(reply))
            .map_err(|_| self.ended())?;
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
        }
    }

    /// Up to `max` ticks in delivery order, waiting until at least one is
    /// there or `timeout` passes (then none; `None` waits for ever).
    ///
    /// Errors the session surfaces (a refused resubscription, `AuthError`
    /// after a second refused token) come once each, in order with the ticks.
    /// After [`close`](Self::close) or a fatal error, once the queue is
    /// drained: [`ClientError::Closed`]. Cancel-safe: a call abandoned while
    /// waiting takes nothing from the queue.
    pub async fn next_ticks(
        &self,
        max: usize,
        timeout: Option<Duration>,
    ) -> Result<Vec<Tick>, ClientError> {
        let ticks = self.shared.queue.next(checked_max(max)?, timeout).await?;
        Counters::add(&self.shared.counters.ticks_delivered, ticks.len() as u64);
        Ok(ticks)
    }

    /// What is queued, up to `max`, without waiting (errors as in `next_ticks`).
    pub fn try_next_ticks(&self, max: usize) -> Result<Vec<Tick>, ClientError> {
        let ticks = match self.shared.queue.take(checked_max(max)?) {
            Taken::Ticks(ticks) => ticks,
            Taken::Error(error) => return Err(error),
            Taken::Empty => Vec::new(),
            Taken::Closed => return Err(ClientError::Closed),
        };
        Counters::add(&self.shared.counters.ticks_delivered, ticks.len() as u64);
        Ok(ticks)
    }

    pub fn stats(&self) -> FeedStats {
        self.shared.stats()
    }

    /// The recorded subscriptions, by curve then tenor.
    pub fn subscriptions(&self) -> Vec<Subscription> {
        self.shared.subscriptions()
    }

    /// Stops reconnecting, closes the socket with a close frame and waits for
    /// the session (and the event handler's backlog) to end, at most about
    /// two seconds before aborting them. Idempotent. Queued ticks can still
    /// be taken; then `next_ticks` says `Closed`.
    pub async fn close(&self) {
        let mut tasks = self.tasks.lock().await;
        self.stopping.feed.close();
        self.shared
            .closed
            .store(true, std::sync::atomic::Ordering::Relaxed);
        let deadline = tokio::time::Instant::now() + CLOSE_WAIT;
        for task in [tasks.session.take(), tasks.events.take()]
            .into_iter()
            .flatten()
        {
            let mut task = task;
            if tokio::time::timeout_at(deadline, &mut task).await.is_err() {
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

fn checked_max(max: usize) -> Result<usize, ClientError> {
    if max == 0 {
        return Err(ClientError::InvalidRequest("max must be at least 1".into()));
    }
    Ok(max)
}

impl Drop for LiveFeed {
    /// Without `close()`: the session task is aborted (its socket dropped
    /// without a close frame).
    fn drop(&mut self) {
        self.stopping.feed.close();
        let tasks = self.tasks.get_mut();
        for task in [tasks.session.take(), tasks.events.take()]
            .into_iter()
            .flatten()
        {
            task.abort();
        }
    }
}

#[cfg(test)]
#[path = "feed_tests.rs"]
mod tests;
