//! marketcurves: the client for the market curve data service.
//!
//! The Rust core ([`domain`]) knows nothing of Python; the binding layer in
//! `python/` is compiled only with the `python` feature, which maturin enables.

pub mod bulk;
pub mod client;
pub mod domain;
pub mod emulator;
// Property checks shared by the fuzz targets in fuzz/ and their `cargo test` smoke.
#[doc(hidden)]
pub mod fuzzing;
pub mod live;
pub mod net;

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
    use crate::python::client::PyRestClient;

    #[pymodule_export]
    use crate::python::live::{PyLiveFeed, PyTick};

    #[pymodule_export]
    use crate::python::probe::probe_live;

    #[pymodule_export]
    use crate::python::bulk::{
        bulk_download, bulk_download_job, bulk_status, bulk_submit, bulk_wait, read_bulk,
    };

    #[pymodule_export]
    use crate::python::tables::{decode_table, table_schema};

    #[pymodule_init]
    fn init(module: &pyo3::Bound<'_, pyo3::types::PyModule>) -> pyo3::PyResult<()> {
        use pyo3::types::PyModuleMethods;
        // Loggers are looked up once; levels are read at each record, so
        // `logging.getLogger("marketcurves").setLevel(...)` takes effect at once.
        let _ = pyo3_log::Logger::new(module.py(), pyo3_log::Caching::Loggers)?.install();
        module.add("__version__", env!("CARGO_PKG_VERSION"))
    }
}
