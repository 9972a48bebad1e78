//! `POST /v2/bulk-download/job-submit` and `GET /v2/bulk-download/job-status/<job_id>`:
//! submission narrowed to the licence and to complete months, bad
//! parameters, 403 for any token problem, and a job's states on the
//! emulator's clock (its files are in `files_tests.rs`).

use axum::http::Method;
use serde_json::{json, Value};

use crate::routes::test_app::{keys, App, Reply};

async fn submit(app: &App, token: &str, start: &str, end: &str, vertical: &str) -> Reply {
    let uri =
        format!("/v2/bulk-download/job-submit?startDate={start}&endDate={end}&vertical={vertical}");
    app.post(&uri, token).await
}

/// A job of May 2025 (the last complete month at 17:00 on 13 June) accepted.
async fn submitted(app: &App, token: &str) -> Value {
    let reply = submit(app, token, "2025-05", "2025-05", "FUEL_OIL").await;
    assert_eq!(reply.status, 202, "{}", reply.text());
    reply.json()
}

async fn status(app: &App, token: &str, job: &Value) -> Reply {
    let id = job["job_id"].as_str().expect("a job id");
    app.get(&format!("/v2/bulk-download/job-status/{id}"), token)
        .await
}

#[tokio::test]
async fn a_submission_is_202_with_an_opaque_id_and_the_effective_range() {
    let app = App::new();
    let reply = submit(&app, &app.full(), "2025-01", "2025-05", "JET").await;
    assert_eq!(reply.status, 202);
    let body = reply.json();
    assert_eq!(keys(&body), ["date_range", "job_id"]);
    let range = json!({ "effective_start": "2025-01", "effective_end": "2025-05" });
    assert_eq!(body["date_range"], range);
    let again = submit(&app, &app.full(), "2025-01", "2025-05", "JET")
        .await
        .json();
    assert_ne!(again["job_id"], body["job_id"]);
    for vertical in ["JET", "NAPHTHA", "ULSD", "CRUDE", "GASOLINE", "FUEL_OIL"] {
        let reply = submit(&app, &app.full(), "2025-05", "2025-05", vertical).await;
        assert_eq!(reply.status, 202, "{vertical}");
    }
}

#[tokio::test]
async fn ranges_are_narrowed_to_the_licence_and_to_complete_months() {
    let app = App::new();
    let (demo, full) = (app.demo(), app.full());
    for (token, start, end, effective) in [
        (&demo, "2023-01", "2025-05", ("2024-03", "2025-05")),
        (&demo, "2024-06", "2026-12", ("2024-06", "2025-05")),
        (&full, "2023-01", "2025-05", ("2023-01", "2025-05")),
        (&full, "2010-02", "2025-09", ("2010-02", "2025-05")),
        (&full, "1999-11", "2000-01", ("2000-01", "2000-01")),
    ] {
        let body = submit(&app, token, start, end, "FUEL_OIL").await.json();
        let range = json!({ "effective_start": effective.0, "effective_end": effective.1 });
        assert_eq!(body["date_range"], range, "{start} to {end}");
    }
    // Nothing left once narrowed.
    for (token, start, end) in [
        (&demo, "2023-01", "2024-02"),
        (&demo, "2025-06", "2025-09"),
        (&full, "2025-06", "2025-06"),
    ] {
        let message = submit(&app, token, start, end, "FUEL_OIL").await.error(400);
        assert!(message.starts_with("nothing to export"), "{message}");
    }
}

#[tokio::test]
async fn bad_months_and_verticals_are_400_naming_the_parameter() {
    let app = App::new();
    let token = app.full();
    for (start, end, named) in [
        ("2025-5", "2025-05", "startDate"),
        ("2025-13", "2025-05", "startDate"),
        ("2025-05-01", "2025-05", "startDate"),
        ("", "2025-05", "startDate"),
        ("2025-04", "2025/05", "endDate"),
        ("2025-05", "2025-04", "endDate 2025-04 is before startDate"),
    ] {
        let message = submit(&app, &token, start, end, "JET").await.error(400);
        assert!(message.starts_with(named), "{start} {end}: {message}");
    }
    for vertical in ["jet", "Jet", "Fuel%20Oil", "fuel_oil", "KEROSENE", ""] {
        let message = submit(&app, &token, "2025-04", "2025-05", vertical)
            .await
            .error(400);
        assert!(
            message.starts_with("unknown vertical"),
            "{vertical}: {message}"
        );
    }
    for (query, missing) in [
        ("endDate=2025-05&vertical=JET", "startDate"),
        ("startDate=2025-05&vertical=JET", "endDate"),
        ("startDate=2025-05&endDate=2025-05", "vertical"),
    ] {
        let uri = format!("/v2/bulk-download/job-submit?{query}");
        let message = app.post(&uri, &token).await.error(400);
        assert!(
            message.starts_with(&format!("{missing} is required")),
            "{message}"
        );
    }
}

#[tokio::test]
async fn a_missing_bad_or_expired_token_is_403_on_both_endpoints() {
    let app = App::new();
    let job = submitted(&app, &app.demo()).await;
    let id = job["job_id"].as_str().unwrap();
    let submit_uri = "/v2/bulk-download/job-submit?startDate=2025-05&endDate=2025-05&vertical=JET";
    let status_uri = format!("/v2/bulk-download/job-status/{id}");
    for header in [
        None,
        Some("Bearer not-a-token"),
        Some("Bearer a.b.c"),
        Some("Basic abc"),
    ] {
        let headers: Vec<(&str, &str)> = header.iter().map(|h| ("Authorization", *h)).collect();
        app.request(Method::POST, submit_uri, &headers, "")
            .await
            .error(403);
        app.request(Method::GET, &status_uri, &headers, "")
            .await
            .error(403);
    }
    let old = app.demo();
    app.controls().expire_tokens();
    app.post(submit_uri, &old).await.error(403);
    status(&app, &old, &job).await.error(403);
    assert_eq!(status(&app, &app.demo(), &job).await.status, 200);
    // A token past its twelve hours.
    let token = app.demo();
    app.controls().advance(12.0 * 3600.0).unwrap();
    assert_eq!(
        app.post(submit_uri, &token).await.error(403),
        "token expired"
    );
}

#[tokio::test]
async fn a_revoked_licence_is_403_until_restored() {
    let app = App::new();
    app.controls().revoke_licence(None, None).unwrap();
    let message = submit(&app, &app.demo(), "2025-05", "2025-05", "FUEL_OIL")
        .await
        .error(403);
    assert_eq!(message, "your licence is revoked");
    app.controls().restore_licence(None).unwrap();
    submitted(&app, &app.demo()).await;
}

#[tokio::test]
async fn a_job_is_its_owners_only() {
    let app = App::new();
    let job = submitted(&app, &app.demo()).await;
    status(&app, &app.full(), &job).await.error(404);
    assert_eq!(status(&app, &app.demo(), &job).await.status, 200);
    let unknown = app
        .get("/v2/bulk-download/job-status/no-such-job", &app.demo())
        .await;
    assert_eq!(unknown.error(404), "unknown job id \"no-such-job\"");
}

#[tokio::test]
async fn a_job_runs_on_the_emulators_clock_then_succeeds_with_its_files() {
    let app = App::new();
    let token = app.full();
    // One month requested: it runs 2.5 s, to 17:00:03 on whole seconds.
    let job = submitted(&app, &token).await;
    assert_eq!(
        status(&app, &token, &job).await.json(),
        json!({ "status": "RUNNING" })
    );
    app.controls().advance(2.0).unwrap();
    assert_eq!(
        status(&app, &token, &job).await.json(),
        json!({ "status": "RUNNING" })
    );
    app.controls().advance(1.0).unwrap();
    // The status waits (a bounded while) for the job's file to be built.
    let body = status(&app, &token, &job).await.json();
    assert_eq!(keys(&body), ["presigned_urls", "status"]);
    assert_eq!(body["status"], "SUCCEEDED");
    let listing = body["presigned_urls"].as_array().unwrap();
    assert_eq!(listing.len(), 1);
    let file = &listing[0];
    assert_eq!(keys(file), ["path", "size", "url"]);
    assert_eq!(file["path"], "vertical=Fuel Oil/year=2025/month=05");
    assert!(file["size"].as_u64().unwrap() > 0);
    let url = file["url"].as_str().unwrap();
    assert!(url.starts_with("http://emulator.test:8080/files/"), "{url}");
    assert!(
        url.contains("X-Expires=") && url.contains("X-Signature="),
        "{url}"
    );
    // The same listing at every poll.
    assert_eq!(status(&app, &token, &job).await.json(), body);
}

#[tokio::test]
async fn a_job_told_to_fail_ends_failed_after_running_its_time() {
    let app = App::new();
    let token = app.full();
    app.controls().fail_next_job(1).unwrap();
    let failing = submitted(&app, &token).await;
    let next = submitted(&app, &token).await;
    assert_eq!(
        status(&app, &token, &failing).await.json(),
        json!({ "status": "RUNNING" })
    );
    app.controls().advance(3.0).unwrap();
    assert_eq!(
        status(&app, &token, &failing).await.json(),
        json!({ "status": "FAILED" })
    );
    assert_eq!(
        status(&app, &token, &next).await.json()["status"],
        "SUCCEEDED"
    );
}
