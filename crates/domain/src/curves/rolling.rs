//! Rolling contracts: on each date, the nth contract of a kind whose
//! delivery has not started yet (M1, M2, … for months; Q for quarters; W for
//! 5-day windows), and the log of which contract each position held.
//!
//! A contract is held up to the day before its roll day and no longer from
//! it on; its roll day is the first day of its delivery, or `roll_days`
//! business days (Monday to Friday) before it. The contracts are those of
//! the curve in the table: a position past all of them is refused, and a
//! position whose contract has no price at a time is null there (a history
//! pulled with `tenors="all"` has every contract it needs).

use super::business::business_days_before;
use super::input::Input;
use super::output::{float_column, string_column, table as build_table, time_column};
use super::panel::{CurvePanel, Panel};
use super::CurveError;
use crate::arrow::Table;
use crate::tenor::TenorKind;
use crate::timestamp::days_since_epoch;

#[derive(Clone, Debug)]
pub struct RollSpec {
    pub kind: TenorKind,
    /// Positions, from 1, in the order of the output's columns.
    pub nearby: Vec<u32>,
    pub roll_days: u32,
}

impl RollSpec {
    /// Checks the kind's name and the positions.
    pub fn new(kind: &str, nearby: Vec<u32>, roll_days: u32) -> Result<RollSpec, CurveError> {
        let kind = roll_kind(kind)?;
        if nearby.is_empty() {
            return Err(CurveError::new("nearby must name at least one position"));
        }
        if let Some(0) = nearby.iter().min() {
            return Err(CurveError::new(
                "nearby positions start at 1 (M1 is the prompt contract)",
            ));
        }
        let mut seen = nearby.clone();
        seen.sort_unstable();
        if seen.windows(2).any(|w| w[0] == w[1]) {
            return Err(CurveError::new("nearby names a position twice"));
        }
        Ok(RollSpec {
            kind,
            nearby,
            roll_days,
        })
    }

    /// `M3`, `Q1`, `W2`: a position's column name.
    pub fn column(&self, position: u32) -> String {
        format!("{}{position}", prefix(self.kind))
    }
}

pub(super) fn roll_kind(kind: &str) -> Result<TenorKind, CurveError> {
    match kind {
        "month" => Ok(TenorKind::Month),
        "quarter" => Ok(TenorKind::Quarter),
        "window" => Ok(TenorKind::Window),
        _ => Err(CurveError::new(format!(
            "unknown kind {kind:?}: contracts roll by 'month', 'quarter' or 'window'"
        ))),
    }
}

pub(super) fn prefix(kind: TenorKind) -> char {
    match kind {
        TenorKind::Quarter => 'Q',
        TenorKind::Window => 'W',
        _ => 'M',
    }
}

/// One curve's contracts of a kind in calendar order with their roll days.
pub(super) struct Chain {
    pub contracts: Vec<u32>,
    /// Days since 1970-01-01, non-decreasing (calendar order).
    pub rolls: Vec<i32>,
}

impl Chain {
    pub fn new(panel: &CurvePanel, kind: TenorKind, roll_days: u32) -> Chain {
        let contracts = panel.chain(kind);
        let rolls = contracts
            .iter()
            .map(|&c| {
                let start = panel.contracts[c as usize].start().expect("calendar kind");
                days_since_epoch(business_days_before(start, roll_days))
            })
            .collect();
        Chain { contracts, rolls }
    }

    /// The index in the chain of the first contract not rolled on `day`.
    pub fn first_held(&self, day: i32) -> usize {
        self.rolls.partition_point(|&roll| roll <= day)
    }

    /// Refuses a position past every contract of the chain.
    pub fn check(&self, curve: &str, kind: TenorKind, position: u32) -> Result<(), CurveError> {
        if position as usize > self.contracts.len() {
            return Err(CurveError::new(format!(
                "{}{position} is past the contracts of curve {curve}: the table has {} {} \
                 contract(s) of it",
                prefix(kind),
                self.contracts.len(),
                kind.as_str()
            )));
        }
        Ok(())
    }
}

/// For every curve and time, the contract each position held (`None` past the chain).
struct Held {
    curve: usize,
    time: i64,
    contracts: Vec<Option<u32>>,
}

fn holdings(panel: &Panel, spec: &RollSpec) -> Result<Vec<Held>, CurveError> {
    let mut out = Vec::new();
    for (index, curve) in panel.curves.iter().enumerate() {
        let chain = Chain::new(curve, spec.kind, spec.roll_days);
        for &position in &spec.nearby {
            chain.check(&curve.curve_id, spec.kind, position)?;
        }
        for group in &curve.groups {
            let first = chain.first_held(panel.key.day(group.time));
            let contracts = spec
                .nearby
                .iter()
                .map(|&n| chain.contracts.get(first + n as usize - 1).copied())
                .collect();
            out.push(Held {
                curve: index,
                time: group.time,
                contracts,
            });
        }
    }
    Ok(out)
}

/// One row per curve and time: each position's price.
pub fn rolling(table: &Table, spec: &RollSpec) -> Result<Table, CurveError> {
    let input = Input::read(table, "price")?;
    let panel = Panel::build(&input);
    let held = holdings(&panel, spec)?;
    let mut columns = keys(&panel, &held);
    let mut group_at = vec![0usize; panel.curves.len()];
    let mut values: Vec<Vec<Option<f64>>> = vec![Vec::with_capacity(held.len()); spec.nearby.len()];
    for h in &held {
        let curve = &panel.curves[h.curve];
        let group = &curve.groups[group_at[h.curve]];
        group_at[h.curve] += 1;
        for (column, contract) in values.iter_mut().zip(&h.contracts) {
            column.push(contract.and_then(|c| curve.value(group, c)));
        }
    }
    for (&n, column) in spec.nearby.iter().zip(values) {
        columns.push((spec.column(n), float_column(column)));
    }
    build_table(columns)
}

/// One row per curve and time: the tenor each position held.
pub fn roll_log(table: &Table, spec: &RollSpec) -> Result<Table, CurveError> {
    let input = Input::read(table, "price")?;
    let panel = Panel::build(&input);
    let held = holdings(&panel, spec)?;
    let mut columns = keys(&panel, &held);
    for (i, &n) in spec.nearby.iter().enumerate() {
        let names = held.iter().map(|h| {
            let contracts = &panel.curves[h.curve].contracts;
            h.contracts[i].map(|c| contracts[c as usize].name())
        });
        columns.push((spec.column(n), string_column(names)));
    }
    build_table(columns)
}

fn keys(panel: &Panel, held: &[Held]) -> Vec<(String, arrow_array::ArrayRef)> {
    let ids = held
        .iter()
        .map(|h| Some(panel.curves[h.curve].curve_id.as_str()));
    let times: Vec<i64> = held.iter().map(|h| h.time).collect();
    vec![
        ("curve_id".to_owned(), string_column(ids)),
        (
            panel.key.column().to_owned(),
            time_column(panel.key, &times),
        ),
    ]
}

#[cfg(test)]
#[path = "rolling_tests.rs"]
mod tests;
