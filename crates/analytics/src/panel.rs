//! A table's prices grouped by curve, then time, then contract: the shape
//! spreads, cracks and the matrix walk. A time's prices are found by binary
//! search.

use std::ops::Range;

use super::grouping::{group_by_curve, Conflict};
use super::input::{Input, TimeKey};
use super::rows::{NamedCurve, NamedRows, Row};
use domain::tenor::Tenor;

/// The prices of one curve at one time: `cells[range]`, sorted by contract.
#[derive(Clone, Debug)]
pub(crate) struct Group {
    pub time: i64,
    pub range: Range<usize>,
}

#[derive(Debug)]
pub(crate) struct CurvePanel {
    pub curve_id: String,
    /// Every contract the curve has in the table, in calendar order.
    pub contracts: Vec<Tenor>,
    pub groups: Vec<Group>,
    /// (index into `contracts`, value).
    pub cells: Vec<(u32, f64)>,
    /// The first contract and time the table gives two different values.
    pub conflict: Option<Conflict>,
}

impl CurvePanel {
    /// The value of `contract` in `group`, if the table has one.
    pub(crate) fn value(&self, group: &Group, contract: u32) -> Option<f64> {
        let cells = &self.cells[group.range.clone()];
        cells
            .binary_search_by_key(&contract, |&(c, _)| c)
            .ok()
            .map(|i| cells[i].1)
    }

    /// The index of the contract named `name`.
    pub(crate) fn contract(&self, name: &str) -> Option<u32> {
        self.contracts
            .iter()
            .position(|t| t.name() == name)
            .map(|i| i as u32)
    }
}

pub(crate) struct Panel {
    pub key: TimeKey,
    /// Sorted by curve id.
    pub curves: Vec<CurvePanel>,
}

impl Panel {
    /// Groups the rows with a time and a value; the last of two rows of one
    /// contract at one time wins.
    pub(crate) fn build(input: &Input) -> Panel {
        Panel::build_keeping(input, |_, _| true)
    }

    /// Groups the rows with a time and a value that `keep` keeps, given
    /// the row's curve; a curve keeps every contract it has in the table.
    pub(crate) fn build_keeping(input: &Input, keep: impl Fn(&NamedCurve, &Row) -> bool) -> Panel {
        let NamedRows { curves, mut rows } = NamedRows::read(input);
        rows.retain(|row| keep(&curves[row.curve as usize], row));
        let grouped = group_by_curve(rows, curves.len(), |row| input.values.value(row as usize));
        let curves = curves
            .into_iter()
            .zip(grouped)
            .map(|(named, grouped)| CurvePanel {
                curve_id: named.curve_id,
                contracts: named.contracts,
                groups: grouped
                    .groups
                    .into_iter()
                    .map(|(time, start, end)| Group {
                        time,
                        range: start..end,
                    })
                    .collect(),
                cells: grouped.cells,
                conflict: grouped.conflict,
            })
            .collect();
        Panel {
            key: input.key,
            curves,
        }
    }
}
