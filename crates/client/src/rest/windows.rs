//! Splitting a date range into the windows the historical intraday endpoint
//! accepts (at most 30 days each, both ends inclusive).

use chrono::{Duration, NaiveDate};

pub const MAX_INTRADAY_DAYS: i64 = 30;

/// Consecutive windows of at most `max_days` days covering `start..=end`
/// exactly once, in order. Empty if `end < start`.
pub fn split(start: NaiveDate, end: NaiveDate, max_days: i64) -> Vec<(NaiveDate, NaiveDate)> {
    assert!(max_days >= 1, "a window has at least one day");
    let mut windows = Vec::new();
    let mut first = start;
    while first <= end {
        let last = (first + Duration::days(max_days - 1)).min(end);
        windows.push((first, last));
        first = last + Duration::days(1);
    }
    windows
}

#[cfg(test)]
#[path = "windows_tests.rs"]
mod tests;
