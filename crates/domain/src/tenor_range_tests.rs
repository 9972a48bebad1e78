use chrono::NaiveDate;

use crate::tenor::Tenor;

fn d(y: i32, m: u32, day: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(y, m, day).unwrap()
}

fn names(kind: &str, start: NaiveDate, end: NaiveDate) -> Vec<String> {
    Tenor::range(kind, start, end)
        .unwrap()
        .into_iter()
        .map(|t| t.name().to_owned())
        .collect()
}

#[test]
fn months_overlapping_a_range() {
    assert_eq!(
        names("month", d(2024, 11, 15), d(2025, 2, 1)),
        ["Nov 24", "Dec 24", "Jan 25", "Feb 25"]
    );
    assert_eq!(names("month", d(2025, 3, 31), d(2025, 3, 31)), ["Mar 25"]);
}

#[test]
fn quarters_start_at_the_quarter_of_the_start() {
    assert_eq!(
        names("quarter", d(2025, 2, 10), d(2025, 7, 1)),
        ["Q1 25", "Q2 25", "Q3 25"]
    );
}

#[test]
fn windows_at_the_edges() {
    assert_eq!(
        names("window", d(2024, 2, 24), d(2024, 3, 6)),
        ["21-25 Feb 24", "26-EOM Feb 24", "1-5 Mar 24", "6-10 Mar 24"]
    );
}

#[test]
fn bad_kinds_and_orders_are_refused() {
    assert!(Tenor::range("continuous", d(2025, 1, 1), d(2025, 2, 1)).is_err());
    assert!(Tenor::range("month", d(2025, 2, 1), d(2025, 1, 1)).is_err());
    assert!(Tenor::range("month", d(1999, 2, 1), d(2025, 1, 1)).is_err());
}
