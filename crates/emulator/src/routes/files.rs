//! The pre-signed download URLs of bulk files:
//! `GET /files/<job_id>/<name>.parquet?X-Expires=<unix>&X-Signature=<hex>`.
//! They sit outside `/v2`, like a storage bucket, and take no bearer token:
//! the signature is the authority, until the URL expires. As a storage
//! service does, a request that carries an `Authorization` header besides
//! the signature is refused (400): a client that sends its token there fails.
//! As a storage service does, each file carries a strong `ETag` (a digest
//! of its bytes), and a `Range` is honoured only if an `If-Range` sent with
//! it names the file's present version (RFC 9110 §13.1.5): a file that
//! changed since a download began is sent whole again.

use std::sync::Arc;

use axum::body::Body;
use axum::extract::rejection::PathRejection;
use axum::extract::{OriginalUri, Path, RawQuery, State};
use axum::http::header::{
    ACCEPT_RANGES, AUTHORIZATION, CONTENT_LENGTH, CONTENT_RANGE, CONTENT_TYPE, ETAG, IF_RANGE,
    RANGE,
};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use bytes::Bytes;

use super::building::file_bytes;
use super::error::ApiError;
use super::faults::cut_short;
use super::query::Params;
use super::range::{byte_range, ByteRange};
use crate::state::AppState;

pub(super) const FILES_PREFIX: &str = "/files";

fn expired() -> ApiError {
    ApiError::forbidden("the URL has expired; run the job again for new URLs")
}

pub(super) async fn download(
    State(state): State<Arc<AppState>>,
    path: Result<Path<(String, String)>, PathRejection>,
    uri: OriginalUri,
    query: RawQuery,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let Path((job_id, name)) = path.map_err(|e| ApiError::not_found(format!("bad path: {e}")))?;
    if headers.contains_key(AUTHORIZATION) {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            "only one authorization mechanism is allowed: the URL is signed, send no Authorization header",
        ));
    }
    let params = Params::from(query);
    let expires = params
        .get("X-Expires")
        .and_then(|v| v.parse::<i64>().ok())
        .ok_or_else(|| ApiError::forbidden("X-Expires is missing or not a Unix time"))?;
    let signature = params
        .get("X-Signature")
        .ok_or_else(|| ApiError::forbidden("X-Signature is missing"))?;
    if !state.bulk.signer.verify(uri.0.path(), expires, signature) {
        return Err(ApiError::forbidden("the signature does not match the URL"));
    }
    if state.clock.now().div_euclid(1_000_000) >= expires {
        return Err(expired());
    }
    let job = state.bulk.jobs.find(&job_id);
    let (job, file) = job
        .and_then(|job| job.file(&name).map(|file| (job, file)))
        .ok_or_else(|| ApiError::not_found(format!("no file {name:?} in job {job_id:?}")))?;
    if job.urls_expired() {
        return Err(expired());
    }
    let bytes = file_bytes(&state, &job.key(file.month))
        .await
        .map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e))?;
    let etag = etag_of(&bytes);
    let range = headers.get(RANGE).and_then(|h| h.to_str().ok());
    // An `If-Range` naming another version (or a date: this service dates
    // nothing) asks for the whole file.
    let range = match headers.get(IF_RANGE) {
        Some(wanted) if wanted.as_bytes() != etag.as_bytes() => None,
        _ => range,
    };
    let mut response = ranged(bytes, range);
    if response.status().is_success() {
        let value = HeaderValue::from_str(&etag).expect("hex");
        response.headers_mut().insert(ETAG, value);
    }
    // Only a body of the file is cut short; a 416 is not a download.
    if response.status().is_success() && state.faults.take_truncation() {
        return Ok(cut_short(response).await);
    }
    Ok(response)
}

/// A strong entity tag of the file's bytes: a digest, as storage services
/// give for files uploaded whole.
fn etag_of(bytes: &[u8]) -> String {
    use sha2::{Digest, Sha256};
    let digest = Sha256::digest(bytes);
    let hex: String = digest[..16].iter().map(|b| format!("{b:02x}")).collect();
    format!("\"{hex}\"")
}

/// The whole file (200), the part a `Range` header asks for (206), or 416.
fn ranged(bytes: Bytes, range: Option<&str>) -> Response {
    let len = bytes.len() as u64;
    let (status, body, content_range) = match byte_range(range, len) {
        ByteRange::Whole => (StatusCode::OK, bytes, None),
        ByteRange::Part { first, last } => (
            StatusCode::PARTIAL_CONTENT,
            bytes.slice(first as usize..=last as usize),
            Some(format!("bytes {first}-{last}/{len}")),
        ),
        ByteRange::Unsatisfiable => {
            let mut response = ApiError::new(
                StatusCode::RANGE_NOT_SATISFIABLE,
                format!("the range {range:?} starts past the end of the {len}-byte file"),
            )
            .into_response();
            let unsatisfied = HeaderValue::from_str(&format!("bytes */{len}")).expect("ascii");
            response.headers_mut().insert(CONTENT_RANGE, unsatisfied);
            return response;
        }
    };
    let mut response = Response::new(Body::from(body.clone()));
    *response.status_mut() = status;
    let headers = response.headers_mut();
    headers.insert(
        CONTENT_TYPE,
        HeaderValue::from_static("application/octet-stream"),
    );
    headers.insert(ACCEPT_RANGES, HeaderValue::from_static("bytes"));
    headers.insert(CONTENT_LENGTH, HeaderValue::from(body.len()));
    if let Some(content_range) = content_range {
        let value = HeaderValue::from_str(&content_range).expect("ascii");
        headers.insert(CONTENT_RANGE, value);
    }
    response
}

#[cfg(test)]
#[path = "files_tests.rs"]
mod tests;
