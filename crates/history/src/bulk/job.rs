//! Bulk jobs: submit, read the status, wait until the job ends.

use std::time::{Duration, Instant};

use reqwest::Method;

use super::args;
use crate::rest::http::{Forbidden, Http};
use crate::rest::validate;
use domain::decode::decode_json;
use domain::month::Month;
use domain::records::{BulkStatus, BulkSubmission, PresignedUrl};
use domain::vocabulary::Vertical;
use places::ClientError;

const SUBMIT: &str = "POST /bulk-download/job-submit";
const STATUS: &str = "GET /bulk-download/job-status/<job_id>";

/// What a job is asked for, checked before anything is sent: a vertical and
/// whole months.
#[derive(Clone, Copy, Debug)]
pub struct JobRequest {
    pub vertical: &'static Vertical,
    pub start: Month,
    pub end: Month,
}

impl JobRequest {
    /// A vertical in any spelling (`Jet`, `JET`) and months written `YYYY-MM`.
    pub fn new(vertical: &str, start: &str, end: &str) -> Result<JobRequest, ClientError> {
        let vertical = validate::vertical(vertical)?;
        let (start, end) = args::month_range(start, end)?;
        Ok(JobRequest {
            vertical,
            start,
            end,
        })
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Submitted {
    pub job_id: String,
    pub requested: (Month, Month),
    pub effective: (Month, Month),
}

impl Submitted {
    /// Whether the service narrowed the range (to the account's permissions).
    pub fn narrowed(&self) -> bool {
        self.requested != self.effective
    }
}

#[derive(Clone, Debug)]
pub enum JobState {
    Running,
    Succeeded(Vec<PresignedUrl>),
    Failed,
    /// A state the interface does not list, kept as the service wrote it.
    Other(String),
}

impl JobState {
    /// The state as the interface writes it.
    pub fn name(&self) -> &str {
        match self {
            JobState::Running => "RUNNING",
            JobState::Succeeded(_) => "SUCCEEDED",
            JobState::Failed => "FAILED",
            JobState::Other(other) => other,
        }
    }
}

fn missing(endpoint: &str, field: &str) -> ClientError {
    ClientError::Decode(domain::decode::DecodeError {
        endpoint: endpoint.to_owned(),
        field: field.to_owned(),
        reason: "missing, null or not YYYY-MM".to_owned(),
    })
}

pub async fn submit(http: &Http, request: &JobRequest) -> Result<Submitted, ClientError> {
    let JobRequest {
        vertical,
        start,
        end,
    } = *request;
    let query = [
        ("startDate", start.to_string()),
        ("endDate", end.to_string()),
        ("vertical", vertical.bulk_name.to_owned()),
    ];
    let path = "/bulk-download/job-submit";
    let body = http
        .call(Method::POST, SUBMIT, path, &query, Forbidden::BadToken)
        .await?;
    let answer: BulkSubmission = decode_json(SUBMIT, &body)?;
    let job_id = answer
        .job_id
        .filter(|id| !id.is_empty())
        .ok_or_else(|| missing(SUBMIT, "job_id"))?;
    let range = answer.date_range.unwrap_or_default();
    let month = |value: Option<String>, field| {
        value
            .as_deref()
            .and_then(Month::parse)
            .ok_or_else(|| missing(SUBMIT, field))
    };
    let effective = (
        month(range.effective_start, "date_range.effective_start")?,
        month(range.effective_end, "date_range.effective_end")?,
    );
    Ok(Submitted {
        job_id,
        requested: (start, end),
        effective,
    })
}

pub async fn status(http: &Http, job_id: &str) -> Result<JobState, ClientError> {
    let path = format!(
        "/bulk-download/job-status/{}",
        crate::rest::paths::encoded(job_id)
    );
    let body = http
        .call(Method::GET, STATUS, &path, &[], Forbidden::BadToken)
        .await?;
    let answer: BulkStatus = decode_json(STATUS, &body)?;
    Ok(match answer.status.as_deref() {
        Some("RUNNING") => JobState::Running,
        Some("SUCCEEDED") => JobState::Succeeded(answer.presigned_urls.unwrap_or_default()),
        Some("FAILED") => JobState::Failed,
        Some(other) => JobState::Other(other.to_owned()),
        None => return Err(missing(STATUS, "status")),
    })
}

/// Polls until the job is no longer RUNNING, starting every `poll_interval`
/// and backing off to ten times that. FAILED and a timeout are errors.
pub async fn wait(
    http: &Http,
    job_id: &str,
    poll_interval: Duration,
    timeout: Option<Duration>,
    mut on_poll: impl FnMut(&JobState),
) -> Result<Vec<PresignedUrl>, ClientError> {
    let started = Instant::now();
    let mut interval = poll_interval;
    loop {
        let state = status(http, job_id).await?;
        on_poll(&state);
        match state {
            JobState::Succeeded(files) => return Ok(files),
            JobState::Failed => {
                return Err(ClientError::BulkJobFailed {
                    job_id: Some(job_id.to_owned()),
                    reason: "ended FAILED (a processing error on the service side)".into(),
                    advice: None,
                    url: None,
                })
            }
            JobState::Running | JobState::Other(_) => {}
        }
        if timeout.is_some_and(|limit| started.elapsed() + interval > limit) {
            return Err(ClientError::BulkJobFailed {
                job_id: Some(job_id.to_owned()),
                reason: format!(
                    "still running after {:.0} s",
                    started.elapsed().as_secs_f64()
                ),
                advice: None,
                url: None,
            });
        }
        // Guarded, so that closing the client does not wait out a poll interval.
        let pause = async {
            tokio::time::sleep(interval).await;
            Ok(())
        };
        http.closing().guard(pause).await?;
        interval = (interval.mul_f64(1.5)).min(poll_interval * 10);
    }
}
