//! `Client.record` (blocking and awaitable), `marketcurves.read_ticks` and
//! the compaction of a recording.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use chrono::{DateTime, NaiveDate, Utc};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

use super::call::PyCall;
use super::client::PyCoreClient;
use super::errors::{client_error, CoreResult};
use super::live::duration as seconds;
use super::results;
use super::runtime::runtime;
use history::RestClient;
use lake::record::TickSelection;
use lake::record::{
    check, compact, read_ticks as read, record as run_recorder, RecordConfig, RecordSummary,
};
use live::LiveConfig;
use places::storage::{Operation, Place, PlaceError, Writer};

use super::place_arg::PlaceArg;
use places::ClientError;

/// How often the blocking wait looks up for Ctrl-C.
const TICK: Duration = Duration::from_millis(100);
/// How long a stopped recorder may take to write what it holds.
const STOP_WAIT: Duration = Duration::from_secs(30);

fn options(storage_options: Option<BTreeMap<String, String>>) -> Vec<(String, String)> {
    storage_options.unwrap_or_default().into_iter().collect()
}

/// A recorder's options as one value: the dict `marketcurves.record`
/// builds (`RecordOptions` there), its types already checked in Python.
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
pub(crate) struct RecordOptions {
    dest: PlaceArg,
    subscriptions: Vec<(String, String)>,
    rotate: String,
    rotate_rows: usize,
    hold_limit: usize,
    compact: bool,
    backfill: bool,
    storage_options: Option<BTreeMap<String, String>>,
    duration: Option<f64>,
    ping_interval: f64,
    pong_timeout: f64,
    reconnect_max: f64,
}

impl RecordOptions {
    /// The recorder's request, checked before anything connects.
    fn request(self, live_url: &str) -> CoreResult<(Place, RecordConfig)> {
        let live = LiveConfig {
            url: LiveConfig::endpoint(live_url),
            backfill: self.backfill,
            ping_interval: seconds("ping_interval", self.ping_interval)?,
            pong_timeout: seconds("pong_timeout", self.pong_timeout)?,
            ..LiveConfig::default()
        }
        .with_reconnect_max(seconds("reconnect_max", self.reconnect_max)?);
        let config = RecordConfig::new(
            &self.subscriptions,
            &self.rotate,
            self.rotate_rows,
            self.hold_limit,
            self.compact,
            live,
        )?;
        let place = self
            .dest
            .into_place("dest", &options(self.storage_options))?;
        Ok((place, config))
    }
}

/// A recorder, its arguments checked (before anything connects); it runs
/// once, blocking (`run`) or awaited (`run_async`).
#[pyclass(frozen, name = "Recorder", module = "marketcurves._core")]
pub struct PyRecorder {
    /// Taken by the run.
    ready: Mutex<Option<(Arc<RestClient>, Place, RecordConfig)>>,
    duration: Option<f64>,
}

impl PyRecorder {
    /// Starts the recorder, stopped by `stop` (or after `duration`).
    fn spawn(
        &self,
        stop: &CancellationToken,
    ) -> CoreResult<JoinHandle<Result<RecordSummary, ClientError>>> {
        let taken = self.ready.lock().unwrap_or_else(|e| e.into_inner()).take();
        let (rest, place, config) = taken.ok_or_else(|| {
            ClientError::invalid(
                places::Argument::Request,
                places::Rule::Conflict,
                "a recorder runs once",
            )
        })?;
        let runtime = runtime()?;
        stop_after(runtime, stop, self.duration);
        Ok(runtime.spawn(run_recorder(rest, place, config, stop.clone())))
    }
}

fn joined(
    joined: Result<Result<RecordSummary, ClientError>, tokio::task::JoinError>,
) -> Result<RecordSummary, ClientError> {
    joined.map_err(|e| PlaceError::new("", Operation::Run(Writer::Recorder), e))?
}

#[pymethods]
impl PyRecorder {
    #[new]
    fn new(client: &PyCoreClient, live_url: &str, options: RecordOptions) -> CoreResult<Self> {
        let duration = options.duration;
        let (place, config) = options.request(live_url)?;
        Ok(PyRecorder {
            ready: Mutex::new(Some((client.rest()?, place, config))),
            duration,
        })
    }

    /// Records until Ctrl-C (or `duration` seconds), then writes what it
    /// holds and returns what it did.
    fn run<'py>(&self, py: Python<'py>) -> CoreResult<Bound<'py, PyDict>> {
        let stop = CancellationToken::new();
        let mut task = self.spawn(&stop)?;
        let runtime = runtime()?;
        let mut interrupted = false;
        let result = loop {
            let wait = if interrupted { STOP_WAIT } else { TICK };
            let waited = py
                .detach(|| runtime.block_on(async { tokio::time::timeout(wait, &mut task).await }));
            match waited {
                Ok(result) => break joined(result),
                Err(_) if interrupted => {
                    task.abort();
                    let overdue = Operation::StopOverdue(Writer::Recorder);
                    return Err(ClientError::from(PlaceError::new("", overdue, "")).into());
                }
                // Ctrl-C (or SIGTERM made KeyboardInterrupt) stops the
                // recorder, which writes what it holds: that is how it ends.
                Err(_) => {
                    if py.check_signals().is_err() {
                        interrupted = true;
                        stop.cancel();
                    }
                }
            }
        };
        Ok(results::record_summary(py, &result?)?)
    }

    /// The awaitable form: cancelling it stops the recorder, which then
    /// writes what it holds in the background.
    fn run_async<'py>(&self, py: Python<'py>) -> CoreResult<Bound<'py, PyAny>> {
        let stop = CancellationToken::new();
        let task = self.spawn(&stop)?;
        Ok(super::runtime::awaitable(py, async move {
            // Dropped with the awaiting future: the recorder is told to stop.
            let _stops = stop.drop_guard();
            let result = joined(task.await);
            Python::attach(|py| match result {
                Ok(summary) => Ok(results::record_summary(py, &summary)?.unbind()),
                Err(e) => Err(client_error(py, e)),
            })
        })?)
    }
}

fn stop_after(runtime: &tokio::runtime::Runtime, stop: &CancellationToken, duration: Option<f64>) {
    if let Some(seconds) = duration {
        let stop = stop.clone();
        let wait = Duration::from_secs_f64(seconds.max(0.0));
        runtime.spawn(async move {
            tokio::time::sleep(wait).await;
            stop.cancel();
        });
    }
}

/// A recording as a pyarrow Table, its curves named by id alone
/// (`CoreClient.name_curves` names them from a catalogue).
#[pyfunction]
#[pyo3(signature = (dest, curve_id = None, tenor = None, start = None, end = None, storage_options = None))]
pub(crate) fn read_ticks(
    dest: PlaceArg,
    curve_id: Option<&str>,
    tenor: Option<&str>,
    start: Option<DateTime<Utc>>,
    end: Option<DateTime<Utc>>,
    storage_options: Option<BTreeMap<String, String>>,
) -> CoreResult<PyCall> {
    let selection = TickSelection::new(
        curve_id,
        tenor,
        start.map(|t| t.timestamp_micros()),
        end.map(|t| t.timestamp_micros()),
    )?;
    let place = dest.into_place("dest", &options(storage_options))?;
    Ok(PyCall::table(async move {
        let table = read(place, selection).await?;
        RestClient::name_curves(None, table).await
    }))
}

/// Checks a lake (`lake::record::check`); the report as a dict.
#[pyfunction]
#[pyo3(signature = (dest, start = None, end = None, storage_options = None))]
pub(crate) fn check_lake(
    dest: PlaceArg,
    start: Option<NaiveDate>,
    end: Option<NaiveDate>,
    storage_options: Option<BTreeMap<String, String>>,
) -> CoreResult<PyCall> {
    if let (Some(start), Some(end)) = (start, end) {
        if start > end {
            return Err(ClientError::invalid(
                places::Argument::Range,
                places::Rule::Bounds,
                format!("start {start} is after end {end}"),
            )
            .into());
        }
    }
    let place = dest.into_place("dest", &options(storage_options))?;
    let call = async move { check::check_lake(&place, start, end).await };
    Ok(PyCall::client(call, |py, report| {
        Ok(results::lake_report(py, &report)?.unbind())
    }))
}

/// Compacts the days of a recording before `before`; a list of dicts.
#[pyfunction]
#[pyo3(signature = (dest, before, storage_options = None))]
pub(crate) fn compact_recording(
    dest: PlaceArg,
    before: NaiveDate,
    storage_options: Option<BTreeMap<String, String>>,
) -> CoreResult<PyCall> {
    let place = dest.into_place("dest", &options(storage_options))?;
    let call = async move {
        place.check().await?;
        Ok::<_, ClientError>(compact::compact(&place, before).await?)
    };
    Ok(PyCall::client(call, |py, days: Vec<_>| {
        days.iter()
            .map(|day| Ok(results::compacted_day(py, day)?.unbind()))
            .collect::<PyResult<Vec<_>>>()
    }))
}
