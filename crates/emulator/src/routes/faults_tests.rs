//! Faults injected into the REST side, seen on the responses: failures with
//! their status and `Retry-After`, responses broken off or corrupted, each
//! for exactly the next matching requests (bulk faults are in
//! `bulk_tests.rs` and `files_tests.rs`).

use axum::http::Method;

use crate::faults::Corruption;
use crate::live::LIVE_PATH;
use crate::routes::test_app::{fob_curve, App};

const CATALOGUE: &str = "/v2/catalogue";

#[tokio::test]
async fn fail_next_fails_exactly_the_next_requests_with_its_status() {
    let app = App::new();
    let token = app.demo();
    app.controls().fail_next(2, 503, None, None).unwrap();
    for _ in 0..2 {
        let failed = app.get(CATALOGUE, &token).await;
        assert_eq!(failed.error(503), "injected fault");
        assert_eq!(failed.header("Retry-After"), None);
    }
    assert_eq!(app.get(CATALOGUE, &token).await.status, 200);
    for status in [500, 502, 504, 429, 400] {
        app.controls().fail_next(1, status, None, None).unwrap();
        app.get(CATALOGUE, &token).await.error(status);
        assert_eq!(app.get(CATALOGUE, &token).await.status, 200);
    }
}

#[tokio::test]
async fn a_failure_carries_retry_after_when_given() {
    let app = App::new();
    let token = app.demo();
    app.controls().fail_next(1, 429, None, Some(3)).unwrap();
    let limited = app.get(CATALOGUE, &token).await;
    limited.error(429);
    assert_eq!(limited.header("Retry-After"), Some("3"));
    assert_eq!(app.get(CATALOGUE, &token).await.header("Retry-After"), None);
}

#[tokio::test]
async fn failures_reach_every_endpoint_before_its_checks() {
    let app = App::new();
    app.controls().fail_next(3, 503, None, None).unwrap();
    let login = app.request(Method::POST, "/v2/authenticate", &[], "").await;
    login.error(503);
    // Before the bearer check and the routing.
    app.request(Method::GET, CATALOGUE, &[], "")
        .await
        .error(503);
    app.get("/v2/nowhere", &app.demo()).await.error(503);
    app.request(Method::GET, CATALOGUE, &[], "")
        .await
        .error(401);
}

#[tokio::test]
async fn a_path_limits_a_fault_to_the_paths_below_it() {
    let app = App::new();
    let token = app.demo();
    let curve = fob_curve(&app.world()).id;
    let settlement = format!("/v2/ongoing/last-settlement/{curve}");
    let intraday = format!("/v2/ongoing/intraday/{curve}/Jul%2025");
    for prefix in ["/ongoing", "/v2/ongoing"] {
        app.controls()
            .fail_next(2, 502, Some(prefix), None)
            .unwrap();
        assert_eq!(app.get(CATALOGUE, &token).await.status, 200);
        app.get(&settlement, &token).await.error(502);
        app.get(&intraday, &token).await.error(502);
        assert_eq!(app.get(&settlement, &token).await.status, 200);
    }
}

#[tokio::test]
async fn the_live_handshake_fails_only_when_its_path_is_named() {
    let app = App::new();
    let token = app.demo();
    app.controls().fail_next(1, 503, None, None).unwrap();
    // Not an upgrade, so refused, but not by the fault, which the next REST request takes.
    let plain = app.request(Method::GET, LIVE_PATH, &[], "").await;
    assert_eq!(plain.status, 400);
    app.get(CATALOGUE, &token).await.error(503);
    app.controls()
        .fail_next(1, 503, Some("/customer/socket"), None)
        .unwrap();
    app.request(Method::GET, LIVE_PATH, &[], "")
        .await
        .error(503);
}

#[tokio::test]
async fn reset_next_breaks_the_body_off_halfway() {
    let app = App::new();
    let token = app.demo();
    let whole = app.get(CATALOGUE, &token).await;
    app.controls().reset_next(1, Some("/catalogue")).unwrap();
    let broken = app.get(CATALOGUE, &token).await;
    assert_eq!(broken.status, 200);
    let declared = whole.bytes().len().to_string();
    assert_eq!(broken.header("Content-Length"), Some(declared.as_str()));
    assert!(broken.body.is_err(), "the body breaks off");
    assert_eq!(app.get(CATALOGUE, &token).await.bytes(), whole.bytes());
}

#[tokio::test]
async fn corrupt_next_sends_half_the_json_or_a_page_that_is_not_json() {
    let app = App::new();
    let token = app.demo();
    let whole = app.get(CATALOGUE, &token).await;
    let whole = whole.bytes();
    app.controls()
        .corrupt_next(1, Some("/catalogue"), Corruption::Truncated)
        .unwrap();
    let truncated = app.get(CATALOGUE, &token).await;
    assert_eq!(truncated.status, 200);
    assert_eq!(truncated.bytes(), &whole.slice(..whole.len() / 2));
    assert!(serde_json::from_slice::<serde_json::Value>(truncated.bytes()).is_err());

    app.controls()
        .corrupt_next(2, Some("/catalogue"), Corruption::Malformed)
        .unwrap();
    for _ in 0..2 {
        let malformed = app.get(CATALOGUE, &token).await;
        assert_eq!(malformed.status, 200);
        assert_eq!(malformed.header("Content-Type"), Some("text/html"));
        assert!(malformed.text().starts_with("<html>"));
    }
    assert_eq!(app.get(CATALOGUE, &token).await.bytes(), whole);
}

#[tokio::test]
async fn clear_faults_drops_every_pending_fault() {
    let app = App::new();
    let token = app.demo();
    let controls = app.controls();
    controls.fail_next(5, 503, None, None).unwrap();
    controls.reset_next(5, None).unwrap();
    controls
        .corrupt_next(5, None, Corruption::Malformed)
        .unwrap();
    controls.clear_faults();
    for _ in 0..3 {
        let reply = app.get(CATALOGUE, &token).await;
        assert_eq!(reply.status, 200);
        reply.json();
    }
}
