use proptest::prelude::*;

use arrow_array::cast::AsArray;
use arrow_array::types::Date32Type;
use arrow_array::Array;

use super::{roll_log, rolling, RollSpec};
use crate::adjust::Adjust;
use crate::business::Holidays;
use crate::test_tables::{column, date_text, dates, floats, names, prices, settlements, texts};

/// Each contract's price is its month number, so a price says which contract it is.
fn months(dates: &[&str]) -> domain::arrow::Table {
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
fn roll_days_skip_the_holidays_given() {
    // Jan 25 starts Wed 1 Jan; with 31 Dec a holiday, one business day
    // before is Mon 30 Dec, so Jan is no longer held on 30 Dec.
    let holiday = chrono::NaiveDate::from_ymd_opt(2024, 12, 31).unwrap();
    let spec = RollSpec::new("month", vec![1], 1)
        .unwrap()
        .with_holidays(Holidays::Dates(vec![holiday]));
    let out = rolling(&months(&DAYS), &spec).unwrap();
    assert_eq!(floats(&out, "M1"), [2.0, 2.0, 2.0, 3.0, 3.0].map(Some));
    let log = roll_log(&months(&DAYS), &spec).unwrap();
    assert_eq!(texts(&log, "M1")[0].as_deref(), Some("Feb 25"));
}

#[test]
fn roll_days_in_the_tables_own_days() {
    // The table has 30 and 31 Dec, 2 and 31 Jan and 3 Feb: between them
    // every other weekday is a holiday. Two business days before 1 Jan are
    // 31 and 30 Dec; before 1 Feb, 31 Jan and then 2 Jan; before 1 Mar,
    // past the table's last day, Fri 28 and Thu 27 Feb.
    let spec = RollSpec::new("month", vec![1], 2)
        .unwrap()
        .with_holidays(Holidays::Data);
    let out = rolling(&months(&DAYS), &spec).unwrap();
    assert_eq!(floats(&out, "M1"), [2.0, 2.0, 3.0, 3.0, 3.0].map(Some));
    let late = ["2025-02-26", "2025-02-27"];
    let out = rolling(&months(&late), &spec).unwrap();
    assert_eq!(floats(&out, "M1"), [3.0, 4.0].map(Some));
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
    let no_price = crate::test_tables::table(vec![(
        "curve_id",
        std::sync::Arc::new(arrow_array::StringArray::from(vec!["a"])),
    )]);
    let error = rolling(&no_price, &past).unwrap_err().to_string();
    assert!(error.contains("no column \"tenor\""), "{error}");
}

/// Daily settlements of two years of monthly contracts from `first`, each
/// listed from a year before its delivery to its last day.
fn history(first: i32, days: i32) -> domain::arrow::Table {
    let mut rows: Vec<(String, String, String, f64)> = Vec::new();
    for d in first..first + days {
        let date = date_text(d);
        let today = chrono::NaiveDate::parse_from_str(&date, "%Y-%m-%d").unwrap();
        for ahead in 0..14 {
            let month = today + chrono::Months::new(ahead);
            let name = domain::tenor::Tenor::month_name(
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
        let order = |name: &str| domain::tenor::Tenor::parse(name).unwrap().start().unwrap();
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

/// Jan held on the first two days, Feb on the next two, Mar on the last;
/// each roll's prices differ from day to day, so a gap measured on the
/// wrong day shows.
fn rolled_months() -> domain::arrow::Table {
    let rows = [
        ("a", "Jan 25", "2024-12-30", 9.0),
        ("a", "Feb 25", "2024-12-30", 11.0),
        ("a", "Mar 25", "2024-12-30", 14.0),
        ("a", "Jan 25", "2024-12-31", 10.0),
        ("a", "Feb 25", "2024-12-31", 12.0),
        ("a", "Mar 25", "2024-12-31", 15.0),
        ("a", "Feb 25", "2025-01-02", 13.0),
        ("a", "Mar 25", "2025-01-02", 16.0),
        ("a", "Feb 25", "2025-01-31", 16.0),
        ("a", "Mar 25", "2025-01-31", 20.0),
        ("a", "Mar 25", "2025-02-03", 21.0),
    ];
    settlements(&rows, "$/bbl")
}

fn adjusted(name: &str) -> RollSpec {
    RollSpec::new("month", vec![1, 2], 0)
        .unwrap()
        .adjusted(Adjust::parse(name).unwrap())
}

#[test]
fn a_difference_adjusted_series_adds_the_later_gaps() {
    // M1's gaps: Feb - Jan on 31 Dec = 2, Mar - Feb on 31 Jan = 4.
    // M2's: Mar - Feb on 31 Dec = 3; past Mar it holds nothing.
    let out = rolling(&rolled_months(), &adjusted("difference")).unwrap();
    let raw = rolling(&rolled_months(), &adjusted("none")).unwrap();
    assert_eq!(floats(&raw, "M1"), [9.0, 10.0, 13.0, 16.0, 21.0].map(Some));
    assert_eq!(floats(&out, "M1"), [15.0, 16.0, 17.0, 20.0, 21.0].map(Some));
    assert_eq!(
        floats(&out, "M2"),
        [Some(14.0), Some(15.0), Some(16.0), Some(20.0), None]
    );
}

#[test]
fn a_ratio_adjusted_series_takes_the_product_of_later_ratios() {
    // M1's ratios: 12 / 10 = 1.2 and 20 / 16 = 1.25; M2's: 15 / 12 = 1.25.
    let out = rolling(&rolled_months(), &adjusted("ratio")).unwrap();
    let m1 = floats(&out, "M1");
    let expected = [9.0 * 1.2 * 1.25, 10.0 * 1.2 * 1.25, 13.0 * 1.25, 20.0, 21.0];
    for (got, want) in m1.iter().zip(expected) {
        assert!((got.unwrap() - want).abs() < 1e-12, "{m1:?}");
    }
    // The latest contract's prices are the table's, exactly.
    assert_eq!(m1[4], Some(21.0));
    assert_eq!(
        floats(&out, "M2"),
        [Some(13.75), Some(15.0), Some(16.0), Some(20.0), None]
    );
}

#[test]
fn the_adjusted_log_gives_each_roll_its_gap_and_day() {
    let log = roll_log(&rolled_months(), &adjusted("difference")).unwrap();
    assert_eq!(
        names(&log),
        [
            "curve_id",
            "date",
            "M1",
            "M1_gap",
            "M1_gap_on",
            "M2",
            "M2_gap",
            "M2_gap_on"
        ]
    );
    assert_eq!(
        floats(&log, "M1_gap"),
        [None, None, Some(2.0), None, Some(4.0)]
    );
    let on: Vec<Option<String>> = column(&log, "M1_gap_on")
        .as_primitive::<Date32Type>()
        .iter()
        .map(|d| d.map(date_text))
        .collect();
    let expected = [None, None, Some("2024-12-31"), None, Some("2025-01-31")];
    assert_eq!(on, expected.map(|d| d.map(str::to_owned)));
    assert_eq!(floats(&log, "M2_gap"), [None, None, Some(3.0), None, None]);
    let ratio = roll_log(&rolled_months(), &adjusted("ratio")).unwrap();
    assert_eq!(floats(&ratio, "M1_gap")[2], Some(1.2));
    // Unadjusted, the log is as it always was.
    let plain = roll_log(&rolled_months(), &adjusted("none")).unwrap();
    assert_eq!(names(&plain), ["curve_id", "date", "M1", "M2"]);
}

#[test]
fn a_roll_day_without_both_prices_is_measured_on_the_day_before() {
    // Without Feb on 31 Dec, the Jan-Feb gap is taken on 30 Dec: 11 - 9.
    let mut rows: Vec<_> = (0..rolled_months().num_rows()).collect();
    rows.remove(4);
    let table = rolled_months();
    let batch = table.batches[0].clone();
    let indices = arrow_array::UInt32Array::from_iter_values(rows.iter().map(|&r| r as u32));
    let taken = arrow_select::take::take_record_batch(&batch, &indices).unwrap();
    let table = domain::arrow::Table {
        schema: table.schema.clone(),
        batches: vec![taken],
    };
    let log = roll_log(&table, &adjusted("difference")).unwrap();
    assert_eq!(floats(&log, "M1_gap")[2], Some(2.0));
    let on = column(&log, "M1_gap_on")
        .as_primitive::<Date32Type>()
        .value(2);
    assert_eq!(date_text(on), "2024-12-30");
    let out = rolling(&table, &adjusted("difference")).unwrap();
    assert_eq!(floats(&out, "M1")[..2], [Some(15.0), Some(16.0)]);
}

#[test]
fn a_roll_that_cannot_be_measured_is_refused() {
    let rows = [
        ("a", "Jan 25", "2024-12-31", 10.0),
        ("a", "Feb 25", "2025-01-02", 13.0),
    ];
    let error = rolling(&settlements(&rows, "$/bbl"), &adjusted("difference"))
        .unwrap_err()
        .to_string();
    assert!(
        error.contains("the roll of M1 from Jan 25 to Feb 25 cannot be measured")
            && error.contains("2024-12-31"),
        "{error}"
    );
}

#[test]
fn intraday_gaps_are_measured_at_a_time() {
    let before = 1_738_367_940_000_000; // 2025-01-31T23:59:00Z
    let after = 1_738_368_060_000_000; // 2025-02-01T00:01:00Z
    let rows = [
        ("a", "Feb 25", before, 2.0),
        ("a", "Mar 25", before, 3.5),
        ("a", "Mar 25", after, 4.0),
    ];
    let spec = RollSpec::new("month", vec![1], 0)
        .unwrap()
        .adjusted(Adjust::Difference);
    let out = rolling(&prices(&rows, "$/bbl"), &spec).unwrap();
    assert_eq!(floats(&out, "M1"), [Some(3.5), Some(4.0)]);
    let log = roll_log(&prices(&rows, "$/bbl"), &spec).unwrap();
    assert_eq!(names(&log)[3..], ["M1_gap", "M1_gap_on"]);
    assert_eq!(floats(&log, "M1_gap"), [None, Some(1.5)]);
    let on =
        column(&log, "M1_gap_on").as_primitive::<arrow_array::types::TimestampMicrosecondType>();
    assert!(on.is_null(0));
    assert_eq!(on.value(1), before);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(16))]

    /// A difference-adjusted series moves as the contract it holds from
    /// one time to the next, rolls included as measured, and ends on the
    /// table's prices; a ratio-adjusted one alike, by ratios.
    #[test]
    fn adjusted_series_move_as_their_contracts(first in 19_000i32..21_000, days in 2i32..90, roll_days in 0u32..4) {
        let table = history(first, days);
        let base = RollSpec::new("month", vec![1], roll_days).unwrap();
        let raw = floats(&rolling(&table, &base).unwrap(), "M1");
        let log = roll_log(&table, &base.clone().adjusted(Adjust::Difference)).unwrap();
        let held = texts(&log, "M1");
        let difference = floats(&rolling(&table, &base.clone().adjusted(Adjust::Difference)).unwrap(), "M1");
        prop_assert_eq!(difference.last(), raw.last());
        for i in 1..raw.len() {
            let step = difference[i].unwrap() - difference[i - 1].unwrap();
            if held[i] == held[i - 1] {
                prop_assert!((step - (raw[i].unwrap() - raw[i - 1].unwrap())).abs() < 1e-9);
            }
        }
        // In `history` a contract's price is its months ahead, so each
        // roll's gap is one, and a series with n rolls after a day is n above it.
        let gaps = floats(&log, "M1_gap");
        let rolls_after = |i: usize| gaps[i + 1..].iter().flatten().count() as f64;
        for i in 0..raw.len() {
            prop_assert_eq!(difference[i].unwrap(), raw[i].unwrap() + rolls_after(i));
        }
    }
}
