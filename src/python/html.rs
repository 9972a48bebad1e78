//! Jupyter's `_repr_html_` of the core's classes. The HTML itself is written
//! by `marketcurves._html`, the package's one writer (and escaper) of HTML,
//! so that the Python classes and these look and escape alike.

use pyo3::prelude::*;

/// The view `marketcurves._html.<view>` draws of `value`.
pub(crate) fn repr_html(value: &Bound<'_, PyAny>, view: &str) -> PyResult<String> {
    let py = value.py();
    py.import("marketcurves._html")?
        .getattr(view)?
        .call1((value,))?
        .extract()
}
