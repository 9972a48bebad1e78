//! The router driven in-process: each request goes to `routes::router`
//! through tower's `oneshot`, with no socket and no server, so a test of
//! the HTTP behaviour takes milliseconds. Every app stands on a stopped
//! clock, seed 0, at Friday 2025-06-13 17:00 UTC (after the London close)
//! unless told otherwise, as pytest's `tests/emulator/` suite does, so its
//! answers are fixed. Requests carry `Host: emulator.test:8080`, which the
//! absolute links of a page must name.

use std::sync::Arc;
use std::time::Duration;

use axum::body::{to_bytes, Body};
use axum::http::header::{AUTHORIZATION, CONTENT_TYPE, HOST};
use axum::http::{HeaderMap, Method, Request, StatusCode};
use axum::Router;
use bytes::Bytes;
use chrono::NaiveDateTime;
use serde_json::Value;
use tower::ServiceExt;

use crate::accounts::FULL_EMAIL;
use crate::control::tests::at;
use crate::world::curves::Curve;
use crate::world::World;
use crate::{AppState, Controls, EmulatorConfig};

/// Where every app's clock stands unless a test moves it.
pub(crate) const START: &str = "2025-06-13T17:00:00Z";
/// The host every request names.
pub(crate) const HOST_NAME: &str = "emulator.test:8080";
/// The curve id no curve has.
pub(crate) const UNKNOWN_CURVE: &str = "00000000-0000-4000-8000-000000000000";
/// A bound on every request, so a response that never ends fails its test.
const ANSWER_WITHIN: Duration = Duration::from_secs(30);

/// An emulator's state and its router, with no server.
pub(crate) struct App {
    state: Arc<AppState>,
    router: Router,
}

impl App {
    /// Seed 0, the clock stopped at [`START`].
    pub(super) fn new() -> App {
        App::seeded(0, START)
    }

    /// Seed 0, the clock stopped at `instant` (RFC 3339).
    pub(super) fn at(instant: &str) -> App {
        App::seeded(0, instant)
    }

    pub(super) fn seeded(seed: u64, instant: &str) -> App {
        let config = EmulatorConfig {
            seed,
            ..EmulatorConfig::stopped_at(at(instant))
        };
        let state = Arc::new(AppState::new(&config));
        let router = super::router(Arc::clone(&state));
        App { state, router }
    }

    pub(super) fn controls(&self) -> Controls {
        Controls::new(Arc::clone(&self.state))
    }

    pub(super) fn world(&self) -> Arc<World> {
        self.state.world()
    }

    /// A token of the demo account (no `Sales`, bulk from 2024-03).
    pub(super) fn demo(&self) -> String {
        self.controls().token(None)
    }

    /// A token of the account licensed for everything.
    pub(super) fn full(&self) -> String {
        self.controls().token(Some(FULL_EMAIL))
    }

    /// Sends one request and reads its whole answer.
    pub(super) async fn send(&self, request: Request<Body>) -> Reply {
        let answer = async {
            let response = self
                .router
                .clone()
                .oneshot(request)
                .await
                .expect("infallible");
            let (parts, body) = response.into_parts();
            let body = to_bytes(body, usize::MAX).await.map_err(|e| e.to_string());
            Reply {
                status: parts.status,
                headers: parts.headers,
                body,
            }
        };
        tokio::time::timeout(ANSWER_WITHIN, answer)
            .await
            .expect("an answer within the bound")
    }

    /// `method` on `uri` (a path, or a link of a page), with `headers`.
    pub(super) async fn request(
        &self,
        method: Method,
        uri: &str,
        headers: &[(&str, &str)],
        body: &str,
    ) -> Reply {
        let mut request = Request::builder()
            .method(method)
            .uri(path_of(uri))
            .header(HOST, HOST_NAME);
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        let request = request
            .body(Body::from(body.to_owned()))
            .expect("a request");
        self.send(request).await
    }

    /// `GET uri` with a bearer token.
    pub(super) async fn get(&self, uri: &str, token: &str) -> Reply {
        let bearer = format!("Bearer {token}");
        self.request(Method::GET, uri, &[(AUTHORIZATION.as_str(), &bearer)], "")
            .await
    }

    /// `POST uri` with a bearer token and no body.
    pub(super) async fn post(&self, uri: &str, token: &str) -> Reply {
        let bearer = format!("Bearer {token}");
        self.request(Method::POST, uri, &[(AUTHORIZATION.as_str(), &bearer)], "")
            .await
    }

    /// The JSON body of a 200 to `GET uri`.
    pub(super) async fn ok(&self, uri: &str, token: &str) -> Value {
        let reply = self.get(uri, token).await;
        assert_eq!(reply.status, StatusCode::OK, "{uri}: {}", reply.text());
        reply.json()
    }

    /// Every page from `uri`'s, following `next` to its end.
    pub(super) async fn pages(&self, uri: &str, token: &str) -> Vec<Value> {
        let mut pages = vec![self.ok(uri, token).await];
        while let Some(next) = pages.last().and_then(|p| p["next"].as_str()) {
            assert!(pages.len() < 1_000, "next never ends");
            let next = next.to_owned();
            pages.push(self.ok(&next, token).await);
        }
        pages
    }
}

/// A whole response.
pub(crate) struct Reply {
    pub status: StatusCode,
    pub headers: HeaderMap,
    /// The body, or why it broke off.
    pub body: Result<Bytes, String>,
}

impl Reply {
    pub(super) fn bytes(&self) -> &Bytes {
        self.body.as_ref().expect("a whole body")
    }

    pub(super) fn text(&self) -> String {
        match &self.body {
            Ok(bytes) => String::from_utf8_lossy(bytes).into_owned(),
            Err(error) => format!("<body broken: {error}>"),
        }
    }

    pub(super) fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }

    /// The body as JSON, sent as JSON.
    pub(super) fn json(&self) -> Value {
        let kind = self.header(CONTENT_TYPE.as_str()).unwrap_or_default();
        assert!(
            kind.starts_with("application/json"),
            "Content-Type {kind:?}"
        );
        serde_json::from_slice(self.bytes()).expect("a JSON body")
    }

    /// Checks the answer is `status` with the design's error body
    /// `{"status", "error", "message"}`; returns the message.
    pub(super) fn error(&self, status: u16) -> String {
        assert_eq!(self.status.as_u16(), status, "{}", self.text());
        let body = self.json();
        let object = body.as_object().expect("an object");
        let mut keys: Vec<&str> = object.keys().map(String::as_str).collect();
        keys.sort_unstable();
        assert_eq!(keys, ["error", "message", "status"]);
        assert_eq!(body["status"], status);
        let reason = self.status.canonical_reason().expect("a known status");
        assert_eq!(body["error"], reason);
        let message = body["message"].as_str().expect("a text message");
        assert!(!message.trim().is_empty());
        message.to_owned()
    }
}

/// The path and query of a page's absolute link, which must name the host
/// the request was sent to; a path is left as it is.
pub(crate) fn path_of(uri: &str) -> &str {
    match uri.strip_prefix("http://") {
        Some(rest) => rest
            .strip_prefix(HOST_NAME)
            .unwrap_or_else(|| panic!("{uri} is not on {HOST_NAME}")),
        None => uri,
    }
}

/// A link's query parameters, decoded, in order.
pub(crate) fn query_of(link: &str) -> Vec<(String, String)> {
    let query = link.split_once('?').map_or("", |(_, q)| q);
    form_urlencoded::parse(query.as_bytes())
        .into_owned()
        .collect()
}

/// The one value of a link's query parameter `name`.
pub(crate) fn param(link: &str, name: &str) -> String {
    let values: Vec<String> = query_of(link)
        .into_iter()
        .filter(|(k, _)| k == name)
        .map(|(_, v)| v)
        .collect();
    assert_eq!(values.len(), 1, "{name} in {link}");
    values.into_iter().next().expect("one")
}

/// The page number a link carries.
pub(crate) fn page_of(link: &Value) -> usize {
    let link = link.as_str().expect("a link");
    param(link, "page").parse().expect("a page number")
}

/// The first curve that passes `test`; fails the test if none does.
pub(crate) fn curve_where(world: &World, test: impl Fn(&Curve) -> bool) -> Curve {
    world
        .curves
        .iter()
        .find(|c| test(c))
        .cloned()
        .expect("a curve of the kind the test needs")
}

/// A curve in the demo licence with continuous tenors (and monthly ones).
pub(crate) fn fob_curve(world: &World) -> Curve {
    curve_where(world, |c| c.quotation == "Fob" && c.profile.continuous)
}

/// The items of every page, in order.
pub(crate) fn items_of(pages: &[Value]) -> Vec<Value> {
    pages
        .iter()
        .flat_map(|p| p["items"].as_array().expect("items").clone())
        .collect()
}

/// The sorted keys of a JSON object.
pub(crate) fn keys(value: &Value) -> Vec<&str> {
    let object = value
        .as_object()
        .unwrap_or_else(|| panic!("an object: {value}"));
    let mut keys: Vec<&str> = object.keys().map(String::as_str).collect();
    keys.sort_unstable();
    keys
}

/// Checks a Price record of the interface, of `tenor` in `units`; returns
/// its `generatedOn` (UTC, no suffix, up to six fraction digits).
pub(crate) fn price_record(record: &Value, tenor: &str, units: &str) -> NaiveDateTime {
    let expected = [
        "dependencies",
        "generatedOn",
        "metadata",
        "price",
        "tenor",
        "units",
    ];
    assert_eq!(keys(record), expected);
    assert_eq!(record["tenor"], tenor);
    assert_eq!(record["units"], units);
    assert!(
        record["price"].is_f64() || record["price"].is_i64(),
        "{record}"
    );
    for dependency in record["dependencies"].as_array().expect("dependencies") {
        assert_eq!(
            keys(dependency),
            ["id", "name", "tenorName", "units", "value"]
        );
        assert!(dependency["value"].is_number());
    }
    for entry in record["metadata"].as_array().expect("metadata") {
        assert_eq!(keys(entry), ["name", "value"]);
        assert!(entry["name"].is_string() && entry["value"].is_string());
    }
    let text = record["generatedOn"].as_str().expect("generatedOn");
    let fraction = text.split_once('.').map_or("", |(_, f)| f);
    assert!(
        fraction.len() <= 6 && fraction.bytes().all(|b| b.is_ascii_digit()),
        "{text}"
    );
    NaiveDateTime::parse_from_str(text, "%Y-%m-%dT%H:%M:%S%.f")
        .unwrap_or_else(|_| panic!("generatedOn {text:?} is not ISO 8601 without suffix"))
}

/// `YYYY-MM-DD HH:MM` as a time of the UTC clock.
pub(crate) fn utc(text: &str) -> NaiveDateTime {
    NaiveDateTime::parse_from_str(text, "%Y-%m-%d %H:%M").expect("a time")
}
