//! Splitting a date range into the windows the historical intraday endpoint
//! accepts (at most 30 days each, both ends inclusive).

use chrono::{Duration, NaiveDate};

pub const MAX_INTRADAY_DAYS: i64 = 30;

/// The longest range of one intraday history call, about ten years: 122
/// windows, and as many requests at least, per tenor. Past it a range is
/// far more likely a typo (`0025` for `2025`) than a wish, and would cost
/// tens of thousands of requests; a longer history is pulled in parts.
pub const MAX_INTRADAY_HISTORY_DAYS: i64 = 3_660;

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
