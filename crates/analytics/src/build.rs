//! Daily forward curves from a table's contracts: for each curve and time,
//! a value for every delivery day from its first contract's first day to
//! its last contract's last day, such that each contract's weighted mean
//! over its days is its price.
//!
//! The contracts are the rows whose tenors have delivery days (months,
//! quarters, windows, any tenor whose dates parse; not `C 00`…), less those
//! every day of which shorter contracts cover (`delivery.rs`). The curve
//! between them is the smoothest one (`smooth.rs`) or the piecewise-flat
//! bootstrap (`flat.rs`). Each curve and time is built alone, and its
//! contracts' means are checked before it is returned: a system that cannot
//! be met is an error naming it, never a curve that misses its prices.
//!
//! A curve is built from one price per contract and time: two different
//! ones are refused, naming both. A null or NaN price is no price. What is
//! left aside without an error is noted for the caller (`build_notes.rs`).

use std::sync::Arc;

use arrow_array::{ArrayRef, Date32Array, Float64Array};

use super::build_notes::Notes;
use super::business::Holidays;
use super::delivery::{deliveries, kept, Delivery, Span};
use super::flat::flat;
use super::grouping::Conflict;
use super::input::{Input, TimeKey};
use super::named::carried;
use super::output::{string_column, table, time_column};
use super::panel::{CurvePanel, Panel};
use super::smooth::Smooth;
use super::weights::{DayWeights, Weights};
use super::CurveError;
use domain::arrow::Table;
use domain::tenor::Tenor;
use domain::timestamp::days_since_epoch;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// The maximum-smoothness curve.
    Smooth,
    /// The piecewise-flat bootstrap.
    Flat,
}

impl Method {
    pub fn parse(name: &str) -> Result<Method, CurveError> {
        match name {
            "smooth" => Ok(Method::Smooth),
            "flat" => Ok(Method::Flat),
            _ => Err(CurveError::new(format!(
                "unknown method {name:?}: a curve is built 'smooth' or 'flat'"
            ))),
        }
    }
}

#[derive(Clone, Debug)]
pub struct BuildSpec {
    pub method: Method,
    pub weights: Weights,
}

impl BuildSpec {
    pub fn new(method: &str, weights: &str, holidays: Holidays) -> Result<BuildSpec, CurveError> {
        Ok(BuildSpec {
            method: Method::parse(method)?,
            weights: Weights::new(weights, holidays)?,
        })
    }
}

/// A relative miss of a contract's mean beyond this is an error.
pub(crate) const TOLERANCE: f64 = 1e-9;

/// One row per curve, time and delivery day: `curve_id`, the time key,
/// `delivery` (date32) and `forward`, with what was left aside noted in the
/// schema's metadata (`build_notes.rs`).
///
/// A row whose price is null or NaN is no price: left out alike. Two rows
/// of one contract and time with different prices are refused, naming
/// both: which one the table means cannot be known, and the curve depends
/// on it.
pub fn build(source: &Table, spec: &BuildSpec) -> Result<Table, CurveError> {
    carried(&[source], build_unnamed(source, spec))
}

fn build_unnamed(source: &Table, spec: &BuildSpec) -> Result<Table, CurveError> {
    let input = Input::read(source, "price")?;
    // Only rows of contracts with delivery days are grouped, so a conflict
    // found is one of a contract the curve is built from.
    let panel = Panel::build_keeping(&input, |curve, row| {
        !input.values.value(row.row as usize).is_nan()
            && curve.contracts[row.contract as usize].start().is_some()
    });
    let notes = Notes::of(&input, &panel);
    let weights = spec.weights.of_table(&input);
    let mut out = Columns::default();
    let mut prepared = Prepared::default();
    for (index, curve) in panel.curves.iter().enumerate() {
        if let Some(conflict) = curve.conflict {
            return Err(two_prices(curve, &conflict, &input));
        }
        let periods = delivery_periods(&curve.contracts);
        for group in &curve.groups {
            let cells = &curve.cells[group.range.clone()];
            let contracts = deliveries(&periods, cells);
            if contracts.is_empty() {
                continue;
            }
            let (first, values) = curve_at(&contracts, spec.method, &weights, &mut prepared)
                .map_err(|problem| problem.error(curve, panel.key.describe(group.time)))?;
            out.push(index as u32, group.time, first, &values);
        }
    }
    Ok(notes.noted(out.finish(&panel)?))
}

fn two_prices(curve: &CurvePanel, conflict: &Conflict, input: &Input) -> CurveError {
    let tenor = curve.contracts[conflict.contract as usize].name();
    let at = input.key.describe(conflict.time);
    let keyed = if input.key == TimeKey::Date
        && input
            .batch
            .column_by_name(TimeKey::GeneratedOn.column())
            .is_some()
    {
        " (rows are keyed by date where the table has one, generated_on aside: drop the \
         date column to build a curve per generated_on)"
    } else {
        ""
    };
    CurveError::new(format!(
        "tenor {tenor:?} of curve {} at {at} has two prices, {} and {}: a curve is built \
         from one price per contract; keep one of the rows{keyed}",
        curve.curve_id, conflict.earlier, conflict.later
    ))
}

/// Each contract's first and last delivery day, where it has them.
pub(crate) fn delivery_periods(contracts: &[Tenor]) -> Vec<Option<(i32, i32)>> {
    contracts
        .iter()
        .map(|t| {
            let (start, end) = (t.start()?, t.end()?);
            Some((days_since_epoch(start), days_since_epoch(end)))
        })
        .collect()
}

/// What stops a curve being built from a set of contracts.
#[derive(Debug, PartialEq)]
pub(crate) enum Problem {
    /// Two kept contracts deliver over the same days.
    SameDays(u32, u32),
    /// A kept contract has no day of positive weight.
    NoWeight(u32),
    /// A contract's price is infinite (NaN is no price, left out before).
    NotFinite(u32),
    /// The kept contracts' means cannot all be met.
    NotMet(Vec<u32>),
}

impl Problem {
    fn error(self, curve: &CurvePanel, at: String) -> CurveError {
        let name = |c: u32| curve.contracts[c as usize].name().to_owned();
        let id = &curve.curve_id;
        CurveError::new(match self {
            Problem::SameDays(a, b) => format!(
                "tenors {:?} and {:?} of curve {id} at {at} deliver over the same days; \
                 keep one of them",
                name(a),
                name(b)
            ),
            Problem::NoWeight(c) => format!(
                "tenor {:?} of curve {id} at {at} has no business day to average over \
                 (every day is a weekend or a holiday)",
                name(c)
            ),
            Problem::NotFinite(c) => format!(
                "tenor {:?} of curve {id} at {at} has an infinite price; drop or fill it first",
                name(c)
            ),
            Problem::NotMet(contracts) => format!(
                "the prices of curve {id} at {at} cannot all be met by one curve: \
                 some of its contracts ({}) are averages of others over the same days",
                contracts
                    .into_iter()
                    .map(name)
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        })
    }
}

/// The smooth solve's preparation for the last contracts seen, kept for the
/// next time: one whose contracts have the same days from the same first
/// day (so the same weights too) reuses it.
#[derive(Default)]
pub(crate) struct Prepared {
    /// The first day and the contracts' days from it.
    key: Option<(i32, Vec<(usize, usize)>)>,
    smooth: Option<Smooth>,
}

impl Prepared {
    fn smooth(&mut self, first: i32, weights: &[f64], spans: &[Span]) -> Option<&Smooth> {
        let key = (first, spans.iter().map(|s| (s.first, s.last)).collect());
        if self.key.as_ref() != Some(&key) {
            self.smooth = Smooth::new(weights, spans);
            self.key = Some(key);
        }
        self.smooth.as_ref()
    }
}

/// The first delivery day and the curve from it, day by day, built from
/// `contracts` (sorted by first day).
pub(crate) fn curve_at(
    contracts: &[Delivery],
    method: Method,
    weights: &DayWeights,
    prepared: &mut Prepared,
) -> Result<(i32, Vec<f64>), Problem> {
    if let Some(c) = contracts.iter().find(|c| !c.price.is_finite()) {
        return Err(Problem::NotFinite(c.contract));
    }
    let keep = kept(contracts);
    let kept: Vec<&Delivery> = contracts
        .iter()
        .zip(&keep)
        .filter(|(_, k)| **k)
        .map(|(c, _)| c)
        .collect();
    for pair in kept.windows(2) {
        if (pair[0].first, pair[0].last) == (pair[1].first, pair[1].last) {
            return Err(Problem::SameDays(pair[0].contract, pair[1].contract));
        }
    }
    let first = kept
        .iter()
        .map(|c| c.first)
        .min()
        .expect("a contract is kept");
    let last = kept
        .iter()
        .map(|c| c.last)
        .max()
        .expect("a contract is kept");
    let weights = weights.of_days(first, last);
    let spans: Vec<Span> = kept
        .iter()
        .map(|c| Span {
            first: (c.first - first) as usize,
            last: (c.last - first) as usize,
            price: c.price,
        })
        .collect();
    for (span, c) in spans.iter().zip(&kept) {
        if span.total(&weights) <= 0.0 {
            return Err(Problem::NoWeight(c.contract));
        }
    }
    let not_met = || Problem::NotMet(kept.iter().map(|c| c.contract).collect());
    let values = match method {
        Method::Smooth => {
            let prices: Vec<f64> = spans.iter().map(|s| s.price).collect();
            let smooth = prepared.smooth(first, &weights, &spans);
            smooth.and_then(|s| s.curve(&prices)).ok_or_else(not_met)?
        }
        Method::Flat => flat(&weights, &spans),
    };
    let scale = spans
        .iter()
        .map(|s| s.price.abs())
        .fold(f64::MIN_POSITIVE, f64::max);
    let met = spans
        .iter()
        .all(|s| (s.mean(&values, &weights) - s.price).abs() <= TOLERANCE * scale);
    if !met {
        return Err(not_met());
    }
    Ok((first, values))
}

/// The output's columns as they are filled.
#[derive(Default)]
struct Columns {
    curves: Vec<u32>,
    times: Vec<i64>,
    days: Vec<i32>,
    values: Vec<f64>,
}

impl Columns {
    fn push(&mut self, curve: u32, time: i64, first: i32, values: &[f64]) {
        let n = values.len();
        self.curves.extend(std::iter::repeat_n(curve, n));
        self.times.extend(std::iter::repeat_n(time, n));
        self.days.extend(first..first + n as i32);
        self.values.extend_from_slice(values);
    }

    fn finish(self, panel: &Panel) -> Result<Table, CurveError> {
        let ids = self
            .curves
            .iter()
            .map(|&c| Some(panel.curves[c as usize].curve_id.as_str()));
        let key: TimeKey = panel.key;
        let columns: Vec<(String, ArrayRef)> = vec![
            ("curve_id".to_owned(), string_column(ids)),
            (key.column().to_owned(), time_column(key, &self.times)),
            (
                "delivery".to_owned(),
                Arc::new(Date32Array::from(self.days)),
            ),
            (
                "forward".to_owned(),
                Arc::new(Float64Array::from(self.values)),
            ),
        ];
        table(columns)
    }
}

#[cfg(test)]
#[path = "build_tests.rs"]
mod tests;
