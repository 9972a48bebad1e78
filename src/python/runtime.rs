//! The one tokio runtime of the process, shared with pyo3-async-runtimes.

use std::future::Future;
use std::time::Duration;

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;

/// How often a blocking call looks up from its wait to check for Ctrl-C.
const TICK: Duration = Duration::from_millis(100);

pub fn runtime() -> &'static tokio::runtime::Runtime {
    pyo3_async_runtimes::tokio::get_runtime()
}

/// Runs a future to completion with the GIL released.
pub fn block_on<F: Future + Send>(py: Python<'_>, future: F) -> F::Output
where
    F::Output: Send,
{
    py.detach(|| runtime().block_on(future))
}

/// Runs `future` on the runtime while this thread, with the GIL released,
/// waits for it. Every 100 ms it checks for Ctrl-C (which cancels the work
/// and raises KeyboardInterrupt) and calls `on_tick`, e.g. to draw progress.
pub fn wait_interruptibly<T, F>(
    py: Python<'_>,
    future: F,
    mut on_tick: impl FnMut(Python<'_>) -> PyResult<()>,
) -> PyResult<T>
where
    F: Future<Output = T> + Send + 'static,
    T: Send + 'static,
{
    let mut task = runtime().spawn(future);
    loop {
        let waited =
            py.detach(|| runtime().block_on(async { tokio::time::timeout(TICK, &mut task).await }));
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
                    let _ = py.detach(|| runtime().block_on(task));
                    return Err(interrupt);
                }
                on_tick(py)?;
            }
        }
    }
}
