//! `marketcurves._core.EmulatorServer`: the emulator run on a runtime of
//! its own (`runtime::emulator_runtime`), its control API
//! ([`emulator::Controls`]) bound method for method under the same names.
//! `marketcurves.testing.Emulator` wraps it.

use std::net::SocketAddr;
use std::sync::Mutex;

use chrono::{DateTime, NaiveDate, Utc};
use pyo3::exceptions::PyOSError;
use pyo3::prelude::*;

use super::errors::CoreResult;
use super::runtime::emulator_runtime;
use emulator::calendar::EarlyClose;
use emulator::faults::Corruption;
use emulator::{Controls, Emulator, EmulatorConfig, StartError};

#[pyclass(frozen, name = "EmulatorServer", module = "marketcurves._core")]
pub struct PyEmulator {
    server: Mutex<Option<Emulator>>,
    controls: Controls,
    base_url: String,
    live_url: String,
}

/// The demo account's login, as the dict `POST /authenticate` takes.
#[derive(IntoPyObject)]
struct Credentials {
    email: &'static str,
    password: &'static str,
}

#[pymethods]
impl PyEmulator {
    #[new]
    #[pyo3(signature = (seed = 0, time_scale = 1.0, start = None, port = 0, early_close = None))]
    fn new(
        py: Python<'_>,
        seed: u64,
        time_scale: f64,
        start: Option<DateTime<Utc>>,
        port: u16,
        early_close: Option<Vec<NaiveDate>>,
    ) -> CoreResult<Self> {
        let config = EmulatorConfig {
            seed,
            time_scale,
            start,
            early_close: match early_close {
                Some(days) => EarlyClose::Days(days.into_iter().collect()),
                None => EarlyClose::ChristmasAndNewYearsEve,
            },
            bind: SocketAddr::from(([127, 0, 0, 1], port)),
        };
        let runtime = emulator_runtime()?;
        let server = match py.detach(|| runtime.block_on(Emulator::start(config))) {
            Ok(server) => server,
            Err(StartError::Config(invalid)) => return Err(invalid.into()),
            Err(unbound) => return Err(PyOSError::new_err(unbound.to_string()).into()),
        };
        Ok(PyEmulator {
            controls: server.controls(),
            base_url: server.base_url(),
            live_url: server.live_url(),
            server: Mutex::new(Some(server)),
        })
    }

    #[getter]
    fn base_url(&self) -> &str {
        &self.base_url
    }

    #[getter]
    fn live_url(&self) -> &str {
        &self.live_url
    }

    #[getter]
    fn credentials(&self) -> Credentials {
        let login = self.controls.credentials();
        Credentials {
            email: login.email,
            password: login.password,
        }
    }

    #[pyo3(signature = (email = None))]
    fn token(&self, email: Option<&str>) -> String {
        self.controls.token(email)
    }

    // The clock.

    fn now(&self) -> DateTime<Utc> {
        self.controls.now()
    }

    fn set_time(&self, when: DateTime<Utc>) {
        self.controls.set_time(when);
    }

    fn advance(&self, seconds: f64) -> CoreResult<()> {
        Ok(self.controls.advance(seconds)?)
    }

    #[getter]
    fn time_scale(&self) -> f64 {
        self.controls.time_scale()
    }

    #[setter]
    fn set_time_scale(&self, time_scale: f64) -> CoreResult<()> {
        Ok(self.controls.set_time_scale(time_scale)?)
    }

    // REST faults and accounts.

    #[pyo3(signature = (count = 1, status = 503, *, path = None, retry_after = None))]
    fn fail_next(
        &self,
        count: u32,
        status: u16,
        path: Option<&str>,
        retry_after: Option<u32>,
    ) -> CoreResult<()> {
        Ok(self.controls.fail_next(count, status, path, retry_after)?)
    }

    #[pyo3(signature = (count = 1, *, path = None))]
    fn reset_next(&self, count: u32, path: Option<&str>) -> CoreResult<()> {
        Ok(self.controls.reset_next(count, path)?)
    }

    #[pyo3(signature = (count = 1, *, path = None, kind = "truncated"))]
    fn corrupt_next(&self, count: u32, path: Option<&str>, kind: &str) -> CoreResult<()> {
        let kind: Corruption = kind.parse()?;
        Ok(self.controls.corrupt_next(count, path, kind)?)
    }

    fn set_latency(&self, seconds: f64) -> CoreResult<()> {
        Ok(self.controls.set_latency(seconds)?)
    }

    fn clear_faults(&self) {
        self.controls.clear_faults();
    }

    #[pyo3(signature = (path = None))]
    fn request_count(&self, path: Option<&str>) -> u64 {
        self.controls.request_count(path)
    }

    #[pyo3(signature = (reset = false))]
    fn peak_in_flight(&self, reset: bool) -> usize {
        self.controls.peak_in_flight(reset)
    }

    fn expire_tokens(&self) {
        self.controls.expire_tokens();
    }

    #[pyo3(signature = (email = None, *, quotation = None))]
    fn revoke_licence(&self, email: Option<&str>, quotation: Option<&str>) -> CoreResult<()> {
        Ok(self.controls.revoke_licence(email, quotation)?)
    }

    #[pyo3(signature = (email = None))]
    fn restore_licence(&self, email: Option<&str>) -> CoreResult<()> {
        Ok(self.controls.restore_licence(email)?)
    }

    // Bulk download.

    #[pyo3(signature = (count = 1))]
    fn fail_next_job(&self, count: u32) -> CoreResult<()> {
        Ok(self.controls.fail_next_job(count)?)
    }

    #[pyo3(signature = (count = 1))]
    fn truncate_next_download(&self, count: u32) -> CoreResult<()> {
        Ok(self.controls.truncate_next_download(count)?)
    }

    fn expire_urls(&self) {
        self.controls.expire_urls();
    }

    fn malicious_paths(&self, enabled: bool) {
        self.controls.malicious_paths(enabled);
    }

    #[pyo3(signature = (vertical, month, *, email = None))]
    fn bulk_rows(
        &self,
        py: Python<'_>,
        vertical: &str,
        month: &str,
        email: Option<&str>,
    ) -> CoreResult<u64> {
        Ok(py.detach(|| self.controls.bulk_rows(vertical, month, email))?)
    }

    fn add_curves(&self, py: Python<'_>, vertical: &str, count: u32) -> CoreResult<()> {
        Ok(py.detach(|| self.controls.add_curves(vertical, count))?)
    }

    // The live feed.

    #[pyo3(signature = (email = None))]
    fn revoke_live(&self, email: Option<&str>) -> CoreResult<()> {
        Ok(self.controls.revoke_live(email)?)
    }

    fn drop_live_connections(&self) {
        self.controls.drop_live_connections();
    }

    fn restart_feed(&self) {
        self.controls.restart_feed();
    }

    #[pyo3(signature = (count = 1))]
    fn fail_next_auth(&self, count: u32) -> CoreResult<()> {
        Ok(self.controls.fail_next_auth(count)?)
    }

    #[pyo3(signature = (count = 1))]
    fn fail_next_live_command(&self, count: u32) -> CoreResult<()> {
        Ok(self.controls.fail_next_live_command(count)?)
    }

    fn answer_pings(&self, enabled: bool) {
        self.controls.answer_pings(enabled);
    }

    fn silence_live(&self, enabled: bool) {
        self.controls.silence_live(enabled);
    }

    fn firehose(&self, enabled: bool) {
        self.controls.firehose(enabled);
    }

    #[getter]
    fn live_connections(&self) -> usize {
        self.controls.live_connections()
    }

    #[pyo3(signature = (curve_id, tenor, start = None, end = None))]
    fn published(
        &self,
        py: Python<'_>,
        curve_id: &str,
        tenor: &str,
        start: Option<DateTime<Utc>>,
        end: Option<DateTime<Utc>>,
    ) -> CoreResult<Vec<(DateTime<Utc>, f64)>> {
        let values = py.detach(|| self.controls.published(curve_id, tenor, start, end))?;
        Ok(values
            .into_iter()
            .map(|v| (v.generated_on, v.price))
            .collect())
    }

    // The server.

    #[getter]
    fn running(&self) -> bool {
        self.server.lock().expect("server lock").is_some()
    }

    /// Stops the server; open connections get up to 2 s to finish.
    fn stop(&self, py: Python<'_>) {
        let server = self.server.lock().expect("server lock").take();
        if let Some(mut server) = server {
            // In a forked child the server is the parent's: nothing to stop.
            if let Ok(runtime) = emulator_runtime() {
                py.detach(|| runtime.block_on(server.stop()));
            }
        }
    }

    fn __repr__(&self) -> String {
        let state = if self.running() { "running" } else { "stopped" };
        format!("EmulatorServer(base_url={:?}, {state})", self.base_url)
    }
}
