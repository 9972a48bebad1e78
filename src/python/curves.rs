//! `marketcurves.curves`: the bindings of [`analytics`]. Tables come in
//! and go out through the Arrow PyCapsule interface; the work runs with the
//! GIL released.

use std::collections::HashMap;

use chrono::{DateTime, NaiveDate, Utc};
use pyo3::prelude::*;
use pyo3_arrow::PyTable;

use super::arrow_out::to_pyarrow;
use super::errors::CoreResult;
use analytics::{
    self as curves, Adjust, At, BuildSpec, CurveError, Factor, Factors, Holidays, Leg, Product,
    RollSpec, Unit, Weights,
};
use domain::arrow::Table;
use domain::tenor::Tenor;

/// Barrels per tonne as a number, or the name of a product with a standard figure.
#[derive(FromPyObject)]
pub(crate) enum FactorArg {
    Number(f64),
    Product(String),
}

impl FactorArg {
    fn factor(self) -> Result<Factor, CurveError> {
        Ok(match self {
            FactorArg::Number(n) => Factor::BarrelsPerTonne(n),
            FactorArg::Product(name) => Factor::Product(Product::parse(&name)?),
        })
    }
}

/// One leg's factors, as `curves._factors` gives them: one for every
/// curve, and one per curve id.
#[derive(FromPyObject)]
pub(crate) struct FactorsArg(Option<FactorArg>, HashMap<String, FactorArg>);

fn factors(FactorsArg(all, per_curve): FactorsArg) -> Result<Factors, CurveError> {
    let mut out = Factors {
        all: all.map(FactorArg::factor).transpose()?,
        ..Factors::default()
    };
    for (curve, factor) in per_curve {
        out.per_curve.insert(curve, factor.factor()?);
    }
    Ok(out)
}

/// Holidays as Python hands them over: dates (a calendar's name is resolved
/// to them there), or `"data"`.
#[derive(FromPyObject)]
pub(crate) enum HolidaysArg {
    Name(String),
    Dates(Vec<NaiveDate>),
}

impl HolidaysArg {
    fn holidays(self) -> Result<Holidays, CurveError> {
        match self {
            HolidaysArg::Name(name) => Holidays::named(&name),
            HolidaysArg::Dates(dates) => Ok(Holidays::Dates(dates)),
        }
    }
}

/// A table as Python handed it over.
pub(crate) fn table_in(table: PyTable) -> Table {
    let (batches, schema) = table.into_inner();
    Table { schema, batches }
}

/// A roll, as `curves._roll_args` gives it: the kind of contracts, the
/// nearby positions and the roll days.
#[derive(FromPyObject)]
pub(crate) struct RollArg(String, Vec<u32>, u32);

/// Each position's price (or, with `log`, its tenor) per curve and time,
/// rolled `roll_days` business days of `holidays` before delivery and
/// back-adjusted across rolls as `adjust` says.
#[pyfunction]
#[pyo3(signature = (table, roll, log, adjust, holidays))]
pub(crate) fn curves_rolling(
    py: Python<'_>,
    table: PyTable,
    roll: RollArg,
    log: bool,
    adjust: &str,
    holidays: HolidaysArg,
) -> CoreResult<Py<PyAny>> {
    let RollArg(kind, nearby, roll_days) = roll;
    let spec = RollSpec::new(&kind, nearby, roll_days)?
        .adjusted(Adjust::parse(adjust)?)
        .with_holidays(holidays.holidays()?);
    let table = table_in(table);
    let out = py.detach(|| {
        if log {
            curves::roll_log(&table, &spec)
        } else {
            curves::rolling(&table, &spec)
        }
    })?;
    Ok(to_pyarrow(py, out)?)
}

/// Near minus far per curve and time.
#[pyfunction]
#[pyo3(signature = (table, near, far, roll_days, holidays))]
pub(crate) fn curves_spread(
    py: Python<'_>,
    table: PyTable,
    near: &str,
    far: &str,
    roll_days: u32,
    holidays: HolidaysArg,
) -> CoreResult<Py<PyAny>> {
    let (near, far) = (Leg::parse(near, "near")?, Leg::parse(far, "far")?);
    let holidays = holidays.holidays()?;
    let table = table_in(table);
    let out = py.detach(|| curves::spread(&table, &near, &far, roll_days, &holidays))?;
    Ok(to_pyarrow(py, out)?)
}

/// Product minus crude per tenor and time, both in `units`.
#[pyfunction]
pub(crate) fn curves_crack(
    py: Python<'_>,
    product: PyTable,
    crude: PyTable,
    units: &str,
    factors_of_product: FactorsArg,
    factors_of_crude: FactorsArg,
) -> CoreResult<Py<PyAny>> {
    let to = Unit::parse(units)?;
    let product_factors = factors(factors_of_product)?;
    let crude_factors = factors(factors_of_crude)?;
    let (product, crude) = (table_in(product), table_in(crude));
    let out =
        py.detach(|| curves::crack(&product, &crude, to, &product_factors, &crude_factors))?;
    Ok(to_pyarrow(py, out)?)
}

/// The table with its prices in `to`.
#[pyfunction]
pub(crate) fn curves_convert(
    py: Python<'_>,
    table: PyTable,
    to: &str,
    factors_of: FactorsArg,
) -> CoreResult<Py<PyAny>> {
    let to = Unit::parse(to)?;
    let factors = factors(factors_of)?;
    let table = table_in(table);
    let out = py.detach(|| curves::convert(&table, to, &factors))?;
    Ok(to_pyarrow(py, out)?)
}

/// One row per curve and time, one column per tenor.
#[pyfunction]
pub(crate) fn curves_matrix(py: Python<'_>, table: PyTable, values: &str) -> CoreResult<Py<PyAny>> {
    let table = table_in(table);
    let out = py.detach(|| curves::matrix(&table, values))?;
    Ok(to_pyarrow(py, out)?)
}

/// A daily forward curve per curve and time, from its contracts.
#[pyfunction]
#[pyo3(signature = (table, method, weights, holidays))]
pub(crate) fn curves_build(
    py: Python<'_>,
    table: PyTable,
    method: &str,
    weights: &str,
    holidays: HolidaysArg,
) -> CoreResult<Py<PyAny>> {
    let spec = BuildSpec::new(method, weights, holidays.holidays()?)?;
    let table = table_in(table);
    let out = py.detach(|| curves::build(&table, &spec))?;
    Ok(to_pyarrow(py, out)?)
}

/// Each contract row's price against the built curve's mean over its days.
#[pyfunction]
#[pyo3(signature = (table, built, weights, holidays))]
pub(crate) fn curves_residuals(
    py: Python<'_>,
    table: PyTable,
    built: PyTable,
    weights: &str,
    holidays: HolidaysArg,
) -> CoreResult<Py<PyAny>> {
    let weights = Weights::new(weights, holidays.holidays()?)?;
    let (table, built) = (table_in(table), table_in(built));
    let out = py.detach(|| curves::residuals(&table, &built, &weights))?;
    Ok(to_pyarrow(py, out)?)
}

/// Times as Python hands them over: a frequency, or aware datetimes.
#[derive(FromPyObject)]
pub(crate) enum AtArg {
    Every(String),
    Times(Vec<DateTime<Utc>>),
}

/// Each tenor's last value at or before each time, per curve.
#[pyfunction]
pub(crate) fn curves_as_of(py: Python<'_>, table: PyTable, at: AtArg) -> CoreResult<Py<PyAny>> {
    let at = match at {
        AtArg::Every(text) => At::every(&text)?,
        AtArg::Times(times) => At::Times(times.iter().map(DateTime::timestamp_micros).collect()),
    };
    let table = table_in(table);
    let out = py.detach(|| curves::as_of(&table, &at))?;
    Ok(to_pyarrow(py, out)?)
}

/// The names of the tenors of a kind overlapping `start..=end`.
pub(crate) fn tenor_range(kind: &str, start: NaiveDate, end: NaiveDate) -> CoreResult<Vec<String>> {
    Ok(Tenor::range(kind, start, end)?
        .into_iter()
        .map(|t| t.name().to_owned())
        .collect())
}
