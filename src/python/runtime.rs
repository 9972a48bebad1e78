//! The client's tokio runtime, shared with pyo3-async-runtimes, the
//! emulator's own, and every way in to them: each first checks that this
//! process is the one that started the client's.
//!
//! A child made by `fork` (multiprocessing's default on Linux before Python
//! 3.14) inherits the runtime but not its worker threads, nor the parent's
//! connections: whatever it waited on would never come. So once the runtime
//! has started, every call in such a child raises `ClientClosed` at once,
//! saying to make the children with `spawn` or `forkserver`. A child forked
//! before the package was used starts a runtime of its own and works.

use std::future::Future;
use std::sync::OnceLock;
use std::time::Duration;

use pyo3::conversion::IntoPyObject;
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;

use super::errors::ClientClosed;

/// How often a blocking call looks up from its wait to check for Ctrl-C.
const TICK: Duration = Duration::from_millis(100);

/// The process that started the runtime, once one has.
static STARTED_IN: OnceLock<u32> = OnceLock::new();

/// The runtime, started by this call if none is, unless this process is a
/// child forked from the one that started it.
pub(crate) fn runtime() -> PyResult<&'static tokio::runtime::Runtime> {
    let here = std::process::id();
    let started = *STARTED_IN.get_or_init(|| here);
    if started != here {
        return Err(ClientClosed::new_err(format!(
            "marketcurves cannot be used in a child process made by fork (process {here}) \
             after process {started} had used it: its threads and connections stayed there. \
             Start child processes with multiprocessing's \"spawn\" or \"forkserver\" \
             method (multiprocessing.get_context(\"spawn\")), or fork before using the package"
        )));
    }
    Ok(pyo3_async_runtimes::tokio::get_runtime())
}

/// The emulator's own runtime, started by the first emulator. The emulator
/// stands for a service on other machines, so it never takes the client's
/// workers: on the shared runtime, a page being serialised held back the
/// client's decoding behind it, and a client pulling at the latency bound
/// measured the emulator as much as itself (`benches/backfill.py`, one
/// machine, in four paired runs: 1.08 to 1.14 of the bound on a runtime of
/// its own, 1.13 to 1.19 on the shared one).
pub(crate) fn emulator_runtime() -> PyResult<&'static tokio::runtime::Runtime> {
    static EMULATOR: OnceLock<Result<tokio::runtime::Runtime, String>> = OnceLock::new();
    // The fork check: a child forked after it started has none of its threads.
    runtime()?;
    let started = EMULATOR.get_or_init(|| {
        tokio::runtime::Builder::new_multi_thread()
            .thread_name("marketcurves-emulator")
            .enable_all()
            .build()
            .map_err(|e| e.to_string())
    });
    started
        .as_ref()
        .map_err(|e| PyRuntimeError::new_err(format!("cannot start the emulator's runtime: {e}")))
}

/// Whether this is a child forked after the runtime started (there, what
/// the parent made is the parent's to close).
pub(crate) fn forked() -> bool {
    STARTED_IN
        .get()
        .is_some_and(|started| *started != std::process::id())
}

/// An awaitable of `future` for Python's event loop (the `_async` twins).
pub(crate) fn awaitable<'py, F, T>(py: Python<'py>, future: F) -> PyResult<Bound<'py, PyAny>>
where
    F: Future<Output = PyResult<T>> + Send + 'static,
    T: for<'a> IntoPyObject<'a> + Send + 'static,
{
    runtime()?;
    pyo3_async_runtimes::tokio::future_into_py(py, future)
}

/// Runs `future` on the runtime while this thread, with the GIL released,
/// waits for it. Every 100 ms it checks for Ctrl-C (which cancels the work
/// and raises KeyboardInterrupt) and calls `on_tick`, e.g. to draw progress.
pub(crate) fn wait_interruptibly<T, F>(
    py: Python<'_>,
    future: F,
    mut on_tick: impl FnMut(Python<'_>) -> PyResult<()>,
) -> PyResult<T>
where
    F: Future<Output = T> + Send + 'static,
    T: Send + 'static,
{
    let runtime = runtime()?;
    let mut task = runtime.spawn(future);
    loop {
        let waited =
            py.detach(|| runtime.block_on(async { tokio::time::timeout(TICK, &mut task).await }));
        match waited {
            Ok(joined) => {
                on_tick(py)?;
                return joined
                    .map_err(|e| PyRuntimeError::new_err(format!("the request task failed: {e}")));
            }
            Err(_still_running) => {
                if let Err(interrupt) = py.check_signals() {
                    task.abort();
                    // Wait for the cancellation, so nothing keeps running behind the caller.
                    let _ = py.detach(|| runtime.block_on(task));
                    return Err(interrupt);
                }
                on_tick(py)?;
            }
        }
    }
}
