use chrono::NaiveDate;

use super::business_days_before;

fn d(y: i32, m: u32, day: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(y, m, day).unwrap()
}

#[test]
fn zero_days_is_the_day_itself() {
    assert_eq!(business_days_before(d(2025, 3, 1), 0), d(2025, 3, 1));
}

#[test]
fn weekends_are_stepped_over() {
    // 2025-03-01 is a Saturday: one business day before is Friday 28 Feb.
    assert_eq!(business_days_before(d(2025, 3, 1), 1), d(2025, 2, 28));
    // Monday 2025-06-02: two business days before is Thursday 29 May.
    assert_eq!(business_days_before(d(2025, 6, 2), 2), d(2025, 5, 29));
    // Five business days before a Wednesday is the Wednesday before.
    assert_eq!(business_days_before(d(2025, 10, 1), 5), d(2025, 9, 24));
}
