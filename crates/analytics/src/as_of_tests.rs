use std::collections::BTreeMap;

use arrow_array::cast::AsArray;
use arrow_array::types::{Date32Type, TimestampMicrosecondType};
use proptest::prelude::*;

use super::as_of;
use crate::grid::At;
use crate::test_tables::{column, date_text, floats, names, prices, texts};
use domain::arrow::Table;

const MINUTE: i64 = 60_000_000;
/// 2025-06-11T09:00:00Z in microseconds.
const NINE: i64 = 1_749_632_400_000_000;

fn micros(table: &Table, name: &str) -> Vec<i64> {
    column(table, name)
        .as_primitive::<TimestampMicrosecondType>()
        .values()
        .to_vec()
}

/// Curve a: Jul 25 at 9:00 (70), 9:30 (71) and 10:30 (72), Aug 25 at 9:45
/// (80); curve b: Jul 25 at 10:00 (50). Not in table order.
fn ticks() -> Table {
    prices(
        &[
            ("b", "Jul 25", NINE + 60 * MINUTE, 50.0),
            ("a", "Aug 25", NINE + 45 * MINUTE, 80.0),
            ("a", "Jul 25", NINE + 90 * MINUTE, 72.0),
            ("a", "Jul 25", NINE, 70.0),
            ("a", "Jul 25", NINE + 30 * MINUTE, 71.0),
        ],
        "$/bbl",
    )
}

fn strings(values: &[&str]) -> Vec<Option<String>> {
    values.iter().map(|v| Some((*v).to_owned())).collect()
}

#[test]
fn each_tenor_takes_its_last_value_at_or_before_each_time() {
    // 9:15, 10:00 and 11:00, given out of order and twice.
    let at = At::Times(vec![
        NINE + 120 * MINUTE,
        NINE + 15 * MINUTE,
        NINE + 60 * MINUTE,
        NINE + 15 * MINUTE,
    ]);
    let out = as_of(&ticks(), &at).unwrap();
    assert_eq!(
        names(&out),
        [
            "curve_id",
            "as_of",
            "tenor",
            "tenor_kind",
            "tenor_start",
            "tenor_end",
            "generated_on",
            "price"
        ]
    );
    assert_eq!(
        texts(&out, "curve_id"),
        strings(&["a", "a", "a", "a", "a", "b", "b"])
    );
    let as_of_times = [15, 60, 60, 120, 120, 60, 120].map(|m| NINE + m * MINUTE);
    assert_eq!(micros(&out, "as_of"), as_of_times);
    assert_eq!(
        texts(&out, "tenor"),
        strings(&["Jul 25", "Jul 25", "Aug 25", "Jul 25", "Aug 25", "Jul 25", "Jul 25"])
    );
    // b's value at exactly 10:00 is its value as of 10:00.
    let generated = [0, 30, 45, 90, 45, 60, 60].map(|m| NINE + m * MINUTE);
    assert_eq!(micros(&out, "generated_on"), generated);
    assert_eq!(
        floats(&out, "price"),
        [70.0, 71.0, 80.0, 72.0, 80.0, 50.0, 50.0].map(Some)
    );
    let kinds = column(&out, "tenor_kind").as_dictionary::<arrow_array::types::Int8Type>();
    let values = kinds.values().as_string::<i32>();
    assert_eq!(values.value(kinds.keys().value(2) as usize), "month");
    let starts = column(&out, "tenor_start").as_primitive::<Date32Type>();
    let ends = column(&out, "tenor_end").as_primitive::<Date32Type>();
    assert_eq!(date_text(starts.value(2)), "2025-08-01");
    assert_eq!(date_text(ends.value(2)), "2025-08-31");
}

#[test]
fn a_frequency_takes_the_times_across_the_table() {
    // From 9:00 to 10:30: 9:00, 9:30, 10:00 and 10:30.
    // Curve a: Jul alone at 9:00 and 9:30, Jul and Aug at 10:00 and 10:30;
    // then curve b's Jul at 10:00 and 10:30.
    let out = as_of(&ticks(), &At::every("30min").unwrap()).unwrap();
    let times = [0, 30, 60, 60, 90, 90, 60, 90].map(|m| NINE + m * MINUTE);
    assert_eq!(micros(&out, "as_of"), times);
    assert_eq!(
        floats(&out, "price"),
        [70.0, 71.0, 71.0, 80.0, 72.0, 80.0, 50.0, 50.0].map(Some)
    );
    let hourly = as_of(&ticks(), &At::every("1h").unwrap()).unwrap();
    // 9:00: a's Jul; 10:00: a's Jul and Aug, b's Jul.
    assert_eq!(floats(&hourly, "price"), [70.0, 71.0, 80.0, 50.0].map(Some));
    let error = as_of(&ticks(), &At::every("1D").unwrap()).unwrap_err();
    assert!(error.to_string().contains("gives no time"), "{error}");
}

#[test]
fn of_two_values_at_one_time_the_later_row_counts() {
    let table = prices(
        &[("a", "Jul 25", NINE, 1.0), ("a", "Jul 25", NINE, 2.0)],
        "$/bbl",
    );
    let out = as_of(&table, &At::Times(vec![NINE])).unwrap();
    assert_eq!(floats(&out, "price"), [Some(2.0)]);
}

#[test]
fn an_empty_table_gives_the_columns_and_no_row() {
    let out = as_of(&prices(&[], "$/bbl"), &At::every("1h").unwrap()).unwrap();
    assert_eq!(out.num_rows(), 0);
    assert_eq!(names(&out).len(), 8);
    let none = as_of(&ticks(), &At::Times(vec![NINE - 1])).unwrap();
    assert_eq!(none.num_rows(), 0);
}

#[test]
fn a_table_without_times_is_refused() {
    let table = crate::test_tables::settlements(&[("a", "Jul 25", "2025-06-11", 1.0)], "$/bbl");
    let error = as_of(&table, &At::Times(vec![NINE]))
        .unwrap_err()
        .to_string();
    assert!(error.contains("no column \"generated_on\""), "{error}");
}

/// As of each time, by brute force: every row's value at or before it,
/// the latest (and of equal times the later row).
fn reference(rows: &[(u8, u8, i64, f64)], times: &[i64]) -> Vec<(String, i64, String, i64, f64)> {
    let mut sorted_times = times.to_vec();
    sorted_times.sort_unstable();
    sorted_times.dedup();
    let tenors = ["Jul 25", "Aug 25", "Q4 25"];
    let mut out = Vec::new();
    let curves: std::collections::BTreeSet<u8> = rows.iter().map(|r| r.0).collect();
    for curve in curves {
        for &time in &sorted_times {
            let mut last: BTreeMap<u8, (i64, f64)> = BTreeMap::new();
            for r in rows.iter().filter(|r| r.0 == curve && r.2 <= time) {
                if last.get(&r.1).is_none_or(|&(t, _)| r.2 >= t) {
                    last.insert(r.1, (r.2, r.3));
                }
            }
            for (tenor, (t, p)) in last {
                out.push((
                    format!("c{curve}"),
                    time,
                    tenors[tenor as usize].to_owned(),
                    t,
                    p,
                ));
            }
        }
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn as_of_is_the_last_value_at_or_before_each_time(
        rows in proptest::collection::vec((0u8..3, 0u8..3, 0i64..50, -100.0f64..100.0), 0..60),
        times in proptest::collection::vec(-5i64..60, 1..12),
    ) {
        let tenors = ["Jul 25", "Aug 25", "Q4 25"];
        let ids: Vec<String> = rows.iter().map(|r| format!("c{}", r.0)).collect();
        let table_rows: Vec<(&str, &str, i64, f64)> = rows
            .iter()
            .zip(&ids)
            .map(|(r, id)| (id.as_str(), tenors[r.1 as usize], NINE + r.2 * MINUTE, r.3))
            .collect();
        let at: Vec<i64> = times.iter().map(|t| NINE + t * MINUTE).collect();
        let out = as_of(&prices(&table_rows, "$/bbl"), &At::Times(at.clone())).unwrap();
        let scaled: Vec<(u8, u8, i64, f64)> = rows.iter().map(|r| (r.0, r.1, NINE + r.2 * MINUTE, r.3)).collect();
        let expected = reference(&scaled, &at);
        let got: Vec<(String, i64, String, i64, f64)> = texts(&out, "curve_id")
            .into_iter()
            .zip(micros(&out, "as_of"))
            .zip(texts(&out, "tenor"))
            .zip(micros(&out, "generated_on"))
            .zip(floats(&out, "price"))
            .map(|((((c, a), t), g), p)| (c.unwrap(), a, t.unwrap(), g, p.unwrap()))
            .collect();
        // The reference lists tenors in index order, which is calendar order.
        prop_assert_eq!(got, expected);
    }
}
