//! Time spreads: one leg's price minus the other's, per curve and time,
//! where both have one. A leg is a tenor (`Jan 26`) or a nearby position
//! (`M1`, `Q2`, `W1`), which rolls as [`rolling`](super::rolling) does:
//! `roll_days` business days before delivery (none by default).

use super::business::{Calendar, Holidays};
use super::input::Input;
use super::named::carried;
use super::output::{float_column, string_column, table as build_table, time_column};
use super::panel::{CurvePanel, Group, Panel};
use super::rolling::Chain;
use super::CurveError;
use domain::arrow::Table;
use domain::tenor::{Tenor, TenorKind};

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Leg {
    Named(String),
    Nearby(TenorKind, u32),
}

impl Leg {
    /// `M2`, `Q1`, `W3` are positions; a calendar tenor's name is itself.
    pub fn parse(text: &str, argument: &str) -> Result<Leg, CurveError> {
        let t = text.trim();
        let mut chars = t.chars();
        let kind = match chars.next().map(|c| c.to_ascii_uppercase()) {
            Some('M') => Some(TenorKind::Month),
            Some('Q') => Some(TenorKind::Quarter),
            Some('W') => Some(TenorKind::Window),
            _ => None,
        };
        let digits = chars.as_str();
        if let Some(kind) = kind {
            if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
                let n: u32 = digits
                    .parse()
                    .map_err(|_| CurveError::new(format!("{argument}: {t:?} is out of range")))?;
                if n == 0 {
                    return Err(CurveError::new(format!(
                        "{argument}: positions start at 1, not {t:?}"
                    )));
                }
                return Ok(Leg::Nearby(kind, n));
            }
        }
        let tenor = Tenor::parse(t).map_err(|e| CurveError::new(format!("{argument}: {e}")))?;
        if tenor.start().is_none() && tenor.kind() != TenorKind::Continuous {
            return Err(CurveError::new(format!(
                "{argument}: {t:?} is neither a tenor name (Jan 26, Q1 26, 1-5 Jan 26) \
                 nor a position (M1, Q1, W1)"
            )));
        }
        Ok(Leg::Named(tenor.name().to_owned()))
    }
}

/// A leg resolved for one curve.
enum Resolved {
    Named(u32),
    Nearby(Chain, usize),
}

impl Resolved {
    fn new(
        curve: &CurvePanel,
        leg: &Leg,
        roll_days: u32,
        calendar: &Calendar,
    ) -> Result<Resolved, CurveError> {
        match leg {
            Leg::Named(name) => curve.contract(name).map(Resolved::Named).ok_or_else(|| {
                CurveError::new(format!(
                    "curve {} has no tenor {name:?} in the table",
                    curve.curve_id
                ))
            }),
            Leg::Nearby(kind, n) => {
                let chain = Chain::new(&curve.contracts, *kind, roll_days, calendar);
                chain.check(&curve.curve_id, *kind, *n)?;
                Ok(Resolved::Nearby(chain, *n as usize))
            }
        }
    }

    fn contract(&self, day: i32) -> Option<u32> {
        match self {
            Resolved::Named(c) => Some(*c),
            Resolved::Nearby(chain, n) => {
                chain.contracts.get(chain.first_held(day) + n - 1).copied()
            }
        }
    }

    fn at(&self, curve: &CurvePanel, group: &Group, day: i32) -> Option<(u32, f64)> {
        let c = self.contract(day)?;
        curve.value(group, c).map(|v| (c, v))
    }
}

/// Columns: curve_id, the time key, `near` and `far` (the tenors of the
/// legs at that time) and `spread` (near minus far).
/// A nearby leg rolls `roll_days` business days of `holidays` before delivery.
pub fn spread(
    table: &Table,
    near: &Leg,
    far: &Leg,
    roll_days: u32,
    holidays: &Holidays,
) -> Result<Table, CurveError> {
    carried(
        &[table],
        spread_unnamed(table, near, far, roll_days, holidays),
    )
}

fn spread_unnamed(
    table: &Table,
    near: &Leg,
    far: &Leg,
    roll_days: u32,
    holidays: &Holidays,
) -> Result<Table, CurveError> {
    let input = Input::read(table, "price")?;
    let calendar = holidays.calendar(&input);
    let panel = Panel::build(&input);
    let mut ids: Vec<&str> = Vec::new();
    let mut times: Vec<i64> = Vec::new();
    let mut near_names: Vec<&str> = Vec::new();
    let mut far_names: Vec<&str> = Vec::new();
    let mut spreads: Vec<Option<f64>> = Vec::new();
    for curve in &panel.curves {
        let n = Resolved::new(curve, near, roll_days, &calendar)?;
        let f = Resolved::new(curve, far, roll_days, &calendar)?;
        for group in &curve.groups {
            let day = panel.key.day(group.time);
            let (Some((nc, nv)), Some((fc, fv))) =
                (n.at(curve, group, day), f.at(curve, group, day))
            else {
                continue;
            };
            ids.push(&curve.curve_id);
            times.push(group.time);
            near_names.push(curve.contracts[nc as usize].name());
            far_names.push(curve.contracts[fc as usize].name());
            spreads.push(Some(nv - fv));
        }
    }
    build_table(vec![
        ("curve_id".into(), string_column(ids.into_iter().map(Some))),
        (panel.key.column().into(), time_column(panel.key, &times)),
        (
            "near".into(),
            string_column(near_names.into_iter().map(Some)),
        ),
        ("far".into(), string_column(far_names.into_iter().map(Some))),
        ("spread".into(), float_column(spreads)),
    ])
}

#[cfg(test)]
#[path = "spread_tests.rs"]
mod tests;
