//! `marketcurves._core.CoreClient`: the core of a `marketcurves.Client`,
//! the handle its REST, bulk, live and record calls take (it holds the
//! history crate's `RestClient`: connection pool, token, cache). Each call
//! returns a `Call` (`call.rs`) that `marketcurves.Client` waits for in a
//! blocking method and awaits in its `_async` twin. `marketcurves.Client`
//! resolves arguments and environment, then calls it. Each method builds its
//! request (the core checks its values) before it looks at the client, so
//! bad input is refused even by a closed client.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use chrono::NaiveDate;
use pyo3::prelude::*;
use pyo3_arrow::PyTable;

use super::cache::call_mode;
use super::call::PyCall;
use super::closing::close_and_release;
use super::curves::table_in;
use super::errors::{client_closed, invalid_request, CoreResult};
use super::place_arg::PlaceArg;
use super::results;
use super::runtime::wait_interruptibly;
use domain::redact::redact_text;
use history::cache::{Cache, CacheMode};
use history::rest::{
    Budget, CatalogueQuery, Contracts, Credentials, HistoryQuery, HttpConfig, PriceQuery, Progress,
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
                ClientError::auth(
                    places::AuthReason::ProviderFailed,
                    None,
                    format!("it must return a str, not {kind}"),
                )
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
    /// A folder, an object store URL, or an obstore store (`place_arg`).
    cache_dir: Option<PlaceArg>,
    /// For a `cache_dir` that is an object store URL.
    cache_storage_options: Option<BTreeMap<String, String>>,
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
            cache_storage_options,
            cache,
            max_response_bytes,
        } = options;
        let mode = CacheMode::parse("cache", &cache)?;
        let store_options: Vec<(String, String)> = cache_storage_options
            .unwrap_or_default()
            .into_iter()
            .collect();
        let cache = match cache_dir {
            Some(dir) => Some(Cache::at(
                "cache_dir",
                dir.into_place("cache_dir", &store_options)?,
                mode,
            )?),
            None if !store_options.is_empty() => {
                return Err(invalid_request(
                    "storage_options apply to a cache_dir that is an object store URL, \
                     and there is no cache_dir",
                )
                .into())
            }
            None => None,
        };
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

    fn catalogue(&self, request: CatalogueRequest) -> CoreResult<PyCall> {
        let CatalogueRequest {
            vertical,
            quotation,
            region,
            custom,
            cache,
        } = request;
        let query = CatalogueQuery::new(
            vertical.as_deref(),
            quotation.as_deref(),
            region.as_deref(),
            custom,
        )?;
        let mode = call_mode(cache.as_deref())?;
        let inner = self.rest()?;
        inner.cache_mode(mode)?;
        let call = async move { inner.catalogue(&query, mode).await };
        Ok(PyCall::client(call, |py, curves| {
            Ok(results::catalogue(py, curves)?.unbind())
        }))
    }

    #[pyo3(signature = (curve_id, tenor = None))]
    fn last_settlement(&self, curve_id: String, tenor: Option<String>) -> CoreResult<PyCall> {
        let query = PriceQuery::new(&curve_id, tenor.as_deref())?;
        let inner = self.rest()?;
        Ok(PyCall::table(
            async move { inner.last_settlement(&query).await },
        ))
    }

    #[pyo3(signature = (curve_id, tenor = None))]
    fn last_assessments(&self, curve_id: String, tenor: Option<String>) -> CoreResult<PyCall> {
        let query = PriceQuery::new(&curve_id, tenor.as_deref())?;
        let inner = self.rest()?;
        Ok(PyCall::table(async move {
            inner.last_assessments(&query).await
        }))
    }

    #[pyo3(signature = (curve_id, tenor, max_requests = None))]
    fn intraday(
        &self,
        curve_id: String,
        tenor: String,
        max_requests: Option<u64>,
    ) -> CoreResult<PyCall> {
        let query = TenorQuery::new(&curve_id, &tenor)?.with_budget(Budget(max_requests));
        let inner = self.rest()?;
        let counts = Arc::new(Progress::default());
        let shared = Arc::clone(&counts);
        let call = async move { inner.intraday(&query, &shared).await };
        Ok(PyCall::table(call).reporting_requests(counts))
    }

    fn settlements(&self, request: HistoryRequest) -> CoreResult<PyCall> {
        let (query, mode, inner) = request.ready(self)?;
        let counts = Arc::new(Progress::default());
        let shared = Arc::clone(&counts);
        let call = async move { inner.settlements(&query, &shared, mode).await };
        Ok(PyCall::table(call).reporting_requests(counts))
    }

    fn intraday_history(&self, request: HistoryRequest) -> CoreResult<PyCall> {
        let (query, mode, inner) = request.ready(self)?;
        let counts = Arc::new(Progress::default());
        let shared = Arc::clone(&counts);
        let call = async move { inner.intraday_history(&query, &shared, mode).await };
        Ok(PyCall::table(call).reporting_requests(counts))
    }

    fn cache_info(&self) -> CoreResult<PyCall> {
        let inner = self.rest()?;
        let call = async move { inner.cache_info().await };
        Ok(PyCall::client(call, |py, info| {
            Ok(results::cache_info(py, info)?.unbind())
        }))
    }

    #[pyo3(signature = (curve_id = None, before = None))]
    fn clear_cache(
        &self,
        curve_id: Option<String>,
        before: Option<NaiveDate>,
    ) -> CoreResult<PyCall> {
        let inner = self.rest()?;
        let call = async move { inner.clear_cache(curve_id, before).await };
        Ok(PyCall::client(call, |py, cleared| {
            Ok(results::cleared(py, cleared)?.unbind())
        }))
    }

    /// `table` naming its curves from the catalogue (`RestClient::name_curves`).
    fn name_curves(&self, table: PyTable) -> CoreResult<PyCall> {
        let (inner, table) = (self.rest()?, table_in(table));
        Ok(PyCall::table(async move {
            RestClient::name_curves(Some(&inner), table).await
        }))
    }
}

/// A catalogue call's arguments as one value: the dict `marketcurves.Client`
/// builds (`CatalogueRequest` in `_options.py`), its types checked in Python.
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
pub(crate) struct CatalogueRequest {
    vertical: Option<String>,
    quotation: Option<String>,
    region: Option<String>,
    custom: Vec<(String, String)>,
    cache: Option<String>,
}

/// A history call's arguments (settlements, intraday history) as one value:
/// the dict `marketcurves.Client` builds (`HistoryRequest` in
/// `_options.py`), its types checked in Python.
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
pub(crate) struct HistoryRequest {
    curve_id: String,
    start: NaiveDate,
    end: NaiveDate,
    tenors: Option<Vec<String>>,
    contracts: String,
    cache: Option<String>,
    max_requests: Option<u64>,
}

impl HistoryRequest {
    /// The query and cache mode, their values checked, and the client.
    fn ready(
        self,
        client: &PyCoreClient,
    ) -> CoreResult<(HistoryQuery, Option<CacheMode>, Arc<RestClient>)> {
        let query = HistoryQuery::new(&self.curve_id, self.start, self.end, self.tenors)?
            .with_contracts(Contracts::parse(&self.contracts)?)?
            .with_budget(Budget(self.max_requests));
        let mode = call_mode(self.cache.as_deref())?;
        let inner = client.rest()?;
        inner.cache_mode(mode)?;
        Ok((query, mode, inner))
    }
}
