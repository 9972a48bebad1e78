//! The session task: owns the socket and everything per connection.
//!
//! One task runs the whole life of a feed: connect and authenticate with a
//! fresh token, resubscribe, then read frames, answer the handle's requests,
//! keep the connection alive and merge backfills, all from one `select!`
//! loop, so per-tenor state needs no lock. When a connection is lost it
//! waits (backoff with jitter) and starts again; only `close()` or a second
//! refused token ends it.
//!
//! Channels: requests come from the handle on an unbounded channel (each
//! carries a oneshot for its answer); ticks and surfaced errors go to the
//! delivery queue, which never blocks this task; events go to the event
//! sink; backfills run as tasks of a `JoinSet` (their requests bounded by
//! the REST client's concurrency), and their results come back here.

mod between;
mod commands;
mod frames;
mod gaps;
mod online;
mod reports;

use std::sync::Arc;
use std::time::Instant;

use tokio::sync::mpsc;
use tokio::task::JoinSet;

use super::backoff::Backoff;
use super::book::Book;
use super::config::LiveConfig;
use super::connection::{open, Handshake, OpenError};
use super::event::{EventSink, FeedEvent, TARGET};
use super::inflight::{Inflight, Reply};
use super::shared::{Request, Shared, Stopping};
use super::sources::{Backfiller, TokenSource};
use domain::live::Subscription;
use domain::redact::redact_url;
use domain::timestamp::Micros;
use places::ClientError;

/// Refused authentications in a row that end the feed.
const AUTH_REFUSALS_FATAL: u32 = 2;

pub(crate) struct Session {
    config: LiveConfig,
    shared: Arc<Shared>,
    tokens: Arc<dyn TokenSource>,
    backfiller: Arc<dyn Backfiller>,
    events: EventSink,
    requests: mpsc::UnboundedReceiver<Request>,
    stopping: Stopping,
    book: Book,
    inflight: Inflight,
    /// Subscribe calls waiting for a connection.
    parked: Vec<(Subscription, Reply)>,
    backfills: JoinSet<gaps::GapOutcome>,
    gaps: gaps::GapRound,
    /// Values conflated so far (queue and held back), those already reported
    /// by an event, and when.
    conflation_total: u64,
    conflation_reported: u64,
    conflation_reported_at: Option<Instant>,
}

/// How an authenticated connection ended.
pub(crate) enum Ended {
    Lost(String),
    Closing,
}

enum Attempt {
    Connected(Box<online::Link>),
    Refused,
    Failed(String),
    /// The token source refused: counts like a refused token.
    TokenRefused(ClientError),
    /// Reconnecting cannot mend it (a certificate, a proxy's refusal).
    Permanent(places::net::failure::Said),
    Closing,
}

impl Session {
    pub(crate) fn new(
        config: LiveConfig,
        shared: Arc<Shared>,
        tokens: Arc<dyn TokenSource>,
        backfiller: Arc<dyn Backfiller>,
        events: EventSink,
        requests: mpsc::UnboundedReceiver<Request>,
        stopping: Stopping,
    ) -> Session {
        let mut book = Book::new(config.queue_size, Arc::clone(&shared.names));
        for point in &config.resume {
            book.resume(&point.curve_id, &point.tenor, point.after);
        }
        Session {
            book,
            config,
            shared,
            tokens,
            backfiller,
            events,
            requests,
            stopping,
            inflight: Inflight::default(),
            parked: Vec::new(),
            backfills: JoinSet::new(),
            gaps: gaps::GapRound::default(),
            conflation_total: 0,
            conflation_reported: 0,
            conflation_reported_at: None,
        }
    }

    /// Runs until closed or a fatal error.
    pub(crate) async fn run(mut self) {
        let _closes_the_queue = CloseOnExit(Arc::clone(&self.shared));
        log::info!(target: TARGET, "live feed starting: {}", redact_url(&self.config.url));
        // A connection that lasted this long resets the backoff.
        let healthy = self.config.reconnect_max.max(self.config.ping_interval);
        let mut backoff = Backoff::new(self.config.reconnect_min, self.config.reconnect_max);
        let mut failed: u32 = 0;
        let mut refusals: u32 = 0;
        let mut outage_since: Option<Instant> = None;
        let fatal = loop {
            match self.attempt().await {
                Attempt::Closing => break None,
                Attempt::Connected(link) => {
                    refusals = 0;
                    self.shared.set_last_failure(None);
                    self.events.emit(FeedEvent::Connected { attempt: failed });
                    if let Some(since) = outage_since.take() {
                        super::stats::Counters::add(&self.shared.counters.reconnects, 1);
                        self.events.emit(FeedEvent::Reconnected {
                            downtime: since.elapsed(),
                            attempts: failed + 1,
                        });
                    }
                    failed = 0;
                    let up_since = Instant::now();
                    self.set_connected(true);
                    let ended = self.online(*link).await;
                    self.set_connected(false);
                    self.connection_lost();
                    match ended {
                        Ended::Closing => break None,
                        Ended::Lost(reason) => {
                            self.events.emit(FeedEvent::Disconnected { reason });
                            outage_since = Some(Instant::now());
                            if up_since.elapsed() >= healthy {
                                backoff.reset();
                            }
                        }
                    }
                }
                Attempt::Refused if refusals + 1 >= AUTH_REFUSALS_FATAL => {
                    break Some(ClientError::auth(
                        places::AuthReason::FeedRefusedTwice,
                        None,
                        "",
                    ));
                }
                Attempt::TokenRefused(refusal) if refusals + 1 >= AUTH_REFUSALS_FATAL => {
                    break refusal.auth_in_context("no token for the live feed");
                }
                Attempt::Refused => {
                    refusals += 1;
                    failed += 1;
                    self.attempt_failed("the token was refused (auth-failed); fetching a new one");
                }
                Attempt::TokenRefused(reason) => {
                    refusals += 1;
                    failed += 1;
                    self.attempt_failed(&format!("cannot get a token: {reason}"));
                }
                Attempt::Failed(reason) => {
                    failed += 1;
                    self.attempt_failed(&reason);
                }
                Attempt::Permanent(reason) => {
                    self.attempt_failed(&reason.to_string());
                    break Some(ClientError::Live {
                        code: String::new(),
                        message: reason.words,
                        subscription: None,
                        advice: reason.advice,
                    });
                }
            }
            let wait = backoff.next_wait(fastrand::f64());
            if !self.idle(wait).await {
                break None;
            }
        };
        // Stopped by the client's close rather than the feed's own: the
        // consumer and waiting callers are told so.
        let fatal = fatal.or_else(|| {
            self.stopping
                .client
                .is_closed()
                .then_some(ClientError::ClientClosed)
        });
        self.finish(fatal).await;
    }

    fn set_connected(&self, connected: bool) {
        let flag = &self.shared.counters.connected;
        flag.store(connected, std::sync::atomic::Ordering::Relaxed);
    }

    fn attempt_failed(&self, reason: &str) {
        log::warn!(target: TARGET, "connection attempt failed: {reason}");
        self.shared.set_last_failure(Some(reason.to_owned()));
    }

    /// One connection attempt, answering requests meanwhile.
    async fn attempt(&mut self) -> Attempt {
        let tokens = Arc::clone(&self.tokens);
        let url = self.config.url.clone();
        let network = self.config.network.clone();
        let limit = self.config.connect_timeout;
        let answer_within = self.config.pong_timeout.min(limit);
        let connecting = async move {
            let token = match tokens.fresh_token().await {
                Ok(token) => token,
                Err(error @ (ClientError::Auth(_) | ClientError::TokenProvider { .. })) => {
                    return Attempt::TokenRefused(error)
                }
                Err(error) => return Attempt::Failed(format!("cannot get a token: {error}")),
            };
            match tokio::time::timeout(limit, open(&url, &token, &network, answer_within)).await {
                Err(_) => Attempt::Failed(format!(
                    "not connected and authenticated within {:.1} s",
                    limit.as_secs_f64()
                )),
                Ok(Err(OpenError::Passing(reason))) => Attempt::Failed(reason),
                Ok(Err(OpenError::Permanent(reason))) => Attempt::Permanent(reason),
                Ok(Ok(Handshake::Refused)) => Attempt::Refused,
                Ok(Ok(Handshake::Authenticated(socket))) => {
                    Attempt::Connected(Box::new(online::Link::new(*socket, token)))
                }
            }
        };
        tokio::pin!(connecting);
        loop {
            tokio::select! {
                biased;
                () = self.stopping.feed.closed() => return Attempt::Closing,
                request = self.requests.recv() => match request {
                    Some(request) => self.offline(request),
                    None => return Attempt::Closing,
                },
                attempt = &mut connecting => return attempt,
            }
        }
    }

    /// Wall-clock now, in micros.
    fn now_micros() -> Micros {
        chrono::Utc::now().timestamp_micros()
    }
}

/// Closes the queue however the task ends (a panic, an abort), so that a
/// consumer waiting for ticks is never left hanging.
struct CloseOnExit(Arc<Shared>);

impl Drop for CloseOnExit {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.0.queue.push_error(ClientError::Live {
                code: "INTERNAL".into(),
                message: "the live feed stopped on an internal error".into(),
                subscription: None,
                advice: None,
            });
        }
        self.0
            .closed
            .store(true, std::sync::atomic::Ordering::Relaxed);
        self.0
            .counters
            .connected
            .store(false, std::sync::atomic::Ordering::Relaxed);
        self.0.queue.close();
    }
}
