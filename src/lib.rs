//! `marketcurves._core`: the Python extension. It binds the domain, client
//! and emulator crates and does nothing else: arguments in, the GIL released
//! while Rust works, errors out as Python exceptions. The binding layer in
//! `python/` is compiled only with the `python` feature, which maturin enables.

// Tests that need both the client and the emulator, which only this crate sees.
#[cfg(test)]
mod probe_tests;

#[cfg(feature = "python")]
mod python;

#[cfg(feature = "python")]
#[pyo3::pymodule]
mod _core {
    #[pymodule_export]
    use crate::python::tenor::PyTenor;

    #[pymodule_export]
    use crate::python::emulator::PyEmulator;

    #[pymodule_export]
    use crate::python::client::PyCoreClient;

    #[pymodule_export]
    use crate::python::call::PyCall;

    #[pymodule_export]
    use crate::python::live::{PyLiveFeed, PyTick};

    #[cfg(feature = "probe")]
    #[pymodule_export]
    use crate::python::probe::probe_live;

    #[pymodule_export]
    use crate::python::curves::{
        curves_as_of, curves_build, curves_convert, curves_crack, curves_matrix, curves_residuals,
        curves_rolling, curves_spread,
    };

    #[pymodule_export]
    use crate::python::bulk::{
        bulk_download, bulk_download_job, bulk_status, bulk_submit, bulk_wait, read_bulk,
    };

    #[pymodule_export]
    use crate::python::bulk_result::{PyBulkResult, PySubmittedJob};

    #[pymodule_export]
    use crate::python::record::{check_lake, compact_recording, read_ticks, PyRecorder};

    #[pymodule_export]
    use crate::python::place_arg::secret_storage_options;

    #[pymodule_export]
    use crate::python::backfill::{
        backfill, backfill_lock, backfill_plan, backfill_task, PyBackfillLock,
    };

    /// A recorder's file is closed this long after its first tick, by default.
    #[pymodule_export]
    const RECORD_ROTATE: &str = lake::record::RecordConfig::DEFAULT_ROTATE;

    /// Ticks in one recorder's file at most, by default.
    #[pymodule_export]
    const RECORD_ROTATE_ROWS: usize = lake::record::RecordConfig::DEFAULT_ROTATE_ROWS;

    /// Ticks a recorder holds unwritten before it stops, by default.
    #[pymodule_export]
    const RECORD_HOLD_LIMIT: usize = lake::record::RecordConfig::DEFAULT_HOLD_LIMIT;

    /// Seconds between a bulk job's first status requests, by default.
    #[pymodule_export]
    const BULK_POLL_INTERVAL: f64 = history::bulk::options::DEFAULT_POLL_INTERVAL.as_secs_f64();

    /// Seconds a bulk job may run before the wait gives up, by default.
    #[pymodule_export]
    const BULK_TIMEOUT: f64 = history::bulk::options::DEFAULT_WAIT_TIMEOUT.as_secs_f64();

    /// The longest REST response body a client takes in, by default, in bytes.
    #[pymodule_export]
    const MAX_RESPONSE_BYTES: u64 = history::rest::DEFAULT_MAX_RESPONSE_BYTES;

    /// Ticks waiting for a slow live consumer before the queue conflates, by default.
    #[pymodule_export]
    const LIVE_QUEUE_SIZE: usize = live::LiveConfig::DEFAULT_QUEUE_SIZE;

    /// Seconds of quiet on the live feed before a keep-alive ping, by default.
    #[pymodule_export]
    const LIVE_PING_INTERVAL: f64 = live::LiveConfig::DEFAULT_PING_INTERVAL.as_secs_f64();

    /// Seconds a live ping may wait for its pong, by default.
    #[pymodule_export]
    const LIVE_PONG_TIMEOUT: f64 = live::LiveConfig::DEFAULT_PONG_TIMEOUT.as_secs_f64();

    /// The longest wait between live reconnection attempts, by default, in seconds.
    #[pymodule_export]
    const LIVE_RECONNECT_MAX: f64 = live::LiveConfig::DEFAULT_RECONNECT_MAX.as_secs_f64();

    /// Rows of a live batch, by default.
    #[pymodule_export]
    const LIVE_BATCH_ROWS: usize = live::DEFAULT_BATCH_ROWS;

    /// Seconds a live batch waits for more rows after its first, by default.
    #[pymodule_export]
    const LIVE_BATCH_TIMEOUT: f64 = live::DEFAULT_BATCH_TIMEOUT.as_secs_f64();

    #[pymodule_export]
    use crate::python::tables::{decode_table, table_schema};

    #[pymodule_export]
    use crate::python::live::ticks_batch;

    #[pymodule_init]
    fn init(module: &pyo3::Bound<'_, pyo3::types::PyModule>) -> pyo3::PyResult<()> {
        use pyo3::types::PyModuleMethods;
        // Loggers are looked up once; levels are read at each record, so
        // `logging.getLogger("marketcurves").setLevel(...)` takes effect at once.
        let _ = pyo3_log::Logger::new(module.py(), pyo3_log::Caching::Loggers)?.install();
        module.add("__version__", env!("CARGO_PKG_VERSION"))
    }
}
