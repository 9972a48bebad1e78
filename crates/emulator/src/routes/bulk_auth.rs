//! The bearer check of the bulk endpoints, which answer 403 (not 401) for a
//! missing, invalid or expired token, as the interface says.

use std::sync::Arc;

use axum::extract::FromRequestParts;
use axum::http::request::Parts;

use super::auth::bearer_account;
use super::error::ApiError;
use crate::accounts::Licence;
use crate::state::AppState;

/// The authenticated account of a bulk request.
pub(super) struct BulkCaller {
    pub email: String,
    pub licence: Licence,
}

impl FromRequestParts<Arc<AppState>> for BulkCaller {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &Arc<AppState>,
    ) -> Result<Self, ApiError> {
        let email = bearer_account(parts, state).map_err(ApiError::forbidden)?;
        Ok(BulkCaller {
            licence: state.accounts.licence(&email),
            email,
        })
    }
}
