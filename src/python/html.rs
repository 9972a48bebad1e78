//! Jupyter's `_repr_html_` of the core's classes: each class draws itself
//! (`tenor.rs`, `bulk_result.rs`) with the helpers every view of the package
//! uses, `marketcurves._html`'s, so that the Python classes and these look
//! and escape alike.

use pyo3::prelude::*;
use pyo3::types::PyModule;
use pyo3::IntoPyObjectExt;

/// A view's rows: `(label, value)`, the value any Python object.
pub(crate) type Rows<'py> = Vec<(&'static str, Bound<'py, PyAny>)>;

fn helpers(py: Python<'_>) -> PyResult<Bound<'_, PyModule>> {
    py.import("marketcurves._html")
}

/// `_html.facts`: a titled two-column table of `rows`.
pub(crate) fn facts(py: Python<'_>, title: &str, rows: Rows<'_>) -> PyResult<String> {
    helpers(py)?.call_method1("facts", (title, rows))?.extract()
}

/// `_html.number`: a count with thousands separated.
pub(crate) fn number(py: Python<'_>, value: u64) -> PyResult<Bound<'_, PyAny>> {
    helpers(py)?.call_method1("number", (value,))
}

/// `_html.span`: a range from its two ends.
pub(crate) fn span<'py>(py: Python<'py>, ends: (String, String)) -> PyResult<Bound<'py, PyAny>> {
    helpers(py)?.call_method1("span", (ends,))
}

/// Any value as a row's value.
pub(crate) fn value<'py, T>(py: Python<'py>, value: T) -> PyResult<Bound<'py, PyAny>>
where
    T: IntoPyObject<'py>,
{
    value.into_bound_py_any(py)
}
