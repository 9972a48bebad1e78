//! `Client.backfill` (blocking and awaitable), and its two halves for a
//! cluster: the plan, made where the client is, and one task, run on a
//! worker with a client of its own (`marketcurves._backfill`).

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use chrono::NaiveDate;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use super::call::PyCall;
use super::client::PyCoreClient;
use super::errors::CoreResult;
use super::place_arg::PlaceArg;
use super::results;
use super::runtime::wait_interruptibly;
use history::rest::{Budget, Progress};
use lake::backfill::{plan, run_all, run_task, BackfillRequest, BackfillSummary, BackfillTask};
use lake::record::lock::{Writer, WriterLock};
use places::storage::Place;
use places::ClientError;

/// A backfill's arguments as one value: the dict `marketcurves.client`
/// builds (`BackfillOptions` in `_options.py`), its types checked in Python.
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
pub(crate) struct BackfillOptions {
    dest: PlaceArg,
    storage_options: Option<BTreeMap<String, String>>,
    subscriptions: Vec<(String, String)>,
    start: NaiveDate,
    end: NaiveDate,
    tenors: String,
    /// Absent from a dict made before budgets: no budget.
    #[pyo3(default)]
    max_requests: Option<u64>,
}

impl BackfillOptions {
    /// The place and the request, checked before anything is sent.
    fn request(self) -> CoreResult<(Place, BackfillRequest)> {
        let request =
            BackfillRequest::new(&self.subscriptions, self.start, self.end, &self.tenors)?
                .with_budget(Budget(self.max_requests));
        let place = self
            .dest
            .into_place_to_write("dest", &options(self.storage_options))?;
        Ok((place, request))
    }
}

/// A task as Python holds it: `marketcurves._backfill.Task`, a dict.
#[derive(FromPyObject, IntoPyObject)]
#[pyo3(from_item_all)]
pub struct TaskArg {
    curve_id: String,
    tenors: Vec<String>,
    start: NaiveDate,
    end: NaiveDate,
}

impl From<TaskArg> for BackfillTask {
    fn from(task: TaskArg) -> BackfillTask {
        BackfillTask {
            curve_id: task.curve_id,
            tenors: task.tenors,
            start: task.start,
            end: task.end,
        }
    }
}

impl From<BackfillTask> for TaskArg {
    fn from(task: BackfillTask) -> TaskArg {
        TaskArg {
            curve_id: task.curve_id,
            tenors: task.tenors,
            start: task.start,
            end: task.end,
        }
    }
}

fn options(storage_options: Option<BTreeMap<String, String>>) -> Vec<(String, String)> {
    storage_options.unwrap_or_default().into_iter().collect()
}

/// Plans and runs a backfill here; progress is `(done, total)` requests.
#[pyfunction]
pub(crate) fn backfill(client: &PyCoreClient, options: BackfillOptions) -> CoreResult<PyCall> {
    let (place, request) = options.request()?;
    let rest = client.rest()?;
    let counts = Arc::new(Progress::default());
    let call = run_all(rest, place, request, Arc::clone(&counts));
    Ok(PyCall::client(call, |py, summary| {
        Ok(results::backfill_summary(py, &summary)?.unbind())
    })
    .reporting_requests(counts))
}

/// A backfill's plan: `(tasks, days_skipped)`, each task a dict to hand
/// to [`backfill_task`] on a worker.
#[pyfunction]
pub(crate) fn backfill_plan(
    py: Python<'_>,
    client: &PyCoreClient,
    options: BackfillOptions,
) -> CoreResult<(Vec<TaskArg>, u64)> {
    let (place, request) = options.request()?;
    let rest = client.rest()?;
    let call = async move {
        place.check().await?;
        let plan = plan(&rest, &place, &request).await?;
        place.prepare().await?;
        Ok::<_, ClientError>(plan)
    };
    let plan = wait_interruptibly(py, call, |_| Ok(()))??;
    let tasks = plan.tasks.into_iter().map(TaskArg::from).collect();
    Ok((tasks, plan.days_skipped))
}

/// Runs one task of a plan into `dest`; the summary of that task alone.
#[pyfunction]
#[pyo3(signature = (client, dest, task, storage_options = None))]
pub(crate) fn backfill_task<'py>(
    py: Python<'py>,
    client: &PyCoreClient,
    dest: PlaceArg,
    task: TaskArg,
    storage_options: Option<BTreeMap<String, String>>,
) -> CoreResult<Bound<'py, PyDict>> {
    let place = dest.into_place_to_write("dest", &options(storage_options))?;
    let rest = client.rest()?;
    let task = BackfillTask::from(task);
    let counts = Arc::new(Progress::default());
    let counted = Arc::clone(&counts);
    let call = async move { run_task(&rest, &place, &task, &counted).await };
    let outcome = wait_interruptibly(py, call, |_| Ok(()))??;
    let mut summary = BackfillSummary {
        requests: counts.read().0,
        ..BackfillSummary::default()
    };
    summary.add(&outcome);
    Ok(results::backfill_summary(py, &summary)?)
}

/// A destination's backfill lock, held by a cluster's driver while its
/// workers write (`lake::record::lock`); let go of by `release`, or when
/// dropped.
#[pyclass(frozen, name = "BackfillLock", module = "marketcurves._core")]
pub struct PyBackfillLock {
    held: Mutex<Option<WriterLock>>,
}

#[pymethods]
impl PyBackfillLock {
    /// Lets go of the lock at once.
    fn release(&self, py: Python<'_>) -> CoreResult<()> {
        let taken = self.held.lock().unwrap_or_else(|e| e.into_inner()).take();
        if let Some(lock) = taken {
            wait_interruptibly(py, lock.release(), |_| Ok(()))?;
        }
        Ok(())
    }
}

/// Takes `dest`'s backfill lock, or says who holds it.
#[pyfunction]
#[pyo3(signature = (dest, storage_options = None))]
pub(crate) fn backfill_lock(
    py: Python<'_>,
    dest: PlaceArg,
    storage_options: Option<BTreeMap<String, String>>,
) -> CoreResult<PyBackfillLock> {
    let place = dest.into_place_to_write("dest", &options(storage_options))?;
    let call = async move { WriterLock::take_for(&place, Writer::Backfill).await };
    let lock = wait_interruptibly(py, call, |_| Ok(()))??;
    Ok(PyBackfillLock {
        held: Mutex::new(Some(lock)),
    })
}
