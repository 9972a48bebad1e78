//! Connections: reconnects with fresh tokens, backfills, keep-alive, refused
//! tokens, close.

use std::sync::atomic::Ordering;
use std::time::Duration;

use super::*;
use crate::test_server::{price, STEP};
use crate::{FeedEvent, TickSource};
use domain::live::Subscription;
use places::ClientError;

#[tokio::test]
async fn an_abrupt_drop_reconnects_with_a_fresh_token_resubscribes_and_backfills_the_gap() {
    let mut h = harness(|_| {}).await;
    let mut conn = h.server.next_connection().await;
    assert_eq!(conn.authenticate().await, "tok-1");
    let first = price(CURVE, "Jan 26", "2025-06-13T10:00:00.000", 70.0);
    let (subscribed, _) = tokio::join!(
        h.feed.subscribe(CURVE, "*", true),
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
    let gap = calls[0].2;
    assert_eq!(
        gap.after,
        at("2025-06-13T10:00:00"),
        "the last value delivered"
    );
    assert!(gap.after <= gap.from && gap.from <= gap.now, "{gap:?}");
    conn.send(price(CURVE, "Jan 26", "2025-06-13T10:00:04.000", 74.0))
        .await;
    assert_eq!(take(&h.feed, 1).await[0].source, TickSource::Update);
    let stats = h.feed.stats();
    assert_eq!(stats.reconnects, 1);
    assert_eq!(stats.backfilled, 2);
    assert_eq!(stats.gaps_filled, 1);
    // The old value from the backfill and the snapshot repeat.
    assert_eq!(stats.duplicates_dropped, 2);
    h.wait_for_event(|e| matches!(e, FeedEvent::Reconnected { attempts: 1, .. }))
        .await;
    h.wait_for_event(|e| matches!(e, FeedEvent::Disconnected { .. }))
        .await;
    h.wait_for_event(
        |e| matches!(e, FeedEvent::GapFilled { count: 2, tenor, .. } if tenor == "Jan 26"),
    )
    .await;
    h.feed.close().await;
}

#[tokio::test]
async fn a_reconnect_whose_snapshot_is_the_last_value_delivered_sends_no_request() {
    let mut h = harness(|_| {}).await;
    let conn = h.delivered_at_ten("*").await;
    conn.drop_abruptly();
    let mut conn = h.server.next_connection().await;
    conn.authenticate().await;
    // Live rule 1: the snapshot is the last value published. Intraday times
    // carry microseconds, the feed milliseconds: the same value.
    let again = price(CURVE, "Jan 26", "2025-06-13T10:00:00.000", 70.0);
    conn.accept_subscribe(vec![again]).await;
    conn.send(price(CURVE, "Jan 26", "2025-06-13T10:00:01.000", 71.0))
        .await;
    let ticks = take(&h.feed, 1).await;
    assert_eq!(
        summary(&ticks),
        vec![(at("2025-06-13T10:00:01"), 71.0, TickSource::Update)]
    );
    let stats = h.feed.stats();
    assert_eq!(stats.gaps_skipped, 1);
    assert_eq!(stats.backfill_requests, 0);
    assert!(h.backfill.calls.lock().unwrap().is_empty());
    h.feed.close().await;
}

#[tokio::test]
async fn a_tenor_whose_snapshot_never_comes_is_backfilled_after_its_grace() {
    let mut h = harness(|_| {}).await;
    let conn = h.delivered_at_ten("Jan 26").await;
    h.backfill
        .answers
        .lock()
        .unwrap()
        .push_back(Ok(vec![(at("2025-06-13T10:00:02"), 72.0)]));
    conn.drop_abruptly();
    let mut conn = h.server.next_connection().await;
    conn.authenticate().await;
    // An expired contract, say: live rule 2, no value and no error.
    conn.accept_subscribe(vec![]).await;
    let ticks = take(&h.feed, 1).await;
    assert_eq!(
        summary(&ticks),
        vec![(at("2025-06-13T10:00:02"), 72.0, TickSource::Backfill)]
    );
    let calls = h.backfill.calls.lock().unwrap().clone();
    assert_eq!(calls.len(), 1);
    assert_eq!(calls[0].2.until, None);
    assert_eq!(h.feed.stats().backfill_requests, 1);
    h.feed.close().await;
}

#[tokio::test]
async fn a_failed_backfill_is_reported_and_the_live_values_still_come() {
    let mut h = harness(|_| {}).await;
    let conn = h.delivered_at_ten("Jan 26").await;
    h.backfill
        .answers
        .lock()
        .unwrap()
        .push_back(Err(ClientError::Service {
            endpoint: "GET /ongoing/intraday".into(),
            status: Some(503),
            attempts: 6,
            message: "HTTP 503".into(),
            advice: None,
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
    h.wait_for_event(|e| matches!(e, FeedEvent::Error { message } if message.contains("backfill")))
        .await;
    h.wait_for_event(
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
        matches!(&error, ClientError::Auth(m) if m.reason == places::AuthReason::FeedRefusedTwice),
        "{error}"
    );
    assert!(!error.to_string().contains("tok-"));
    assert!(matches!(h.feed.next_ticks(10, Some(STEP)).await, Ok(None)));
    assert!(h.feed.is_closed());
    assert!(h
        .server
        .connects_within(Duration::from_millis(200))
        .await
        .is_none());
    assert!(
        matches!(h.feed.subscribe(CURVE, "*", true).await, Err(ClientError::Auth(m)) if m.reason == places::AuthReason::FeedRefusedTwice),
        "a call after the end gets the error that ended the feed"
    );
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
    h.wait_for_event(|e| {
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
async fn close_sends_a_close_frame_and_next_ticks_then_says_closed() {
    let mut h = harness(|_| {}).await;
    let mut conn = h.server.next_connection().await;
    conn.authenticate().await;
    let (subscribed, _) = tokio::join!(
        h.feed.subscribe(CURVE, "Jan 26", true),
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
    assert_eq!(h.feed.next_ticks(10, None).await.unwrap().unwrap().len(), 1);
    assert!(matches!(h.feed.next_ticks(10, None).await, Ok(None)));
    assert!(matches!(h.feed.try_next_ticks(10), Ok(None)));
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
    let subscribing = h.feed.subscribe(CURVE, "Jan 26", true);
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

/// Throughput of the reader and the queue: `cargo test --profile release-fast
/// --lib firehose -- --ignored --nocapture`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "a measurement, not a check"]
async fn firehose_throughput() {
    const TENORS: usize = 100;
    const FRAMES: usize = 500_000;
    let mut h = harness(|c| c.queue_size = FRAMES).await;
    let mut conn = h.server.next_connection().await;
    conn.authenticate().await;
    let (subscribed, _) = tokio::join!(
        h.feed.subscribe(CURVE, "*", true),
        conn.accept_subscribe(vec![])
    );
    subscribed.unwrap();
    let base = at("2025-06-13T00:00:00");
    let frames: Vec<String> = (0..FRAMES)
        .map(|i| {
            let tenor = format!("{}-{} Jan 26", i % TENORS, i % TENORS);
            let when = domain::live::format_millis(base + (i / TENORS) as i64 * 1_000);
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
        received += h
            .feed
            .next_ticks(10_000, Some(STEP))
            .await
            .unwrap()
            .unwrap()
            .len();
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

#[tokio::test]
async fn an_auth_left_unanswered_is_given_up_after_the_pong_timeout() {
    // connect_timeout is long: only the pong timeout can end the wait.
    let mut h = harness(|config| {
        config.pong_timeout = Duration::from_millis(200);
        config.connect_timeout = Duration::from_secs(30);
    })
    .await;
    let mut silent = h.server.next_connection().await;
    assert_eq!(silent.expect_auth().await, "tok-1");
    let mut conn = h
        .server
        .connects_within(Duration::from_secs(5))
        .await
        .expect("a new attempt once the auth went unanswered");
    assert_eq!(conn.authenticate().await, "tok-2");
    let (subscribed, _) = tokio::join!(
        h.feed.subscribe(CURVE, "*", true),
        conn.accept_subscribe(Vec::new())
    );
    subscribed.unwrap();
    drop(silent);
}
