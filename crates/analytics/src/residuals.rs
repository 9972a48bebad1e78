//! How far a built curve is from each contract: the curve's weighted mean
//! over the contract's delivery days, and the price less that mean. Zero,
//! to rounding, for the contracts a curve was built from; the contracts
//! left out (a quarter whose months are priced) show how far they disagree.

use std::collections::HashMap as StdHashMap;
use std::sync::Arc;

use arrow_array::{Array, ArrayRef, Float64Array, RecordBatch};

use super::build::delivery_periods;
use super::input::{days, numbers, one_batch, strings, times, Input, TimeKey};
use super::named::carried;
use super::output::{string_column, table as build_table, time_column};
use super::rows::NamedRows;
use super::weights::{DayWeights, Weights};
use super::CurveError;
use domain::arrow::Table;

type HashMap<K, V> = StdHashMap<K, V, ahash::RandomState>;

/// One row per row of `source` whose tenor has delivery days (rows without a
/// curve, tenor, time or price, null or NaN, left out, as `build` leaves
/// them out):
/// `curve_id`, the time key, `tenor`, `price`, `mean` and `residual`, by
/// curve, time and tenor in calendar order.
pub fn residuals(source: &Table, built: &Table, weights: &Weights) -> Result<Table, CurveError> {
    carried(&[source, built], residuals_unnamed(source, built, weights))
}

fn residuals_unnamed(
    source: &Table,
    built: &Table,
    weights: &Weights,
) -> Result<Table, CurveError> {
    let input = Input::read(source, "price")?;
    let weights = &weights.of_table(&input);
    let named = NamedRows::read(&input);
    let curves = read_built(built, input.key, &named)?;
    let periods: Vec<Vec<Option<(i32, i32)>>> = named
        .curves
        .iter()
        .map(|c| delivery_periods(&c.contracts))
        .collect();
    let mut rows: Vec<_> = named
        .rows
        .iter()
        // A NaN price is no price, as in `build`.
        .filter(|r| !input.values.value(r.row as usize).is_nan())
        .filter_map(|r| Some((r, periods[r.curve as usize][r.contract as usize]?)))
        .collect();
    rows.sort_by_key(|(r, _)| (r.curve, r.time, r.contract, r.row));
    let mut prices = Vec::with_capacity(rows.len());
    let mut means = Vec::with_capacity(rows.len());
    for &(r, (first, last)) in &rows {
        let curve = &named.curves[r.curve as usize];
        let tenor = curve.contracts[r.contract as usize].name();
        let at = || input.key.describe(r.time);
        let values = curves.get(&(r.curve, r.time)).ok_or_else(|| {
            CurveError::new(format!(
                "built has no curve for {} at {}: build it from the same table",
                curve.curve_id,
                at()
            ))
        })?;
        let mean = values.mean(first, last, weights).map_err(|missing| {
            CurveError::new(match missing {
                Missing::Day(day) => format!(
                    "built has no forward on {} for curve {} at {}, which tenor {tenor:?} \
                     delivers on: build it from the same table",
                    TimeKey::Date.describe(i64::from(day)),
                    curve.curve_id,
                    at()
                ),
                Missing::Weight => format!(
                    "tenor {tenor:?} of curve {} at {} has no business day to average over \
                     (every day is a weekend or a holiday)",
                    curve.curve_id,
                    at()
                ),
            })
        })?;
        prices.push(input.values.value(r.row as usize));
        means.push(mean);
    }
    let residual: Vec<f64> = prices.iter().zip(&means).map(|(p, m)| p - m).collect();
    let ids = rows
        .iter()
        .map(|(r, _)| Some(named.curves[r.curve as usize].curve_id.as_str()));
    let tenors = rows
        .iter()
        .map(|(r, _)| Some(named.curves[r.curve as usize].contracts[r.contract as usize].name()));
    let times: Vec<i64> = rows.iter().map(|(r, _)| r.time).collect();
    let columns: Vec<(String, ArrayRef)> = vec![
        ("curve_id".to_owned(), string_column(ids)),
        (
            input.key.column().to_owned(),
            time_column(input.key, &times),
        ),
        ("tenor".to_owned(), string_column(tenors)),
        ("price".to_owned(), Arc::new(Float64Array::from(prices))),
        ("mean".to_owned(), Arc::new(Float64Array::from(means))),
        (
            "residual".to_owned(),
            Arc::new(Float64Array::from(residual)),
        ),
    ];
    build_table(columns)
}

/// A hundred years of days: more than any built curve spans, and held
/// densely, so a table with a stray date far off is refused, not allocated.
const MAX_DAYS: i32 = 36_525;

/// One curve at one time of `built`: its values from its first day, NaN
/// on a day it does not have.
struct DayValues {
    first: i32,
    values: Vec<f64>,
}

enum Missing {
    Day(i32),
    Weight,
}

impl DayValues {
    fn mean(&self, first: i32, last: i32, weights: &DayWeights) -> Result<f64, Missing> {
        let (mut sum, mut total) = (0.0, 0.0);
        for (day, w) in (first..=last).zip(weights.of_days(first, last)) {
            let value = usize::try_from(day - self.first)
                .ok()
                .and_then(|i| self.values.get(i))
                .filter(|v| !v.is_nan())
                .ok_or(Missing::Day(day))?;
            sum += w * value;
            total += w;
        }
        if total > 0.0 {
            Ok(sum / total)
        } else {
            Err(Missing::Weight)
        }
    }
}

/// `built`'s curves by (curve, time), the curves those of `named` (others
/// are not needed).
fn read_built(
    built: &Table,
    key: TimeKey,
    named: &NamedRows,
) -> Result<HashMap<(u32, i64), DayValues>, CurveError> {
    let batch = one_batch(built)?;
    for name in ["curve_id", key.column(), "delivery", "forward"] {
        if batch.column_by_name(name).is_none() {
            return Err(CurveError::new(format!(
                "built has no column {name:?}; it needs curve_id, {}, delivery and \
                 forward, as build returns them for this table",
                key.column()
            )));
        }
    }
    let index: HashMap<&str, u32> = named
        .curves
        .iter()
        .zip(0..)
        .map(|(c, i)| (c.curve_id.as_str(), i))
        .collect();
    let mut points: HashMap<(u32, i64), Vec<(i32, f64)>> = HashMap::default();
    gather_points(&batch, key, &index, &mut points)?;
    points
        .into_iter()
        .map(|(at, mut points)| {
            if !points.is_sorted_by_key(|p| p.0) {
                points.sort_by_key(|p| p.0);
            }
            let first = points[0].0;
            if points[points.len() - 1].0 - first > MAX_DAYS {
                return Err(CurveError::new(format!(
                    "built's curve {} at {} spans more than {MAX_DAYS} delivery days",
                    named.curves[at.0 as usize].curve_id,
                    key.describe(at.1)
                )));
            }
            let mut values = vec![f64::NAN; (points[points.len() - 1].0 - first) as usize + 1];
            for (day, value) in points {
                let slot = &mut values[(day - first) as usize];
                if !slot.is_nan() && *slot != value {
                    return Err(CurveError::new(format!(
                        "built has two forwards for curve {} at {} on {}",
                        named.curves[at.0 as usize].curve_id,
                        key.describe(at.1),
                        TimeKey::Date.describe(i64::from(day))
                    )));
                }
                *slot = value;
            }
            Ok((at, DayValues { first, values }))
        })
        .collect()
}

/// Each row of `batch` with a curve of `index`, a time, a day and a forward,
/// added to its curve and time's points.
fn gather_points(
    batch: &RecordBatch,
    key: TimeKey,
    index: &HashMap<&str, u32>,
    points: &mut HashMap<(u32, i64), Vec<(i32, f64)>>,
) -> Result<(), CurveError> {
    let ids = strings(batch, "curve_id")?;
    let time = times(batch, key)?;
    let day = days(batch, "delivery")?;
    let forward = numbers(batch, "forward")?;
    // A curve at a time comes as a run of rows: looked up once per run.
    let mut run: Option<(&str, i64, Option<u32>)> = None;
    let mut current: Option<&mut Vec<(i32, f64)>> = None;
    for row in 0..batch.num_rows() {
        if ids.is_null(row) || time.is_null(row) || day.is_null(row) || forward.is_null(row) {
            continue;
        }
        let (id, t) = (ids.value(row), time.value(row));
        if !matches!(run, Some((i, tt, _)) if i == id && tt == t) {
            let curve = index.get(id).copied();
            run = Some((id, t, curve));
            current = None;
            if let Some(curve) = curve {
                current = Some(points.entry((curve, t)).or_default());
            }
        }
        if let Some(list) = current.as_deref_mut() {
            list.push((day.value(row), forward.value(row)));
        }
    }
    Ok(())
}

#[cfg(test)]
#[path = "residuals_tests.rs"]
mod tests;
