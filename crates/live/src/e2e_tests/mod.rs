//! The session against a scripted server: connect, authenticate with a fresh
//! token each time, subscribe, reconnect, resubscribe, backfill, keep alive,
//! refuse, close. Durations are short so that each test takes well under a
//! second or two.

mod connections;
mod resume;
mod subscriptions;

use std::collections::VecDeque;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures_util::future::BoxFuture;

use super::test_server::{price, ServerConn, TestServer, STEP};
use super::*;
use crate::sources::{GapSpan, PageHints};
use domain::timestamp::{parse_timestamp, Micros};
use places::{ClientError, Secret};

pub(super) const CURVE: &str = "c-1";

/// Tokens `tok-1`, `tok-2`, … one per fetch.
#[derive(Default)]
pub(super) struct CountingTokens(pub AtomicU32);

impl TokenSource for CountingTokens {
    fn fresh_token(&self) -> BoxFuture<'_, Result<Secret, ClientError>> {
        let n = self.0.fetch_add(1, Ordering::SeqCst) + 1;
        Box::pin(async move { Ok(Secret::new(format!("tok-{n}"))) })
    }
}

pub(super) type Values = Vec<(Micros, f64)>;

/// Backfills answered from a script; every call is recorded.
#[derive(Default)]
pub(super) struct ScriptedBackfill {
    pub answers: Mutex<VecDeque<Result<Values, ClientError>>>,
    pub calls: Mutex<Vec<(String, String, GapSpan)>>,
}

impl Backfiller for ScriptedBackfill {
    fn published_since<'a>(
        &'a self,
        curve_id: &'a str,
        tenor: &'a str,
        gap: GapSpan,
        (_, requests): (&'a PageHints, &'a std::sync::atomic::AtomicU64),
    ) -> BoxFuture<'a, Result<Vec<(Micros, f64)>, ClientError>> {
        requests.fetch_add(1, Ordering::SeqCst);
        self.calls
            .lock()
            .unwrap()
            .push((curve_id.to_owned(), tenor.to_owned(), gap));
        let answer = self.answers.lock().unwrap().pop_front();
        Box::pin(async move { answer.unwrap_or(Ok(Vec::new())) })
    }
}

pub(super) struct Harness {
    pub server: TestServer,
    pub feed: LiveFeed,
    pub tokens: Arc<CountingTokens>,
    pub backfill: Arc<ScriptedBackfill>,
    /// The events drained from the feed so far.
    pub events: Mutex<Vec<FeedEvent>>,
}

pub(super) fn quick_config(url: &str) -> LiveConfig {
    LiveConfig {
        url: url.to_owned(),
        ping_interval: Duration::from_secs(5),
        pong_timeout: Duration::from_secs(2),
        connect_timeout: Duration::from_secs(2),
        reconnect_min: Duration::from_millis(10),
        reconnect_max: Duration::from_millis(50),
        subscribe_timeout: Duration::from_secs(3),
        ..LiveConfig::default()
    }
}

pub(super) async fn harness(configure: impl FnOnce(&mut LiveConfig)) -> Harness {
    let server = TestServer::start().await;
    let mut config = quick_config(&server.url);
    configure(&mut config);
    let tokens = Arc::new(CountingTokens::default());
    let backfill = Arc::new(ScriptedBackfill::default());
    let feed = LiveFeed::start_with(
        Arc::clone(&tokens) as Arc<dyn TokenSource>,
        Arc::clone(&backfill) as Arc<dyn Backfiller>,
        config,
    )
    .unwrap();
    Harness {
        server,
        feed,
        tokens,
        backfill,
        events: Mutex::default(),
    }
}

pub(super) fn at(text: &str) -> Micros {
    parse_timestamp(text).unwrap()
}

/// Takes ticks until `count` have come (or fails after a while).
pub(super) async fn take(feed: &LiveFeed, count: usize) -> Vec<Tick> {
    let mut ticks = Vec::new();
    while ticks.len() < count {
        let more = feed
            .next_ticks(count - ticks.len(), Some(STEP))
            .await
            .unwrap()
            .unwrap();
        assert!(
            !more.is_empty(),
            "only {} of {count} ticks came",
            ticks.len()
        );
        ticks.extend(more);
    }
    ticks
}

pub(super) fn summary(ticks: &[Tick]) -> Vec<(Micros, f64, TickSource)> {
    ticks
        .iter()
        .map(|t| (t.generated_on, t.price, t.source))
        .collect()
}

impl Harness {
    /// The first connection, authenticated, with `tenor` of [`CURVE`]
    /// subscribed and its snapshot (Jan 26 at 10:00:00, 70.0) taken.
    pub(crate) async fn delivered_at_ten(&mut self, tenor: &str) -> ServerConn {
        let mut conn = self.server.next_connection().await;
        conn.authenticate().await;
        let first = price(CURVE, "Jan 26", "2025-06-13T10:00:00.000", 70.0);
        let (subscribed, _) = tokio::join!(
            self.feed.subscribe(CURVE, tenor, true),
            conn.accept_subscribe(vec![first])
        );
        subscribed.unwrap();
        take(&self.feed, 1).await;
        conn
    }

    /// Waits until the feed has emitted an event that is `found`, keeping
    /// every event drained in `events`.
    pub(crate) async fn wait_for_event(&self, found: impl Fn(&FeedEvent) -> bool) {
        let seen = || {
            let mut events = self.events.lock().unwrap();
            events.extend(self.feed.drain_events());
            events.iter().any(&found)
        };
        if !poll_until(seen).await {
            panic!("event not seen; events: {:?}", self.events.lock().unwrap());
        }
    }
}

pub(super) async fn eventually(condition: impl Fn() -> bool) {
    assert!(poll_until(condition).await, "condition never held");
}

pub(super) async fn poll_until(condition: impl Fn() -> bool) -> bool {
    let deadline = tokio::time::Instant::now() + STEP;
    while tokio::time::Instant::now() < deadline {
        if condition() {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    false
}
