//! The bulk results with named fields, read-only: `marketcurves.BulkResult`
//! and the submitted job that `marketcurves.BulkJob` wraps.

use pyo3::prelude::*;
use pyo3::types::PyTuple;

use domain::month::Month;
use history::bulk::job::Submitted;
use history::bulk::run::BulkResult;

fn month_range((first, last): (Month, Month)) -> (String, String) {
    (first.to_string(), last.to_string())
}

/// A submitted bulk job: its id and month ranges, without its URLs.
#[pyclass(frozen, eq, hash, name = "SubmittedJob", module = "marketcurves._core")]
#[derive(PartialEq, Eq, Hash)]
pub struct PySubmittedJob(pub Submitted);

#[pymethods]
impl PySubmittedJob {
    #[getter]
    fn job_id(&self) -> &str {
        &self.0.job_id
    }

    #[getter]
    fn requested(&self) -> (String, String) {
        month_range(self.0.requested)
    }

    /// The range the service granted: the request narrowed to the account's permissions.
    #[getter]
    fn effective(&self) -> (String, String) {
        month_range(self.0.effective)
    }

    #[getter]
    fn narrowed(&self) -> bool {
        self.0.narrowed()
    }

    fn __repr__(&self) -> String {
        let (first, last) = self.0.effective;
        format!(
            "SubmittedJob({:?}, effective={first}..{last})",
            self.0.job_id
        )
    }
}

/// What a bulk download produced.
#[pyclass(frozen, eq, hash, name = "BulkResult", module = "marketcurves")]
#[derive(PartialEq, Eq, Hash)]
pub struct PyBulkResult(pub BulkResult);

#[pymethods]
impl PyBulkResult {
    #[getter]
    fn job_id(&self) -> &str {
        &self.0.job.job_id
    }

    #[getter]
    fn files<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, &self.0.files)
    }

    #[getter]
    fn objects<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, &self.0.objects)
    }

    /// Bytes transferred by this run; files already complete are not fetched again.
    #[getter]
    fn bytes(&self) -> u64 {
        self.0.bytes
    }

    /// Rows in all the files, from their Parquet footers.
    #[getter]
    fn rows(&self) -> u64 {
        self.0.rows
    }

    #[getter]
    fn requested(&self) -> (String, String) {
        month_range(self.0.job.requested)
    }

    #[getter]
    fn effective(&self) -> (String, String) {
        month_range(self.0.job.effective)
    }

    /// Seconds from the start to the last byte.
    #[getter]
    fn elapsed(&self) -> f64 {
        self.0.elapsed.as_secs_f64()
    }

    /// Jobs submitted, counting resubmissions after FAILED or expired URLs.
    #[getter]
    fn jobs(&self) -> u64 {
        self.0.jobs
    }

    /// Whether the service narrowed the requested range.
    #[getter]
    fn narrowed(&self) -> bool {
        self.0.job.narrowed()
    }

    /// Months of the effective range (`YYYY-MM`) for which the job listed no file.
    #[getter]
    fn months_without_files(&self) -> Vec<String> {
        self.0
            .months_without_files
            .iter()
            .map(|m| m.to_string())
            .collect()
    }

    fn _repr_html_(&self, py: Python<'_>) -> PyResult<String> {
        use super::html::{facts, number, span, value};
        // Written to a folder, or else to an object store.
        let destination = if self.0.files.is_empty() {
            self.objects(py)?
        } else {
            self.files(py)?
        };
        let count = destination.len() as u64;
        let mut rows = vec![
            ("files", number(py, count)?),
            ("rows", number(py, self.0.rows)?),
            ("bytes downloaded", number(py, self.0.bytes)?),
            ("months requested", span(py, self.requested())?),
            ("months granted", span(py, self.effective())?),
            (
                "narrowed",
                value(py, if self.narrowed() { "yes" } else { "no" })?,
            ),
            ("elapsed", value(py, format!("{:.1} s", self.elapsed()))?),
            ("jobs submitted", value(py, self.0.jobs)?),
        ];
        if count > 0 {
            rows.push(("first file", destination.get_item(0)?));
        }
        facts(py, &format!("Bulk download {}", self.job_id()), rows)
    }

    fn __repr__(&self) -> String {
        let (first, last) = self.0.job.effective;
        format!(
            "BulkResult(job_id={:?}, files={}, rows={}, bytes={}, effective={first}..{last}, \
             elapsed={:.1}, jobs={})",
            self.0.job.job_id,
            self.0.files.len() + self.0.objects.len(),
            self.0.rows,
            self.0.bytes,
            self.0.elapsed.as_secs_f64(),
            self.0.jobs
        )
    }
}
