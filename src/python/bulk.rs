//! Bulk download for Python: functions over a `RestClient`, wrapped by
//! `marketcurves.BulkJob`, `Client.bulk_download` and `marketcurves.read_bulk`,
//! each returning a `Call` that their blocking and awaitable forms run.
//! The arguments' values are checked by the core before the client is
//! looked at, so bad input is refused even by a closed client.

use std::collections::BTreeMap;

use std::sync::Arc;

use pyo3::prelude::*;

use super::bulk_result::{PyBulkResult, PySubmittedJob};
use super::call::PyCall;
use super::client::PyCoreClient;
use super::errors::CoreResult;
use super::place_arg::PlaceArg;
use history::bulk::job::{self, JobRequest};
use history::bulk::options::{BulkOptions, BulkProgress};
use history::bulk::read::Selection;
use history::bulk::read_store::read_bulk_at;
use history::bulk::run::{self, BulkRequest};

/// Submits a job.
#[pyfunction]
pub(crate) fn bulk_submit(
    client: &PyCoreClient,
    vertical: &str,
    start: &str,
    end: &str,
) -> CoreResult<PyCall> {
    let request = JobRequest::new(vertical, start, end)?;
    let rest = client.rest()?;
    let call = async move { job::submit(rest.http(), &request).await };
    Ok(PyCall::client(call, |_, job| Ok(PySubmittedJob(job))))
}

/// The job's state: RUNNING, SUCCEEDED, FAILED (or what the service said).
#[pyfunction]
pub(crate) fn bulk_status(client: &PyCoreClient, job_id: String) -> CoreResult<PyCall> {
    let rest = client.rest()?;
    let call = async move { job::status(rest.http(), &job_id).await };
    Ok(PyCall::client(call, |_, state| Ok(state.name().to_owned())))
}

/// Polls until the job ends; FAILED or the timeout raise BulkJobFailed.
#[pyfunction]
#[pyo3(signature = (client, job_id, poll_interval, timeout))]
pub(crate) fn bulk_wait(
    client: &PyCoreClient,
    job_id: String,
    poll_interval: f64,
    timeout: Option<f64>,
) -> CoreResult<PyCall> {
    let options = BulkOptions::waiting(poll_interval, timeout)?;
    let rest = client.rest()?;
    let call = async move {
        let (interval, limit) = (options.poll_interval, options.wait_timeout);
        job::wait(rest.http(), &job_id, interval, limit, |_| {}).await
    };
    // The URLs stay inside: they are credentials.
    Ok(PyCall::client(call, |py, _urls| Ok(py.None())))
}

/// Waits for a submitted job, then downloads its files into `dest`;
/// progress is `(phase, bytes done, bytes in all)`.
#[pyfunction]
#[pyo3(signature = (client, job, dest, storage_options = None))]
pub(crate) fn bulk_download_job(
    client: &PyCoreClient,
    job: &PySubmittedJob,
    dest: PlaceArg,
    storage_options: Option<BTreeMap<String, String>>,
) -> CoreResult<PyCall> {
    let options: Vec<(String, String)> = storage_options.unwrap_or_default().into_iter().collect();
    let dest = dest.into_place_to_write("dest", &options)?;
    let job = job.0.clone();
    let rest = client.rest()?;
    let counts = Arc::new(BulkProgress::default());
    let shared = Arc::clone(&counts);
    let call = async move {
        let options = BulkOptions::default();
        run::download_job(rest.http(), &job, &dest, &options, &shared).await
    };
    Ok(PyCall::client(call, |_, result| Ok(PyBulkResult(result)))
        .reporting(move || counts.snapshot()))
}

/// A bulk download's options as one value: the dict `marketcurves.bulk`
/// builds (`BulkDownloadOptions` in `_options.py`), its types checked in
/// Python.
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
pub(crate) struct BulkDownloadOptions {
    vertical: String,
    start: String,
    end: String,
    dest: PlaceArg,
    poll_interval: f64,
    timeout: f64,
    storage_options: Option<BTreeMap<String, String>>,
}

/// Submit, wait, download and verify, resubmitting FAILED jobs and running
/// the job again when URLs expire; progress as for [`bulk_download_job`].
#[pyfunction]
pub(crate) fn bulk_download(
    client: &PyCoreClient,
    options: BulkDownloadOptions,
) -> CoreResult<PyCall> {
    let BulkDownloadOptions {
        vertical,
        start,
        end,
        dest,
        poll_interval,
        timeout,
        storage_options,
    } = options;
    let options: Vec<(String, String)> = storage_options.unwrap_or_default().into_iter().collect();
    let request = BulkRequest::to(
        &vertical,
        &start,
        &end,
        dest.into_place_to_write("dest", &options)?,
    )?;
    let options = BulkOptions::waiting(poll_interval, Some(timeout))?;
    let rest = client.rest()?;
    let counts = Arc::new(BulkProgress::default());
    let shared = Arc::clone(&counts);
    let call = async move { run::download(rest.http(), &request, &options, &shared).await };
    Ok(PyCall::client(call, |_, result| Ok(PyBulkResult(result)))
        .reporting(move || counts.snapshot()))
}

/// Reads a downloaded dataset into a pyarrow Table. Its records carry no
/// curve column (a record's `id` is its own), so it names no curve.
#[pyfunction]
#[pyo3(signature = (dest, vertical = None, start = None, end = None, parse_json = false, storage_options = None))]
pub(crate) fn read_bulk(
    dest: PlaceArg,
    vertical: Option<&str>,
    start: Option<&str>,
    end: Option<&str>,
    parse_json: bool,
    storage_options: Option<BTreeMap<String, String>>,
) -> CoreResult<PyCall> {
    let selection = Selection::new(vertical, start, end, parse_json)?;
    let options: Vec<(String, String)> = storage_options.unwrap_or_default().into_iter().collect();
    let place = dest.into_place("dest", &options)?;
    Ok(PyCall::table(read_bulk_at(place, selection)))
}
