//! Arguments taken as any Python object and checked here, so that a wrong
//! type is an `InvalidRequest` naming the argument, as everywhere else in the
//! package, rather than PyO3's `TypeError`.

use pyo3::prelude::*;
use pyo3::types::{PyBool, PyString};

use super::errors::invalid_request;

fn type_name(value: &Bound<'_, PyAny>) -> String {
    value
        .get_type()
        .name()
        .map_or_else(|_| "?".to_owned(), |n| n.to_string())
}

/// A `str` that is not blank.
pub fn text(value: &Bound<'_, PyAny>, name: &str) -> PyResult<String> {
    let Ok(text) = value.cast::<PyString>() else {
        return Err(invalid_request(format!(
            "{name} must be a str, not {}",
            type_name(value)
        )));
    };
    let text = text.to_cow()?;
    if text.trim().is_empty() {
        return Err(invalid_request(format!("{name} must not be empty")));
    }
    Ok(text.into_owned())
}

/// `True` or `False`, nothing merely truthy.
pub fn flag(value: &Bound<'_, PyAny>, name: &str) -> PyResult<bool> {
    match value.cast::<PyBool>() {
        Ok(flag) => Ok(flag.is_true()),
        Err(_) => Err(invalid_request(format!(
            "{name} must be True or False, not {}",
            type_name(value)
        ))),
    }
}
