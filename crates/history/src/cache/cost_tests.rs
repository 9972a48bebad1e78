use chrono::NaiveDate;

use super::*;

fn day(text: &str) -> NaiveDate {
    text.parse().expect("a day")
}

#[test]
fn a_run_of_settlements_is_one_request_and_of_intraday_one_per_window() {
    let (first, last) = (day("2025-01-01"), day("2025-03-01"));
    assert_eq!(run_requests(History::Settlements, first, last), 1);
    // 60 days: two windows of 30 days.
    assert_eq!(run_requests(History::Intraday, first, last), 2);
    assert_eq!(run_requests(History::Intraday, first, first), 1);
}
