//! The HTTP face of the emulator: every REST endpoint of the interface under
//! `/v2`, with the design's choices for status codes and error bodies, and the
//! pre-signed bulk file URLs under `/files`, and the live feed's upgrade.

mod auth;
mod building;
mod bulk;
mod bulk_auth;
mod catalogue;
mod counter;
mod data;
mod date;
mod error;
mod faults;
mod files;
mod live;
mod paging;
mod query;
mod range;

use std::sync::Arc;

use axum::http::StatusCode;
use axum::routing::{get, post};
use axum::{middleware, Router};

use super::live::LIVE_PATH;
use crate::state::AppState;
use error::ApiError;

pub(crate) fn router(state: Arc<AppState>) -> Router {
    let v2 = Router::new()
        .route("/authenticate", post(auth::authenticate))
        .route("/catalogue", get(catalogue::list))
        .route(
            "/historical/settlements/{curve_id}/{tenor}",
            get(data::historical_settlements),
        )
        .route(
            "/historical/intraday/{curve_id}/{tenor}",
            get(data::historical_intraday),
        )
        .route(
            "/ongoing/last-settlement/{curve_id}",
            get(data::last_settlement_all),
        )
        .route(
            "/ongoing/last-settlement/{curve_id}/{tenor}",
            get(data::last_settlement),
        )
        .route(
            "/ongoing/last-assessments/{curve_id}",
            get(data::last_assessments_all),
        )
        .route(
            "/ongoing/last-assessments/{curve_id}/{tenor}",
            get(data::last_assessments),
        )
        .route(
            "/ongoing/intraday/{curve_id}/{tenor}",
            get(data::ongoing_intraday),
        )
        .route("/bulk-download/job-submit", post(bulk::submit))
        .route("/bulk-download/job-status/{job_id}", get(bulk::status));
    Router::new()
        .nest("/v2", v2)
        .route(
            &format!("{}/{{job_id}}/{{file}}", files::FILES_PREFIX),
            get(files::download),
        )
        .fallback(|| async { ApiError::not_found("no such endpoint") })
        .method_not_allowed_fallback(|| async {
            ApiError::new(
                StatusCode::METHOD_NOT_ALLOWED,
                "method not allowed on this endpoint",
            )
        })
        .layer(middleware::from_fn_with_state(
            Arc::clone(&state),
            faults::inject,
        ))
        // Outside the faults, to count the requests they fail or spoil.
        .layer(middleware::from_fn_with_state(
            Arc::clone(&state),
            counter::count,
        ))
        // After the fault and counting layers, which are for REST: see
        // `live::upgrade`.
        .route(LIVE_PATH, get(live::upgrade))
        // Outermost, so that every response is dated, faults' included.
        .layer(middleware::from_fn_with_state(
            Arc::clone(&state),
            date::stamp,
        ))
        .with_state(state)
}

#[cfg(test)]
mod test_app;
#[cfg(test)]
mod tests;
