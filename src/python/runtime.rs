//! The one tokio runtime of the process, shared with pyo3-async-runtimes.

use std::future::Future;

use pyo3::prelude::*;

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
