use chrono::NaiveDate;

use super::{DayWeights, Weights};
use crate::business::{Calendar, Holidays};
use crate::input::Input;
use crate::test_tables::{day, settlements};
use crate::CurveError;

fn d(text: &str) -> NaiveDate {
    NaiveDate::parse_from_str(text, "%Y-%m-%d").unwrap()
}

fn resolved(weights: &Weights) -> DayWeights {
    let table = settlements(&[("a", "Jan 25", "2025-01-02", 1.0)], "$/bbl");
    weights.of_table(&Input::read(&table, "price").unwrap())
}

#[test]
fn calendar_weights_count_every_day() {
    let weights = resolved(&Weights::new("calendar", Holidays::default()).unwrap());
    assert_eq!(
        weights.of_days(day("2025-03-01"), day("2025-03-03")),
        [1.0; 3]
    );
}

#[test]
fn business_weights_skip_weekends_and_holidays() {
    // Thursday 2025-04-17 to Tuesday 2025-04-22: Good Friday and Easter Monday given.
    let holidays = Holidays::Dates(vec![d("2025-04-21"), d("2025-04-18"), d("2025-04-18")]);
    let weights = resolved(&Weights::new("business", holidays).unwrap());
    assert_eq!(
        weights.of_days(day("2025-04-17"), day("2025-04-22")),
        [1.0, 0.0, 0.0, 0.0, 0.0, 1.0]
    );
    // A holiday before the days asked for is passed over.
    assert_eq!(weights.of_days(day("2025-04-22"), day("2025-04-22")), [1.0]);
}

#[test]
fn data_weights_are_the_days_of_the_table() {
    // Rows on Thu 2 Jan, Sat 4 Jan and Tue 7 Jan: between them Fri 3 and
    // Mon 6 are not business days and Saturday 4 is; after the table's
    // last day, Monday to Friday.
    let table = settlements(
        &[
            ("a", "Feb 25", "2025-01-02", 1.0),
            ("a", "Feb 25", "2025-01-04", 1.0),
            ("b", "Feb 25", "2025-01-07", 1.0),
        ],
        "$/bbl",
    );
    let weights = Weights::new("business", Holidays::Data).unwrap();
    let days = weights.of_table(&Input::read(&table, "price").unwrap());
    assert_eq!(
        days.of_days(day("2025-01-01"), day("2025-01-12")),
        [1.0, 1.0, 0.0, 1.0, 0.0, 0.0, 1.0, 1.0, 1.0, 1.0, 0.0, 0.0]
    );
    assert_eq!(
        days,
        DayWeights::Business(Calendar::of_days(
            [day("2025-01-02"), day("2025-01-04"), day("2025-01-07")].into_iter()
        ))
    );
}

#[test]
fn unknown_weights_and_holidays_with_calendar_weights_are_refused() {
    let error = Weights::new("trading", Holidays::default()).unwrap_err();
    assert!(
        error.to_string().contains("unknown weights \"trading\""),
        "{error}"
    );
    let error = Weights::new("calendar", Holidays::Dates(vec![d("2025-12-25")])).unwrap_err();
    assert_eq!(error, CurveError::HolidaysWithCalendarWeights);
    let error = Weights::new("calendar", Holidays::Data).unwrap_err();
    assert_eq!(error, CurveError::HolidaysWithCalendarWeights);
}
