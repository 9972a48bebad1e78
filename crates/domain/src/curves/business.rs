//! Business days for rolls: Monday to Friday. Holidays differ by exchange
//! and product and the tables do not say which applies, so none are kept.

use chrono::{Datelike, NaiveDate, Weekday};

/// The day `n` business days before `day` (`day` itself for 0). A contract
/// whose delivery starts on `day` is rolled off on that day: it is no longer
/// held from it on.
pub fn business_days_before(day: NaiveDate, n: u32) -> NaiveDate {
    let mut at = day;
    let mut left = n;
    while left > 0 {
        at = at.pred_opt().expect("in range");
        if !matches!(at.weekday(), Weekday::Sat | Weekday::Sun) {
            left -= 1;
        }
    }
    at
}

#[cfg(test)]
#[path = "business_tests.rs"]
mod tests;
