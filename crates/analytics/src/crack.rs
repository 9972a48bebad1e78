//! Cracks: a product's price minus crude's, tenor by tenor, on the times
//! both tables have, with both first converted to one unit.

use std::collections::HashMap;

use super::input::Input;
use super::named::carried_legs;
use super::output::{float_column, string_column, table, time_column};
use super::panel::{CurvePanel, Panel};
use super::units::{convert, Factor, Factors, Product, Unit};
use super::CurveError;
use domain::arrow::Table;

/// Columns: `tenor`, the time key, `product` and `crude` (their prices in
/// `to`), `crack` (product minus crude) and `units`. Each table holds one
/// curve. Crude quoted per tonne converts with crude's standard factor
/// unless `crude_factors` says otherwise.
pub fn crack(
    product: &Table,
    crude: &Table,
    to: Unit,
    product_factors: &Factors,
    crude_factors: &Factors,
) -> Result<Table, CurveError> {
    let out = crack_unnamed(product, crude, to, product_factors, crude_factors);
    carried_legs(&[product, crude], to.as_str(), out)
}

fn crack_unnamed(
    product: &Table,
    crude: &Table,
    to: Unit,
    product_factors: &Factors,
    crude_factors: &Factors,
) -> Result<Table, CurveError> {
    let mut crude_factors = crude_factors.clone();
    crude_factors.all = crude_factors.all.or(Some(Factor::Product(Product::Crude)));
    let product = one_curve(&convert(product, to, product_factors)?, "product")?;
    let crude = one_curve(&convert(crude, to, &crude_factors)?, "crude")?;
    if product.key != crude.key {
        return Err(CurveError::new(
            "product and crude must both be settlements (by date) or both prices by time",
        ));
    }
    let key = product.key;
    let (Some(p), Some(c)) = (product.curves.first(), crude.curves.first()) else {
        return empty(key);
    };
    let crude_contract: HashMap<&str, u32> = c
        .contracts
        .iter()
        .enumerate()
        .map(|(i, t)| (t.name(), i as u32))
        .collect();
    // (product contract, time, product price, crude price)
    let mut rows: Vec<(u32, i64, f64, f64)> = Vec::new();
    for group in &p.groups {
        let Ok(at) = c.groups.binary_search_by_key(&group.time, |g| g.time) else {
            continue;
        };
        let crude_group = &c.groups[at];
        for &(contract, price) in &p.cells[group.range.clone()] {
            let name = p.contracts[contract as usize].name();
            let Some(&cc) = crude_contract.get(name) else {
                continue;
            };
            if let Some(crude_price) = c.value(crude_group, cc) {
                rows.push((contract, group.time, price, crude_price));
            }
        }
    }
    rows.sort_by_key(|r| (r.0, r.1));
    let tenors = rows.iter().map(|r| Some(p.contracts[r.0 as usize].name()));
    let times: Vec<i64> = rows.iter().map(|r| r.1).collect();
    table(vec![
        ("tenor".into(), string_column(tenors)),
        (key.column().into(), time_column(key, &times)),
        (
            "product".into(),
            float_column(rows.iter().map(|r| Some(r.2)).collect()),
        ),
        (
            "crude".into(),
            float_column(rows.iter().map(|r| Some(r.3)).collect()),
        ),
        (
            "crack".into(),
            float_column(rows.iter().map(|r| Some(r.2 - r.3)).collect()),
        ),
        (
            "units".into(),
            string_column(rows.iter().map(|_| Some(to.as_str()))),
        ),
    ])
}

fn empty(key: super::input::TimeKey) -> Result<Table, CurveError> {
    table(vec![
        ("tenor".into(), string_column(std::iter::empty())),
        (key.column().into(), time_column(key, &[])),
        ("product".into(), float_column(Vec::new())),
        ("crude".into(), float_column(Vec::new())),
        ("crack".into(), float_column(Vec::new())),
        ("units".into(), string_column(std::iter::empty())),
    ])
}

/// The panel of a table of at most one curve.
fn one_curve(table: &Table, argument: &str) -> Result<Panel, CurveError> {
    let input = Input::read(table, "price")?;
    let panel = Panel::build(&input);
    if panel.curves.len() > 1 {
        let ids: Vec<&str> = panel
            .curves
            .iter()
            .map(|c: &CurvePanel| c.curve_id.as_str())
            .collect();
        return Err(CurveError::new(format!(
            "{argument} must hold one curve, not {}: {}",
            ids.len(),
            ids.join(", ")
        )));
    }
    Ok(panel)
}

#[cfg(test)]
#[path = "crack_tests.rs"]
mod tests;
