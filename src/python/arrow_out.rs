//! Tables handed to Python as `pyarrow.Table`, through the Arrow PyCapsule
//! stream interface (no copy of the buffers).

use pyo3::intern;
use pyo3::prelude::*;
use pyo3_arrow::PyTable;

use domain::arrow::Table;

/// The table as a `pyarrow.Table`. Read through
/// `pyarrow.RecordBatchReader.from_stream`, not `pyarrow.table()`: that one
/// first asks whether its argument is a pandas DataFrame, which imports
/// pandas (a quarter of a second, and its memory) in a process that may never
/// use it. pyarrow 14 has no `from_stream`, and gets `pyarrow.table()`.
pub(crate) fn to_pyarrow(py: Python<'_>, table: Table) -> PyResult<Py<PyAny>> {
    let table = PyTable::try_new(table.batches, table.schema)?;
    let readers = py
        .import(intern!(py, "pyarrow"))?
        .getattr(intern!(py, "RecordBatchReader"))?;
    if !readers.hasattr(intern!(py, "from_stream"))? {
        return Ok(table.into_pyarrow(py)?.unbind());
    }
    let reader = readers.call_method1(intern!(py, "from_stream"), (table.into_pyobject(py)?,))?;
    Ok(reader.call_method0(intern!(py, "read_all"))?.unbind())
}
