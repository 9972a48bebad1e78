use std::collections::HashSet;

use arrow_array::cast::AsArray;
use arrow_array::types::Date32Type;
use chrono::NaiveDate;
use proptest::prelude::*;

use super::{build, BuildSpec};
use crate::residuals;
use crate::test_tables::{column, date_text, dates, floats, names, prices, settlements, texts};
use crate::{Holidays, Weights};
use domain::arrow::Table;
use domain::tenor::Tenor;

fn spec(method: &str) -> BuildSpec {
    BuildSpec::new(method, "calendar", Holidays::default()).unwrap()
}

fn deliveries(table: &Table) -> Vec<String> {
    column(table, "delivery")
        .as_primitive::<Date32Type>()
        .iter()
        .map(|d| date_text(d.unwrap()))
        .collect()
}

fn forwards(table: &Table) -> Vec<f64> {
    floats(table, "forward")
        .into_iter()
        .map(Option::unwrap)
        .collect()
}

/// Each (curve, date, tenor, price) row of `table` with its residual against `built`.
fn residual_of(table: &Table, built: &Table, weights: &Weights) -> Vec<(String, f64)> {
    let out = residuals(table, built, weights).unwrap();
    texts(&out, "tenor")
        .into_iter()
        .zip(floats(&out, "residual"))
        .map(|(t, r)| (t.unwrap(), r.unwrap()))
        .collect()
}

fn d(text: &str) -> NaiveDate {
    NaiveDate::parse_from_str(text, "%Y-%m-%d").unwrap()
}

#[test]
fn months_of_one_price_make_a_flat_curve_over_their_days() {
    let table = settlements(
        &[
            ("a", "Jan 25", "2024-12-02", 70.0),
            ("a", "Feb 25", "2024-12-02", 70.0),
            ("a", "C 00", "2024-12-02", 99.0),
        ],
        "$/bbl",
    );
    for method in ["smooth", "flat"] {
        let out = build(&table, &spec(method)).unwrap();
        assert_eq!(names(&out), ["curve_id", "date", "delivery", "forward"]);
        let days = deliveries(&out);
        assert_eq!(days.len(), 59);
        assert_eq!(
            (days[0].as_str(), days[58].as_str()),
            ("2025-01-01", "2025-02-28")
        );
        assert!(
            forwards(&out).iter().all(|f| (f - 70.0).abs() < 1e-9),
            "{method}"
        );
        assert!(texts(&out, "curve_id")
            .iter()
            .all(|c| c.as_deref() == Some("a")));
    }
}

#[test]
fn a_single_contract_is_flat_at_its_price() {
    let table = settlements(&[("a", "Q2 25", "2025-03-03", 64.5)], "$/bbl");
    let out = build(&table, &spec("smooth")).unwrap();
    assert_eq!(deliveries(&out).len(), 91);
    assert!(forwards(&out).iter().all(|f| (f - 64.5).abs() < 1e-9));
}

#[test]
fn a_quarter_covered_by_its_months_is_left_out_and_shows_its_residual() {
    let months = [
        ("a", "Jan 25", "2024-12-02", 60.0),
        ("a", "Feb 25", "2024-12-02", 62.0),
        ("a", "Mar 25", "2024-12-02", 61.0),
    ];
    let mut with_quarter = months.to_vec();
    with_quarter.push(("a", "Q1 25", "2024-12-02", 65.0));
    let (months, with_quarter) = (
        settlements(&months, "$/bbl"),
        settlements(&with_quarter, "$/bbl"),
    );
    for method in ["smooth", "flat"] {
        let built = build(&with_quarter, &spec(method)).unwrap();
        assert_eq!(
            forwards(&built),
            forwards(&build(&months, &spec(method)).unwrap())
        );
        // The months' mean over the quarter, weighted by their days.
        let mean = (60.0 * 31.0 + 62.0 * 28.0 + 61.0 * 31.0) / 90.0;
        let residual = residual_of(&with_quarter, &built, &Weights::Calendar);
        let names: Vec<&str> = residual.iter().map(|(t, _)| t.as_str()).collect();
        assert_eq!(names, ["Jan 25", "Q1 25", "Feb 25", "Mar 25"]);
        for (tenor, r) in residual {
            let want = if tenor == "Q1 25" { 65.0 - mean } else { 0.0 };
            assert!((r - want).abs() < 1e-9, "{method} {tenor}: {r}");
        }
    }
}

#[test]
fn windows_inside_months_are_met_with_their_months() {
    let table = settlements(
        &[
            ("a", "1-5 Jan 25", "2024-12-02", 58.0),
            ("a", "6-10 Jan 25", "2024-12-02", 59.0),
            ("a", "Jan 25", "2024-12-02", 60.0),
            ("a", "Feb 25", "2024-12-02", 63.0),
        ],
        "$/bbl",
    );
    for method in ["smooth", "flat"] {
        let built = build(&table, &spec(method)).unwrap();
        for (tenor, r) in residual_of(&table, &built, &Weights::Calendar) {
            assert!(r.abs() < 1e-9 * 60.0, "{method} {tenor}: {r}");
        }
    }
    // Flat: the windows' days at their prices, January's other 21 days at
    // (31 * 60 - 5 * 58 - 5 * 59) / 21.
    let flat = forwards(&build(&table, &spec("flat")).unwrap());
    assert_eq!(
        &flat[..10],
        &[58.0, 58.0, 58.0, 58.0, 58.0, 59.0, 59.0, 59.0, 59.0, 59.0]
    );
    let rest = (31.0 * 60.0 - 5.0 * 58.0 - 5.0 * 59.0) / 21.0;
    assert!(flat[10..31].iter().all(|f| (f - rest).abs() < 1e-12));
    assert!(flat[31..].iter().all(|f| *f == 63.0));
}

#[test]
fn business_weights_average_weekdays_less_the_holidays() {
    // January 2025 starts on a Wednesday, a holiday here: 22 business days,
    // 2 of them (Thursday 2 and Friday 3) in the first window.
    let table = settlements(
        &[
            ("a", "1-5 Jan 25", "2024-12-02", 60.0),
            ("a", "Jan 25", "2024-12-02", 62.0),
        ],
        "$/bbl",
    );
    let business =
        BuildSpec::new("flat", "business", Holidays::Dates(vec![d("2025-01-01")])).unwrap();
    let flat = forwards(&build(&table, &business).unwrap());
    assert_eq!(&flat[..5], &[60.0; 5]);
    // The other 20 business days: (22 * 62 - 2 * 60) / 20 = 62.2; their
    // weekends take the same value.
    assert!(
        flat[5..].iter().all(|f| (f - 62.2).abs() < 1e-12),
        "{flat:?}"
    );
    let smooth =
        BuildSpec::new("smooth", "business", Holidays::Dates(vec![d("2025-01-01")])).unwrap();
    let built = build(&table, &smooth).unwrap();
    assert_eq!(deliveries(&built).len(), 31);
    for (tenor, r) in residual_of(&table, &built, &smooth.weights) {
        assert!(r.abs() < 1e-9 * 62.0, "{tenor}: {r}");
    }
    // Against calendar weights the same curve misses the window's price.
    let calendar = residual_of(&table, &built, &Weights::Calendar);
    assert!(calendar[0].1.abs() > 1e-3, "{calendar:?}");
}

#[test]
fn prices_keyed_by_time_build_one_curve_per_time() {
    let t0 = 1_735_900_000_000_000;
    let table = prices(
        &[
            ("a", "Feb 25", t0, 70.0),
            ("a", "Feb 25", t0 + 1, 71.0),
            ("a", "Mar 25", t0 + 1, 72.0),
        ],
        "$/bbl",
    );
    let out = build(&table, &spec("smooth")).unwrap();
    assert_eq!(
        names(&out),
        ["curve_id", "generated_on", "delivery", "forward"]
    );
    assert_eq!(out.batches[0].num_rows(), 28 + 59);
}

#[test]
fn bad_input_is_named() {
    let error = |rows: &[(&str, &str, &str, f64)], spec: &BuildSpec| {
        build(&settlements(rows, "$/bbl"), spec)
            .unwrap_err()
            .to_string()
    };
    assert!(BuildSpec::new("spline", "calendar", Holidays::default())
        .unwrap_err()
        .to_string()
        .contains("unknown method"));
    assert!(BuildSpec::new("smooth", "trading", Holidays::default())
        .unwrap_err()
        .to_string()
        .contains("unknown weights"));
    let same = error(
        &[
            ("a", "Jan 25", "2024-12-02", 1.0),
            ("a", "JAN 25", "2024-12-02", 2.0),
        ],
        &spec("smooth"),
    );
    assert!(
        same.contains(
            "\"JAN 25\" and \"Jan 25\" of curve a at 2024-12-02 deliver over the same days"
        ),
        "{same}"
    );
    let inf = error(
        &[
            ("a", "Jan 25", "2024-12-02", 1.0),
            ("a", "Feb 25", "2024-12-02", f64::INFINITY),
        ],
        &spec("smooth"),
    );
    assert!(
        inf.contains("tenor \"Feb 25\" of curve a at 2024-12-02 has an infinite price"),
        "{inf}"
    );
    // 26-28 February 2022 are a Saturday, a Sunday and, here, a holiday.
    let holiday =
        BuildSpec::new("smooth", "business", Holidays::Dates(vec![d("2022-02-28")])).unwrap();
    let empty = error(&[("a", "26-EOM Feb 22", "2022-01-04", 1.0)], &holiday);
    assert!(
        empty.contains("tenor \"26-EOM Feb 22\" of curve a at 2022-01-04 has no business day"),
        "{empty}"
    );
    // The quarter's days the months and windows leave are those three: its
    // mean is theirs, and a price that differs cannot be met.
    let mut rows = vec![
        ("a", "Jan 22", "2022-01-04", 70.0),
        ("a", "Mar 22", "2022-01-04", 72.0),
        ("a", "Q1 22", "2022-01-04", 75.0),
    ];
    for window in ["1-5", "6-10", "11-15", "16-20", "21-25"] {
        rows.push((
            "a",
            Box::leak(format!("{window} Feb 22").into_boxed_str()),
            "2022-01-04",
            71.0,
        ));
    }
    for method in ["smooth", "flat"] {
        let spec =
            BuildSpec::new(method, "business", Holidays::Dates(vec![d("2022-02-28")])).unwrap();
        let unmet = error(&rows, &spec);
        assert!(
            unmet.contains("the prices of curve a at 2022-01-04 cannot all be met"),
            "{unmet}"
        );
        assert!(unmet.contains("Q1 22"), "{unmet}");
    }
}

#[test]
fn two_prices_of_one_contract_and_date_are_refused_naming_both() {
    let rows = [
        ("a", "Jan 25", "2024-12-02", 1.0),
        ("a", "Feb 25", "2024-12-02", 2.0),
        ("a", "Feb 25", "2024-12-02", 2.5),
    ];
    let error = build(&settlements(&rows, "$/bbl"), &spec("flat"))
        .unwrap_err()
        .to_string();
    assert!(
        error.contains("tenor \"Feb 25\" of curve a at 2024-12-02 has two prices, 2 and 2.5"),
        "{error}"
    );
    // One price given twice is one price.
    let twice = [rows[0], rows[1], rows[1]];
    let once = build(&settlements(&twice[..2], "$/bbl"), &spec("flat")).unwrap();
    let built = build(&settlements(&twice, "$/bbl"), &spec("flat")).unwrap();
    assert_eq!(forwards(&built), forwards(&once));
    // Two prices of a tenor without delivery days are not built from.
    let continuous = [
        rows[0],
        ("a", "C 00", "2024-12-02", 1.0),
        ("a", "C 00", "2024-12-02", 3.0),
    ];
    assert!(build(&settlements(&continuous, "$/bbl"), &spec("flat")).is_ok());
}

#[test]
fn a_nan_price_is_no_price_as_a_null_one_is() {
    let rows = [
        ("a", "Jan 25", "2024-12-02", 1.0),
        ("a", "Feb 25", "2024-12-02", 2.0),
        ("a", "Mar 25", "2024-12-02", f64::NAN),
    ];
    let without = build(&settlements(&rows[..2], "$/bbl"), &spec("smooth")).unwrap();
    let nan = build(&settlements(&rows, "$/bbl"), &spec("smooth")).unwrap();
    assert_eq!(forwards(&nan), forwards(&without));
    // Nor does a NaN conflict with a price of the same contract and date.
    let both = [rows[0], rows[1], ("a", "Feb 25", "2024-12-02", f64::NAN)];
    let built = build(&settlements(&both, "$/bbl"), &spec("smooth")).unwrap();
    assert_eq!(forwards(&built), forwards(&without));
}

/// A curve's contracts at one date: `months` months from `first`, a
/// quarter, and windows of the first month, some of them, each priced; and
/// whether each is left out (its days all covered by shorter ones).
fn contracts() -> impl Strategy<Value = Vec<(String, f64, bool)>> {
    (
        0u32..24,
        1u32..9,
        any::<bool>(),
        0usize..7,
        proptest::collection::vec(20.0f64..120.0, 16),
    )
        .prop_map(|(first, months, quarter, windows, prices)| {
            let mut out = Vec::new();
            let mut price = prices.into_iter().cycle();
            let year_month = |m: u32| (2025 + (m / 12) as i32, m % 12 + 1);
            for m in first..first + months {
                let (y, mo) = year_month(m);
                let covered = m == first && windows == 6;
                out.push((Tenor::month_name(y, mo), price.next().unwrap(), covered));
            }
            if quarter {
                let (y, mo) = year_month(first);
                let q_first = first - (mo - 1) % 3;
                let covered = q_first >= first && q_first + 3 <= first + months;
                let name = format!("Q{} {:02}", (mo - 1) / 3 + 1, y % 100);
                out.push((name, price.next().unwrap(), covered));
            }
            let (y, mo) = year_month(first);
            for start in [1, 6, 11, 16, 21, 26].into_iter().take(windows) {
                out.push((
                    Tenor::window_name(y, mo, start),
                    price.next().unwrap(),
                    false,
                ));
            }
            out
        })
}

const KEYS: [(&str, &str); 4] = [
    ("a", "2024-12-02"),
    ("a", "2024-12-03"),
    ("b", "2024-12-02"),
    ("b", "2024-12-03"),
];

/// Rows (curve, tenor, date, price, left out) of curves "a" and "b" at two dates each.
fn tables() -> impl Strategy<Value = Vec<(String, String, String, f64, bool)>> {
    proptest::collection::vec(contracts(), 4).prop_map(|sets| {
        KEYS.iter()
            .zip(sets)
            .flat_map(|(&(curve, date), set)| {
                set.into_iter().map(move |(tenor, price, left_out)| {
                    (curve.to_owned(), tenor, date.to_owned(), price, left_out)
                })
            })
            .collect()
    })
}

fn table_of(rows: &[(String, String, String, f64, bool)]) -> Table {
    let rows: Vec<(&str, &str, &str, f64)> = rows
        .iter()
        .map(|(c, t, d, p, _)| (c.as_str(), t.as_str(), d.as_str(), *p))
        .collect();
    settlements(&rows, "$/bbl")
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn kept_contracts_are_met_and_each_curve_is_built_as_if_alone(
        rows in tables(),
        flat in any::<bool>(),
        business in any::<bool>(),
    ) {
        let spec = BuildSpec::new(
            if flat { "flat" } else { "smooth" },
            if business { "business" } else { "calendar" },
            Holidays::default(),
        ).unwrap();
        let table = table_of(&rows);
        let built = build(&table, &spec).unwrap();
        // Stable: the same table gives the same curve, to the bit.
        prop_assert_eq!(forwards(&built), forwards(&build(&table, &spec).unwrap()));
        let out = residuals(&table, &built, &spec.weights).unwrap();
        let left_out: HashSet<(String, String, String)> = rows
            .iter()
            .filter(|r| r.4)
            .map(|r| (r.0.clone(), r.2.clone(), r.1.clone()))
            .collect();
        let (curve, tenor) = (texts(&out, "curve_id"), texts(&out, "tenor"));
        let (price, residual) = (floats(&out, "price"), floats(&out, "residual"));
        prop_assert_eq!(residual.len(), rows.len());
        for (i, date) in dates(&out).into_iter().enumerate() {
            let key = (curve[i].clone().unwrap(), date, tenor[i].clone().unwrap());
            let (r, p) = (residual[i].unwrap(), price[i].unwrap());
            prop_assert!(left_out.contains(&key) || r.abs() <= 1e-9 * p.abs(), "{:?}: {}", key, r);
        }
        // Each curve and date alone gives its rows of the whole, to the bit.
        let mut alone = Vec::new();
        for key in KEYS {
            let some: Vec<_> = rows.iter().filter(|r| (r.0.as_str(), r.2.as_str()) == key).cloned().collect();
            alone.extend(forwards(&build(&table_of(&some), &spec).unwrap()));
        }
        prop_assert_eq!(alone, forwards(&built));
    }
}
