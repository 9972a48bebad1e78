//! Subscriptions: confirmation by marker pong, refusals, unsubscribe, what
//! is delivered and what is not.

use std::time::Duration;

use super::*;
use crate::test_server::{price, STEP};
use crate::{FeedEvent, LiveConfig, LiveFeed, TickSource};
use domain::live::Subscription;
use places::ClientError;

#[tokio::test]
async fn subscribes_and_delivers_the_snapshot_then_updates() {
    let mut h = harness(|_| {}).await;
    let mut conn = h.server.next_connection().await;
    assert_eq!(conn.authenticate().await, "tok-1");
    let (subscribed, accepted) = tokio::join!(h.feed.subscribe(CURVE, "Jan 26", true), async {
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
    h.wait_for_event(|e| *e == FeedEvent::Connected { attempt: 0 })
        .await;
    h.feed.close().await;
}

#[tokio::test]
async fn no_access_refuses_the_subscription_and_forgets_it() {
    let mut h = harness(|_| {}).await;
    let mut conn = h.server.next_connection().await;
    conn.authenticate().await;
    let (result, _) = tokio::join!(h.feed.subscribe(CURVE, "Q1 27", true), async {
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
    let (result, _) = tokio::join!(h.feed.subscribe(CURVE, "Jan 26", true), async {
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
        h.feed.subscribe(CURVE, "Jan 26", true),
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
        h.feed.subscribe(CURVE, "C 00", true),
        conn.accept_subscribe(vec![])
    );
    a.unwrap();
    let (b, _) = tokio::join!(
        h.feed.subscribe(CURVE, "*", true),
        conn.accept_subscribe(vec![])
    );
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
        h.feed.subscribe(CURVE, "Jan 26", true),
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
    )
    .unwrap();
    let error = feed.subscribe(CURVE, "Jan 26", true).await.unwrap_err();
    assert!(matches!(error, ClientError::Service { .. }), "{error}");
    assert!(error.to_string().contains("not connected"), "{error}");
    assert_eq!(feed.subscriptions().len(), 1);
    let invalid = feed.subscribe(CURVE, "Q5 26", true).await.unwrap_err();
    assert!(matches!(invalid, ClientError::InvalidRequest(_)));
    feed.close().await;
    assert!(feed.is_closed());
}

#[tokio::test]
async fn a_slow_consumer_gets_the_latest_value_per_tenor_and_a_conflated_event() {
    let mut h = harness(|c| c.queue_size = 4).await;
    let mut conn = h.server.next_connection().await;
    conn.authenticate().await;
    let (subscribed, _) = tokio::join!(
        h.feed.subscribe(CURVE, "*", true),
        conn.accept_subscribe(vec![])
    );
    subscribed.unwrap();
    for second in 10..40 {
        for tenor in ["Jan 26", "Feb 26"] {
            let when = format!("2025-06-13T10:00:{second}.000");
            conn.send(price(CURVE, tenor, &when, f64::from(second)))
                .await;
        }
    }
    eventually(|| h.feed.stats().messages >= 61).await;
    let ticks = h.feed.next_ticks(100, Some(STEP)).await.unwrap().unwrap();
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
    h.wait_for_event(|e| matches!(e, FeedEvent::Conflated { .. }))
        .await;
    h.feed.close().await;
}

/// A subscribe made while the connection is being authenticated reaches the
/// service once, whichever of the resubscription and the request comes
/// first: twice, the second refusal reached the consumer as an error nobody
/// waited for. The race is tried on many connections, the subscribe made as
/// the client reads `auth-success`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_subscribe_racing_the_connection_is_sent_once() {
    let mut h = harness(|_| {}).await;
    for _ in 0..40 {
        let mut conn = h.server.next_connection().await;
        conn.authenticate().await;
        let (result, _) = tokio::join!(h.feed.subscribe(CURVE, "Q1 27", true), async {
            let (_, marker) = conn.expect_command("subscribe").await;
            conn.error("NO_ACCESS", "not in the licence").await;
            conn.pong(&marker).await;
        });
        let error = result.unwrap_err();
        assert!(matches!(error, ClientError::AccessDenied { .. }), "{error}");
        let again = conn.recv_within(Duration::from_millis(20)).await;
        assert!(again.is_none(), "sent twice: {again:?}");
        let queued = h.feed.next_ticks(10, Some(Duration::ZERO)).await;
        assert!(queued.unwrap().unwrap().is_empty());
        conn.drop_abruptly();
    }
    h.feed.close().await;
}
