//! `marketcurves._core.EmulatorServer`: the emulator run on the shared
//! runtime, with its controls (REST, bulk and live faults, the clock, the
//! live feed's published values). `marketcurves.testing.Emulator` wraps it.

use std::collections::BTreeSet;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

use chrono::{DateTime, NaiveDate, Utc};
use pyo3::prelude::*;

use super::emulator_queries::{at_least_one, bulk_rows, check_scale, check_seconds, published};
use super::errors::invalid_request;
use super::runtime::block_on;
use emulator::accounts::{DEMO_EMAIL, DEMO_PASSWORD};
use emulator::calendar::EarlyClose;
use emulator::faults::Spoil;
use emulator::{AppState, Emulator, EmulatorConfig};

#[pyclass(frozen, name = "EmulatorServer", module = "marketcurves._core")]
pub struct PyEmulator {
    server: Mutex<Option<Emulator>>,
    state: Arc<AppState>,
    base_url: String,
    live_url: String,
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
    ) -> PyResult<Self> {
        let config = EmulatorConfig {
            seed,
            time_scale: check_scale(time_scale)?,
            start,
            early_close: match early_close {
                Some(days) => EarlyClose::Days(days.into_iter().collect::<BTreeSet<_>>()),
                None => EarlyClose::ChristmasAndNewYearsEve,
            },
            bind: SocketAddr::from(([127, 0, 0, 1], port)),
        };
        let server = block_on(py, Emulator::start(config)).map_err(|e| {
            pyo3::exceptions::PyOSError::new_err(format!(
                "cannot start the emulator on port {port}: {e}"
            ))
        })?;
        Ok(PyEmulator {
            state: server.shared_state(),
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

    /// The demo account's email and password.
    #[getter]
    fn credentials(&self) -> (&'static str, &'static str) {
        (DEMO_EMAIL, DEMO_PASSWORD)
    }

    /// A fresh token for an account (default: the demo account).
    #[pyo3(signature = (email = None))]
    fn token(&self, email: Option<&str>) -> String {
        let email = email.unwrap_or(DEMO_EMAIL);
        self.state.accounts.issue(email, self.state.clock.now())
    }

    fn now(&self) -> DateTime<Utc> {
        self.state.clock.now_utc()
    }

    fn set_time(&self, to: DateTime<Utc>) {
        self.state.clock.set(to.timestamp_micros());
    }

    fn advance(&self, seconds: f64) -> PyResult<()> {
        if !seconds.is_finite() {
            return Err(invalid_request("seconds must be a finite number"));
        }
        self.state.clock.advance((seconds * 1e6) as i64);
        Ok(())
    }

    #[getter]
    fn time_scale(&self) -> f64 {
        self.state.clock.scale()
    }

    fn set_time_scale(&self, time_scale: f64) -> PyResult<()> {
        self.state.clock.set_scale(check_scale(time_scale)?);
        Ok(())
    }

    #[pyo3(signature = (count = 1, status = 503, path = None, retry_after = None))]
    fn fail_next(
        &self,
        count: u32,
        status: u16,
        path: Option<String>,
        retry_after: Option<u32>,
    ) -> PyResult<()> {
        if !(100..=599).contains(&status) {
            return Err(invalid_request(format!(
                "status must be an HTTP status from 100 to 599, not {status}"
            )));
        }
        self.state
            .faults
            .fail_next(at_least_one(count)?, status, path, retry_after);
        Ok(())
    }

    #[pyo3(signature = (count = 1, path = None, kind = "reset"))]
    fn spoil_next(&self, count: u32, path: Option<String>, kind: &str) -> PyResult<()> {
        let spoil = match kind {
            "reset" => Spoil::Reset,
            "truncated" => Spoil::Truncate,
            "malformed" => Spoil::Garble,
            other => {
                return Err(invalid_request(format!(
                    "kind must be 'reset', 'truncated' or 'malformed', not {other:?}"
                )))
            }
        };
        self.state
            .faults
            .spoil_next(at_least_one(count)?, path, spoil);
        Ok(())
    }

    fn set_latency(&self, seconds: f64) -> PyResult<()> {
        self.state
            .faults
            .set_latency(check_seconds("latency", seconds)?);
        Ok(())
    }

    fn clear_faults(&self) {
        self.state.faults.clear();
        self.state.live.clear_faults();
    }

    fn expire_tokens(&self) {
        self.state.accounts.expire_all();
    }

    #[pyo3(signature = (email = None, quotation = None))]
    fn revoke_licence(&self, email: Option<&str>, quotation: Option<&str>) -> PyResult<()> {
        let email = email.unwrap_or(DEMO_EMAIL);
        if !self.state.accounts.revoke(email, quotation) {
            return Err(invalid_request(format!("no account {email:?}")));
        }
        Ok(())
    }

    #[pyo3(signature = (email = None))]
    fn restore_licence(&self, email: Option<&str>) -> PyResult<()> {
        let email = email.unwrap_or(DEMO_EMAIL);
        if !self.state.accounts.restore(email) {
            return Err(invalid_request(format!("no account {email:?}")));
        }
        Ok(())
    }

    #[pyo3(signature = (count = 1))]
    fn fail_next_job(&self, count: u32) -> PyResult<()> {
        self.state.faults.fail_next_job(at_least_one(count)?);
        Ok(())
    }

    #[pyo3(signature = (count = 1))]
    fn truncate_next_download(&self, count: u32) -> PyResult<()> {
        self.state
            .faults
            .truncate_next_download(at_least_one(count)?);
        Ok(())
    }

    fn expire_urls(&self) {
        self.state.bulk.jobs.expire_urls(self.state.clock.now());
    }

    fn malicious_paths(&self, enabled: bool) {
        self.state.faults.set_malicious_paths(enabled);
    }

    /// Rows of the bulk file of `vertical` (either spelling) and `month`
    /// (`YYYY-MM`) for an account's quotation licence (default: the demo account).
    #[pyo3(signature = (vertical, month, email = None))]
    fn bulk_rows(
        &self,
        py: Python<'_>,
        vertical: &str,
        month: &str,
        email: Option<&str>,
    ) -> PyResult<u64> {
        let licence = self.state.accounts.licence(email.unwrap_or(DEMO_EMAIL));
        bulk_rows(py, &self.state.world, vertical, month, licence)
    }

    #[pyo3(signature = (email = None))]
    fn revoke_live(&self, email: Option<&str>) -> PyResult<()> {
        let email = email.unwrap_or(DEMO_EMAIL);
        if !self.state.accounts.revoke_live(email) {
            return Err(invalid_request(format!("no account {email:?}")));
        }
        Ok(())
    }

    fn drop_live_connections(&self) {
        self.state.live.drop_connections();
    }

    fn restart_feed(&self) {
        self.state.live.restart_feed();
    }

    #[pyo3(signature = (count = 1))]
    fn fail_next_auth(&self, count: u32) -> PyResult<()> {
        self.state.live.faults.fail_next_auth(at_least_one(count)?);
        Ok(())
    }

    #[pyo3(signature = (count = 1))]
    fn fail_next_live_command(&self, count: u32) -> PyResult<()> {
        self.state
            .live
            .faults
            .fail_next_command(at_least_one(count)?);
        Ok(())
    }

    fn answer_pings(&self, enabled: bool) {
        self.state.live.faults.set_answer_pings(enabled);
    }

    fn silence_live(&self, enabled: bool) {
        self.state.live.faults.set_silent(enabled);
    }

    fn firehose(&self, enabled: bool) {
        self.state.live.set_firehose(enabled);
    }

    #[getter]
    fn live_connections(&self) -> usize {
        self.state.live.connections()
    }

    /// Values the live feed published for a curve and tenor from `start` to
    /// `end` (default: the start of the emulator's day to now).
    #[pyo3(signature = (curve_id, tenor, start = None, end = None))]
    fn published(
        &self,
        curve_id: &str,
        tenor: &str,
        start: Option<DateTime<Utc>>,
        end: Option<DateTime<Utc>>,
    ) -> PyResult<Vec<(DateTime<Utc>, f64)>> {
        published(&self.state, curve_id, tenor, start, end)
    }

    #[getter]
    fn running(&self) -> bool {
        self.server.lock().expect("server lock").is_some()
    }

    /// Stops the server; open connections get up to 2 s to finish.
    fn stop(&self, py: Python<'_>) {
        let server = self.server.lock().expect("server lock").take();
        if let Some(mut server) = server {
            block_on(py, async move { server.stop().await });
        }
    }

    fn __repr__(&self) -> String {
        let state = if self.running() { "running" } else { "stopped" };
        format!("EmulatorServer(base_url={:?}, {state})", self.base_url)
    }
}
