//! How a contract's price averages its delivery days: every calendar day
//! alike, or business days only (Monday to Friday, less the holidays given).
//!
//! The weights say which days a price is a mean over; a forward curve still
//! has a value on every day, a weekend's included.

use chrono::NaiveDate;

use super::CurveError;
use crate::timestamp::days_since_epoch;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Weights {
    /// Every day weighs one.
    Calendar,
    /// Monday to Friday weigh one, other days and the holidays zero.
    Business {
        /// Days since 1970-01-01, sorted, each once.
        holidays: Vec<i32>,
    },
}

impl Weights {
    /// `"calendar"` or `"business"`; holidays only count against business days.
    pub fn new(name: &str, holidays: &[NaiveDate]) -> Result<Weights, CurveError> {
        match name {
            "calendar" if holidays.is_empty() => Ok(Weights::Calendar),
            // A holiday given with calendar weights would be ignored, which
            // is surely not what the caller meant.
            "calendar" => Err(CurveError::new(
                "holidays only apply to weights=\"business\"; calendar weights count every day",
            )),
            "business" => {
                let mut holidays: Vec<i32> = holidays.iter().map(|&d| days_since_epoch(d)).collect();
                holidays.sort_unstable();
                holidays.dedup();
                Ok(Weights::Business { holidays })
            }
            _ => Err(CurveError::new(format!(
                "unknown weights {name:?}: a contract's price averages its 'calendar' or 'business' days"
            ))),
        }
    }

    /// The weight of each day of `first..=last` (days since 1970-01-01).
    pub fn of_days(&self, first: i32, last: i32) -> Vec<f64> {
        match self {
            Weights::Calendar => vec![1.0; (last - first + 1).max(0) as usize],
            Weights::Business { holidays } => {
                let from = holidays.partition_point(|&h| h < first);
                let mut holidays = holidays[from..].iter().peekable();
                (first..=last)
                    .map(|day| {
                        let holiday = holidays.next_if_eq(&&day).is_some();
                        if holiday || weekday(day) >= 5 {
                            0.0
                        } else {
                            1.0
                        }
                    })
                    .collect()
            }
        }
    }
}

/// Monday 0 to Sunday 6; 1970-01-01 was a Thursday.
fn weekday(day: i32) -> i32 {
    (day + 3).rem_euclid(7)
}

#[cfg(test)]
#[path = "weights_tests.rs"]
mod tests;
