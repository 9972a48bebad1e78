//! The matrix of a table: one row per curve and time, one column per tenor
//! in calendar order, for plotting a curve's history or feeding a model.

use std::collections::BTreeSet;

use super::input::Input;
use super::named::carried;
use super::output::{float_column, string_column, table, time_column};
use super::panel::Panel;
use super::CurveError;
use domain::arrow::Table;
use domain::tenor::Tenor;

/// Columns: curve_id, the time key, then every tenor of the table; a cell is
/// the `values` column of that tenor at that time (null where none).
pub fn matrix(source: &Table, values: &str) -> Result<Table, CurveError> {
    carried(&[source], matrix_unnamed(source, values))
}

fn matrix_unnamed(source: &Table, values: &str) -> Result<Table, CurveError> {
    let input = Input::read(source, values)?;
    let panel = Panel::build(&input);
    let tenors: BTreeSet<Tenor> = panel
        .curves
        .iter()
        .flat_map(|c| c.contracts.iter().cloned())
        .collect();
    let tenors: Vec<Tenor> = tenors.into_iter().collect();
    let rows: usize = panel.curves.iter().map(|c| c.groups.len()).sum();
    let mut ids: Vec<&str> = Vec::with_capacity(rows);
    let mut times: Vec<i64> = Vec::with_capacity(rows);
    let mut cells: Vec<Vec<Option<f64>>> = vec![vec![None; rows]; tenors.len()];
    for curve in &panel.curves {
        // The curve's contract index -> the matrix's column.
        let column: Vec<usize> = curve
            .contracts
            .iter()
            .map(|t| tenors.binary_search(t).expect("every tenor is a column"))
            .collect();
        for group in &curve.groups {
            let row = ids.len();
            ids.push(&curve.curve_id);
            times.push(group.time);
            for &(contract, value) in &curve.cells[group.range.clone()] {
                cells[column[contract as usize]][row] = Some(value);
            }
        }
    }
    let mut columns = vec![
        (
            "curve_id".to_owned(),
            string_column(ids.into_iter().map(Some)),
        ),
        (
            panel.key.column().to_owned(),
            time_column(panel.key, &times),
        ),
    ];
    for (tenor, column) in tenors.iter().zip(cells) {
        columns.push((tenor.name().to_owned(), float_column(column)));
    }
    table(columns)
}

#[cfg(test)]
#[path = "matrix_tests.rs"]
mod tests;
