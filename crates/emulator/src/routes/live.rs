//! `GET /v2/customer/socket/websocket`: the upgrade to the live feed. The
//! feed itself is in `emulator::live`. REST faults reach the handshake only
//! when injected with a path that matches it, so that failing "the next
//! requests" fails REST requests and not a live client's reconnection.

use std::sync::Arc;

use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::WebSocketUpgrade;
use axum::extract::{OriginalUri, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

use super::error::ApiError;
use crate::live;
use crate::state::AppState;

pub(super) async fn upgrade(
    State(state): State<Arc<AppState>>,
    uri: OriginalUri,
    upgrade: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Response {
    if let Some(status) = state.faults.take_named(uri.path()) {
        let status = StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        return ApiError::new(status, "injected fault").into_response();
    }
    match upgrade {
        Ok(upgrade) => {
            let seen = state.live.generations();
            upgrade.on_upgrade(move |socket| async move {
                live::serve(socket, state.live_parts(), seen).await
            })
        }
        Err(rejection) => ApiError::new(
            rejection.status(),
            format!("the live feed is a WebSocket: {}", rejection.body_text()),
        )
        .into_response(),
    }
}
