//! `marketcurves._core.CoreClient`: the core of a `marketcurves.Client`,
//! the handle its REST, bulk, live and record calls take (it holds the
//! client crate's `RestClient`: connection pool, token, cache), with
//! blocking and awaitable methods over the same Rust futures. `marketcurves.Client`
//! resolves arguments and environment, then calls it. Each method builds its
//! request (the core checks its values) before it looks at the client, so
//! bad input is refused even by a closed client.

use std::future::Future;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use chrono::NaiveDate;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use pyo3_arrow::PyTable;

use super::arrow_out::to_pyarrow;
use super::cache::call_mode;
use super::closing::close_and_release;
use super::curves::table_in;
use super::errors::{client_closed, client_error, invalid_request, CoreResult};
use super::results;
use super::runtime::wait_interruptibly;
use domain::arrow::Table;
use domain::redact::redact_text;
use history::cache::{Cache, CacheMode};
use history::rest::{
    CatalogueQuery, Contracts, Credentials, HistoryQuery, HttpConfig, PriceQuery, Progress,
    TenorQuery, TokenProvider,
};
use history::RestClient;
use places::net::Network;
use places::{ClientError, Secret};

/// A Python callable returning a token.
struct PyTokenProvider(Py<PyAny>);

impl TokenProvider for PyTokenProvider {
    fn token(&self) -> Result<String, ClientError> {
        Python::attach(|py| {
            let value = self.0.call0(py).map_err(|raised| {
                // What it raised is the user's own: its message is shown, with
                // anything that looks like a secret taken out, and the exception
                // itself becomes the AuthError's `__cause__`.
                let kind = raised
                    .get_type(py)
                    .name()
                    .map_or("an exception".into(), |n| n.to_string());
                let said = raised.value(py).str().map(|s| s.to_string());
                let message = match said.as_deref().map(str::trim) {
                    Ok("") | Err(_) => format!("token_provider failed: it raised {kind}"),
                    Ok(said) => format!(
                        "token_provider failed: it raised {kind}: {}",
                        redact_text(said)
                    ),
                };
                ClientError::TokenProvider {
                    message,
                    cause: Arc::new(raised),
                }
            })?;
            value.extract::<String>(py).map_err(|_| {
                let kind = value
                    .bind(py)
                    .get_type()
                    .name()
                    .map_or("?".into(), |n| n.to_string());
                ClientError::Auth(format!(
                    "token_provider failed: it must return a str, not {kind}"
                ))
            })
        })
    }
}

#[pyclass(frozen, name = "CoreClient", module = "marketcurves._core")]
pub struct PyCoreClient {
    /// None once closed: from then on the client lives only as long as the
    /// calls it cut short, and its connection pool goes with it.
    inner: Mutex<Option<Arc<RestClient>>>,
}

impl PyCoreClient {
    fn slot(&self) -> MutexGuard<'_, Option<Arc<RestClient>>> {
        // Only a take or a clone runs under the lock: a poisoned one is intact.
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The client, or `ClientClosed` once it is closed, before anything is sent.
    pub(crate) fn rest(&self) -> PyResult<Arc<RestClient>> {
        self.slot().clone().ok_or_else(client_closed)
    }
}

/// Runs a table-producing call to the end, showing progress through `progress(done, total)`.
pub(crate) fn blocking_table<F>(
    py: Python<'_>,
    progress: Option<Py<PyAny>>,
    counts: Arc<Progress>,
    call: F,
) -> PyResult<Py<PyAny>>
where
    F: Future<Output = Result<Table, ClientError>> + Send + 'static,
{
    let report = |py: Python<'_>| -> PyResult<()> {
        if let Some(callback) = &progress {
            let (done, total) = counts.read();
            callback.call1(py, (done, total))?;
        }
        Ok(())
    };
    let batch = wait_interruptibly(py, call, report)?.map_err(|e| client_error(py, e))?;
    to_pyarrow(py, batch)
}

/// The awaitable form of a table-producing call.
fn awaitable_table<'py, F>(py: Python<'py>, call: F) -> PyResult<Bound<'py, PyAny>>
where
    F: Future<Output = Result<Table, ClientError>> + Send + 'static,
{
    super::runtime::awaitable(py, async move {
        let result = call.await;
        Python::attach(|py| to_pyarrow(py, result.map_err(|e| client_error(py, e))?))
    })
}

/// A client's options as one value: the dict `marketcurves.Client` builds
/// (`ClientOptions` in `_core.pyi`), every key given, one kind of
/// credentials set and the others None, the types checked in Python.
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
pub(crate) struct ClientOptions {
    token: Option<String>,
    token_provider: Option<Py<PyAny>>,
    email: Option<String>,
    password: Option<String>,
    max_concurrency: usize,
    timeout: f64,
    max_retries: u32,
    ca_bundle: Option<std::path::PathBuf>,
    cache_dir: Option<std::path::PathBuf>,
    cache: String,
    max_response_bytes: u64,
}

#[pymethods]
impl PyCoreClient {
    #[new]
    fn new(base_url: String, options: ClientOptions) -> CoreResult<Self> {
        let ClientOptions {
            token,
            token_provider,
            email,
            password,
            max_concurrency,
            timeout,
            max_retries,
            ca_bundle,
            cache_dir,
            cache,
            max_response_bytes,
        } = options;
        let mode = CacheMode::parse("cache", &cache)?;
        let cache = cache_dir
            .map(|dir| Cache::new("cache_dir", dir, mode))
            .transpose()?;
        let credentials = match (token, token_provider, email, password) {
            (Some(token), None, None, None) => Credentials::Token(Secret::new(token)),
            (None, Some(provider), None, None) => {
                Credentials::Provider(Arc::new(PyTokenProvider(provider)))
            }
            (None, None, Some(email), Some(password)) => Credentials::Login {
                email,
                password: Secret::new(password),
            },
            // `marketcurves.Client` passes exactly one kind.
            _ => {
                return Err(invalid_request(
                    "give exactly one of token, token_provider, or email with password",
                )
                .into())
            }
        };
        // Checked by `marketcurves.Client` (a finite number > 0); only converted here.
        let timeout = Duration::try_from_secs_f64(timeout)
            .map_err(|e| invalid_request(format!("timeout: {e}")))?;
        let network = Network::from_env(ca_bundle.as_deref())?;
        let config = HttpConfig {
            base_url: base_url.trim_end_matches('/').to_owned(),
            credentials,
            max_concurrency,
            timeout,
            max_retries,
            network,
            max_response_bytes,
        };
        let mut inner = RestClient::new(config)?;
        if let Some(cache) = cache {
            inner = inner.with_cache(cache);
        }
        Ok(PyCoreClient {
            inner: Mutex::new(Some(Arc::new(inner))),
        })
    }

    /// Ends every call in flight and every live feed of this client with
    /// `ClientClosed`, and waits for them to let go of it; later calls raise
    /// `ClientClosed` at once. Idempotent.
    fn close(&self, py: Python<'_>) -> PyResult<()> {
        // Taken in a statement of its own: a guard in the `match` would be
        // held through the wait below, which gives up and takes back the
        // GIL, while another thread's close holds the GIL waiting for it.
        let taken = self.slot().take();
        match taken {
            // In a child forked after the runtime started, what the client
            // holds is the parent's to close: it is only let go of here.
            Some(_) if super::runtime::forked() => Ok(()),
            Some(rest) => wait_interruptibly(py, close_and_release(rest), |_| Ok(())),
            None => Ok(()),
        }
    }

    fn close_async<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let rest = self.slot().take();
        super::runtime::awaitable(py, async move {
            if let Some(rest) = rest {
                close_and_release(rest).await;
            }
            Ok(())
        })
    }

    #[getter]
    fn closed(&self) -> bool {
        self.slot().is_none()
    }

    #[pyo3(signature = (vertical = None, quotation = None, region = None, custom = Vec::new(), cache = None))]
    fn catalogue<'py>(
        &self,
        py: Python<'py>,
        vertical: Option<String>,
        quotation: Option<String>,
        region: Option<String>,
        custom: Vec<(String, String)>,
        cache: Option<&str>,
    ) -> CoreResult<Bound<'py, PyList>> {
        let query = CatalogueQuery::new(
            vertical.as_deref(),
            quotation.as_deref(),
            region.as_deref(),
            custom,
        )?;
        let mode = call_mode(cache)?;
        let inner = self.rest()?;
        inner.cache_mode(mode)?;
        let call = async move { inner.catalogue(&query, mode).await };
        let curves = wait_interruptibly(py, call, |_| Ok(()))??;
        Ok(results::catalogue(py, curves)?)
    }

    #[pyo3(signature = (vertical = None, quotation = None, region = None, custom = Vec::new(), cache = None))]
    fn catalogue_async<'py>(
        &self,
        py: Python<'py>,
        vertical: Option<String>,
        quotation: Option<String>,
        region: Option<String>,
        custom: Vec<(String, String)>,
        cache: Option<&str>,
    ) -> CoreResult<Bound<'py, PyAny>> {
        let query = CatalogueQuery::new(
            vertical.as_deref(),
            quotation.as_deref(),
            region.as_deref(),
            custom,
        )?;
        let mode = call_mode(cache)?;
        let inner = self.rest()?;
        inner.cache_mode(mode)?;
        let awaitable = super::runtime::awaitable(py, async move {
            let curves = inner.catalogue(&query, mode).await;
            Python::attach(|py| {
                let curves = curves.map_err(|e| client_error(py, e))?;
                results::catalogue(py, curves).map(Bound::unbind)
            })
        })?;
        Ok(awaitable)
    }

    #[pyo3(signature = (curve_id, tenor = None))]
    fn last_settlement(
        &self,
        py: Python<'_>,
        curve_id: String,
        tenor: Option<String>,
    ) -> CoreResult<Py<PyAny>> {
        let query = PriceQuery::new(&curve_id, tenor.as_deref())?;
        let inner = self.rest()?;
        let call = async move { inner.last_settlement(&query).await };
        Ok(blocking_table(py, None, Arc::default(), call)?)
    }

    #[pyo3(signature = (curve_id, tenor = None))]
    fn last_settlement_async<'py>(
        &self,
        py: Python<'py>,
        curve_id: String,
        tenor: Option<String>,
    ) -> CoreResult<Bound<'py, PyAny>> {
        let query = PriceQuery::new(&curve_id, tenor.as_deref())?;
        let inner = self.rest()?;
        Ok(awaitable_table(py, async move {
            inner.last_settlement(&query).await
        })?)
    }

    #[pyo3(signature = (curve_id, tenor = None))]
    fn last_assessments(
        &self,
        py: Python<'_>,
        curve_id: String,
        tenor: Option<String>,
    ) -> CoreResult<Py<PyAny>> {
        let query = PriceQuery::new(&curve_id, tenor.as_deref())?;
        let inner = self.rest()?;
        let call = async move { inner.last_assessments(&query).await };
        Ok(blocking_table(py, None, Arc::default(), call)?)
    }

    #[pyo3(signature = (curve_id, tenor = None))]
    fn last_assessments_async<'py>(
        &self,
        py: Python<'py>,
        curve_id: String,
        tenor: Option<String>,
    ) -> CoreResult<Bound<'py, PyAny>> {
        let query = PriceQuery::new(&curve_id, tenor.as_deref())?;
        let inner = self.rest()?;
        Ok(awaitable_table(py, async move {
            inner.last_assessments(&query).await
        })?)
    }

    #[pyo3(signature = (curve_id, tenor, progress = None))]
    fn intraday(
        &self,
        py: Python<'_>,
        curve_id: String,
        tenor: String,
        progress: Option<Py<PyAny>>,
    ) -> CoreResult<Py<PyAny>> {
        let query = TenorQuery::new(&curve_id, &tenor)?;
        let inner = self.rest()?;
        let counts = Arc::new(Progress::default());
        let shared = Arc::clone(&counts);
        let call = async move { inner.intraday(&query, &shared).await };
        Ok(blocking_table(py, progress, counts, call)?)
    }

    fn intraday_async<'py>(
        &self,
        py: Python<'py>,
        curve_id: String,
        tenor: String,
    ) -> CoreResult<Bound<'py, PyAny>> {
        let query = TenorQuery::new(&curve_id, &tenor)?;
        let inner = self.rest()?;
        Ok(awaitable_table(py, async move {
            inner.intraday(&query, &Progress::default()).await
        })?)
    }

    #[pyo3(signature = (curve_id, start, end, tenors = None, progress = None, cache = None, contracts = "listed"))]
    #[allow(clippy::too_many_arguments)]
    fn settlements(
        &self,
        py: Python<'_>,
        curve_id: String,
        start: NaiveDate,
        end: NaiveDate,
        tenors: Option<Vec<String>>,
        progress: Option<Py<PyAny>>,
        cache: Option<&str>,
        contracts: &str,
    ) -> CoreResult<Py<PyAny>> {
        let query = HistoryQuery::new(&curve_id, start, end, tenors)?
            .with_contracts(Contracts::parse(contracts)?)?;
        let mode = call_mode(cache)?;
        let inner = self.rest()?;
        inner.cache_mode(mode)?;
        let counts = Arc::new(Progress::default());
        let shared = Arc::clone(&counts);
        let call = async move { inner.settlements(&query, &shared, mode).await };
        Ok(blocking_table(py, progress, counts, call)?)
    }

    #[pyo3(signature = (curve_id, start, end, tenors = None, cache = None, contracts = "listed"))]
    #[allow(clippy::too_many_arguments)]
    fn settlements_async<'py>(
        &self,
        py: Python<'py>,
        curve_id: String,
        start: NaiveDate,
        end: NaiveDate,
        tenors: Option<Vec<String>>,
        cache: Option<&str>,
        contracts: &str,
    ) -> CoreResult<Bound<'py, PyAny>> {
        let query = HistoryQuery::new(&curve_id, start, end, tenors)?
            .with_contracts(Contracts::parse(contracts)?)?;
        let mode = call_mode(cache)?;
        let inner = self.rest()?;
        inner.cache_mode(mode)?;
        Ok(awaitable_table(py, async move {
            inner.settlements(&query, &Progress::default(), mode).await
        })?)
    }

    #[pyo3(signature = (curve_id, start, end, tenors = None, progress = None, cache = None, contracts = "listed"))]
    #[allow(clippy::too_many_arguments)]
    fn intraday_history(
        &self,
        py: Python<'_>,
        curve_id: String,
        start: NaiveDate,
        end: NaiveDate,
        tenors: Option<Vec<String>>,
        progress: Option<Py<PyAny>>,
        cache: Option<&str>,
        contracts: &str,
    ) -> CoreResult<Py<PyAny>> {
        let query = HistoryQuery::new(&curve_id, start, end, tenors)?
            .with_contracts(Contracts::parse(contracts)?)?;
        let mode = call_mode(cache)?;
        let inner = self.rest()?;
        inner.cache_mode(mode)?;
        let counts = Arc::new(Progress::default());
        let shared = Arc::clone(&counts);
        let call = async move { inner.intraday_history(&query, &shared, mode).await };
        Ok(blocking_table(py, progress, counts, call)?)
    }

    #[pyo3(signature = (curve_id, start, end, tenors = None, cache = None, contracts = "listed"))]
    #[allow(clippy::too_many_arguments)]
    fn intraday_history_async<'py>(
        &self,
        py: Python<'py>,
        curve_id: String,
        start: NaiveDate,
        end: NaiveDate,
        tenors: Option<Vec<String>>,
        cache: Option<&str>,
        contracts: &str,
    ) -> CoreResult<Bound<'py, PyAny>> {
        let query = HistoryQuery::new(&curve_id, start, end, tenors)?
            .with_contracts(Contracts::parse(contracts)?)?;
        let mode = call_mode(cache)?;
        let inner = self.rest()?;
        inner.cache_mode(mode)?;
        Ok(awaitable_table(py, async move {
            inner
                .intraday_history(&query, &Progress::default(), mode)
                .await
        })?)
    }

    fn cache_info<'py>(&self, py: Python<'py>) -> CoreResult<Bound<'py, PyDict>> {
        let inner = self.rest()?;
        let call = async move { inner.cache_info().await };
        let info = wait_interruptibly(py, call, |_| Ok(()))??;
        Ok(results::cache_info(py, info)?)
    }

    fn cache_info_async<'py>(&self, py: Python<'py>) -> CoreResult<Bound<'py, PyAny>> {
        let inner = self.rest()?;
        Ok(super::runtime::awaitable(py, async move {
            let info = inner.cache_info().await;
            Python::attach(|py| {
                let info = info.map_err(|e| client_error(py, e))?;
                Ok(results::cache_info(py, info)?.unbind())
            })
        })?)
    }

    #[pyo3(signature = (curve_id = None, before = None))]
    fn clear_cache<'py>(
        &self,
        py: Python<'py>,
        curve_id: Option<String>,
        before: Option<NaiveDate>,
    ) -> CoreResult<Bound<'py, PyDict>> {
        let inner = self.rest()?;
        let call = async move { inner.clear_cache(curve_id, before).await };
        let cleared = wait_interruptibly(py, call, |_| Ok(()))??;
        Ok(results::cleared(py, cleared)?)
    }

    #[pyo3(signature = (curve_id = None, before = None))]
    fn clear_cache_async<'py>(
        &self,
        py: Python<'py>,
        curve_id: Option<String>,
        before: Option<NaiveDate>,
    ) -> CoreResult<Bound<'py, PyAny>> {
        let inner = self.rest()?;
        Ok(super::runtime::awaitable(py, async move {
            let cleared = inner.clear_cache(curve_id, before).await;
            Python::attach(|py| {
                let cleared = cleared.map_err(|e| client_error(py, e))?;
                Ok(results::cleared(py, cleared)?.unbind())
            })
        })?)
    }
    /// `table` naming its curves from the catalogue (`RestClient::name_curves`).
    fn name_curves(&self, py: Python<'_>, table: PyTable) -> CoreResult<Py<PyAny>> {
        let (inner, table) = (self.rest()?, table_in(table));
        let call = async move { Ok(RestClient::name_curves(Some(&inner), table).await) };
        Ok(blocking_table(py, None, Arc::default(), call)?)
    }

    fn name_curves_async<'py>(
        &self,
        py: Python<'py>,
        table: PyTable,
    ) -> CoreResult<Bound<'py, PyAny>> {
        let (inner, table) = (self.rest()?, table_in(table));
        Ok(awaitable_table(py, async move {
            Ok(RestClient::name_curves(Some(&inner), table).await)
        })?)
    }
}
