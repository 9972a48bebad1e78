//! `POST /v2/authenticate` and the bearer check of the data endpoints
//! (401; the bulk endpoints answer 403, see `bulk_tests.rs`).

use axum::http::Method;
use serde_json::Value;

use crate::accounts::{DEMO_PASSWORD, FULL_EMAIL, FULL_PASSWORD};
use crate::routes::test_app::{fob_curve, App, Reply, START, UNKNOWN_CURVE};

const JSON: (&str, &str) = ("Content-Type", "application/json");

async fn authenticate(app: &App, headers: &[(&str, &str)], body: &str) -> Reply {
    app.request(Method::POST, "/v2/authenticate", headers, body)
        .await
}

fn login(email: &str, password: &str) -> String {
    serde_json::json!({ "email": email, "password": password }).to_string()
}

/// Every data endpoint of one curve and tenor, as pytest's `data_endpoints`.
fn data_endpoints(curve: &str, tenor: &str) -> Vec<String> {
    vec![
        "/v2/catalogue".to_owned(),
        format!(
            "/v2/historical/settlements/{curve}/{tenor}?startDate=2025-06-09&endDate=2025-06-13"
        ),
        format!("/v2/historical/intraday/{curve}/{tenor}?startDate=2025-06-12&endDate=2025-06-12"),
        format!("/v2/ongoing/last-settlement/{curve}/{tenor}"),
        format!("/v2/ongoing/last-settlement/{curve}"),
        format!("/v2/ongoing/last-assessments/{curve}/{tenor}"),
        format!("/v2/ongoing/last-assessments/{curve}"),
        format!("/v2/ongoing/intraday/{curve}/{tenor}"),
    ]
}

#[tokio::test]
async fn good_credentials_get_a_token_that_opens_the_data_endpoints() {
    let app = App::new();
    let credentials = app.controls().credentials();
    for (email, password) in [
        (credentials.email, credentials.password),
        (FULL_EMAIL, FULL_PASSWORD),
    ] {
        let reply = authenticate(&app, &[JSON], &login(email, password)).await;
        assert_eq!(reply.status, 200, "{}", reply.text());
        let body = reply.json();
        let token = body["token"].as_str().expect("a token");
        assert_eq!(body.as_object().map(|o| o.len()), Some(1));
        assert_eq!(token.split('.').count(), 3, "a JWT");
        assert_eq!(app.get("/v2/catalogue", token).await.status, 200);
    }
}

#[tokio::test]
async fn bad_credentials_are_401_with_no_token() {
    let app = App::new();
    let demo = app.controls().credentials().email;
    for (email, password) in [
        (demo, "wrong-password"),
        (demo, ""),
        ("nobody@marketcurves.test", DEMO_PASSWORD),
        (FULL_EMAIL, DEMO_PASSWORD),
    ] {
        let reply = authenticate(&app, &[JSON], &login(email, password)).await;
        assert_eq!(reply.error(401), "invalid email or password");
    }
}

#[tokio::test]
async fn a_body_that_is_not_a_json_login_is_400() {
    let app = App::new();
    let form = ("Content-Type", "application/x-www-form-urlencoded");
    let cases: [(&[(&str, &str)], &str); 9] = [
        (
            &[form],
            "email=demo@marketcurves.test&password=demo-password",
        ),
        (&[JSON], "not json"),
        (&[JSON], "{"),
        (&[], ""),
        (&[JSON], r#"{"email": "demo@marketcurves.test"}"#),
        (&[JSON], r#"{"password": "demo-password"}"#),
        (&[JSON], "{}"),
        (&[JSON], r#"["demo@marketcurves.test", "demo-password"]"#),
        (&[JSON], r#"{"email": 1, "password": "demo-password"}"#),
    ];
    for (headers, body) in cases {
        let message = authenticate(&app, headers, body).await.error(400);
        assert!(message.contains("email"), "{body:?}: {message}");
    }
}

#[tokio::test]
async fn a_token_expires_after_twelve_hours_on_the_emulators_clock() {
    let app = App::new();
    let token = app.demo();
    assert_eq!(app.get("/v2/catalogue", &token).await.status, 200);
    app.controls().advance(12.0 * 3600.0 - 1.0).unwrap();
    assert_eq!(app.get("/v2/catalogue", &token).await.status, 200);
    app.controls().advance(1.0).unwrap();
    assert_eq!(
        app.get("/v2/catalogue", &token).await.error(401),
        "token expired"
    );
    // A login now gives a token valid from now.
    let credentials = app.controls().credentials();
    let fresh = authenticate(
        &app,
        &[JSON],
        &login(credentials.email, credentials.password),
    )
    .await;
    let fresh = fresh.json()["token"].as_str().unwrap().to_owned();
    assert_eq!(app.get("/v2/catalogue", &fresh).await.status, 200);
}

#[tokio::test]
async fn expiring_tokens_ends_those_issued_only() {
    let app = App::new();
    let (demo, full) = (app.demo(), app.full());
    app.controls().expire_tokens();
    app.get("/v2/catalogue", &demo).await.error(401);
    app.get("/v2/catalogue", &full).await.error(401);
    assert_eq!(app.get("/v2/catalogue", &app.demo()).await.status, 200);
}

#[tokio::test]
async fn every_data_endpoint_refuses_a_missing_or_bad_bearer_token() {
    let app = App::new();
    let curve = fob_curve(&app.world()).id;
    let token = app.demo();
    let other_seed = App::seeded(1, START).demo();
    let mut forged: Vec<&str> = token.split('.').collect();
    let payload = forged[1].to_owned() + "x";
    forged[1] = &payload;
    let forged = forged.join(".");
    let headers: Vec<Option<String>> = vec![
        None,
        Some(String::new()),
        Some("Bearer".into()),
        Some("Bearer ".into()),
        Some("Bearer garbage".into()),
        Some("Bearer a.b.c".into()),
        Some(format!("Basic {token}")),
        Some(token.clone()),
        Some(format!("Bearer {token}x")),
        Some(format!("Bearer {forged}")),
        Some(format!("Bearer {other_seed}")),
    ];
    for uri in data_endpoints(&curve, "Jul%2025") {
        for header in &headers {
            let sent: Vec<(&str, &str)> = header
                .iter()
                .map(|h| ("Authorization", h.as_str()))
                .collect();
            let reply = app.request(Method::GET, &uri, &sent, "").await;
            reply.error(401);
        }
        // The same request with the token is fine: the header alone made the 401.
        assert_eq!(app.get(&uri, &token).await.status, 200, "{uri}");
    }
}

#[tokio::test]
async fn the_bearer_check_comes_before_the_curve_is_looked_up() {
    let app = App::new();
    let uri = format!("/v2/ongoing/last-settlement/{UNKNOWN_CURVE}");
    let anonymous = app.request(Method::GET, &uri, &[], "").await;
    assert_eq!(anonymous.error(401), "missing bearer token");
    let known: Value = app.get(&uri, &app.demo()).await.json();
    assert_eq!(known["status"], 404);
}
