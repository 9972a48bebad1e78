//! Core errors into the exception tree of `marketcurves.exceptions`.
//!
//! The exception classes are defined in Python (docstrings, attributes) and
//! imported here on first use.

use chrono::NaiveDate;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use analytics::{Adjust, CurveError, Term};
use domain::decode::DecodeError;
use domain::tenor::TenorError;
use domain::tenor_range::RangeError;
use emulator::ControlError;
use places::{Advice, Argument, ClientError, Invalid, Lead, Rule};

pyo3::import_exception!(marketcurves.exceptions, InvalidRequest);

/// Bad input from the caller, raised before anything is sent.
pub(crate) fn invalid_request(message: impl Into<String>) -> PyErr {
    InvalidRequest::new_err(message.into())
}

/// A core error on its way to Python. `?` turns any core error into one, and
/// pyo3 raises it as the exception of `marketcurves.exceptions` it maps to
/// (a binding returns [`CoreResult`]), so no call site maps errors by hand.
pub enum CoreError {
    Python(PyErr),
    Client(ClientError),
    Tenor(TenorError),
    Range(RangeError),
    Curve(CurveError),
    Emulator(ControlError),
}

pub(crate) type CoreResult<T> = Result<T, CoreError>;

impl From<PyErr> for CoreError {
    fn from(error: PyErr) -> CoreError {
        CoreError::Python(error)
    }
}

impl From<ClientError> for CoreError {
    fn from(error: ClientError) -> CoreError {
        CoreError::Client(error)
    }
}

impl From<TenorError> for CoreError {
    fn from(error: TenorError) -> CoreError {
        CoreError::Tenor(error)
    }
}

impl From<RangeError> for CoreError {
    fn from(error: RangeError) -> CoreError {
        CoreError::Range(error)
    }
}

impl From<CurveError> for CoreError {
    fn from(error: CurveError) -> CoreError {
        CoreError::Curve(error)
    }
}

impl From<ControlError> for CoreError {
    fn from(error: ControlError) -> CoreError {
        CoreError::Emulator(error)
    }
}

impl From<CoreError> for PyErr {
    fn from(error: CoreError) -> PyErr {
        match error {
            CoreError::Python(error) => error,
            CoreError::Client(error) => Python::attach(|py| client_error(py, error)),
            CoreError::Tenor(error) => invalid_request(error.to_string()),
            CoreError::Range(error) => invalid_request(error.to_string()),
            CoreError::Curve(error) => invalid_request(error.words(&curve_term)),
            CoreError::Emulator(error) => invalid_request(error.to_string()),
        }
    }
}

/// A `DecodeError` carrying the endpoint and field as attributes.
pub(crate) fn decode_error(py: Python<'_>, error: &DecodeError) -> PyErr {
    let build = || -> PyResult<PyErr> {
        let class = py
            .import("marketcurves.exceptions")?
            .getattr("DecodeError")?;
        let kwargs = PyDict::new(py);
        kwargs.set_item("endpoint", &error.endpoint)?;
        kwargs.set_item("field", &error.field)?;
        let instance = class.call((error.to_string(),), Some(&kwargs))?;
        Ok(PyErr::from_value(instance))
    };
    build().unwrap_or_else(|import_failure| import_failure)
}

pyo3::import_exception!(marketcurves.exceptions, AuthError);
pyo3::import_exception!(marketcurves.exceptions, AccessDenied);
pyo3::import_exception!(marketcurves.exceptions, NotFound);
pyo3::import_exception!(marketcurves.exceptions, RateLimited);
pyo3::import_exception!(marketcurves.exceptions, ServiceError);
pyo3::import_exception!(marketcurves.exceptions, DestinationError);
pyo3::import_exception!(marketcurves.exceptions, BulkJobFailed);
pyo3::import_exception!(marketcurves.exceptions, LiveFeedError);
pyo3::import_exception!(marketcurves.exceptions, ClientClosed);
pyo3::import_exception!(marketcurves.exceptions, MarketCurvesError);

/// The client was closed: raised by every call made after, and by those it cut short.
pub(crate) fn client_closed() -> PyErr {
    ClientClosed::new_err(ClientError::ClientClosed.to_string())
}

/// The name of the Python parameter an argument is given by, where it is
/// not the core's own word for it.
fn parameter(argument: &Argument) -> &str {
    match argument {
        Argument::Curve => "curve_id",
        Argument::CacheMode => "cache=",
        Argument::CacheFolder => "cache_dir",
        Argument::CaBundle => "ca_bundle",
        Argument::BaseUrl => "base_url",
        Argument::TokenProvider => "token_provider",
        Argument::PollInterval => "poll_interval",
        Argument::BatchRows => "max_rows",
        Argument::Concurrency => "max_concurrency",
        Argument::HoldLimit => "hold_limit",
        Argument::Budget => "max_requests",
        other => other.words(),
    }
}

/// What to do, in Python's terms (the parameter, the command line's flag),
/// with what joins it to the message.
fn advice(advice: Advice) -> &'static str {
    match advice {
        Advice::CacheFolder => ": pass cache_dir= to the client, or set MARKETCURVES_CACHE_DIR",
        Advice::NotStrict => {
            "; pass strict=False (marketcurves live: --no-strict) to subscribe anyway"
        }
        Advice::CaBundle => "; pass ca_bundle= a PEM file of the CA certificates to trust",
        Advice::InspectedTls => {
            "; if a proxy or firewall of your network inspects TLS, pass ca_bundle= the path \
             of a PEM file with its CA certificates (or set SSL_CERT_FILE)"
        }
        Advice::FetchCatalogue => {
            " (fetch it once online; a history call needs the whole catalogue to list a \
             curve's tenors, unless tenors= names them)"
        }
        Advice::ResponseLimit => "; max_response_bytes raises the limit",
        Advice::Narrow => {
            "; narrow it: fewer tenors, a shorter range from start to end, or a cache_dir= \
             that holds its days (cached days cost no request)"
        }
        _ => "",
    }
}

/// A term of a curve function's error in Python's syntax: the parameter
/// of `mc.curves` and the value given.
fn curve_term(term: Term) -> String {
    match term {
        Term::Adjust(Adjust::None) => "adjust='none'".into(),
        Term::Adjust(Adjust::Difference) => "adjust='difference'".into(),
        Term::Adjust(Adjust::Ratio) => "adjust='ratio'".into(),
        Term::BusinessWeights => "weights=\"business\"".into(),
        Term::GiveFactor => "pass factor=".into(),
        other => other.words().to_owned(),
    }
}

/// Bad input in Python's words: the parameter's name where the core's words
/// lead with the argument, then the advice in Python's terms.
pub(crate) fn python_words(invalid: &Invalid) -> String {
    let name = parameter(&invalid.argument);
    if let Rule::Budget { needed, allowed } = invalid.rule {
        let plural = if needed == 1 { "" } else { "s" };
        let advice = invalid.advice.map_or("", advice);
        return format!(
            "the call needs {needed} request{plural}, more than {name}={allowed} \
             (marketcurves: --max-requests) allows{advice}"
        );
    }
    let mut words = match (&invalid.lead, invalid.rest()) {
        // `tenors='expired' and tenors='all'`: the keyword given each value.
        (Lead::Values(values), Some(rest)) => {
            let keyword = name.trim_end_matches('=');
            let each: Vec<String> = values.iter().map(|v| format!("{keyword}='{v}'")).collect();
            format!("{}{rest}", each.join(" and "))
        }
        // `cache="offline"`: a keyword and its value, with no space between.
        (_, Some(rest)) if name.ends_with('=') => format!("{name}{}", rest.trim_start()),
        (_, Some(rest)) => format!("{name}{rest}"),
        (_, None) => invalid.words.clone(),
    };
    if let Some(given) = invalid.advice {
        words.push_str(advice(given));
    }
    words
}

/// A client error's message in Python's words: the parameters it names
/// and the advice it gives.
fn python_message(error: &ClientError) -> String {
    match error {
        ClientError::InvalidRequest(invalid) => python_words(invalid),
        ClientError::Auth(failure) => failure.words(parameter),
        other => other.advised_message(&|given| advice(given).to_owned()),
    }
}

/// A client error as the exception of the design's tree.
pub(crate) fn client_error(py: Python<'_>, error: ClientError) -> PyErr {
    let message = python_message(&error);
    match error {
        ClientError::InvalidRequest(Invalid {
            rule: Rule::Budget { needed, allowed },
            ..
        }) => budget_exceeded(py, message, needed, allowed),
        ClientError::InvalidRequest(_) => InvalidRequest::new_err(message),
        ClientError::Auth(_) => AuthError::new_err(message),
        ClientError::TokenProvider { cause, .. } => {
            let error = AuthError::new_err(message);
            let raised = cause.downcast_ref::<PyErr>().map(|e| e.clone_ref(py));
            error.set_cause(py, raised);
            error
        }
        ClientError::AccessDenied { .. } => AccessDenied::new_err(message),
        ClientError::NotFound { .. } => NotFound::new_err(message),
        ClientError::RateLimited { .. } => RateLimited::new_err(message),
        ClientError::Service { .. } => ServiceError::new_err(message),
        ClientError::Decode(decode) => decode_error(py, &decode),
        ClientError::BulkJobFailed { .. } => BulkJobFailed::new_err(message),
        ClientError::Live { .. } => LiveFeedError::new_err(message),
        ClientError::ClientClosed => ClientClosed::new_err(message),
        ClientError::Destination(_) => DestinationError::new_err(message),
        // A defect of the package: the base class, with the message saying so.
        ClientError::Internal { .. } => MarketCurvesError::new_err(message),
        ClientError::CacheMiss {
            curve_id, missing, ..
        } => cache_miss(py, message, curve_id, missing),
    }
}

/// A `CacheMiss` carrying the curve and, per tenor, the runs of days missing.
fn cache_miss(
    py: Python<'_>,
    message: String,
    curve_id: Option<String>,
    missing: Vec<(String, Vec<(NaiveDate, NaiveDate)>)>,
) -> PyErr {
    let build = || -> PyResult<PyErr> {
        let class = py.import("marketcurves.exceptions")?.getattr("CacheMiss")?;
        let kwargs = PyDict::new(py);
        kwargs.set_item("curve_id", curve_id)?;
        let by_tenor = PyDict::new(py);
        for (tenor, runs) in missing {
            by_tenor.set_item(tenor, runs)?;
        }
        kwargs.set_item("missing", by_tenor)?;
        let instance = class.call((message,), Some(&kwargs))?;
        Ok(PyErr::from_value(instance))
    };
    build().unwrap_or_else(|import_failure| import_failure)
}

/// A `BudgetExceeded` carrying the requests the call needs and those its
/// budget allows.
fn budget_exceeded(py: Python<'_>, message: String, needed: u32, allowed: u32) -> PyErr {
    let build = || -> PyResult<PyErr> {
        let class = py
            .import("marketcurves.exceptions")?
            .getattr("BudgetExceeded")?;
        let kwargs = PyDict::new(py);
        kwargs.set_item("needed", needed)?;
        kwargs.set_item("allowed", allowed)?;
        let instance = class.call((message,), Some(&kwargs))?;
        Ok(PyErr::from_value(instance))
    };
    build().unwrap_or_else(|import_failure| import_failure)
}
