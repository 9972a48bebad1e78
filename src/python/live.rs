//! `marketcurves._core.LiveFeed` and `Tick`: the live feed for Python, over
//! `client::live::LiveFeed`. The blocking methods release the GIL and answer
//! Ctrl-C; iteration takes ticks from the core in chunks, so a busy feed costs
//! one crossing into Rust per few thousand ticks rather than one per tick.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use chrono::{DateTime, Utc};
use pyo3::exceptions::{PyKeyboardInterrupt, PyStopIteration};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use pyo3_arrow::PyRecordBatch;

use super::client::PyRestClient;
use super::errors::{client_error, invalid_request};
use super::runtime::wait_interruptibly;
use client::live::{ticks_to_batch, FeedEvent, LiveConfig, LiveFeed, Tick};
use client::ClientError;

/// Ticks taken from the core in one crossing.
const CHUNK: usize = 4_096;
/// Events kept for `events()` when nobody reads them; older ones are dropped.
const MAX_PENDING_EVENTS: usize = 1_000;

/// One price from the live feed.
#[pyclass(frozen, name = "Tick", module = "marketcurves._core")]
pub struct PyTick(Tick);

#[pymethods]
impl PyTick {
    #[getter]
    fn curve_id(&self) -> &str {
        &self.0.curve_id
    }

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

    #[getter]
    fn price(&self) -> f64 {
        self.0.price
    }

    /// `snapshot`, `update` or `backfill`.
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

fn optional_seconds(name: &str, value: Option<f64>) -> PyResult<Option<Duration>> {
    match value {
        None => Ok(None),
        Some(0.0) => Ok(Some(Duration::ZERO)),
        Some(v) => seconds(name, v).map(Some),
    }
}

/// An event as the dict handed to `on_event`.
fn event_dict<'py>(py: Python<'py>, event: &FeedEvent) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    let at = |micros: i64| DateTime::from_timestamp_micros(micros);
    match event {
        FeedEvent::Connected { attempt } => {
            dict.set_item("kind", "connected")?;
            dict.set_item("attempt", attempt)?;
        }
        FeedEvent::Disconnected { reason } => {
            dict.set_item("kind", "disconnected")?;
            dict.set_item("reason", reason)?;
        }
        FeedEvent::Reconnected { downtime, attempts } => {
            dict.set_item("kind", "reconnected")?;
            dict.set_item("downtime", downtime.as_secs_f64())?;
            dict.set_item("attempts", attempts)?;
        }
        FeedEvent::GapFilled {
            curve_id,
            tenor,
            count,
            from,
            to,
        } => {
            dict.set_item("kind", "gap_filled")?;
            dict.set_item("curve_id", curve_id)?;
            dict.set_item("tenor", tenor)?;
            dict.set_item("count", count)?;
            dict.set_item("start", at(*from))?;
            dict.set_item("end", at(*to))?;
        }
        FeedEvent::Conflated { count } => {
            dict.set_item("kind", "conflated")?;
            dict.set_item("count", count)?;
        }
        FeedEvent::Error { message } => {
            dict.set_item("kind", "error")?;
            dict.set_item("message", message)?;
        }
    }
    Ok(dict)
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

#[pyclass(frozen, name = "LiveFeed", module = "marketcurves._core")]
pub struct PyLiveFeed {
    inner: Arc<LiveFeed>,
    /// Ticks taken from the core and not yet handed out by `__next__`.
    buffer: Mutex<VecDeque<Tick>>,
    /// An error met while a batch was being gathered, raised on the next call
    /// so that the rows gathered before it are delivered first.
    deferred: Mutex<Option<PyErr>>,
    events: Arc<Mutex<VecDeque<FeedEvent>>>,
}

/// What one wait for ticks gave.
enum Taken {
    Ticks(Vec<Tick>),
    /// The feed is closed and everything queued was handed out.
    Closed,
}

impl PyLiveFeed {
    fn drain_buffer(&self, max: usize) -> Vec<Tick> {
        let mut buffer = self.buffer.lock().expect("buffer lock");
        let n = buffer.len().min(max);
        buffer.drain(..n).collect()
    }

    fn raise_deferred(&self, py: Python<'_>) -> PyResult<()> {
        let _ = py;
        match self.deferred.lock().expect("deferred lock").take() {
            Some(error) => Err(error),
            None => Ok(()),
        }
    }

    /// Waits (GIL released, Ctrl-C answered) up to `timeout` for up to `max`
    /// ticks; an empty list when the time passes.
    fn take_core(&self, py: Python<'_>, max: usize, timeout: Option<Duration>) -> PyResult<Taken> {
        self.raise_deferred(py)?;
        let buffered = self.drain_buffer(max);
        if !buffered.is_empty() {
            return Ok(Taken::Ticks(buffered));
        }
        // What is queued already needs no wait, nor a task.
        let ready = match self.inner.try_next_ticks(max) {
            Ok(ticks) if !ticks.is_empty() || timeout == Some(Duration::ZERO) => Ok(ticks),
            Ok(_) => {
                let inner = Arc::clone(&self.inner);
                wait_interruptibly(
                    py,
                    async move { inner.next_ticks(max, timeout).await },
                    |_| Ok(()),
                )?
            }
            Err(error) => Err(error),
        };
        match ready {
            Ok(ticks) => Ok(Taken::Ticks(ticks)),
            Err(ClientError::Closed) => Ok(Taken::Closed),
            Err(error) => Err(feed_error(py, error)),
        }
    }

    /// Up to `max_rows` ticks, waiting until `max_rows` are there or, once
    /// one is, until `timeout` has passed; None once the feed is closed and drained.
    fn gather(
        &self,
        py: Python<'_>,
        max_rows: usize,
        timeout: Option<Duration>,
    ) -> PyResult<Option<Vec<Tick>>> {
        let mut rows: Vec<Tick> = Vec::new();
        let mut deadline: Option<Instant> = None;
        loop {
            let wait = deadline.map(|at| at.saturating_duration_since(Instant::now()));
            let taken = match self.take_core(py, max_rows - rows.len(), wait) {
                Ok(taken) => taken,
                // An error after some rows: deliver them, raise it next time.
                Err(error)
                    if !rows.is_empty() && !error.is_instance_of::<PyKeyboardInterrupt>(py) =>
                {
                    *self.deferred.lock().expect("deferred lock") = Some(error);
                    return Ok(Some(rows));
                }
                Err(error) => return Err(error),
            };
            match taken {
                Taken::Closed if rows.is_empty() => return Ok(None),
                Taken::Closed => return Ok(Some(rows)),
                Taken::Ticks(ticks) if rows.is_empty() => rows = ticks,
                Taken::Ticks(ticks) => rows.extend(ticks),
            }
            if rows.is_empty() {
                continue;
            }
            if deadline.is_none() {
                deadline = timeout.map(|t| Instant::now() + t);
            }
            let expired = deadline.is_some_and(|at| Instant::now() >= at);
            if rows.len() >= max_rows || expired {
                return Ok(Some(rows));
            }
        }
    }
}

#[pymethods]
impl PyLiveFeed {
    #[new]
    #[pyo3(signature = (client, live_url, *, backfill = true, ping_interval = 40.0, pong_timeout = 10.0, connect_timeout = 30.0, reconnect_max = 30.0, queue_size = 100_000, subscribe_timeout = 30.0))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        client: &PyRestClient,
        live_url: &str,
        backfill: bool,
        ping_interval: f64,
        pong_timeout: f64,
        connect_timeout: f64,
        reconnect_max: f64,
        queue_size: usize,
        subscribe_timeout: f64,
    ) -> PyResult<Self> {
        if queue_size == 0 {
            return Err(invalid_request("queue_size must be at least 1"));
        }
        let defaults = LiveConfig::default();
        let reconnect_max = seconds("reconnect_max", reconnect_max)?;
        let config = LiveConfig {
            url: LiveConfig::endpoint(live_url),
            backfill,
            ping_interval: seconds("ping_interval", ping_interval)?,
            pong_timeout: seconds("pong_timeout", pong_timeout)?,
            connect_timeout: seconds("connect_timeout", connect_timeout)?,
            reconnect_min: defaults.reconnect_min.min(reconnect_max),
            reconnect_max,
            queue_capacity: queue_size,
            subscribe_timeout: seconds("subscribe_timeout", subscribe_timeout)?,
            // The client's own, which `LiveFeed::start` puts here.
            ..defaults
        };
        let events: Arc<Mutex<VecDeque<FeedEvent>>> = Arc::default();
        let sink = Arc::clone(&events);
        // Python callbacks never run on the runtime's threads: events wait
        // here until the consumer's thread hands them to `on_event`.
        let handler = Arc::new(move |event: &FeedEvent| {
            let mut pending = sink.lock().expect("events lock");
            if pending.len() == MAX_PENDING_EVENTS {
                pending.pop_front();
            }
            pending.push_back(event.clone());
        });
        let rest = client.rest()?;
        let _entered = super::runtime::runtime().enter();
        let inner =
            LiveFeed::start(rest, config, Some(handler)).map_err(|e| client_error(py, e))?;
        Ok(PyLiveFeed {
            inner: Arc::new(inner),
            buffer: Mutex::default(),
            deferred: Mutex::default(),
            events,
        })
    }

    /// Subscribes and waits until the service has taken the subscription.
    fn subscribe(&self, py: Python<'_>, curve_id: String, tenor: String) -> PyResult<()> {
        let inner = Arc::clone(&self.inner);
        wait_interruptibly(
            py,
            async move { inner.subscribe(&curve_id, &tenor).await },
            |_| Ok(()),
        )?
        .map_err(|e| feed_error(py, e))
    }

    fn subscribe_async<'py>(
        &self,
        py: Python<'py>,
        curve_id: String,
        tenor: String,
    ) -> PyResult<Bound<'py, PyAny>> {
        let inner = Arc::clone(&self.inner);
        pyo3_async_runtimes::tokio::future_into_py(py, async move {
            let result = inner.subscribe(&curve_id, &tenor).await;
            Python::attach(|py| result.map_err(|e| feed_error(py, e)))
        })
    }

    fn unsubscribe(&self, py: Python<'_>, curve_id: String, tenor: String) -> PyResult<()> {
        let inner = Arc::clone(&self.inner);
        wait_interruptibly(
            py,
            async move { inner.unsubscribe(&curve_id, &tenor).await },
            |_| Ok(()),
        )?
        .map_err(|e| feed_error(py, e))
    }

    fn unsubscribe_async<'py>(
        &self,
        py: Python<'py>,
        curve_id: String,
        tenor: String,
    ) -> PyResult<Bound<'py, PyAny>> {
        let inner = Arc::clone(&self.inner);
        pyo3_async_runtimes::tokio::future_into_py(py, async move {
            let result = inner.unsubscribe(&curve_id, &tenor).await;
            Python::attach(|py| result.map_err(|e| feed_error(py, e)))
        })
    }

    fn __iter__(slf: Py<Self>) -> Py<Self> {
        slf
    }

    /// The next tick, waiting as long as it takes; StopIteration once closed.
    fn __next__(&self, py: Python<'_>) -> PyResult<PyTick> {
        match self.next(py, None)? {
            Some(tick) => Ok(tick),
            None => Err(PyStopIteration::new_err(())),
        }
    }

    /// The next tick, or None if `timeout` seconds pass first or the feed is
    /// closed (see `closed`).
    #[pyo3(signature = (timeout = None))]
    fn next(&self, py: Python<'_>, timeout: Option<f64>) -> PyResult<Option<PyTick>> {
        if let Some(tick) = self.buffer.lock().expect("buffer lock").pop_front() {
            return Ok(Some(PyTick(tick)));
        }
        let timeout = optional_seconds("timeout", timeout)?;
        let Taken::Ticks(ticks) = self.take_core(py, CHUNK, timeout)? else {
            return Ok(None);
        };
        let mut ticks = ticks.into_iter();
        let first = ticks.next();
        self.buffer.lock().expect("buffer lock").extend(ticks);
        Ok(first.map(PyTick))
    }

    /// Up to `max` ticks, waiting up to `timeout` seconds (None: until one
    /// arrives); an empty list when the time passes or the feed is closed.
    #[pyo3(signature = (max = CHUNK, timeout = None), text_signature = "(self, /, max=4096, timeout=None)")]
    fn take(&self, py: Python<'_>, max: usize, timeout: Option<f64>) -> PyResult<Vec<PyTick>> {
        let timeout = optional_seconds("timeout", timeout)?;
        match self.take_core(py, max.max(1), timeout)? {
            Taken::Ticks(ticks) => Ok(ticks.into_iter().map(PyTick).collect()),
            Taken::Closed => Ok(Vec::new()),
        }
    }

    /// Up to `max_rows` ticks as a `pyarrow.RecordBatch`: returned when
    /// `max_rows` are there, or `timeout` seconds after the first row arrived
    /// (None: only when full). None once the feed is closed and drained.
    #[pyo3(signature = (max_rows = 10_000, timeout = Some(1.0)), text_signature = "(self, /, max_rows=10000, timeout=1.0)")]
    fn next_batch(
        &self,
        py: Python<'_>,
        max_rows: usize,
        timeout: Option<f64>,
    ) -> PyResult<Option<Py<PyAny>>> {
        let timeout = optional_seconds("timeout", timeout)?;
        let Some(ticks) = self.gather(py, max_rows.max(1), timeout)? else {
            return Ok(None);
        };
        let batch = ticks_to_batch(&ticks)
            .map_err(|e| invalid_request(format!("cannot build the batch: {e}")))?;
        Ok(Some(PyRecordBatch::new(batch).into_pyarrow(py)?.unbind()))
    }

    /// The awaitable form of `take`: up to `max` ticks, waiting for at least
    /// one; an empty list once the feed is closed and drained.
    #[pyo3(signature = (max = CHUNK), text_signature = "(self, /, max=4096)")]
    fn take_async<'py>(&self, py: Python<'py>, max: usize) -> PyResult<Bound<'py, PyAny>> {
        self.raise_deferred(py)?;
        let buffered = self.drain_buffer(max.max(1));
        let inner = Arc::clone(&self.inner);
        pyo3_async_runtimes::tokio::future_into_py(py, async move {
            let result = if buffered.is_empty() {
                inner.next_ticks(max.max(1), None).await
            } else {
                Ok(buffered)
            };
            Python::attach(|py| match result {
                Ok(ticks) => Ok(ticks.into_iter().map(PyTick).collect::<Vec<_>>()),
                Err(ClientError::Closed) => Ok(Vec::new()),
                Err(e) => Err(feed_error(py, e)),
            })
        })
    }

    /// Events since the last call, oldest first, as dicts with a `kind`.
    fn events<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyDict>>> {
        let pending: Vec<FeedEvent> = self.events.lock().expect("events lock").drain(..).collect();
        pending.iter().map(|e| event_dict(py, e)).collect()
    }

    fn stats<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let stats = self.inner.stats();
        let dict = PyDict::new(py);
        dict.set_item("messages", stats.messages)?;
        dict.set_item("ticks_delivered", stats.ticks_delivered)?;
        dict.set_item("reconnects", stats.reconnects)?;
        dict.set_item("gaps_filled", stats.gaps_filled)?;
        dict.set_item("backfilled", stats.backfilled)?;
        dict.set_item("conflated", stats.conflated)?;
        dict.set_item("duplicates_dropped", stats.duplicates_dropped)?;
        let last = stats.last_message.and_then(DateTime::from_timestamp_micros);
        dict.set_item("last_message", last)?;
        dict.set_item("subscriptions", stats.subscriptions)?;
        dict.set_item("connected", stats.connected)?;
        let buffered = self.buffer.lock().expect("buffer lock").len();
        dict.set_item("queued", stats.queued + buffered)?;
        Ok(dict)
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
        let inner = Arc::clone(&self.inner);
        wait_interruptibly(py, async move { inner.close().await }, |_| Ok(()))
    }

    fn close_async<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let inner = Arc::clone(&self.inner);
        pyo3_async_runtimes::tokio::future_into_py(py, async move {
            inner.close().await;
            Ok(())
        })
    }
}
