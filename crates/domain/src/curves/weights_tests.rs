use chrono::NaiveDate;

use super::Weights;
use crate::curves::test_tables::day;

fn d(text: &str) -> NaiveDate {
    NaiveDate::parse_from_str(text, "%Y-%m-%d").unwrap()
}

#[test]
fn calendar_weights_count_every_day() {
    let weights = Weights::new("calendar", &[]).unwrap();
    assert_eq!(
        weights.of_days(day("2025-03-01"), day("2025-03-03")),
        [1.0; 3]
    );
}

#[test]
fn business_weights_skip_weekends_and_holidays() {
    // Thursday 2025-04-17 to Tuesday 2025-04-22: Good Friday and Easter Monday given.
    let weights = Weights::new(
        "business",
        &[d("2025-04-21"), d("2025-04-18"), d("2025-04-18")],
    )
    .unwrap();
    assert_eq!(
        weights.of_days(day("2025-04-17"), day("2025-04-22")),
        [1.0, 0.0, 0.0, 0.0, 0.0, 1.0]
    );
    // A holiday before the days asked for is passed over.
    assert_eq!(weights.of_days(day("2025-04-22"), day("2025-04-22")), [1.0]);
}

#[test]
fn unknown_weights_and_holidays_with_calendar_weights_are_refused() {
    let error = Weights::new("trading", &[]).unwrap_err();
    assert!(error.0.contains("unknown weights \"trading\""), "{error}");
    let error = Weights::new("calendar", &[d("2025-12-25")]).unwrap_err();
    assert!(error.0.contains("holidays only apply"), "{error}");
}
