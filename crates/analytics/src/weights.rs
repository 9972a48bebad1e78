//! How a contract's price averages its delivery days: every calendar day
//! alike, or business days only (Monday to Friday less the holidays given,
//! or the days the table has prices on; `business.rs`).
//!
//! The weights say which days a price is a mean over; a forward curve still
//! has a value on every day, a weekend's included.

use super::business::{Calendar, Holidays};
use super::input::Input;
use super::CurveError;

/// The weights asked for, before a table resolves `Holidays::Data`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Weights {
    /// Every day weighs one.
    Calendar,
    /// Business days weigh one, other days zero.
    Business(Holidays),
}

impl Weights {
    /// `"calendar"` or `"business"`; holidays only count against business days.
    pub fn new(name: &str, holidays: Holidays) -> Result<Weights, CurveError> {
        match name {
            "calendar" if holidays.is_none() => Ok(Weights::Calendar),
            // A holiday given with calendar weights would be ignored, which
            // is surely not what the caller meant.
            "calendar" => Err(CurveError::HolidaysWithCalendarWeights),
            "business" => Ok(Weights::Business(holidays)),
            _ => Err(CurveError::new(format!(
                "unknown weights {name:?}: a contract's price averages its 'calendar' or 'business' days"
            ))),
        }
    }

    /// The weights of days for the table of `input`.
    pub fn of_table(&self, input: &Input) -> DayWeights {
        match self {
            Weights::Calendar => DayWeights::Calendar,
            Weights::Business(holidays) => DayWeights::Business(holidays.calendar(input)),
        }
    }
}

/// The weights of days, resolved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DayWeights {
    Calendar,
    Business(Calendar),
}

impl DayWeights {
    /// The weight of each day of `first..=last` (days since 1970-01-01).
    pub fn of_days(&self, first: i32, last: i32) -> Vec<f64> {
        match self {
            DayWeights::Calendar => vec![1.0; (last - first + 1).max(0) as usize],
            DayWeights::Business(calendar) => calendar.weights(first, last),
        }
    }
}

#[cfg(test)]
#[path = "weights_tests.rs"]
mod tests;
