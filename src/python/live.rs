//! `marketcurves._core.LiveFeed` and `Tick`: the live feed for Python, over
//! `live::LiveFeed`, which does the reading (chunks, batches and
//! their deadlines), checks the values of the arguments and keeps the events.
//! Here: argument conversion, each read and subscription change a `Call`
//! (`call.rs`: waited for with the GIL released and Ctrl-C answered within
//! 0.1 s, or awaited; a read whose ticks are there already is answered
//! without a task, and the reads are cancel-safe, so one abandoned by
//! Ctrl-C loses no tick), errors as exceptions, ticks as Arrow batches.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use chrono::{DateTime, Utc};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use pyo3::IntoPyObjectExt;
use pyo3_arrow::PyRecordBatch;

use super::call::PyCall;
use super::client::PyCoreClient;
use super::errors::{client_error, invalid_request};
use super::place_arg::PlaceArg;
use super::results;
use super::runtime::{runtime, wait_interruptibly};
use lake::replay::{LakeSource, ReplayConfig, ReplaySource, ServiceSource};
use live::{LiveConfig, LiveFeed, Tick, CHUNK, DEFAULT_BATCH_ROWS, DEFAULT_BATCH_TIMEOUT};
use places::ClientError;

/// One price from the live feed (`marketcurves.Tick`): what iterating a
/// `LiveFeed` gives, and what `on_price` is called with.
#[pyclass(frozen, name = "Tick", module = "marketcurves._core")]
pub struct PyTick(Tick);

/// Ticks as Python objects the cyclic collector does not follow: a tick
/// holds no Python object, so it can be in no cycle, and a feed creates
/// ticks by the million, each of which a tracked object makes the
/// collector visit (a third of an iterating consumer's time).
fn untracked(py: Python<'_>, ticks: Vec<Tick>) -> PyResult<Vec<Bound<'_, PyTick>>> {
    ticks
        .into_iter()
        .map(|tick| {
            let tick = Bound::new(py, PyTick(tick))?;
            // SAFETY: a live object of ours, with the GIL held; its
            // deallocation untracks it again, which does nothing.
            unsafe { pyo3::ffi::PyObject_GC_UnTrack(tick.as_ptr().cast()) };
            Ok(tick)
        })
        .collect()
}

/// Ticks as a batch of the live table's schema, naming no curve (the
/// `replay` command's columns when nothing is replayed); a feed's own
/// are `LiveFeed.ticks_batch`'s.
#[pyfunction]
#[pyo3(name = "_ticks_batch")]
pub(crate) fn ticks_batch(py: Python<'_>, ticks: Vec<PyRef<'_, PyTick>>) -> PyResult<Py<PyAny>> {
    let ticks: Vec<Tick> = ticks.iter().map(|tick| tick.0.clone()).collect();
    let batch = live::ticks_to_batch(&ticks)
        .map_err(|e| pyo3::exceptions::PyRuntimeError::new_err(e.to_string()))?;
    Ok(PyRecordBatch::new(batch).into_pyarrow(py)?.unbind())
}

#[pymethods]
impl PyTick {
    /// The curve's id.
    #[getter]
    fn curve_id(&self) -> &str {
        &self.0.curve_id
    }

    /// The tenor's name.
    #[getter]
    fn tenor(&self) -> &str {
        &self.0.tenor
    }

    /// When the value was published (UTC): milliseconds from the feed,
    /// microseconds from the intraday endpoints for backfilled values.
    #[getter]
    fn generated_on(&self) -> PyResult<DateTime<Utc>> {
        DateTime::from_timestamp_micros(self.0.generated_on)
            .ok_or_else(|| invalid_request("generated_on out of range"))
    }

    /// The price, in the curve's units.
    #[getter]
    fn price(&self) -> f64 {
        self.0.price
    }

    /// `snapshot` (the latest value, sent when a subscription is made or
    /// renewed), `update` (a value as it is published) or `backfill`
    /// (fetched from the intraday endpoints after a reconnect).
    #[getter]
    fn source(&self) -> &'static str {
        self.0.source.as_str()
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<PyTick>()
            .is_ok_and(|other| other.get().0 == self.0)
    }

    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        (&*self.0.curve_id, &*self.0.tenor, self.0.generated_on).hash(&mut hasher);
        self.0.price.to_bits().hash(&mut hasher);
        hasher.finish()
    }

    fn __repr__(&self) -> PyResult<String> {
        let at = self.generated_on()?.format("%Y-%m-%dT%H:%M:%S%.6fZ");
        Ok(format!(
            "Tick(curve_id={:?}, tenor={:?}, generated_on={at}, price={}, source={:?})",
            &*self.0.curve_id,
            &*self.0.tenor,
            self.0.price,
            self.0.source.as_str()
        ))
    }
}

/// Seconds as a duration. Python's `_args` has made sure they are a finite
/// number >= 0; the core says which values a setting takes. What a
/// `Duration` cannot hold is refused here for callers of `_core` itself.
pub(crate) fn duration(name: &str, seconds: f64) -> PyResult<Duration> {
    Duration::try_from_secs_f64(seconds).map_err(|e| invalid_request(format!("{name}: {e}")))
}

fn optional_duration(name: &str, seconds: Option<f64>) -> PyResult<Option<Duration>> {
    seconds.map(|s| duration(name, s)).transpose()
}

/// A feed error as its exception, carrying the subscription it concerns.
fn feed_error(py: Python<'_>, error: ClientError) -> PyErr {
    let subscription = error.subscription().cloned();
    let err = client_error(py, error);
    if let Some(subscription) = subscription {
        let value = err.value(py);
        let _ = value.setattr("curve_id", subscription.curve_id);
        let _ = value.setattr("tenor", subscription.tenor);
    }
    err
}

/// A subscription change's end for Python: None, or the feed's error.
fn done_or_feed_error(py: Python<'_>, done: Result<(), ClientError>) -> PyResult<Py<PyAny>> {
    done.map_err(|e| feed_error(py, e))?;
    Ok(py.None())
}

/// A read's result for Python: `closed` at the end (`None`: the feed is
/// closed and drained), which is no error.
fn unless_closed<T>(
    py: Python<'_>,
    read: Result<Option<T>, ClientError>,
    closed: T,
) -> PyResult<T> {
    match read {
        Ok(value) => Ok(value.unwrap_or(closed)),
        Err(error) => Err(feed_error(py, error)),
    }
}

#[pyclass(frozen, name = "LiveFeed", module = "marketcurves._core")]
pub struct PyLiveFeed {
    inner: Arc<LiveFeed>,
}

/// A feed's options as one value: the dict `marketcurves.live` builds
/// (`LiveOptions` in `_live_types.py`), every key given, its types checked
/// in Python and its values by `LiveConfig::validate`.
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
pub(crate) struct LiveOptions {
    backfill: bool,
    ping_interval: f64,
    pong_timeout: f64,
    connect_timeout: f64,
    reconnect_max: f64,
    queue_size: usize,
    subscribe_timeout: f64,
}

impl LiveOptions {
    fn config(self, live_url: &str) -> PyResult<LiveConfig> {
        Ok(LiveConfig {
            url: LiveConfig::endpoint(live_url),
            backfill: self.backfill,
            ping_interval: duration("ping_interval", self.ping_interval)?,
            pong_timeout: duration("pong_timeout", self.pong_timeout)?,
            connect_timeout: duration("connect_timeout", self.connect_timeout)?,
            queue_size: self.queue_size,
            subscribe_timeout: duration("subscribe_timeout", self.subscribe_timeout)?,
            // The client's own, which `LiveFeed::start` puts here.
            ..LiveConfig::default()
        }
        .with_reconnect_max(duration("reconnect_max", self.reconnect_max)?))
    }
}

/// A replay's options: the dict `marketcurves.Client.replay` builds
/// (`ReplayOptions` in `_options.py`), its types checked in Python and its
/// values by `ReplayConfig::validate`.
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
pub(crate) struct ReplayOptions {
    /// None for the service, else the lake.
    source: Option<PlaceArg>,
    storage_options: Option<BTreeMap<String, String>>,
    start: DateTime<Utc>,
    end: DateTime<Utc>,
    speed: Option<f64>,
    conflate: bool,
    queue_size: usize,
}

#[pymethods]
impl PyLiveFeed {
    /// A replay behind a feed's handle (`lake::replay`).
    #[staticmethod]
    fn replay(py: Python<'_>, client: &PyCoreClient, options: ReplayOptions) -> PyResult<Self> {
        let config = ReplayConfig {
            start: options.start.timestamp_micros(),
            end: options.end.timestamp_micros(),
            speed: options.speed,
            conflate: options.conflate,
            queue_size: options.queue_size,
        };
        config.validate().map_err(|e| client_error(py, e))?;
        let rest = client.rest()?;
        let source: Arc<dyn ReplaySource> = match options.source {
            None => Arc::new(ServiceSource::new(Arc::clone(&rest))),
            Some(place) => {
                let settings: Vec<(String, String)> = options
                    .storage_options
                    .unwrap_or_default()
                    .into_iter()
                    .collect();
                let place = place
                    .into_place("source", &settings)
                    .map_err(|e| client_error(py, e))?;
                let lake = wait_interruptibly(py, LakeSource::open(place), |_| Ok(()))?
                    .map_err(|e| client_error(py, e))?;
                Arc::new(lake)
            }
        };
        let _entered = runtime()?.enter();
        let inner = lake::replay::start(source, config, rest.closing(), Some(&rest))
            .map_err(|e| client_error(py, e))?;
        Ok(PyLiveFeed {
            inner: Arc::new(inner),
        })
    }

    /// A replay's current time, the last `unread` ticks of the last `take`
    /// not handed out; None for the live feed.
    #[pyo3(signature = (unread = 0))]
    fn now(&self, unread: usize) -> Option<DateTime<Utc>> {
        self.inner
            .now_unread(unread)
            .and_then(DateTime::from_timestamp_micros)
    }

    /// A replay takes back the last `unread` ticks of the last `take`,
    /// which the caller then drops; no-op on the live feed.
    fn give_back(&self, unread: usize) {
        self.inner.give_back(unread);
    }

    #[new]
    fn new(
        py: Python<'_>,
        client: &PyCoreClient,
        live_url: &str,
        options: LiveOptions,
    ) -> PyResult<Self> {
        let config = options.config(live_url)?;
        let rest = client.rest()?;
        let _entered = runtime()?.enter();
        let inner = LiveFeed::start(rest, config).map_err(|e| client_error(py, e))?;
        Ok(PyLiveFeed {
            inner: Arc::new(inner),
        })
    }

    /// Subscribes; the call ends once the service has taken the subscription.
    #[pyo3(signature = (curve_id, tenor, strict = true))]
    fn subscribe(&self, curve_id: String, tenor: String, strict: bool) -> PyCall {
        let inner = Arc::clone(&self.inner);
        let call = async move { inner.subscribe(&curve_id, &tenor, strict).await };
        PyCall::new(call, done_or_feed_error)
    }

    fn unsubscribe(&self, curve_id: String, tenor: String) -> PyCall {
        let inner = Arc::clone(&self.inner);
        let call = async move { inner.unsubscribe(&curve_id, &tenor).await };
        PyCall::new(call, done_or_feed_error)
    }

    /// The next tick, or None if `timeout` seconds pass first or the feed is
    /// closed (see `closed`).
    #[pyo3(signature = (timeout = None))]
    fn next(&self, timeout: Option<f64>) -> PyResult<PyCall> {
        let timeout = optional_duration("timeout", timeout)?;
        let inner = Arc::clone(&self.inner);
        let call = async move { inner.next_tick(timeout).await };
        Ok(PyCall::new(call, |py, tick| {
            unless_closed(py, tick, None)?.map(PyTick).into_py_any(py)
        })
        .ready_first())
    }

    /// Up to `max` ticks, waiting up to `timeout` seconds (None: until one
    /// arrives); an empty list when the time passes or the feed is closed.
    #[pyo3(signature = (max = CHUNK, timeout = None))]
    fn take(&self, max: usize, timeout: Option<f64>) -> PyResult<PyCall> {
        let timeout = optional_duration("timeout", timeout)?;
        let inner = Arc::clone(&self.inner);
        let call = async move { inner.next_ticks(max, timeout).await };
        Ok(PyCall::new(call, |py, ticks| {
            untracked(py, unless_closed(py, ticks, Vec::new())?)?.into_py_any(py)
        })
        .ready_first())
    }

    /// Up to `max_rows` ticks as a `pyarrow.RecordBatch`: returned when
    /// `max_rows` are there, or `timeout` seconds after the first row arrived
    /// (None: only when full). None once the feed is closed and drained.
    #[pyo3(signature = (max_rows = DEFAULT_BATCH_ROWS, timeout = Some(DEFAULT_BATCH_TIMEOUT.as_secs_f64())))]
    fn next_batch(&self, max_rows: usize, timeout: Option<f64>) -> PyResult<PyCall> {
        let timeout = optional_duration("timeout", timeout)?;
        let inner = Arc::clone(&self.inner);
        let call = async move { inner.next_record_batch(max_rows, timeout).await };
        Ok(PyCall::new(call, |py, batch| {
            match unless_closed(py, batch.map(|b| b.map(Some)), None)? {
                Some(batch) => Ok(PyRecordBatch::new(batch).into_pyarrow(py)?.unbind()),
                None => Ok(py.None()),
            }
        })
        .ready_first())
    }

    /// Ticks as a batch of the feed's, built as `next_batch`'s and naming
    /// the feed's curves: for the ticks `LiveFeed.batches()` hands out after
    /// an iteration left with `break` kept the rest of its chunk.
    fn ticks_batch(&self, py: Python<'_>, ticks: Vec<PyRef<'_, PyTick>>) -> PyResult<Py<PyAny>> {
        let ticks: Vec<Tick> = ticks.iter().map(|tick| tick.0.clone()).collect();
        let batch = self
            .inner
            .ticks_to_batch(&ticks)
            .map_err(|e| pyo3::exceptions::PyRuntimeError::new_err(e.to_string()))?;
        Ok(PyRecordBatch::new(batch).into_pyarrow(py)?.unbind())
    }

    /// Events since the last call, oldest first, as dicts with a `kind`.
    fn events<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyDict>>> {
        let events = self.inner.drain_events();
        events.iter().map(|e| results::feed_event(py, e)).collect()
    }

    fn stats<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        results::feed_stats(py, &self.inner.stats())
    }
    /// `(curve_id, tenor)` of every subscription, sorted.
    fn subscriptions(&self) -> Vec<(String, String)> {
        let mut subscriptions: Vec<(String, String)> = self
            .inner
            .subscriptions()
            .into_iter()
            .map(|s| (s.curve_id, s.tenor))
            .collect();
        subscriptions.sort();
        subscriptions
    }

    #[getter]
    fn closed(&self) -> bool {
        self.inner.is_closed()
    }

    /// Stops the feed: no task, timer or socket is left behind. Ticks still
    /// queued can be read afterwards.
    fn close(&self, py: Python<'_>) -> PyResult<()> {
        if super::runtime::forked() {
            // The feed runs in the parent: it is not this child's to close.
            return Ok(());
        }
        let inner = Arc::clone(&self.inner);
        wait_interruptibly(py, async move { inner.close().await }, |_| Ok(()))
    }

    fn close_async<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let inner = Arc::clone(&self.inner);
        super::runtime::awaitable(py, async move {
            inner.close().await;
            Ok(())
        })
    }
}
