//! The curves a curve function's output holds, named as its input named
//! them (`domain::arrow::curves_key`): every function carries the names,
//! units and quotations of its input's curves on to those of its output, so
//! a plot of a rolled or built table names its curve as the settlements
//! did. A table from elsewhere, naming none, gives an output naming none.

use domain::arrow::{carry_curves, curves_in, with_curves, NamedCurve, Table};

use super::CurveError;

/// `out` naming the curves of `inputs` that its `curve_id` column holds.
pub(crate) fn carried(
    inputs: &[&Table],
    out: Result<Table, CurveError>,
) -> Result<Table, CurveError> {
    let metadata: Vec<_> = inputs.iter().map(|t| t.schema.metadata()).collect();
    Ok(carry_curves(&metadata, out?, &["curve_id"]))
}

/// `out` naming every curve of `legs` (each leg a table of one curve, such
/// as a crack's product and crude), in the order of `legs`, with its
/// prices in `units`: for a table whose rows name no curve.
pub(crate) fn carried_legs(
    legs: &[&Table],
    units: &str,
    out: Result<Table, CurveError>,
) -> Result<Table, CurveError> {
    let mut curves: Vec<NamedCurve> = Vec::new();
    for leg in legs {
        let present = domain::arrow::curve_ids(&leg.batches, "curve_id");
        for curve in curves_in(leg.schema.metadata()) {
            if present.contains(&curve.id) && !curves.iter().any(|c| c.id == curve.id) {
                curves.push(curve);
            }
        }
    }
    Ok(in_units(with_curves(out?, &curves), units))
}

/// `table` with each curve it names in `units` (its prices converted).
pub(crate) fn in_units(table: Table, units: &str) -> Table {
    let mut curves = curves_in(table.schema.metadata());
    if curves.is_empty() {
        return table;
    }
    for curve in &mut curves {
        curve.units = Some(units.to_owned());
    }
    with_curves(table, &curves)
}

#[cfg(test)]
#[path = "named_tests.rs"]
mod tests;
