use super::*;
use domain::timestamp::parse_timestamp;

fn at(text: &str) -> Micros {
    parse_timestamp(text).unwrap()
}

fn day(text: &str) -> NaiveDate {
    NaiveDate::parse_from_str(text, "%Y-%m-%d").unwrap()
}

#[test]
fn a_gap_within_the_ongoing_day_asks_no_history() {
    let now = at("2025-06-13T15:00:00");
    let today = Some(at("2025-06-13T00:01:00"));
    assert_eq!(historical_days(at("2025-06-13T00:00:00"), now, today), None);
    assert_eq!(historical_days(at("2025-06-13T14:59:59"), now, today), None);
}

#[test]
fn days_before_the_ongoing_one_are_asked_of_the_history() {
    let now = at("2025-06-13T00:05:00");
    let today = Some(at("2025-06-13T00:01:00"));
    assert_eq!(
        historical_days(at("2025-06-12T23:58:00"), now, today),
        Some((day("2025-06-12"), day("2025-06-12")))
    );
    assert_eq!(
        historical_days(at("2025-05-01T08:00:00"), now, today),
        Some((day("2025-05-01"), day("2025-06-12")))
    );
}

#[test]
fn an_ongoing_day_past_the_newest_value_seen_leaves_that_day_to_history() {
    // Friday's last value seen, Monday's values served as today's.
    let now = at("2025-06-13T21:00:00");
    let monday = Some(at("2025-06-16T00:01:00"));
    assert_eq!(
        historical_days(at("2025-06-13T20:00:00"), now, monday),
        Some((day("2025-06-13"), day("2025-06-15")))
    );
}

#[test]
fn an_empty_ongoing_day_asks_the_history_through_the_newest_value_seen() {
    let now = at("2025-06-13T23:59:00");
    assert_eq!(
        historical_days(at("2025-06-13T23:50:00"), now, None),
        Some((day("2025-06-13"), day("2025-06-13")))
    );
}
