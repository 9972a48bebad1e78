use proptest::prelude::*;

use super::{roll_log, rolling, RollSpec};
use crate::curves::test_tables::{date_text, dates, floats, names, prices, settlements, texts};

/// Each contract's price is its month number, so a price says which contract it is.
fn months(dates: &[&str]) -> crate::arrow::Table {
    let tenors = [
        ("Jan 25", 1.0),
        ("Feb 25", 2.0),
        ("Mar 25", 3.0),
        ("Apr 25", 4.0),
    ];
    let mut rows = Vec::new();
    for date in dates {
        for (tenor, price) in tenors {
            rows.push(("a", tenor, *date, price));
        }
    }
    settlements(&rows, "$/bbl")
}

const DAYS: [&str; 5] = [
    "2024-12-30",
    "2024-12-31",
    "2025-01-02",
    "2025-01-31",
    "2025-02-03",
];

#[test]
fn rolls_on_the_first_day_of_delivery() {
    let spec = RollSpec::new("month", vec![1, 2], 0).unwrap();
    let out = rolling(&months(&DAYS), &spec).unwrap();
    assert_eq!(names(&out), ["curve_id", "date", "M1", "M2"]);
    assert_eq!(dates(&out), DAYS);
    let m1 = [1.0, 1.0, 2.0, 2.0, 3.0].map(Some);
    let m2 = [2.0, 2.0, 3.0, 3.0, 4.0].map(Some);
    assert_eq!(floats(&out, "M1"), m1);
    assert_eq!(floats(&out, "M2"), m2);
}

#[test]
fn roll_days_count_business_days_before_delivery() {
    // Jan 25 starts Wed 1 Jan: one business day before is Tue 31 Dec.
    // Feb 25 starts Sat 1 Feb: one business day before is Fri 31 Jan.
    let spec = RollSpec::new("month", vec![1, 2], 1).unwrap();
    let out = rolling(&months(&DAYS), &spec).unwrap();
    assert_eq!(floats(&out, "M1"), [1.0, 2.0, 2.0, 3.0, 3.0].map(Some));
    assert_eq!(floats(&out, "M2"), [2.0, 3.0, 3.0, 4.0, 4.0].map(Some));
}

#[test]
fn a_weekend_before_delivery_is_not_counted() {
    // Mar 25 starts Sat 1 Mar: two business days before is Thu 27 Feb.
    let spec = RollSpec::new("month", vec![1], 2).unwrap();
    let out = rolling(&months(&["2025-02-26", "2025-02-27", "2025-02-28"]), &spec).unwrap();
    assert_eq!(floats(&out, "M1"), [3.0, 4.0, 4.0].map(Some));
}

#[test]
fn the_log_names_the_contract_of_each_position() {
    let spec = RollSpec::new("month", vec![2, 1], 0).unwrap();
    let out = roll_log(&months(&DAYS), &spec).unwrap();
    assert_eq!(names(&out), ["curve_id", "date", "M2", "M1"]);
    let m1: Vec<Option<String>> = ["Jan 25", "Jan 25", "Feb 25", "Feb 25", "Mar 25"]
        .map(|s| Some(s.to_owned()))
        .into();
    assert_eq!(texts(&out, "M1"), m1);
    assert_eq!(texts(&out, "M2")[4].as_deref(), Some("Apr 25"));
}

#[test]
fn quarters_roll_at_quarter_ends() {
    let mut rows = Vec::new();
    for date in ["2024-12-31", "2025-01-01", "2025-03-31", "2025-04-01"] {
        for (tenor, price) in [
            ("Q4 24", 4.0),
            ("Q1 25", 1.0),
            ("Q2 25", 2.0),
            ("Q3 25", 3.0),
        ] {
            rows.push(("a", tenor, date, price));
        }
        rows.push(("a", "Jan 25", date, 99.0));
    }
    let spec = RollSpec::new("quarter", vec![1], 0).unwrap();
    let out = rolling(&settlements(&rows, "$/bbl"), &spec).unwrap();
    assert_eq!(names(&out), ["curve_id", "date", "Q1"]);
    assert_eq!(floats(&out, "Q1"), [1.0, 2.0, 2.0, 3.0].map(Some));
}

#[test]
fn intraday_rolls_on_the_utc_day_of_each_time() {
    let before = 1_738_367_940_000_000; // 2025-01-31T23:59:00Z
    let after = 1_738_368_060_000_000; // 2025-02-01T00:01:00Z
    let mut rows = Vec::new();
    for time in [before, after] {
        rows.push(("a", "Feb 25", time, 2.0));
        rows.push(("a", "Mar 25", time, 3.0));
    }
    let spec = RollSpec::new("month", vec![1], 0).unwrap();
    let out = rolling(&prices(&rows, "$/bbl"), &spec).unwrap();
    assert_eq!(names(&out), ["curve_id", "generated_on", "M1"]);
    assert_eq!(floats(&out, "M1"), [Some(2.0), Some(3.0)]);
}

#[test]
fn a_contract_without_a_price_that_day_is_null() {
    let rows = [
        ("a", "Jan 25", "2024-12-30", 1.0),
        ("a", "Feb 25", "2024-12-30", 2.0),
        ("a", "Feb 25", "2024-12-31", 2.0),
    ];
    let spec = RollSpec::new("month", vec![1], 0).unwrap();
    let out = rolling(&settlements(&rows, "$/bbl"), &spec).unwrap();
    assert_eq!(floats(&out, "M1"), [Some(1.0), None]);
}

#[test]
fn each_curve_rolls_on_its_own_rows() {
    let rows = [
        ("b", "Feb 25", "2025-01-02", 20.0),
        ("a", "Jan 25", "2024-12-31", 1.0),
        ("a", "Feb 25", "2024-12-31", 2.0),
    ];
    let spec = RollSpec::new("month", vec![1], 0).unwrap();
    let out = rolling(&settlements(&rows, "$/bbl"), &spec).unwrap();
    let ids: Vec<Option<String>> = vec![Some("a".into()), Some("b".into())];
    assert_eq!(texts(&out, "curve_id"), ids);
    assert_eq!(floats(&out, "M1"), [Some(1.0), Some(20.0)]);
}

#[test]
fn bad_input_is_refused_with_its_name() {
    let table = months(&DAYS);
    let past = RollSpec::new("month", vec![5], 0).unwrap();
    let error = rolling(&table, &past).unwrap_err().to_string();
    assert!(error.contains("M5") && error.contains("curve a"), "{error}");
    assert!(RollSpec::new("year", vec![1], 0)
        .unwrap_err()
        .to_string()
        .contains("unknown kind"));
    assert!(RollSpec::new("month", vec![0], 0).is_err());
    assert!(RollSpec::new("month", vec![1, 1], 0).is_err());
    let quarters = RollSpec::new("quarter", vec![1], 0).unwrap();
    assert!(rolling(&table, &quarters).is_err());
    let no_price = crate::curves::test_tables::table(vec![(
        "curve_id",
        std::sync::Arc::new(arrow_array::StringArray::from(vec!["a"])),
    )]);
    let error = rolling(&no_price, &past).unwrap_err().to_string();
    assert!(error.contains("no column \"tenor\""), "{error}");
}

/// Daily settlements of two years of monthly contracts from `first`, each
/// listed from a year before its delivery to its last day.
fn history(first: i32, days: i32) -> crate::arrow::Table {
    let mut rows: Vec<(String, String, String, f64)> = Vec::new();
    for d in first..first + days {
        let date = date_text(d);
        let today = chrono::NaiveDate::parse_from_str(&date, "%Y-%m-%d").unwrap();
        for ahead in 0..14 {
            let month = today + chrono::Months::new(ahead);
            let name = crate::tenor::Tenor::month_name(
                chrono::Datelike::year(&month),
                chrono::Datelike::month(&month),
            );
            rows.push(("a".into(), name, date.clone(), f64::from(ahead)));
        }
    }
    let refs: Vec<(&str, &str, &str, f64)> = rows
        .iter()
        .map(|r| (r.0.as_str(), r.1.as_str(), r.2.as_str(), r.3))
        .collect();
    settlements(&refs, "$/bbl")
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// From day to day M1 holds the same contract or the next one: no
    /// contract is skipped, none comes back, and M2 is always the one after M1.
    #[test]
    fn rolling_never_skips_or_repeats(first in 19_000i32..21_000, days in 1i32..120, roll_days in 0u32..6) {
        let spec = RollSpec::new("month", vec![1, 2], roll_days).unwrap();
        let log = roll_log(&history(first, days), &spec).unwrap();
        let order = |name: &str| crate::tenor::Tenor::parse(name).unwrap().start().unwrap();
        let m1: Vec<_> = texts(&log, "M1").into_iter().map(|n| order(&n.unwrap())).collect();
        let m2: Vec<_> = texts(&log, "M2").into_iter().map(|n| order(&n.unwrap())).collect();
        for (a, b) in m1.iter().zip(&m2) {
            prop_assert_eq!(*a + chrono::Months::new(1), *b);
        }
        for pair in m1.windows(2) {
            prop_assert!(pair[1] == pair[0] || pair[1] == pair[0] + chrono::Months::new(1));
        }
    }
}

#[test]
fn an_empty_table_gives_empty_columns_of_every_position() {
    let spec = RollSpec::new("month", vec![2, 1], 0).unwrap();
    let out = rolling(&settlements(&[], "$/bbl"), &spec).unwrap();
    assert_eq!(names(&out), ["curve_id", "date", "M2", "M1"]);
    assert_eq!(out.num_rows(), 0);
    let log = roll_log(&settlements(&[], "$/bbl"), &spec).unwrap();
    assert_eq!(names(&log), ["curve_id", "date", "M2", "M1"]);
}

#[test]
fn any_order_of_rows_and_curves_gives_the_same_answer() {
    // Two curves, by tenor then date (the package's order), against the
    // same rows by date, and reversed with the curves interleaved.
    let mut rows = Vec::new();
    for curve in ["b", "a"] {
        for (tenor, price) in [("Jan 25", 1.0), ("Feb 25", 2.0), ("Mar 25", 3.0)] {
            for date in DAYS {
                let bump = if curve == "a" { 10.0 } else { 0.0 };
                rows.push((curve, tenor, date, price + bump));
            }
        }
    }
    let spec = RollSpec::new("month", vec![1, 2], 0).unwrap();
    let expected = rolling(&settlements(&rows, "$/bbl"), &spec).unwrap();
    assert_eq!(texts(&expected, "curve_id")[0].as_deref(), Some("a"));
    assert_eq!(
        floats(&expected, "M1")[..5],
        [11.0, 11.0, 12.0, 12.0, 13.0].map(Some)
    );
    let mut by_date = rows.clone();
    by_date.sort_by_key(|r| r.2);
    let mut reversed = rows.clone();
    reversed.reverse();
    for other in [by_date, reversed] {
        let out = rolling(&settlements(&other, "$/bbl"), &spec).unwrap();
        for column in ["M1", "M2"] {
            assert_eq!(floats(&out, column), floats(&expected, column), "{column}");
        }
        assert_eq!(dates(&out), dates(&expected));
    }
}

#[test]
fn of_two_rows_of_one_contract_and_date_the_later_counts() {
    let rows = [
        ("a", "Jan 25", "2025-01-02", 1.0),
        ("a", "Feb 25", "2025-01-02", 2.0),
        ("a", "Feb 25", "2025-01-02", 2.5),
    ];
    let spec = RollSpec::new("month", vec![1], 0).unwrap();
    let out = rolling(&settlements(&rows, "$/bbl"), &spec).unwrap();
    assert_eq!(floats(&out, "M1"), [Some(2.5)]);
}
