//! Bulk download for Python: functions over a `RestClient`, wrapped by
//! `marketcurves.BulkJob`, `Client.bulk_download` and `marketcurves.read_bulk`.

use std::path::PathBuf;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

use pyo3::prelude::*;

use super::client::{blocking_table, PyRestClient};
use super::errors::{client_error, invalid_request};
use super::runtime::wait_interruptibly;
use client::bulk::job::{self, JobState};
use client::bulk::read::{read_bulk as read_dataset, rows_in, Selection};
use client::bulk::run::{
    bulk_download as run_download, create_dest, plan_files, BulkOptions, BulkProgress,
};
use client::rest::validate;
use client::ClientError;
use domain::month::Month;

fn month(name: &str, text: &str) -> PyResult<Month> {
    Month::parse(text)
        .ok_or_else(|| invalid_request(format!("{name} must be a month as YYYY-MM, not {text:?}")))
}

fn months(start: &str, end: &str) -> PyResult<(Month, Month)> {
    let (first, last) = (month("start", start)?, month("end", end)?);
    if last < first {
        return Err(invalid_request(format!(
            "start {first} is after end {last}"
        )));
    }
    Ok((first, last))
}

fn seconds(name: &str, value: f64) -> PyResult<Duration> {
    Duration::try_from_secs_f64(value)
        .ok()
        .filter(|d| !d.is_zero())
        .ok_or_else(|| {
            invalid_request(format!(
                "{name} must be a number of seconds > 0, not {value}"
            ))
        })
}

type MonthRange = (String, String);

/// Submits a job: (job_id, requested range, effective range).
#[pyfunction]
pub fn bulk_submit(
    py: Python<'_>,
    client: &PyRestClient,
    vertical: String,
    start: String,
    end: String,
) -> PyResult<(String, MonthRange, MonthRange)> {
    let vertical = validate::vertical(&vertical).map_err(|e| client_error(py, e))?;
    let (first, last) = months(&start, &end)?;
    let inner = client.rest()?;
    let submitted = wait_interruptibly(
        py,
        async move { job::submit(inner.http(), vertical, first, last).await },
        |_| Ok(()),
    )?
    .map_err(|e| client_error(py, e))?;
    let range = |(a, b): (Month, Month)| (a.to_string(), b.to_string());
    Ok((
        submitted.job_id.clone(),
        range(submitted.requested),
        range(submitted.effective),
    ))
}

/// The job's state: RUNNING, SUCCEEDED, FAILED (or what the service said).
#[pyfunction]
pub fn bulk_status(py: Python<'_>, client: &PyRestClient, job_id: String) -> PyResult<String> {
    let inner = client.rest()?;
    let state = wait_interruptibly(
        py,
        async move { job::status(inner.http(), &job_id).await },
        |_| Ok(()),
    )?
    .map_err(|e| client_error(py, e))?;
    Ok(match state {
        JobState::Running => "RUNNING".into(),
        JobState::Succeeded(_) => "SUCCEEDED".into(),
        JobState::Failed => "FAILED".into(),
        JobState::Other(other) => other,
    })
}

/// Polls until the job ends; FAILED or the timeout raise BulkJobFailed.
#[pyfunction]
#[pyo3(signature = (client, job_id, poll_interval, timeout = None))]
pub fn bulk_wait(
    py: Python<'_>,
    client: &PyRestClient,
    job_id: String,
    poll_interval: f64,
    timeout: Option<f64>,
) -> PyResult<()> {
    let interval = seconds("poll_interval", poll_interval)?;
    let timeout = timeout.map(|t| seconds("timeout", t)).transpose()?;
    let inner = client.rest()?;
    let call = async move { job::wait(inner.http(), &job_id, interval, timeout, |_| {}).await };
    wait_interruptibly(py, call, |_| Ok(()))?.map_err(|e| client_error(py, e))?;
    Ok(())
}

/// Downloads the files of a SUCCEEDED job into `dest`: (files, bytes).
#[pyfunction]
#[pyo3(signature = (client, job_id, dest, progress = None))]
pub fn bulk_download_job(
    py: Python<'_>,
    client: &PyRestClient,
    job_id: String,
    dest: PathBuf,
    progress: Option<Py<PyAny>>,
) -> PyResult<(Vec<PathBuf>, u64, u64)> {
    let inner = client.rest()?;
    let counts = Arc::new(BulkProgress::default());
    let shared = Arc::clone(&counts);
    let call = async move {
        let files = match job::status(inner.http(), &job_id).await? {
            JobState::Succeeded(files) => files,
            other => {
                return Err(ClientError::BulkJobFailed(format!(
                    "bulk job {job_id} is {other:?}, not SUCCEEDED"
                )))
            }
        };
        create_dest(&dest).await?;
        let tasks = plan_files(&dest, &files)?;
        let options = BulkOptions::default();
        let round =
            client::bulk::run::download_round(inner.http(), &tasks, &options, &shared).await;
        let bytes = round?;
        let files: Vec<PathBuf> = tasks.into_iter().map(|t| t.target).collect();
        let rows = count_rows(files.clone()).await?;
        Ok((files, bytes, rows))
    };
    let report = bytes_reporter(progress, counts);
    wait_interruptibly(py, call, report)?.map_err(|e| client_error(py, e))
}

/// Rows of the files, from their Parquet footers.
async fn count_rows(files: Vec<PathBuf>) -> Result<u64, ClientError> {
    tokio::task::spawn_blocking(move || files.iter().map(|f| rows_in(f)).sum())
        .await
        .map_err(|e| ClientError::BulkJobFailed(e.to_string()))?
}

fn bytes_reporter(
    progress: Option<Py<PyAny>>,
    counts: Arc<BulkProgress>,
) -> impl FnMut(Python<'_>) -> PyResult<()> {
    move |py| {
        if let Some(callback) = &progress {
            let done = counts.bytes_done.load(Ordering::Relaxed);
            let total = counts.bytes_total.load(Ordering::Relaxed);
            let phase = counts.phase.load(Ordering::Relaxed);
            callback.call1(py, (phase, done, total))?;
        }
        Ok(())
    }
}

/// Submit, wait, download and verify, resubmitting FAILED jobs and re-running
/// the job when URLs expire. Returns (job_id, requested, effective, files,
/// bytes, rows, seconds, jobs).
#[pyfunction]
#[pyo3(signature = (client, vertical, start, end, dest, poll_interval = 2.0, timeout = 3600.0, progress = None))]
#[allow(clippy::too_many_arguments, clippy::type_complexity)]
pub fn bulk_download(
    py: Python<'_>,
    client: &PyRestClient,
    vertical: String,
    start: String,
    end: String,
    dest: PathBuf,
    poll_interval: f64,
    timeout: f64,
    progress: Option<Py<PyAny>>,
) -> PyResult<(
    String,
    MonthRange,
    MonthRange,
    Vec<PathBuf>,
    u64,
    u64,
    f64,
    u64,
)> {
    let vertical = validate::vertical(&vertical).map_err(|e| client_error(py, e))?;
    let (first, last) = months(&start, &end)?;
    let options = BulkOptions {
        poll_interval: seconds("poll_interval", poll_interval)?,
        wait_timeout: Some(seconds("timeout", timeout)?),
        ..BulkOptions::default()
    };
    let inner = client.rest()?;
    let counts = Arc::new(BulkProgress::default());
    let shared = Arc::clone(&counts);
    let call = async move {
        let outcome = run_download(
            inner.http(),
            vertical,
            first,
            last,
            &dest,
            &options,
            &shared,
        )
        .await?;
        let rows = count_rows(outcome.files.clone()).await?;
        Ok::<_, ClientError>((outcome, rows, shared.jobs.load(Ordering::Relaxed)))
    };
    let report = bytes_reporter(progress, counts);
    let (outcome, rows, jobs) =
        wait_interruptibly(py, call, report)?.map_err(|e| client_error(py, e))?;
    let range = |(a, b): (Month, Month)| (a.to_string(), b.to_string());
    Ok((
        outcome.submitted.job_id.clone(),
        range(outcome.submitted.requested),
        range(outcome.submitted.effective),
        outcome.files,
        outcome.bytes,
        rows,
        outcome.elapsed.as_secs_f64(),
        jobs,
    ))
}

/// Reads a downloaded dataset into a pyarrow Table.
#[pyfunction]
#[pyo3(signature = (dest, vertical = None, start = None, end = None, parse_json = false))]
pub fn read_bulk(
    py: Python<'_>,
    dest: PathBuf,
    vertical: Option<String>,
    start: Option<String>,
    end: Option<String>,
    parse_json: bool,
) -> PyResult<Py<PyAny>> {
    if !dest.is_dir() {
        return Err(invalid_request(format!(
            "dest {} is not a folder",
            dest.display()
        )));
    }
    let vertical = vertical
        .map(|v| validate::vertical(&v).map(|v| v.name.to_owned()))
        .transpose()
        .map_err(|e| client_error(py, e))?;
    let start = start.map(|s| month("start", &s)).transpose()?;
    let end = end.map(|s| month("end", &s)).transpose()?;
    if let (Some(first), Some(last)) = (start, end) {
        if last < first {
            return Err(invalid_request(format!(
                "start {first} is after end {last}"
            )));
        }
    }
    let selection = Selection {
        vertical,
        start,
        end,
        parse_json,
    };
    blocking_table(py, None, Arc::default(), async move {
        read_dataset(dest, selection).await
    })
}
