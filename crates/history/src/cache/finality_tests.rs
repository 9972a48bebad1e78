use chrono::{NaiveDate, TimeZone, Utc};

use super::*;

fn day(text: &str) -> NaiveDate {
    text.parse().unwrap()
}

fn at(y: i32, mo: u32, d: u32, h: u32, mi: u32) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(y, mo, d, h, mi, 0).unwrap()
}

#[test]
fn a_settlement_is_final_six_hours_after_its_day() {
    let last = |now| last_final_day(now, SETTLEMENT_MARGIN);
    assert_eq!(last(at(2025, 6, 14, 5, 59)), day("2025-06-12"));
    assert_eq!(last(at(2025, 6, 14, 6, 0)), day("2025-06-13"));
    // Today is never final, even late in the evening.
    assert_eq!(last(at(2025, 6, 13, 23, 59)), day("2025-06-12"));
}

#[test]
fn intraday_values_are_final_an_hour_after_their_day() {
    let last = |now| last_final_day(now, INTRADAY_MARGIN);
    assert_eq!(last(at(2025, 6, 14, 0, 59)), day("2025-06-12"));
    assert_eq!(last(at(2025, 6, 14, 1, 0)), day("2025-06-13"));
}

#[test]
fn trailing_days_without_values_wait_a_week() {
    let today = day("2025-06-20");
    // Values to the end: all kept.
    assert_eq!(
        keep_through(
            day("2025-06-01"),
            day("2025-06-18"),
            Some(day("2025-06-18")),
            today
        ),
        Some(day("2025-06-18"))
    );
    // The last two days are empty and recent: kept up to the last value.
    assert_eq!(
        keep_through(
            day("2025-06-01"),
            day("2025-06-18"),
            Some(day("2025-06-16")),
            today
        ),
        Some(day("2025-06-16"))
    );
    // Empty days older than a week are kept.
    assert_eq!(
        keep_through(
            day("2025-05-01"),
            day("2025-06-18"),
            Some(day("2025-05-02")),
            today
        ),
        Some(day("2025-06-13"))
    );
    // Nothing at all, all recent: nothing kept.
    assert_eq!(
        keep_through(day("2025-06-15"), day("2025-06-18"), None, today),
        None
    );
    // Nothing at all, long ago (before the curve existed): kept.
    assert_eq!(
        keep_through(day("2020-01-01"), day("2020-12-31"), None, today),
        Some(day("2020-12-31"))
    );
}

#[test]
fn the_catalogue_serves_until_the_next_weekday_refresh() {
    // Friday evening: the next refresh is Monday 02:30.
    assert_eq!(
        next_catalogue_refresh(at(2025, 6, 13, 17, 0)),
        at(2025, 6, 16, 2, 30)
    );
    // Tuesday 02:29: the refresh a minute later.
    assert_eq!(
        next_catalogue_refresh(at(2025, 6, 17, 2, 29)),
        at(2025, 6, 17, 2, 30)
    );
    // Tuesday 02:30 exactly: the next one, Wednesday.
    assert_eq!(
        next_catalogue_refresh(at(2025, 6, 17, 2, 30)),
        at(2025, 6, 18, 2, 30)
    );
    // Saturday: Monday.
    assert_eq!(
        next_catalogue_refresh(at(2025, 6, 14, 12, 0)),
        at(2025, 6, 16, 2, 30)
    );
}
