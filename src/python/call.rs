//! `marketcurves._core.Call`: one call of the core, made by its binding
//! once and run in either of Python's forms. `call.wait(progress)` blocks
//! (the GIL released, Ctrl-C answered within 0.1 s, `progress` called with
//! the call's counts at each look-up); `await call` runs the same future on
//! Python's event loop. So a binding is written once, and the blocking
//! method of `marketcurves` and its `_async` twin both take its `Call`.
//!
//! A call does nothing until it is waited for or awaited, and runs once.
//! The binding checks the arguments and takes the client before it makes
//! the call: bad input, and a closed client, raise at once in either form.

use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll, Waker};

use pyo3::call::PyCallArgs;
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::IntoPyObjectExt;

use super::arrow_out::to_pyarrow;
use super::errors::client_error;
use super::runtime::{awaitable, runtime, wait_interruptibly};
use domain::arrow::Table;
use history::rest::Progress;
use places::ClientError;

/// What a call's future ends with: the step that makes its Python value,
/// which needs the GIL.
type Finish = Box<dyn FnOnce(Python<'_>) -> PyResult<Py<PyAny>> + Send>;

type Pending = Pin<Box<dyn Future<Output = Finish> + Send>>;

/// Calls a progress callback with the call's counts.
type Report = Box<dyn Fn(Python<'_>, &Py<PyAny>) -> PyResult<()> + Send + Sync>;

#[pyclass(frozen, name = "Call", module = "marketcurves._core")]
pub struct PyCall {
    /// Taken by the one run.
    pending: Mutex<Option<Pending>>,
    report: Option<Report>,
    /// Poll once on the waiting thread before handing the future to the
    /// runtime: a live feed's read whose ticks are there already.
    ready_first: bool,
}

impl PyCall {
    /// A call of `future`, whose output `finish` makes a Python value.
    pub(crate) fn new<F, T>(
        future: F,
        finish: impl FnOnce(Python<'_>, T) -> PyResult<Py<PyAny>> + Send + 'static,
    ) -> Self
    where
        F: Future<Output = T> + Send + 'static,
        T: Send + 'static,
    {
        let pending = async move {
            let output = future.await;
            Box::new(move |py: Python<'_>| finish(py, output)) as Finish
        };
        PyCall {
            pending: Mutex::new(Some(Box::pin(pending))),
            report: None,
            ready_first: false,
        }
    }

    /// A call of the client's, its error raised as the exception of
    /// `marketcurves.exceptions`, its value made by `convert`.
    pub(crate) fn client<F, T, R>(
        future: F,
        convert: impl FnOnce(Python<'_>, T) -> PyResult<R> + Send + 'static,
    ) -> Self
    where
        F: Future<Output = Result<T, ClientError>> + Send + 'static,
        T: Send + 'static,
        R: for<'py> IntoPyObject<'py>,
    {
        PyCall::new(future, move |py, output: Result<T, ClientError>| {
            let value = output.map_err(|e| client_error(py, e))?;
            convert(py, value)?.into_py_any(py)
        })
    }

    /// A call whose value is a table, as a `pyarrow.Table`.
    pub(crate) fn table<F>(future: F) -> Self
    where
        F: Future<Output = Result<Table, ClientError>> + Send + 'static,
    {
        PyCall::new(future, |py, output: Result<Table, ClientError>| {
            to_pyarrow(py, output.map_err(|e| client_error(py, e))?)
        })
    }

    /// `progress(*counts())` at each look-up of the blocking form.
    pub(crate) fn reporting<A>(mut self, counts: impl Fn() -> A + Send + Sync + 'static) -> Self
    where
        A: for<'py> PyCallArgs<'py>,
    {
        self.report = Some(Box::new(move |py, callback| {
            callback.call1(py, counts())?;
            Ok(())
        }));
        self
    }

    /// `progress(done, total)` requests, as the REST calls count them.
    pub(crate) fn reporting_requests(self, counts: Arc<Progress>) -> Self {
        self.reporting(move || counts.read())
    }

    /// The blocking form polls once before it waits (see `ready_first`).
    pub(crate) fn ready_first(mut self) -> Self {
        self.ready_first = true;
        self
    }

    fn take(&self) -> PyResult<Pending> {
        let taken = self
            .pending
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take();
        taken.ok_or_else(|| PyRuntimeError::new_err("a call runs once: it was run already"))
    }
}

#[pymethods]
impl PyCall {
    /// Runs the call to its end on the runtime while this thread waits with
    /// the GIL released; Ctrl-C cancels it and raises KeyboardInterrupt.
    #[pyo3(signature = (progress = None))]
    fn wait(&self, py: Python<'_>, progress: Option<Py<PyAny>>) -> PyResult<Py<PyAny>> {
        let mut pending = self.take()?;
        if self.ready_first {
            // Timers and wake-ups need the runtime's context, even for one poll.
            let _entered = runtime()?.enter();
            if let Poll::Ready(finish) = pending
                .as_mut()
                .poll(&mut Context::from_waker(Waker::noop()))
            {
                return finish(py);
            }
        }
        let report = |py: Python<'_>| match (&self.report, &progress) {
            (Some(report), Some(callback)) => report(py, callback),
            _ => Ok(()),
        };
        let finish = wait_interruptibly(py, pending, report)?;
        finish(py)
    }

    /// The call as an awaitable of the running event loop; cancelling it
    /// cancels the call.
    fn __await__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let pending = self.take()?;
        let future = awaitable(py, async move {
            let finish = pending.await;
            Python::attach(finish)
        })?;
        future.call_method0(pyo3::intern!(py, "__await__"))
    }
}
