//! The middleware that counts every request entering the REST router,
//! before a fault can fail or spoil it, for `Controls::request_count`, and
//! those in progress at once (the faults' latency included), for
//! `Controls::peak_in_flight`.

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::Response;

use crate::state::AppState;

pub(super) async fn count(
    State(state): State<Arc<AppState>>,
    request: Request,
    next: Next,
) -> Response {
    state.requests.record(request.uri().path());
    let _in_flight = state.requests.enter();
    next.run(request).await
}

#[cfg(test)]
#[path = "counter_tests.rs"]
mod tests;
