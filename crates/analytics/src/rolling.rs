//! Rolling contracts: on each date, the nth contract of a kind whose
//! delivery has not started yet (M1, M2, … for months; Q for quarters; W for
//! 5-day windows), and the log of which contract each position held.
//!
//! A contract is held up to the day before its roll day and no longer from
//! it on; its roll day is the first day of its delivery, or `roll_days`
//! business days before it (Monday to Friday less the holidays given, or
//! the table's own days: `business.rs`). The contracts are those of
//! the curve in the table: a position past all of them is refused, and a
//! position whose contract has no price at a time is null there (a history
//! pulled with `tenors="all"` has every contract it needs).
//!
//! A position's series may be back-adjusted across its rolls (`adjust`);
//! the log then gives each roll's gap and the time it was measured.

use std::ops::Range;

use super::adjust::{self, Adjust, ChainPrices, Context, Roll};
use super::business::{Calendar, Holidays};
use super::grouping::{by_curve, rank_times};
use super::input::{Input, TimeKey};
use super::named::carried;
use super::output::{
    float_column, optional_time_column, string_column, table as build_table, time_column,
};
use super::rows::{NamedCurve, NamedRows, Row};
use super::CurveError;
use domain::arrow::Table;
use domain::tenor::{Tenor, TenorKind};
use domain::timestamp::days_since_epoch;

#[derive(Clone, Debug)]
pub struct RollSpec {
    pub kind: TenorKind,
    /// Positions, from 1, in the order of the output's columns.
    pub nearby: Vec<u32>,
    pub roll_days: u32,
    /// What `roll_days` count as business days.
    pub holidays: Holidays,
    pub adjust: Adjust,
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
            holidays: Holidays::default(),
            adjust: Adjust::None,
        })
    }

    /// The spec with `roll_days` counted in the business days of `holidays`.
    pub fn with_holidays(self, holidays: Holidays) -> RollSpec {
        RollSpec { holidays, ..self }
    }

    /// The spec with each position's series back-adjusted as `adjust` says.
    pub fn adjusted(self, adjust: Adjust) -> RollSpec {
        RollSpec { adjust, ..self }
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
    /// `contracts` in calendar order; `roll_days` counted in `calendar`'s
    /// business days.
    pub(crate) fn new(
        contracts: &[Tenor],
        kind: TenorKind,
        roll_days: u32,
        calendar: &Calendar,
    ) -> Chain {
        let chain: Vec<u32> = (0..contracts.len() as u32)
            .filter(|&i| contracts[i as usize].kind() == kind)
            .collect();
        let rolls = chain
            .iter()
            .map(|&c| {
                let start = contracts[c as usize].start().expect("calendar kind");
                days_since_epoch(calendar.days_before(start, roll_days))
            })
            .collect();
        Chain {
            contracts: chain,
            rolls,
        }
    }

    /// The index in the chain of the first contract not rolled on `day`.
    pub(crate) fn first_held(&self, day: i32) -> usize {
        self.rolls.partition_point(|&roll| roll <= day)
    }

    /// Refuses a position past every contract of the chain.
    pub(crate) fn check(
        &self,
        curve: &str,
        kind: TenorKind,
        position: u32,
    ) -> Result<(), CurveError> {
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

/// One curve's times and, at each, the chain index of the first contract
/// held (position 1).
struct CurveHoldings {
    curve: usize,
    chain: Chain,
    times: Vec<i64>,
    first_held: Vec<usize>,
    /// The curve's rows (a range of the rows sorted by curve), and each
    /// one's rank among `times`.
    rows: Range<usize>,
    ranks: Vec<u32>,
}

impl CurveHoldings {
    /// The contract at `position` (from 1) at the time ranked `rank`.
    fn held(&self, rank: usize, position: u32) -> Option<u32> {
        let index = self.first_held[rank] + position as usize - 1;
        self.chain.contracts.get(index).copied()
    }

    /// The chain index of the contract at `position` at each time rank.
    fn chain_indices(&self, position: u32) -> Vec<Option<usize>> {
        let length = self.chain.contracts.len();
        self.first_held
            .iter()
            .map(|&first| Some(first + position as usize - 1).filter(|&i| i < length))
            .collect()
    }

    /// Each chain index of the curve's contracts (None for other kinds).
    fn index_in_chain(&self, contracts: usize) -> Vec<Option<usize>> {
        let mut index_in_chain = vec![None; contracts];
        for (index, &contract) in self.chain.contracts.iter().enumerate() {
            index_in_chain[contract as usize] = Some(index);
        }
        index_in_chain
    }

    /// Each position's rolls with their gaps (none unless adjusted).
    fn rolls(
        &self,
        curve: &NamedCurve,
        rows: &[Row],
        input: &Input,
        spec: &RollSpec,
    ) -> Result<Vec<Vec<Roll>>, CurveError> {
        if spec.adjust == Adjust::None {
            return Ok(vec![Vec::new(); spec.nearby.len()]);
        }
        let index_in_chain = self.index_in_chain(curve.contracts.len());
        let prices = ChainPrices::new(
            self.chain.contracts.len(),
            rows[self.rows.clone()]
                .iter()
                .zip(&self.ranks)
                .filter_map(|(row, &rank)| {
                    let index = index_in_chain[row.contract as usize]?;
                    Some((index, rank, input.values.value(row.row as usize)))
                }),
        );
        spec.nearby
            .iter()
            .map(|&n| {
                let column = spec.column(n);
                let context = Context {
                    curve_id: &curve.curve_id,
                    column: &column,
                    contracts: &curve.contracts,
                    chain: &self.chain.contracts,
                    key: input.key,
                    times: &self.times,
                };
                adjust::rolls(&self.chain_indices(n), &prices, spec.adjust, &context)
            })
            .collect()
    }
}

/// Every curve's holdings, curves in id order, times in order, from rows
/// sorted by curve.
fn holdings(
    curves: &[NamedCurve],
    rows: &[Row],
    input: &Input,
    spec: &RollSpec,
) -> Result<Vec<CurveHoldings>, CurveError> {
    let (key, calendar) = (input.key, spec.holidays.calendar(input));
    let mut out = Vec::with_capacity(curves.len());
    let mut start = 0;
    for one in rows.chunk_by(|a, b| a.curve == b.curve) {
        let curve = one[0].curve as usize;
        let named = &curves[curve];
        let chain = Chain::new(&named.contracts, spec.kind, spec.roll_days, &calendar);
        for &position in &spec.nearby {
            chain.check(&named.curve_id, spec.kind, position)?;
        }
        let (times, ranks) = rank_times(one);
        let first_held = times
            .iter()
            .map(|&t| chain.first_held(key.day(t)))
            .collect();
        out.push(CurveHoldings {
            curve,
            chain,
            times,
            first_held,
            rows: start..start + one.len(),
            ranks,
        });
        start += one.len();
    }
    Ok(out)
}

/// One row per curve and time: each position's price. Each row of the
/// table is read once and put in the cell of the position its contract
/// holds that day, if any, so the table is never grouped by time whole.
pub fn rolling(table: &Table, spec: &RollSpec) -> Result<Table, CurveError> {
    carried(&[table], rolling_unnamed(table, spec))
}

fn rolling_unnamed(table: &Table, spec: &RollSpec) -> Result<Table, CurveError> {
    let input = Input::read(table, "price")?;
    let NamedRows { curves, rows } = NamedRows::read(&input);
    let rows = by_curve(rows, curves.len());
    let held = holdings(&curves, &rows, &input, spec)?;
    // The output column of each position (from 1) that nearby asks for.
    let last = *spec.nearby.iter().max().expect("checked in RollSpec::new") as usize;
    let mut column_of = vec![None; last + 1];
    for (column, &n) in spec.nearby.iter().enumerate() {
        column_of[n as usize] = Some(column);
    }
    let total: usize = held.iter().map(|h| h.times.len()).sum();
    // Column by column, each curve's times in turn; the later of two rows
    // of one contract and time overwrites the earlier.
    let mut cells: Vec<Option<f64>> = vec![None; total * spec.nearby.len()];
    let mut base = 0;
    for h in &held {
        let index_in_chain = h.index_in_chain(curves[h.curve].contracts.len());
        for (row, &rank) in rows[h.rows.clone()].iter().zip(&h.ranks) {
            let Some(index) = index_in_chain[row.contract as usize] else {
                continue;
            };
            let Some(position) = (index + 1).checked_sub(h.first_held[rank as usize]) else {
                continue;
            };
            if let Some(&Some(column)) = column_of.get(position) {
                cells[column * total + base + rank as usize] =
                    Some(input.values.value(row.row as usize));
            }
        }
        let rolls = h.rolls(&curves[h.curve], &rows, &input, spec)?;
        for (column, rolls) in rolls.iter().enumerate() {
            let start = column * total + base;
            adjust::apply(&mut cells[start..start + h.times.len()], rolls, spec.adjust);
        }
        base += h.times.len();
    }
    let mut columns = keys(&curves, &held, input.key);
    for (j, &n) in spec.nearby.iter().enumerate() {
        let column = cells[j * total..(j + 1) * total].to_vec();
        columns.push((spec.column(n), float_column(column)));
    }
    build_table(columns)
}

/// One row per curve and time: the tenor each position held. Adjusted,
/// each position's column is followed by `<column>_gap`, the gap of the
/// roll on the row of the first time the new contract is held (null on
/// other rows), and `<column>_gap_on`, the time the gap was measured.
pub fn roll_log(table: &Table, spec: &RollSpec) -> Result<Table, CurveError> {
    carried(&[table], roll_log_unnamed(table, spec))
}

fn roll_log_unnamed(table: &Table, spec: &RollSpec) -> Result<Table, CurveError> {
    let input = Input::read(table, "price")?;
    let NamedRows { curves, rows } = NamedRows::read(&input);
    let rows = by_curve(rows, curves.len());
    let held = holdings(&curves, &rows, &input, spec)?;
    let total: usize = held.iter().map(|h| h.times.len()).sum();
    // Per position, each time's gap and when it was measured.
    let mut gaps: Vec<Vec<Option<(f64, i64)>>> = vec![Vec::with_capacity(total); spec.nearby.len()];
    for h in &held {
        let rolls = h.rolls(&curves[h.curve], &rows, &input, spec)?;
        for (column, rolls) in gaps.iter_mut().zip(&rolls) {
            let start = column.len();
            column.resize(start + h.times.len(), None);
            for roll in rolls {
                column[start + roll.at] = Some((roll.gap, h.times[roll.measured]));
            }
        }
    }
    let mut columns = keys(&curves, &held, input.key);
    for (&n, gaps) in spec.nearby.iter().zip(&gaps) {
        let names = held.iter().flat_map(|h| {
            let contracts = &curves[h.curve].contracts;
            (0..h.times.len())
                .map(move |rank| h.held(rank, n).map(|c| contracts[c as usize].name()))
        });
        let column = spec.column(n);
        columns.push((column.clone(), string_column(names)));
        if spec.adjust != Adjust::None {
            let gap = gaps.iter().map(|g| g.map(|g| g.0)).collect();
            let on: Vec<Option<i64>> = gaps.iter().map(|g| g.map(|g| g.1)).collect();
            columns.push((format!("{column}_gap"), float_column(gap)));
            columns.push((
                format!("{column}_gap_on"),
                optional_time_column(input.key, &on),
            ));
        }
    }
    build_table(columns)
}

fn keys(
    curves: &[NamedCurve],
    held: &[CurveHoldings],
    key: TimeKey,
) -> Vec<(String, arrow_array::ArrayRef)> {
    let ids = held
        .iter()
        .flat_map(|h| std::iter::repeat_n(Some(curves[h.curve].curve_id.as_str()), h.times.len()));
    let times: Vec<i64> = held.iter().flat_map(|h| h.times.iter().copied()).collect();
    vec![
        ("curve_id".to_owned(), string_column(ids)),
        (key.column().to_owned(), time_column(key, &times)),
    ]
}

#[cfg(test)]
#[path = "rolling_tests.rs"]
mod tests;
