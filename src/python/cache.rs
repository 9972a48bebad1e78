//! The history cache's arguments and answers: modes from their names, what
//! the cache holds as dicts (`marketcurves.cache.CacheInfo`, `Cleared`).

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use client::cache::{CacheInfo, CacheMode, Cleared};
use client::ClientError;

/// A call's mode: None leaves the client's.
pub fn call_mode(mode: Option<&str>) -> Result<Option<CacheMode>, ClientError> {
    mode.map(|m| CacheMode::parse("cache", m)).transpose()
}

pub fn info_dict(py: Python<'_>, info: CacheInfo) -> PyResult<Bound<'_, PyDict>> {
    let curves = PyList::empty(py);
    for curve in info.curves {
        let entry = PyDict::new(py);
        entry.set_item("curve_id", curve.curve_id)?;
        entry.set_item("history", curve.history.name())?;
        entry.set_item("tenors", curve.tenors)?;
        entry.set_item("first", curve.first)?;
        entry.set_item("last", curve.last)?;
        entry.set_item("files", curve.files)?;
        entry.set_item("bytes", curve.bytes)?;
        curves.append(entry)?;
    }
    let dict = PyDict::new(py);
    dict.set_item("dir", info.dir.to_string_lossy())?;
    dict.set_item("files", info.files)?;
    dict.set_item("bytes", info.bytes)?;
    dict.set_item("curves", curves)?;
    Ok(dict)
}

pub fn cleared_dict(py: Python<'_>, cleared: Cleared) -> PyResult<Bound<'_, PyDict>> {
    let dict = PyDict::new(py);
    dict.set_item("files", cleared.files)?;
    dict.set_item("bytes", cleared.bytes)?;
    Ok(dict)
}
