//! The session against a scripted server: connect, authenticate with a fresh
//! token each time, subscribe, reconnect, resubscribe, backfill, keep alive,
//! refuse, close. Durations are short so that each test takes well under a
//! second or two.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures_util::future::BoxFuture;

use super::test_server::{price, TestServer, STEP};
use super::*;
use crate::client::{ClientError, Secret};
use crate::domain::live::Subscription;
use crate::domain::timestamp::{parse_timestamp, Micros};

const CURVE: &str = "c-1";

/// Tokens `tok-1`, `tok-2`, … one per fetch.
#[derive(Default)]
struct CountingTokens(AtomicU32);

impl TokenSource for CountingTokens {
    fn fresh_token(&self) -> BoxFuture<'_, Result<Secret, ClientError>> {
        let n = self.0.fetch_add(1, Ordering::SeqCst) + 1;
        Box::pin(async move { Ok(Secret::new(format!("tok-{n}"))) })
    }
}

type Values = Vec<(Micros, f64)>;

/// Backfills answered from a script; every call is recorded.
#[derive(Default)]
struct ScriptedBackfill {
    answers: Mutex<VecDeque<Result<Values, ClientError>>>,
    calls: Mutex<Vec<(String, String, Micros)>>,
}

impl Backfiller for ScriptedBackfill {
    fn published_since<'a>(
        &'a self,
        curve_id: &'a str,
        tenor: &'a str,
        since: Micros,
        _now: Micros,
    ) -> BoxFuture<'a, Result<Vec<(Micros, f64)>, ClientError>> {
        self.calls
            .lock()
            .unwrap()
            .push((curve_id.to_owned(), tenor.to_owned(), since));
        let answer = self.answers.lock().unwrap().pop_front();
        Box::pin(async move { answer.unwrap_or(Ok(Vec::new())) })
    }
}

struct Harness {
    server: TestServer,
    feed: LiveFeed,
    tokens: Arc<CountingTokens>,
    backfill: Arc<ScriptedBackfill>,
    events: Arc<Mutex<Vec<FeedEvent>>>,
}

fn quick_config(url: &str) -> LiveConfig {
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

async fn harness(configure: impl FnOnce(&mut LiveConfig)) -> Harness {
    let server = TestServer::start().await;
    let mut config = quick_config(&server.url);
    configure(&mut config);
    let tokens = Arc::new(CountingTokens::default());
    let backfill = Arc::new(ScriptedBackfill::default());
    let events = Arc::new(Mutex::new(Vec::new()));
    let record = Arc::clone(&events);
    let handler: EventHandler = Arc::new(move |e| record.lock().unwrap().push(e.clone()));
    let feed = LiveFeed::start_with(
        Arc::clone(&tokens) as Arc<dyn TokenSource>,
        Arc::clone(&backfill) as Arc<dyn Backfiller>,
        config,
        Some(handler),
    )
    .unwrap();
    Harness {
        server,
        feed,
        tokens,
        backfill,
        events,
    }
}

fn at(text: &str) -> Micros {
    parse_timestamp(text).unwrap()
}

/// Takes ticks until `count` have come (or fails after a while).
async fn take(feed: &LiveFeed, count: usize) -> Vec<Tick> {
    let mut ticks = Vec::new();
    while ticks.len() < count {
        let more = feed
            .next_ticks(count - ticks.len(), Some(STEP))
            .await
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

fn summary(ticks: &[Tick]) -> Vec<(Micros, f64, TickSource)> {
    ticks
        .iter()
        .map(|t| (t.generated_on, t.price, t.source))
        .collect()
}

async fn wait_for_event(events: &Mutex<Vec<FeedEvent>>, found: impl Fn(&FeedEvent) -> bool) {
    let seen = || events.lock().unwrap().iter().any(&found);
    if !poll_until(seen).await {
        panic!("event not seen; events: {:?}", events.lock().unwrap());
    }
}

async fn eventually(condition: impl Fn() -> bool) {
    assert!(poll_until(condition).await, "condition never held");
}

async fn poll_until(condition: impl Fn() -> bool) -> bool {
    let deadline = tokio::time::Instant::now() + STEP;
    while tokio::time::Instant::now() < deadline {
        if condition() {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    false
}

#[tokio::test]
async fn subscribes_and_delivers_the_snapshot_then_updates() {
    let mut h = harness(|_| {}).await;
    let mut conn = h.server.next_connection().await;
    assert_eq!(conn.authenticate().await, "tok-1");
    let (subscribed, accepted) = tokio::join!(h.feed.subscribe(CURVE, "Jan 26"), async {
        let snapshot = price(CURVE, "Jan 26", "2025-06-13T10:00:00.000", 70.0);
        conn.accept_subscribe(vec![snapshot]).await
    });
    subscribed.unwrap();
    assert_eq!(accepted, Subscription::new(CURVE, "Jan 26"));
    conn.send(price(CURVE, "Jan 26", "2025-06-13T10:00:01.500", 71.0))
        .await;
    // Not subscribed: never delivered.
    conn.send(price(CURVE, "Feb 26", "2025-06-13T10:00:02.000", 1.0))
        .await;
    conn.send(price(CURVE, "Jan 26", "2025-06-13T10:00:01.500", 71.0))
        .await;
    conn.send(price(CURVE, "Jan 26", "2025-06-13T10:00:03.000", 72.0))
        .await;
    let ticks = take(&h.feed, 3).await;
    assert_eq!(
        summary(&ticks),
        vec![
            (at("2025-06-13T10:00:00"), 70.0, TickSource::Snapshot),
            (at("2025-06-13T10:00:01.5"), 71.0, TickSource::Update),
            (at("2025-06-13T10:00:03"), 72.0, TickSource::Update),
        ]
    );
    assert_eq!(&*ticks[0].curve_id, CURVE);
    let stats = h.feed.stats();
    assert!(stats.connected);
    assert_eq!(stats.subscriptions, 1);
    assert_eq!(stats.ticks_delivered, 3);
    assert_eq!(stats.duplicates_dropped, 1);
    assert!(stats.messages >= 6, "{stats:?}");
    assert!(stats.last_message.is_some());
    assert_eq!(
        h.feed.subscriptions(),
        vec![Subscription::new(CURVE, "Jan 26")]
    );
    wait_for_event(&h.events, |e| *e == FeedEvent::Connected { attempt: 0 }).await;
    h.feed.close().await;
}

#[tokio::test]
async fn an_abrupt_drop_reconnects_with_a_fresh_token_resubscribes_and_backfills_the_gap() {
    let mut h = harness(|_| {}).await;
    let mut conn = h.server.next_connection().await;
    assert_eq!(conn.authenticate().await, "tok-1");
    let first = price(CURVE, "Jan 26", "2025-06-13T10:00:00.000", 70.0);
    let (subscribed, _) = tokio::join!(
        h.feed.subscribe(CURVE, "*"),
        conn.accept_subscribe(vec![first])
    );
    subscribed.unwrap();
    assert_eq!(take(&h.feed, 1).await[0].source, TickSource::Snapshot);
    // Published while the connection is down: 10:00:01.250123 and 10:00:02.5.
    h.backfill.answers.lock().unwrap().push_back(Ok(vec![
        (at("2025-06-13T10:00:02.500"), 72.0),
        (at("2025-06-13T10:00:01.250123"), 71.0),
        (at("2025-06-13T09:59:59"), 69.0),
    ]));
    conn.drop_abruptly();

    let mut conn = h.server.next_connection().await;
    assert_eq!(
        conn.authenticate().await,
        "tok-2",
        "a fresh token per connection"
    );
    // The resubscription's snapshot repeats the last backfilled value, then
    // an update arrives before the backfill is merged.
    let (resubscribed, marker) = conn.expect_command("subscribe").await;
    assert_eq!(resubscribed, Subscription::new(CURVE, "*"));
    conn.send(price(CURVE, "Jan 26", "2025-06-13T10:00:02.500", 72.0))
        .await;
    conn.send(price(CURVE, "Jan 26", "2025-06-13T10:00:03.000", 73.0))
        .await;
    conn.pong(&marker).await;
    let ticks = take(&h.feed, 3).await;
    assert_eq!(
        summary(&ticks),
        vec![
            (at("2025-06-13T10:00:01.250123"), 71.0, TickSource::Backfill),
            (at("2025-06-13T10:00:02.5"), 72.0, TickSource::Backfill),
            (at("2025-06-13T10:00:03"), 73.0, TickSource::Update),
        ]
    );
    let calls = h.backfill.calls.lock().unwrap().clone();
    assert_eq!(calls.len(), 1);
    assert_eq!((&*calls[0].0, &*calls[0].1), (CURVE, "Jan 26"));
    assert!(calls[0].2 >= at("2025-06-13T10:00:00"));
    conn.send(price(CURVE, "Jan 26", "2025-06-13T10:00:04.000", 74.0))
        .await;
    assert_eq!(take(&h.feed, 1).await[0].source, TickSource::Update);
    let stats = h.feed.stats();
    assert_eq!(stats.reconnects, 1);
    assert_eq!(stats.backfilled, 2);
    assert_eq!(stats.gaps_filled, 1);
    // The old value from the backfill and the snapshot repeat.
    assert_eq!(stats.duplicates_dropped, 2);
    wait_for_event(&h.events, |e| {
        matches!(e, FeedEvent::Reconnected { attempts: 1, .. })
    })
    .await;
    wait_for_event(&h.events, |e| matches!(e, FeedEvent::Disconnected { .. })).await;
    wait_for_event(
        &h.events,
        |e| matches!(e, FeedEvent::GapFilled { count: 2, tenor, .. } if tenor == "Jan 26"),
    )
    .await;
    h.feed.close().await;
}

#[tokio::test]
async fn a_failed_backfill_is_reported_and_the_live_values_still_come() {
    let mut h = harness(|_| {}).await;
    let mut conn = h.server.next_connection().await;
    conn.authenticate().await;
    let first = price(CURVE, "Jan 26", "2025-06-13T10:00:00.000", 70.0);
    let (subscribed, _) = tokio::join!(
        h.feed.subscribe(CURVE, "Jan 26"),
        conn.accept_subscribe(vec![first])
    );
    subscribed.unwrap();
    take(&h.feed, 1).await;
    h.backfill
        .answers
        .lock()
        .unwrap()
        .push_back(Err(ClientError::Service {
            endpoint: "GET /ongoing/intraday".into(),
            status: Some(503),
            attempts: 6,
            message: "HTTP 503".into(),
        }));
    conn.close_with(1012).await;
    let mut conn = h.server.next_connection().await;
    conn.authenticate().await;
    let snapshot = price(CURVE, "Jan 26", "2025-06-13T10:00:05.000", 75.0);
    conn.accept_subscribe(vec![snapshot]).await;
    let ticks = take(&h.feed, 1).await;
    assert_eq!(
        summary(&ticks),
        vec![(at("2025-06-13T10:00:05"), 75.0, TickSource::Snapshot)]
    );
    assert_eq!(h.feed.stats().backfill_failures, 1);
    wait_for_event(
        &h.events,
        |e| matches!(e, FeedEvent::Error { message } if message.contains("backfill")),
    )
    .await;
    wait_for_event(
        &h.events,
        |e| matches!(e, FeedEvent::Disconnected { reason } if reason.contains("1012")),
    )
    .await;
    h.feed.close().await;
}

#[tokio::test]
async fn a_second_refused_token_ends_the_feed_with_an_auth_error() {
    let mut h = harness(|_| {}).await;
    let mut conn = h.server.next_connection().await;
    assert_eq!(conn.expect_auth().await, "tok-1");
    conn.send(serde_json::json!({"type": "auth-failed"})).await;
    let mut conn = h.server.next_connection().await;
    assert_eq!(conn.expect_auth().await, "tok-2");
    conn.send(serde_json::json!({"type": "auth-failed"})).await;
    let error = h.feed.next_ticks(10, Some(STEP)).await.unwrap_err();
    assert!(
        matches!(&error, ClientError::Auth(m) if m.contains("twice")),
        "{error}"
    );
    assert!(!error.to_string().contains("tok-"));
    assert!(matches!(
        h.feed.next_ticks(10, Some(STEP)).await,
        Err(ClientError::Closed)
    ));
    assert!(h.feed.is_closed());
    assert!(h
        .server
        .connects_within(Duration::from_millis(200))
        .await
        .is_none());
    assert!(matches!(
        h.feed.subscribe(CURVE, "*").await,
        Err(ClientError::Closed)
    ));
    assert_eq!(h.tokens.0.load(Ordering::SeqCst), 2);
}

#[tokio::test]
async fn a_quiet_connection_is_pinged_and_a_missing_pong_means_reconnect() {
    let mut h = harness(|c| {
        c.ping_interval = Duration::from_millis(100);
        c.pong_timeout = Duration::from_millis(150);
    })
    .await;
    let mut conn = h.server.next_connection().await;
    conn.authenticate().await;
    let started = tokio::time::Instant::now();
    let marker = conn.expect_ping().await;
    assert!(marker.contains("keepalive"), "{marker}");
    assert!(started.elapsed() >= Duration::from_millis(90));
    conn.pong(&marker).await;
    // Answered: the connection stays; the next ping comes and is ignored.
    let _unanswered = conn.expect_ping().await;
    let mut next = h.server.next_connection().await;
    assert_eq!(next.authenticate().await, "tok-2");
    // The unanswered ping and the silence fall due together: either is named.
    wait_for_event(&h.events, |e| {
        matches!(e, FeedEvent::Disconnected { reason }
            if reason.contains("pong") || reason.contains("nothing received"))
    })
    .await;
    h.feed.close().await;
}

#[tokio::test]
async fn a_silent_server_is_left_after_ping_interval_plus_pong_timeout() {
    let mut h = harness(|c| {
        c.ping_interval = Duration::from_millis(100);
        c.pong_timeout = Duration::from_millis(100);
    })
    .await;
    let mut conn = h.server.next_connection().await;
    conn.authenticate().await;
    let started = tokio::time::Instant::now();
    let _ignored = conn.expect_ping().await;
    h.server.next_connection().await;
    let elapsed = started.elapsed();
    assert!(elapsed >= Duration::from_millis(150), "{elapsed:?}");
    assert!(elapsed < Duration::from_millis(1_500), "{elapsed:?}");
}

#[tokio::test]
async fn close_1000_and_not_logged_both_mean_reconnect() {
    let mut h = harness(|_| {}).await;
    let conn = {
        let mut conn = h.server.next_connection().await;
        conn.authenticate().await;
        conn
    };
    conn.close_with(1000).await;
    let mut conn = h.server.next_connection().await;
    conn.authenticate().await;
    conn.error("NOT_LOGGED", "log in first").await;
    let mut conn = h.server.next_connection().await;
    assert_eq!(conn.authenticate().await, "tok-3");
    eventually(|| h.feed.stats().reconnects == 2).await;
    h.feed.close().await;
}

#[tokio::test]
async fn no_access_refuses_the_subscription_and_forgets_it() {
    let mut h = harness(|_| {}).await;
    let mut conn = h.server.next_connection().await;
    conn.authenticate().await;
    let (result, _) = tokio::join!(h.feed.subscribe(CURVE, "Q1 27"), async {
        let (_, marker) = conn.expect_command("subscribe").await;
        conn.error("NO_ACCESS", "not in the licence").await;
        conn.pong(&marker).await;
    });
    let error = result.unwrap_err();
    assert!(matches!(error, ClientError::AccessDenied { .. }), "{error}");
    assert_eq!(
        error.subscription(),
        Some(&Subscription::new(CURVE, "Q1 27"))
    );
    assert!(error.to_string().contains("Q1 27") && error.to_string().contains(CURVE));
    assert!(h.feed.subscriptions().is_empty());
    h.feed.close().await;
}

#[tokio::test]
async fn unexpected_error_on_subscribe_is_retried() {
    let mut h = harness(|_| {}).await;
    let mut conn = h.server.next_connection().await;
    conn.authenticate().await;
    let (result, _) = tokio::join!(h.feed.subscribe(CURVE, "Jan 26"), async {
        let (_, marker) = conn.expect_command("subscribe").await;
        conn.error("UNEXPECTED_ERROR", "try again").await;
        conn.pong(&marker).await;
        conn.accept_subscribe(vec![]).await;
    });
    result.unwrap();
    assert_eq!(h.feed.subscriptions().len(), 1);
    h.feed.close().await;
}

#[tokio::test]
async fn a_refused_resubscription_comes_through_next_ticks_in_order() {
    let mut h = harness(|_| {}).await;
    let mut conn = h.server.next_connection().await;
    conn.authenticate().await;
    let first = price(CURVE, "Jan 26", "2025-06-13T10:00:00.000", 70.0);
    let (subscribed, _) = tokio::join!(
        h.feed.subscribe(CURVE, "Jan 26"),
        conn.accept_subscribe(vec![first])
    );
    subscribed.unwrap();
    conn.drop_abruptly();
    let mut conn = h.server.next_connection().await;
    conn.authenticate().await;
    let (_, marker) = conn.expect_command("subscribe").await;
    conn.error("NO_ACCESS", "licence revoked").await;
    conn.pong(&marker).await;
    // The tick queued before the refusal first, then the refusal once.
    assert_eq!(take(&h.feed, 1).await.len(), 1);
    let error = h.feed.next_ticks(10, Some(STEP)).await.unwrap_err();
    assert!(matches!(error, ClientError::AccessDenied { .. }), "{error}");
    assert!(h
        .feed
        .next_ticks(10, Some(Duration::from_millis(50)))
        .await
        .unwrap()
        .is_empty());
    assert!(h.feed.subscriptions().is_empty());
    h.feed.close().await;
}

#[tokio::test]
async fn unsubscribing_all_tenors_tells_the_service_and_stops_deliveries() {
    let mut h = harness(|_| {}).await;
    let mut conn = h.server.next_connection().await;
    conn.authenticate().await;
    let (a, _) = tokio::join!(
        h.feed.subscribe(CURVE, "C 00"),
        conn.accept_subscribe(vec![])
    );
    a.unwrap();
    let (b, _) = tokio::join!(h.feed.subscribe(CURVE, "*"), conn.accept_subscribe(vec![]));
    b.unwrap();
    let (result, _) = tokio::join!(h.feed.unsubscribe(CURVE, "*"), async {
        let (subscription, marker) = conn.expect_command("unsubscribe").await;
        assert_eq!(subscription, Subscription::new(CURVE, "*"));
        // In flight before the service processed it: not delivered.
        conn.send(price(CURVE, "C 00", "2025-06-13T10:00:00.000", 1.0))
            .await;
        conn.pong(&marker).await;
    });
    result.unwrap();
    assert!(h.feed.subscriptions().is_empty());
    assert!(h
        .feed
        .next_ticks(10, Some(Duration::from_millis(50)))
        .await
        .unwrap()
        .is_empty());
    h.feed.close().await;
}

#[tokio::test]
async fn undecodable_frames_are_counted_and_skipped() {
    let mut h = harness(|_| {}).await;
    let mut conn = h.server.next_connection().await;
    conn.authenticate().await;
    let (subscribed, _) = tokio::join!(
        h.feed.subscribe(CURVE, "Jan 26"),
        conn.accept_subscribe(vec![])
    );
    subscribed.unwrap();
    conn.send_text("not json").await;
    conn.send_text(r#"{"type":"price","payload":{"id":"c-1"}}"#)
        .await;
    conn.send(price(CURVE, "Jan 26", "2025-06-13T10:00:00.000", 70.0))
        .await;
    assert_eq!(take(&h.feed, 1).await.len(), 1);
    assert_eq!(h.feed.stats().undecodable, 2);
    h.feed.close().await;
}

#[tokio::test]
async fn subscribe_without_a_connection_times_out_and_stays_recorded() {
    // A port nobody listens on.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = LiveConfig::endpoint(&format!("ws://{}", listener.local_addr().unwrap()));
    drop(listener);
    let config = LiveConfig {
        subscribe_timeout: Duration::from_millis(200),
        ..quick_config(&url)
    };
    let feed = LiveFeed::start_with(
        Arc::new(CountingTokens::default()),
        Arc::new(ScriptedBackfill::default()),
        config,
        None,
    )
    .unwrap();
    let error = feed.subscribe(CURVE, "Jan 26").await.unwrap_err();
    assert!(matches!(error, ClientError::Service { .. }), "{error}");
    assert!(error.to_string().contains("not connected"), "{error}");
    assert_eq!(feed.subscriptions().len(), 1);
    let invalid = feed.subscribe(CURVE, "Q5 26").await.unwrap_err();
    assert!(matches!(invalid, ClientError::InvalidRequest(_)));
    feed.close().await;
    assert!(feed.is_closed());
}

#[tokio::test]
async fn close_sends_a_close_frame_and_next_ticks_then_says_closed() {
    let mut h = harness(|_| {}).await;
    let mut conn = h.server.next_connection().await;
    conn.authenticate().await;
    let (subscribed, _) = tokio::join!(
        h.feed.subscribe(CURVE, "Jan 26"),
        conn.accept_subscribe(vec![price(
            CURVE,
            "Jan 26",
            "2025-06-13T10:00:00.000",
            70.0
        )])
    );
    subscribed.unwrap();
    tokio::time::sleep(Duration::from_millis(20)).await;
    let started = tokio::time::Instant::now();
    let (_, seen) = tokio::join!(h.feed.close(), conn.recv_within(STEP));
    assert!(started.elapsed() < Duration::from_secs(2));
    assert_eq!(seen, Some(Err("close 1000".into())));
    h.feed.close().await;
    // The tick queued before close is still delivered, then Closed.
    assert_eq!(h.feed.next_ticks(10, None).await.unwrap().len(), 1);
    assert!(matches!(
        h.feed.next_ticks(10, None).await,
        Err(ClientError::Closed)
    ));
    assert!(matches!(
        h.feed.try_next_ticks(10),
        Err(ClientError::Closed)
    ));
    assert!(h
        .server
        .connects_within(Duration::from_millis(100))
        .await
        .is_none());
}

#[tokio::test]
async fn a_subscribe_cut_off_by_a_drop_is_confirmed_on_the_next_connection() {
    let mut h = harness(|_| {}).await;
    let mut conn = h.server.next_connection().await;
    conn.authenticate().await;
    let subscribing = h.feed.subscribe(CURVE, "Jan 26");
    let server = &mut h.server;
    let script = async move {
        conn.expect_command("subscribe").await;
        conn.drop_abruptly();
        let mut conn = server.next_connection().await;
        conn.authenticate().await;
        let snapshot = price(CURVE, "Jan 26", "2025-06-13T10:00:00.000", 70.0);
        conn.accept_subscribe(vec![snapshot]).await;
        conn
    };
    let (result, _conn) = tokio::join!(subscribing, script);
    result.unwrap();
    assert_eq!(take(&h.feed, 1).await[0].source, TickSource::Snapshot);
    h.feed.close().await;
}

#[tokio::test]
async fn a_slow_consumer_gets_the_latest_value_per_tenor_and_a_conflated_event() {
    let mut h = harness(|c| c.queue_capacity = 4).await;
    let mut conn = h.server.next_connection().await;
    conn.authenticate().await;
    let (subscribed, _) = tokio::join!(h.feed.subscribe(CURVE, "*"), conn.accept_subscribe(vec![]));
    subscribed.unwrap();
    for second in 10..40 {
        for tenor in ["Jan 26", "Feb 26"] {
            let when = format!("2025-06-13T10:00:{second}.000");
            conn.send(price(CURVE, tenor, &when, f64::from(second)))
                .await;
        }
    }
    eventually(|| h.feed.stats().messages >= 61).await;
    let ticks = h.feed.next_ticks(100, Some(STEP)).await.unwrap();
    assert!(ticks.len() <= 4, "{}", ticks.len());
    let latest: Vec<(String, f64)> = ticks
        .iter()
        .filter(|t| t.price == 39.0)
        .map(|t| (t.tenor.to_string(), t.price))
        .collect();
    assert_eq!(
        latest.len(),
        2,
        "each tenor's latest value is kept: {ticks:?}"
    );
    let stats = h.feed.stats();
    assert_eq!(stats.conflated + ticks.len() as u64, 60);
    wait_for_event(&h.events, |e| matches!(e, FeedEvent::Conflated { .. })).await;
    h.feed.close().await;
}

/// Throughput of the reader and the queue: `cargo test --profile release-fast
/// --lib firehose -- --ignored --nocapture`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "a measurement, not a check"]
async fn firehose_throughput() {
    const TENORS: usize = 100;
    const FRAMES: usize = 500_000;
    let mut h = harness(|c| c.queue_capacity = FRAMES).await;
    let mut conn = h.server.next_connection().await;
    conn.authenticate().await;
    let (subscribed, _) = tokio::join!(h.feed.subscribe(CURVE, "*"), conn.accept_subscribe(vec![]));
    subscribed.unwrap();
    let base = at("2025-06-13T00:00:00");
    let frames: Vec<String> = (0..FRAMES)
        .map(|i| {
            let tenor = format!("{}-{} Jan 26", i % TENORS, i % TENORS);
            let when = crate::domain::live::format_millis(base + (i / TENORS) as i64 * 1_000);
            price(CURVE, &tenor, &when, i as f64).to_string()
        })
        .collect();
    let started = std::time::Instant::now();
    let sender = tokio::spawn(async move {
        conn.blast(frames).await;
        conn
    });
    let mut received = 0;
    while received < FRAMES {
        received += h.feed.next_ticks(10_000, Some(STEP)).await.unwrap().len();
    }
    let elapsed = started.elapsed();
    let _conn = sender.await.unwrap();
    println!(
        "{FRAMES} ticks in {:.3} s: {:.0} ticks/s; {:?}",
        elapsed.as_secs_f64(),
        FRAMES as f64 / elapsed.as_secs_f64(),
        h.feed.stats()
    );
    h.feed.close().await;
}
