//! `POST /v2/authenticate` and the bearer check of every data endpoint.

use std::sync::Arc;

use axum::extract::rejection::JsonRejection;
use axum::extract::{FromRequestParts, State};
use axum::http::header::AUTHORIZATION;
use axum::http::request::Parts;
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};

use super::error::ApiError;
use crate::accounts::Licence;
use crate::state::AppState;

#[derive(Deserialize)]
pub(super) struct Login {
    email: String,
    password: String,
}

pub(super) async fn authenticate(
    State(state): State<Arc<AppState>>,
    body: Result<Json<Value>, JsonRejection>,
) -> Result<Json<Value>, ApiError> {
    let expected = "body must be a JSON object {\"email\", \"password\"}";
    let Json(body) = body.map_err(|e| ApiError::bad_request(format!("{expected}: {e}")))?;
    // serde would also read a struct from an array; the interface's body is an object.
    if !body.is_object() {
        return Err(ApiError::bad_request(expected));
    }
    let login: Login = serde_json::from_value(body)
        .map_err(|e| ApiError::bad_request(format!("{expected}: {e}")))?;
    let token = state
        .accounts
        .login(&login.email, &login.password, state.clock.now())
        .ok_or_else(|| ApiError::unauthorized("invalid email or password"))?;
    Ok(Json(json!({ "token": token })))
}

/// The account whose bearer token a request carries, or why there is none.
pub(super) fn bearer_account(parts: &Parts, state: &AppState) -> Result<String, String> {
    let header = parts
        .headers
        .get(AUTHORIZATION)
        .and_then(|h| h.to_str().ok())
        .ok_or("missing bearer token")?;
    let token = header
        .split_once(' ')
        .filter(|(scheme, _)| scheme.eq_ignore_ascii_case("bearer"))
        .map(|(_, token)| token.trim())
        .ok_or("Authorization must be 'Bearer <token>'")?;
    state
        .accounts
        .verify(token, state.clock.now())
        .map_err(|e| e.to_string())
}

/// The authenticated account of a request.
pub(super) struct Caller {
    pub licence: Licence,
}

impl FromRequestParts<Arc<AppState>> for Caller {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &Arc<AppState>,
    ) -> Result<Self, ApiError> {
        let email = bearer_account(parts, state).map_err(ApiError::unauthorized)?;
        Ok(Caller {
            licence: state.accounts.licence(&email),
        })
    }
}

#[cfg(test)]
#[path = "auth_tests.rs"]
mod tests;
