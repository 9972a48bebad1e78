//! `POST /v2/bulk-download/job-submit` and `GET /v2/bulk-download/job-status/<job_id>`.

use std::sync::Arc;

use axum::extract::rejection::PathRejection;
use axum::extract::{Path, RawQuery, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use serde::Serialize;

use super::building::{job_sizes, PATIENCE};
use super::bulk_auth::BulkCaller;
use super::error::ApiError;
use super::files::FILES_PREFIX;
use super::query::{json_response, request_host, Params};
use crate::bulk::jobs::{effective_range, Job, JobRequest, JobStatus};
use crate::state::AppState;
use domain::month::Month;
use domain::vocabulary::{Vertical, VERTICALS};

#[derive(Serialize)]
struct SubmissionOut {
    job_id: String,
    date_range: DateRangeOut,
}

#[derive(Serialize)]
struct DateRangeOut {
    effective_start: String,
    effective_end: String,
}

#[derive(Serialize)]
struct StatusOut {
    status: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    presigned_urls: Option<Vec<PresignedUrlOut>>,
}

impl StatusOut {
    fn bare(status: JobStatus) -> StatusOut {
        StatusOut {
            status: status.as_str(),
            presigned_urls: None,
        }
    }
}

#[derive(Serialize)]
struct PresignedUrlOut {
    url: String,
    path: String,
    size: u64,
}

fn month_param(params: &Params, name: &str) -> Result<Month, ApiError> {
    let value = params
        .get(name)
        .ok_or_else(|| ApiError::bad_request(format!("{name} is required (YYYY-MM)")))?;
    Month::parse(value).ok_or_else(|| {
        ApiError::bad_request(format!("{name} must be a month as YYYY-MM, not {value:?}"))
    })
}

/// Only the interface's bulk spellings: `JET`, `FUEL_OIL`, ...
fn vertical_param(params: &Params) -> Result<&'static Vertical, ApiError> {
    let spellings: Vec<&str> = VERTICALS.iter().map(|v| v.bulk_name).collect();
    let value = params.get("vertical").ok_or_else(|| {
        ApiError::bad_request(format!(
            "vertical is required, one of {}",
            spellings.join(", ")
        ))
    })?;
    VERTICALS
        .iter()
        .find(|v| v.bulk_name == value)
        .ok_or_else(|| {
            ApiError::bad_request(format!(
                "unknown vertical {value:?}; expected one of {}",
                spellings.join(", ")
            ))
        })
}

pub(super) async fn submit(
    State(state): State<Arc<AppState>>,
    caller: BulkCaller,
    query: RawQuery,
) -> Result<Response, ApiError> {
    let params = Params::from(query);
    let start = month_param(&params, "startDate")?;
    let end = month_param(&params, "endDate")?;
    let vertical = vertical_param(&params)?;
    if end < start {
        return Err(ApiError::bad_request(format!(
            "endDate {end} is before startDate {start}"
        )));
    }
    if caller.licence.revoked {
        return Err(ApiError::forbidden("your licence is revoked"));
    }
    let now = state.clock.now();
    let (first, last) =
        effective_range(start, end, caller.licence.bulk_start, now).ok_or_else(|| {
            let from = caller
                .licence
                .bulk_start
                .map_or(String::new(), |m| format!(" from {m}"));
            ApiError::bad_request(format!(
                "nothing to export: {start} to {end} has no complete month \
                 in your licence{from} before {}",
                Month::at(now)
            ))
        })?;
    let job = state.bulk.jobs.submit(JobRequest {
        owner: caller.email,
        vertical,
        first,
        last,
        requested_months: Month::count(start, end),
        denied: caller.licence.denied_quotations,
        curves: state.world().curves.len(),
        submitted_at: now,
        fails: state.faults.take_job_failure(),
        malicious: state.faults.malicious_paths(),
    });
    let mut response = json_response(&SubmissionOut {
        job_id: job.id.clone(),
        date_range: DateRangeOut {
            effective_start: first.to_string(),
            effective_end: last.to_string(),
        },
    });
    *response.status_mut() = StatusCode::ACCEPTED;
    Ok(response)
}

pub(super) async fn status(
    State(state): State<Arc<AppState>>,
    caller: BulkCaller,
    path: Result<Path<String>, PathRejection>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let Path(id) = path.map_err(|e| ApiError::bad_request(format!("bad path: {e}")))?;
    let job = state
        .bulk
        .jobs
        .get(&id, &caller.email)
        .ok_or_else(|| ApiError::not_found(format!("unknown job id {id:?}")))?;
    let out = match job.status(state.clock.now()) {
        JobStatus::Running => StatusOut::bare(JobStatus::Running),
        JobStatus::Failed => StatusOut::bare(JobStatus::Failed),
        JobStatus::Succeeded => match job_sizes(&state, &job, PATIENCE).await {
            Some(Ok(sizes)) => StatusOut {
                status: JobStatus::Succeeded.as_str(),
                presigned_urls: Some(listing(&state, &job, &sizes, &headers)),
            },
            Some(Err(error)) => {
                return Err(ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, error));
            }
            // Its files are still being built: seen from outside, it still runs.
            None => StatusOut::bare(JobStatus::Running),
        },
    };
    Ok(json_response(&out))
}

/// The files of a job that succeeded, with their sizes and pre-signed URLs.
fn listing(
    state: &AppState,
    job: &Job,
    sizes: &[u64],
    headers: &HeaderMap,
) -> Vec<PresignedUrlOut> {
    let host = request_host(headers);
    let expires = job.urls_expire();
    job.files()
        .into_iter()
        .map(|file| {
            let index = Month::count(job.first, file.month) as usize - 1;
            let path = format!("{FILES_PREFIX}/{}/{}", job.id, file.name);
            let signature = state.bulk.signer.sign(&path, expires);
            PresignedUrlOut {
                url: format!("http://{host}{path}?X-Expires={expires}&X-Signature={signature}"),
                path: file.path,
                size: sizes[index],
            }
        })
        .collect()
}

#[cfg(test)]
#[path = "bulk_tests.rs"]
mod tests;
