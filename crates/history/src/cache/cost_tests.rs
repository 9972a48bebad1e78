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

#[test]
fn the_days_missing_are_the_gaps_between_the_runs_held() {
    let (start, end) = (day("2025-01-01"), day("2025-01-31"));
    assert_eq!(missing(&[], start, end), vec![(start, end)]);
    let held = [
        (day("2024-12-20"), day("2025-01-05")),
        (day("2025-01-10"), day("2025-01-12")),
        (day("2025-01-30"), day("2025-02-10")),
    ];
    assert_eq!(
        missing(&held, start, end),
        vec![
            (day("2025-01-06"), day("2025-01-09")),
            (day("2025-01-13"), day("2025-01-29")),
        ]
    );
    // Held all through, or only outside the range.
    assert_eq!(missing(&[(start, end)], start, end), vec![]);
    let outside = [
        (day("2024-01-01"), day("2024-02-01")),
        (day("2025-03-01"), day("2025-03-02")),
    ];
    assert_eq!(missing(&outside, start, end), vec![(start, end)]);
}
