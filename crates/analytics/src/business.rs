//! Business days: Monday to Friday less a calendar's holidays, or the days
//! a table itself has prices on.
//!
//! The tables do not say which exchange's holidays apply to a curve, so the
//! caller names them: a list of dates (the Python face resolves a calendar's
//! name to one), or the table's own days (`Holidays::Data`). No holidays
//! leaves Monday to Friday.

use chrono::NaiveDate;

use super::input::Input;
use domain::timestamp::days_since_epoch;

/// Which days are not business days, as the caller gave them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Holidays {
    /// Monday to Friday less these dates (none: Monday to Friday).
    Dates(Vec<NaiveDate>),
    /// Between a table's first and last day, the days it has a row on;
    /// before and after them, Monday to Friday.
    Data,
}

impl Default for Holidays {
    fn default() -> Holidays {
        Holidays::Dates(Vec::new())
    }
}

impl Holidays {
    /// `"data"` is the one name the core knows; calendars' names are
    /// resolved to dates before they reach it.
    pub fn named(name: &str) -> Result<Holidays, super::CurveError> {
        match name {
            "data" => Ok(Holidays::Data),
            _ => Err(super::CurveError::new(format!(
                "holidays: unknown calendar {name:?}; give a list of dates or 'data' \
                 (the days the table has prices on)"
            ))),
        }
    }

    /// Whether any day is taken out of Monday to Friday (or put in).
    pub fn is_none(&self) -> bool {
        match self {
            Holidays::Dates(dates) => dates.is_empty(),
            Holidays::Data => false,
        }
    }

    /// The business days these holidays make, for `input`'s table.
    pub fn calendar(&self, input: &Input) -> Calendar {
        match self {
            Holidays::Dates(dates) => Calendar::with_holidays(dates),
            Holidays::Data => {
                Calendar::of_days(input.time.iter().flatten().map(|time| input.key.day(time)))
            }
        }
    }
}

/// Business days, resolved: Monday to Friday, less `holidays`, plus `extra`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Calendar {
    /// Mondays to Fridays that are not business days; days since
    /// 1970-01-01, sorted, each once.
    holidays: Vec<i32>,
    /// Saturdays and Sundays that are (a table with prices on them).
    extra: Vec<i32>,
}

impl Calendar {
    pub fn with_holidays(dates: &[NaiveDate]) -> Calendar {
        let mut holidays: Vec<i32> = dates
            .iter()
            .map(|&d| days_since_epoch(d))
            .filter(|&d| !is_weekend(d))
            .collect();
        holidays.sort_unstable();
        holidays.dedup();
        Calendar {
            holidays,
            extra: Vec::new(),
        }
    }

    /// From the days a table has rows on: between the first and the last,
    /// exactly those; outside them, where the table says nothing, Monday
    /// to Friday.
    pub fn of_days(days: impl Iterator<Item = i32>) -> Calendar {
        let mut days: Vec<i32> = days.collect();
        days.sort_unstable();
        days.dedup();
        let (Some(&first), Some(&last)) = (days.first(), days.last()) else {
            return Calendar::default();
        };
        let mut present = days.iter().peekable();
        let mut holidays = Vec::new();
        let mut extra = Vec::new();
        for day in first..=last {
            let has_rows = present.next_if_eq(&&day).is_some();
            match (is_weekend(day), has_rows) {
                (false, false) => holidays.push(day),
                (true, true) => extra.push(day),
                _ => {}
            }
        }
        Calendar { holidays, extra }
    }

    /// Whether `day` (days since 1970-01-01) is a business day.
    pub fn is_business(&self, day: i32) -> bool {
        if is_weekend(day) {
            self.extra.binary_search(&day).is_ok()
        } else {
            self.holidays.binary_search(&day).is_err()
        }
    }

    /// The day `n` business days before `day` (`day` itself for 0). A
    /// contract whose delivery starts on `day` is rolled off on that day:
    /// it is no longer held from it on.
    pub fn days_before(&self, day: NaiveDate, n: u32) -> NaiveDate {
        let mut at = days_since_epoch(day);
        let mut left = n;
        while left > 0 {
            at -= 1;
            if self.is_business(at) {
                left -= 1;
            }
        }
        day - chrono::Days::new((days_since_epoch(day) - at) as u64)
    }

    /// One for each business day of `first..=last`, zero for the others.
    pub fn weights(&self, first: i32, last: i32) -> Vec<f64> {
        // Merged with the sorted lists rather than searched day by day: a
        // table of many dates asks for the weights of each.
        let mut holidays = self.holidays[self.holidays.partition_point(|&h| h < first)..]
            .iter()
            .peekable();
        let mut extra = self.extra[self.extra.partition_point(|&h| h < first)..]
            .iter()
            .peekable();
        (first..=last)
            .map(|day| {
                let holiday = holidays.next_if_eq(&&day).is_some();
                let worked = extra.next_if_eq(&&day).is_some();
                if worked || !(holiday || is_weekend(day)) {
                    1.0
                } else {
                    0.0
                }
            })
            .collect()
    }
}

/// Saturday or Sunday; 1970-01-01 was a Thursday.
fn is_weekend(day: i32) -> bool {
    (day + 3).rem_euclid(7) >= 5
}

#[cfg(test)]
#[path = "business_tests.rs"]
mod tests;
