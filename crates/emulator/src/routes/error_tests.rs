//! The error body of every REST failure, `{"status", "error", "message"}`
//! with the status's reason, for paths and methods the service does not
//! have (the endpoints' own errors are checked in their tests).

use axum::http::Method;

use crate::routes::test_app::{fob_curve, App};

#[tokio::test]
async fn unknown_paths_are_404_with_the_error_body() {
    let app = App::new();
    let curve = fob_curve(&app.world()).id;
    let token = app.demo();
    for path in [
        "/v2/nothing".to_owned(),
        "/v2/catalogues".to_owned(),
        "/v2/catalogue/extra".to_owned(),
        "/v2/historical".to_owned(),
        "/v2/historical/settlements".to_owned(),
        "/v2/ongoing/last-settlement".to_owned(),
        format!("/v2/ongoing/intraday/{curve}"),
        format!("/v2/ongoing/last-assessments/{curve}/Jul%2025/extra"),
        "/v2/bulk-downloads".to_owned(),
        // Outside the version segment.
        "/v1/catalogue".to_owned(),
        "/catalogue".to_owned(),
        "/".to_owned(),
        "/v3/catalogue".to_owned(),
    ] {
        let message = app.get(&path, &token).await.error(404);
        assert_eq!(message, "no such endpoint", "{path}");
    }
}

#[tokio::test]
async fn a_wrong_method_is_405_with_the_error_body() {
    let app = App::new();
    let bearer = format!("Bearer {}", app.demo());
    let headers = [("Authorization", bearer.as_str())];
    for (method, path) in [
        (Method::GET, "/v2/authenticate"),
        (Method::POST, "/v2/catalogue"),
        (Method::DELETE, "/v2/catalogue"),
        (Method::GET, "/v2/bulk-download/job-submit"),
        (Method::POST, "/v2/bulk-download/job-status/some-job"),
    ] {
        let reply = app.request(method.clone(), path, &headers, "").await;
        let message = reply.error(405);
        assert_eq!(
            message, "method not allowed on this endpoint",
            "{method} {path}"
        );
    }
}
