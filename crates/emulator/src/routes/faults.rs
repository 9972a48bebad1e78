//! The middleware that applies injected faults before a request reaches its route.

use std::io;
use std::sync::Arc;
use std::time::Duration;

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::header::{CONTENT_LENGTH, CONTENT_TYPE, RETRY_AFTER};
use axum::http::{HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use bytes::Bytes;
use futures_util::stream::{self, StreamExt};

use super::error::ApiError;
use crate::faults::{Corruption, Injected, Spoil};
use crate::state::AppState;

pub(super) async fn inject(
    State(state): State<Arc<AppState>>,
    request: Request,
    next: Next,
) -> Response {
    let latency = state.faults.latency();
    if !latency.is_zero() {
        delay(latency).await;
    }
    match state.faults.take(request.uri().path()) {
        Injected::None => next.run(request).await,
        Injected::Fail {
            status,
            retry_after,
        } => {
            let status = StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
            let mut response = ApiError::new(status, "injected fault").into_response();
            if let Some(seconds) = retry_after {
                response
                    .headers_mut()
                    .insert(RETRY_AFTER, HeaderValue::from(seconds));
            }
            response
        }
        Injected::Spoil(Spoil::Reset) => cut_short(next.run(request).await).await,
        Injected::Spoil(Spoil::Corrupt(Corruption::Truncated)) => {
            truncate(next.run(request).await).await
        }
        Injected::Spoil(Spoil::Corrupt(Corruption::Malformed)) => {
            malformed(next.run(request).await)
        }
    }
}

/// Waits `latency` of real time, to within a fraction of a millisecond.
///
/// tokio's timer rounds a deadline up to its next whole millisecond and
/// fires it when a worker next turns to the timer: a delay of 20 ms took 21
/// to 23, so a client pulling at the latency bound measured the timer.
/// A thread of the blocking pool sleeps to the microsecond instead.
async fn delay(latency: Duration) {
    let sleeping = tokio::task::spawn_blocking(move || std::thread::sleep(latency));
    if sleeping.await.is_err() {
        // The runtime is shutting down: the request is dropped anyway.
        tokio::time::sleep(latency).await;
    }
}

/// A whole response, correctly framed, whose body is the first half of what
/// the route answered: the JSON stops mid-value.
async fn truncate(response: Response) -> Response {
    let (mut parts, body) = response.into_parts();
    let bytes = axum::body::to_bytes(body, usize::MAX)
        .await
        .unwrap_or_default();
    let half = bytes.slice(..bytes.len() / 2);
    parts
        .headers
        .insert(CONTENT_LENGTH, HeaderValue::from(half.len()));
    Response::from_parts(parts, Body::from(half))
}

/// The route's status with an HTML page for a body, as a misbehaving proxy
/// or gateway might send.
fn malformed(response: Response) -> Response {
    const PAGE: &str = "<html><body><h1>Gateway</h1><p>Upstream answer replaced.</p></body></html>";
    let (mut parts, _) = response.into_parts();
    parts
        .headers
        .insert(CONTENT_TYPE, HeaderValue::from_static("text/html"));
    parts
        .headers
        .insert(CONTENT_LENGTH, HeaderValue::from(PAGE.len()));
    Response::from_parts(parts, Body::from(PAGE))
}

/// Sends the headers and half the body, then breaks the connection: the
/// declared length is never reached, as when a connection resets mid-body.
pub(super) async fn cut_short(response: Response) -> Response {
    let (mut parts, body) = response.into_parts();
    let bytes = axum::body::to_bytes(body, usize::MAX)
        .await
        .unwrap_or_default();
    parts
        .headers
        .insert(CONTENT_LENGTH, HeaderValue::from(bytes.len()));
    let half: Bytes = bytes.slice(..bytes.len() / 2);
    let first = stream::once(async move { Ok::<Bytes, io::Error>(half) });
    // The pause lets the headers and the first half reach the client before the break.
    let then_break = stream::once(async {
        tokio::time::sleep(Duration::from_millis(50)).await;
        Err(io::Error::new(
            io::ErrorKind::ConnectionReset,
            "injected reset",
        ))
    });
    Response::from_parts(parts, Body::from_stream(first.chain(then_break)))
}

#[cfg(test)]
#[path = "faults_tests.rs"]
mod tests;
