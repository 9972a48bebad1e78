//! The middleware that applies injected faults before a request reaches its route.

use std::io;
use std::sync::Arc;
use std::time::Duration;

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::header::{CONTENT_LENGTH, RETRY_AFTER};
use axum::http::{HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use bytes::Bytes;
use futures_util::stream::{self, StreamExt};

use super::error::ApiError;
use crate::emulator::faults::Injected;
use crate::emulator::server::AppState;

pub async fn inject(State(state): State<Arc<AppState>>, request: Request, next: Next) -> Response {
    let latency = state.faults.latency();
    if !latency.is_zero() {
        tokio::time::sleep(latency).await;
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
        Injected::Reset => cut_short(next.run(request).await).await,
    }
}

/// Sends the headers and half the body, then breaks the connection: the
/// declared length is never reached, as when a connection resets mid-body.
pub async fn cut_short(response: Response) -> Response {
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
