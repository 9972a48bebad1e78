//! Query strings: parsed once, each parameter checked with a message that
//! names it.

use axum::extract::{OriginalUri, RawQuery};
use axum::http::header::{CONTENT_TYPE, HOST};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use chrono::NaiveDate;
use serde::Serialize;

use super::error::ApiError;

/// The decoded parameters of a request, in order.
pub(super) struct Params(pub Vec<(String, String)>);

impl Params {
    pub(super) fn from(query: RawQuery) -> Params {
        let raw = query.0.unwrap_or_default();
        Params(
            form_urlencoded::parse(raw.as_bytes())
                .into_owned()
                .collect(),
        )
    }

    pub(super) fn get(&self, name: &str) -> Option<&str> {
        self.0
            .iter()
            .rev()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// A `YYYY-MM-DD` date that must be present.
    pub(super) fn required_date(&self, name: &str) -> Result<NaiveDate, ApiError> {
        let value = self
            .get(name)
            .ok_or_else(|| ApiError::bad_request(format!("{name} is required (YYYY-MM-DD)")))?;
        NaiveDate::parse_from_str(value, "%Y-%m-%d").map_err(|_| {
            ApiError::bad_request(format!(
                "{name} must be a date as YYYY-MM-DD, not {value:?}"
            ))
        })
    }

    /// A positive integer up to `max`, or `default` when absent.
    pub(super) fn positive(
        &self,
        name: &str,
        default: usize,
        max: usize,
    ) -> Result<usize, ApiError> {
        let Some(value) = self.get(name) else {
            return Ok(default);
        };
        match value.parse::<usize>() {
            Ok(n) if (1..=max).contains(&n) => Ok(n),
            _ => Err(ApiError::bad_request(format!(
                "{name} must be an integer from 1 to {max}, not {value:?}"
            ))),
        }
    }

    /// Both dates, checked to be in order.
    pub(super) fn date_range(&self) -> Result<(NaiveDate, NaiveDate), ApiError> {
        let start = self.required_date("startDate")?;
        let end = self.required_date("endDate")?;
        if end < start {
            return Err(ApiError::bad_request(format!(
                "endDate {end} is before startDate {start}"
            )));
        }
        Ok((start, end))
    }
}

/// A 200 response with `value` as its JSON body.
pub(super) fn json_response<T: Serialize>(value: &T) -> Response {
    // A page of a hundred records is about 56 kB: starting from serde_json's
    // 128 bytes, it was copied nine times as it grew.
    let mut body = Vec::with_capacity(64 * 1024);
    match serde_json::to_writer(&mut body, value) {
        Ok(()) => ([(CONTENT_TYPE, "application/json")], body).into_response(),
        Err(e) => ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()).into_response(),
    }
}

/// The path of the request as it was sent (still percent-encoded), with `/v2`.
pub(super) fn raw_path(uri: &OriginalUri) -> &str {
    uri.0.path()
}

/// The host (and port) the request was sent to, for absolute links back.
pub(super) fn request_host(headers: &HeaderMap) -> &str {
    headers
        .get(HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or("127.0.0.1")
}
