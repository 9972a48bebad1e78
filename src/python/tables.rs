//! Arrow tables from response bodies, exported to pyarrow through the Arrow
//! PyCapsule interface (no copy of the buffers).

use pyo3::prelude::*;
use pyo3_arrow::PySchema;

use super::arrow_out::to_pyarrow;
use super::errors::{decode_error, invalid_request};
use domain::arrow::{build_batch, schema, Table, TableKind};
use domain::decode::{decode_price_rows, PriceEndpoint, RequestContext};

fn table_kind(name: &str) -> PyResult<TableKind> {
    TableKind::parse(name).ok_or_else(|| {
        invalid_request(format!(
            "kind must be 'prices', 'settlements', 'assessments' or 'live', not {name:?}"
        ))
    })
}

fn price_endpoint(name: &str) -> PyResult<PriceEndpoint> {
    Ok(match name {
        "last_settlement" => PriceEndpoint::LastSettlement,
        "last_settlement_all" => PriceEndpoint::LastSettlementAll,
        "last_assessments" => PriceEndpoint::LastAssessments,
        "last_assessments_all" => PriceEndpoint::LastAssessmentsAll,
        "intraday" => PriceEndpoint::OngoingIntraday,
        "settlements" => PriceEndpoint::HistoricalSettlements,
        "intraday_history" => PriceEndpoint::HistoricalIntraday,
        _ => {
            return Err(invalid_request(format!(
                "endpoint must be one of last_settlement, last_settlement_all, last_assessments, \
                 last_assessments_all, intraday, settlements, intraday_history; not {name:?}"
            )))
        }
    })
}

fn kind_of(endpoint: PriceEndpoint) -> TableKind {
    match endpoint {
        PriceEndpoint::LastAssessments | PriceEndpoint::LastAssessmentsAll => {
            TableKind::Assessments
        }
        PriceEndpoint::HistoricalSettlements => TableKind::Settlements,
        _ => TableKind::Prices,
    }
}

/// The pyarrow schema of a table kind.
#[pyfunction]
#[pyo3(name = "_table_schema")]
pub(crate) fn table_schema(py: Python<'_>, kind: &str) -> PyResult<Py<PyAny>> {
    let schema = schema(table_kind(kind)?);
    Ok(PySchema::new(schema).into_pyarrow(py)?.unbind())
}

/// Decodes the JSON body of a price endpoint into a pyarrow Table.
#[pyfunction]
#[pyo3(name = "_decode_table", signature = (endpoint, body, curve_id, tenor = None))]
pub(crate) fn decode_table(
    py: Python<'_>,
    endpoint: &str,
    body: &[u8],
    curve_id: &str,
    tenor: Option<&str>,
) -> PyResult<Py<PyAny>> {
    let endpoint = price_endpoint(endpoint)?;
    let request = RequestContext { curve_id, tenor };
    let batch = py
        .detach(|| {
            let rows = decode_price_rows(endpoint, body, request)?;
            Ok(build_batch(kind_of(endpoint), rows))
        })
        .map_err(|e| decode_error(py, &e))?
        .map_err(|e| pyo3::exceptions::PyRuntimeError::new_err(e.to_string()))?;
    let table = Table {
        schema: batch.schema(),
        batches: vec![batch],
    };
    to_pyarrow(py, table)
}
