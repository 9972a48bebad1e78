//! The bulk files behind pre-signed URLs (`GET /files/<job_id>/<name>`):
//! no token, byte ranges, the signature, an hour's lifetime, and the bulk
//! faults a download sees.

use axum::http::Method;
use serde_json::Value;

use crate::routes::test_app::{App, Reply};

/// Submits a Fuel Oil job of May 2025 as the full account, moves the clock
/// past its end and returns its listing.
async fn finished_job(app: &App) -> Vec<Value> {
    let token = app.full();
    let submit = "/v2/bulk-download/job-submit?startDate=2025-05&endDate=2025-05&vertical=FUEL_OIL";
    let job = app.post(submit, &token).await.json();
    app.controls().advance(3.0).unwrap();
    let id = job["job_id"].as_str().unwrap();
    let body = app
        .ok(&format!("/v2/bulk-download/job-status/{id}"), &token)
        .await;
    assert_eq!(body["status"], "SUCCEEDED", "{body}");
    body["presigned_urls"].as_array().unwrap().clone()
}

fn url_of(entry: &Value) -> &str {
    entry["url"].as_str().unwrap()
}

async fn download(app: &App, url: &str, headers: &[(&str, &str)]) -> Reply {
    app.request(Method::GET, url, headers, "").await
}

#[tokio::test]
async fn a_download_needs_no_token_and_honours_ranges() {
    let app = App::new();
    let listing = finished_job(&app).await;
    let (url, size) = (url_of(&listing[0]), listing[0]["size"].as_u64().unwrap());
    let whole = download(&app, url, &[]).await;
    assert_eq!(whole.status, 200);
    assert_eq!(
        whole.header("Content-Type"),
        Some("application/octet-stream")
    );
    assert_eq!(whole.header("Accept-Ranges"), Some("bytes"));
    assert_eq!(
        whole.header("Content-Length"),
        Some(size.to_string().as_str())
    );
    let bytes = whole.bytes();
    assert_eq!(bytes.len() as u64, size);
    assert!(
        bytes.starts_with(b"PAR1") && bytes.ends_with(b"PAR1"),
        "a Parquet file"
    );
    let etag = whole.header("ETag").expect("an ETag").to_owned();
    assert!(
        etag.starts_with('"') && etag.ends_with('"'),
        "a strong tag: {etag}"
    );

    let head = download(&app, url, &[("Range", "bytes=0-3")]).await;
    assert_eq!(head.status, 206);
    assert_eq!(head.bytes().as_ref(), b"PAR1");
    let range = format!("bytes 0-3/{size}");
    assert_eq!(head.header("Content-Range"), Some(range.as_str()));
    let tail = download(&app, url, &[("Range", "bytes=-4")]).await;
    assert_eq!(
        (tail.status.as_u16(), tail.bytes().as_ref()),
        (206, &b"PAR1"[..])
    );
    let past = format!("bytes={size}-");
    let beyond = download(&app, url, &[("Range", past.as_str())]).await;
    beyond.error(416);
    let unsatisfied = format!("bytes */{size}");
    assert_eq!(beyond.header("Content-Range"), Some(unsatisfied.as_str()));
    // A range of another version of the file gets the whole file.
    let other = [("Range", "bytes=0-3"), ("If-Range", "\"another\"")];
    assert_eq!(download(&app, url, &other).await.bytes(), bytes);
    let same = [("Range", "bytes=0-3"), ("If-Range", etag.as_str())];
    assert_eq!(download(&app, url, &same).await.status, 206);
}

#[tokio::test]
async fn an_altered_url_or_a_bearer_token_is_refused() {
    let app = App::new();
    let listing = finished_job(&app).await;
    let url = url_of(&listing[0]);
    let bearer = format!("Bearer {}", app.full());
    let message = download(&app, url, &[("Authorization", &bearer)])
        .await
        .error(400);
    assert!(
        message.starts_with("only one authorization mechanism"),
        "{message}"
    );
    let (signed, signature) = url.split_once("&X-Signature=").unwrap();
    let mut altered = signature.to_owned();
    let flipped = if altered.ends_with('0') { '1' } else { '0' };
    altered.pop();
    altered.push(flipped);
    for bad in [
        format!("{signed}&X-Signature={altered}"),
        signed.to_owned(),
        url.replace("X-Expires=", "X-Expires=1"),
        url.replace(".parquet", "x.parquet"),
    ] {
        download(&app, &bad, &[]).await.error(403);
    }
}

#[tokio::test]
async fn urls_expire_an_hour_after_the_job_or_when_told() {
    let app = App::new();
    let first = finished_job(&app).await;
    assert_eq!(download(&app, url_of(&first[0]), &[]).await.status, 200);
    app.controls().expire_urls();
    let message = download(&app, url_of(&first[0]), &[]).await.error(403);
    assert_eq!(
        message,
        "the URL has expired; run the job again for new URLs"
    );
    // A job run again lists URLs that work, for an hour.
    let again = finished_job(&app).await;
    assert_eq!(download(&app, url_of(&again[0]), &[]).await.status, 200);
    app.controls().advance(3600.0 - 1.0).unwrap();
    assert_eq!(download(&app, url_of(&again[0]), &[]).await.status, 200);
    app.controls().advance(1.0).unwrap();
    download(&app, url_of(&again[0]), &[]).await.error(403);
}

#[tokio::test]
async fn a_truncated_download_declares_the_whole_length_then_breaks() {
    let app = App::new();
    let listing = finished_job(&app).await;
    let (url, size) = (url_of(&listing[0]), listing[0]["size"].as_u64().unwrap());
    app.controls().truncate_next_download(1).unwrap();
    let broken = download(&app, url, &[]).await;
    assert_eq!(broken.status, 200);
    assert_eq!(
        broken.header("Content-Length"),
        Some(size.to_string().as_str())
    );
    assert!(broken.body.is_err(), "the body breaks off");
    let whole = download(&app, url, &[]).await;
    assert_eq!(whole.bytes().len() as u64, size);
}

#[tokio::test]
async fn malicious_paths_are_listed_with_working_urls_while_on() {
    let app = App::new();
    app.controls().malicious_paths(true);
    let listing = finished_job(&app).await;
    let paths: Vec<&str> = listing
        .iter()
        .map(|e| e["path"].as_str().unwrap())
        .collect();
    assert_eq!(
        paths,
        ["vertical=Fuel Oil/year=2025/month=05", "../../x", "/etc/x"]
    );
    for entry in &listing {
        assert_eq!(download(&app, url_of(entry), &[]).await.status, 200);
    }
    app.controls().malicious_paths(false);
    assert_eq!(finished_job(&app).await.len(), 1);
}
