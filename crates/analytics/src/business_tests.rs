use chrono::NaiveDate;

use super::{Calendar, Holidays};
use crate::test_tables::day;

fn d(y: i32, m: u32, day: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(y, m, day).unwrap()
}

#[test]
fn zero_days_is_the_day_itself() {
    let weekdays = Calendar::default();
    assert_eq!(weekdays.days_before(d(2025, 3, 1), 0), d(2025, 3, 1));
}

#[test]
fn weekends_are_stepped_over() {
    let weekdays = Calendar::default();
    // 2025-03-01 is a Saturday: one business day before is Friday 28 Feb.
    assert_eq!(weekdays.days_before(d(2025, 3, 1), 1), d(2025, 2, 28));
    // Monday 2025-06-02: two business days before is Thursday 29 May.
    assert_eq!(weekdays.days_before(d(2025, 6, 2), 2), d(2025, 5, 29));
    // Five business days before a Wednesday is the Wednesday before.
    assert_eq!(weekdays.days_before(d(2025, 10, 1), 5), d(2025, 9, 24));
}

#[test]
fn holidays_are_stepped_over_and_weekend_holidays_change_nothing() {
    // May 2025 starts on a Thursday. Two business days before it are
    // Tuesday 29 and Wednesday 30 April; with Easter Monday (21 April)
    // nothing changes, with 30 April a holiday it is Monday 28.
    let easter = Calendar::with_holidays(&[d(2025, 4, 21), d(2025, 4, 19)]);
    assert_eq!(easter.days_before(d(2025, 5, 1), 2), d(2025, 4, 29));
    let april = Calendar::with_holidays(&[d(2025, 4, 30), d(2025, 4, 30)]);
    assert_eq!(april.days_before(d(2025, 5, 1), 2), d(2025, 4, 28));
    assert_eq!(april, Calendar::with_holidays(&[d(2025, 4, 30)]));
    // Good Friday and Easter Monday: three business days before Wednesday
    // 23 April 2025 are Tue 22, Thu 17 and Wed 16.
    let ice = Calendar::with_holidays(&[d(2025, 4, 18), d(2025, 4, 21)]);
    assert_eq!(ice.days_before(d(2025, 4, 23), 3), d(2025, 4, 16));
    assert!(!ice.is_business(day("2025-04-18")));
    assert!(ice.is_business(day("2025-04-17")));
}

#[test]
fn a_tables_days_are_its_business_days_between_its_first_and_last() {
    // Rows on Fri 3, Sat 4 and Wed 8 January: Mon 6 and Tue 7 are not
    // business days, Saturday 4 is; before 3 and after 8, Monday to Friday.
    let data = Calendar::of_days(
        ["2025-01-08", "2025-01-03", "2025-01-04", "2025-01-03"]
            .into_iter()
            .map(day),
    );
    assert_eq!(data.days_before(d(2025, 1, 8), 1), d(2025, 1, 4));
    assert_eq!(data.days_before(d(2025, 1, 8), 2), d(2025, 1, 3));
    assert_eq!(data.days_before(d(2025, 1, 8), 3), d(2025, 1, 2));
    assert_eq!(data.days_before(d(2025, 1, 13), 2), d(2025, 1, 9));
    let weights = data.weights(day("2025-01-02"), day("2025-01-09"));
    assert_eq!(weights, [1.0, 1.0, 1.0, 0.0, 0.0, 0.0, 1.0, 1.0]);
    assert_eq!(Calendar::of_days(std::iter::empty()), Calendar::default());
}

#[test]
fn only_data_is_a_name() {
    assert_eq!(Holidays::named("data").unwrap(), Holidays::Data);
    let error = Holidays::named("IFEU").unwrap_err().to_string();
    assert!(error.contains("unknown calendar \"IFEU\""), "{error}");
    assert!(Holidays::default().is_none());
    assert!(!Holidays::Data.is_none());
}

#[test]
fn weights_agree_with_is_business() {
    let data = Calendar::of_days(
        ["2025-01-03", "2025-01-04", "2025-01-08", "2025-01-20"]
            .into_iter()
            .map(day),
    );
    let (first, last) = (day("2024-12-25"), day("2025-01-31"));
    let weights = data.weights(first, last);
    for (day, weight) in (first..=last).zip(weights) {
        assert_eq!(weight == 1.0, data.is_business(day), "{day}");
    }
}
