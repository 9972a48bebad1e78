//! The middleware that dates every response with the emulator's clock.
//!
//! `Date` is the origin server's clock (RFC 9110 §6.6.1), and a client learns
//! the service's notion of now from it; the emulator's now is its own clock
//! (set in the past, stopped or moved by a test), not the machine's. hyper
//! writes the machine's time only when the response has no `Date` already.

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::header::DATE;
use axum::http::HeaderValue;
use axum::middleware::Next;
use axum::response::Response;
use chrono::{DateTime, Utc};

use crate::state::AppState;

pub(super) async fn stamp(
    State(state): State<Arc<AppState>>,
    request: Request,
    next: Next,
) -> Response {
    let mut response = next.run(request).await;
    // Taken once the response is made, as an origin server dates it.
    let date = imf_fixdate(state.clock.now_utc());
    let date = HeaderValue::from_str(&date).expect("an IMF-fixdate is visible ASCII");
    response.headers_mut().insert(DATE, date);
    response
}

/// `Tue, 24 Nov 2026 10:00:00 GMT`: the HTTP date format (RFC 9110 §5.6.7),
/// to the second, truncated.
pub(crate) fn imf_fixdate(at: DateTime<Utc>) -> String {
    at.format("%a, %d %b %Y %H:%M:%S GMT").to_string()
}

#[cfg(test)]
#[path = "date_tests.rs"]
mod tests;
