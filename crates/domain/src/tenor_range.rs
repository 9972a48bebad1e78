//! The tenors of a kind whose delivery period overlaps a range of dates:
//! the names to ask the service for when pulling contracts that have left
//! the catalogue's list.

use chrono::{Datelike, Months, NaiveDate};

use crate::tenor::{Tenor, TenorKind};

/// A range that lists no tenors: an unknown kind, a start after the end, or
/// dates beyond the two-digit years of tenor names. The message names which.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct RangeError(pub String);

impl Tenor {
    /// Every `month`, `quarter` or `window` tenor overlapping `start..=end`,
    /// in calendar order.
    pub fn range(kind: &str, start: NaiveDate, end: NaiveDate) -> Result<Vec<Tenor>, RangeError> {
        let kind = match kind {
            "month" => TenorKind::Month,
            "quarter" => TenorKind::Quarter,
            "window" => TenorKind::Window,
            _ => {
                return Err(RangeError(format!(
                    "unknown kind {kind:?}: a range lists 'month', 'quarter' or 'window' tenors"
                )))
            }
        };
        if start > end {
            return Err(RangeError(format!("start {start} is after end {end}")));
        }
        if start.year() < 2000 || end.year() > 2099 {
            return Err(RangeError(format!(
                "tenor names have two-digit years, so a range must lie within 2000-2099, not {start} to {end}"
            )));
        }
        let mut month = start.with_day(1).expect("day 1");
        if kind == TenorKind::Quarter {
            month = month
                .with_month(month.month0() / 3 * 3 + 1)
                .expect("quarter start");
        }
        let step = if kind == TenorKind::Quarter { 3 } else { 1 };
        let mut out = Vec::new();
        while month <= end {
            let (y, m) = (month.year(), month.month());
            let names: Vec<String> = match kind {
                TenorKind::Month => vec![Tenor::month_name(y, m)],
                TenorKind::Quarter => vec![format!("Q{} {:02}", (m - 1) / 3 + 1, y % 100)],
                _ => [1, 6, 11, 16, 21, 26]
                    .into_iter()
                    .map(|first| Tenor::window_name(y, m, first))
                    .collect(),
            };
            for name in names {
                let tenor = Tenor::parse(&name).expect("a name we wrote");
                let overlaps = tenor.start().is_some_and(|s| s <= end)
                    && tenor.end().is_some_and(|e| e >= start);
                if overlaps {
                    out.push(tenor);
                }
            }
            month = month + Months::new(step);
        }
        Ok(out)
    }
}

#[cfg(test)]
#[path = "tenor_range_tests.rs"]
mod tests;
