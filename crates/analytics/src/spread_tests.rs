use proptest::prelude::*;

use chrono::NaiveDate;

use super::{spread, Leg};
use crate::business::Holidays;
use crate::test_tables::{dates, floats, names, settlements, texts};

const NONE: Holidays = Holidays::Dates(Vec::new());

fn table() -> domain::arrow::Table {
    settlements(
        &[
            ("a", "Jan 25", "2024-12-31", 70.0),
            ("a", "Feb 25", "2024-12-31", 71.5),
            ("a", "Mar 25", "2024-12-31", 72.25),
            ("a", "Feb 25", "2025-01-02", 71.0),
            ("a", "Mar 25", "2025-01-02", 73.0),
            ("a", "Mar 25", "2025-01-03", 74.0),
        ],
        "$/bbl",
    )
}

fn leg(text: &str) -> Leg {
    Leg::parse(text, "near").unwrap()
}

#[test]
fn named_tenors_on_the_days_both_have_a_price() {
    let out = spread(&table(), &leg("Feb 25"), &leg("Mar 25"), 0, &NONE).unwrap();
    assert_eq!(names(&out), ["curve_id", "date", "near", "far", "spread"]);
    assert_eq!(dates(&out), ["2024-12-31", "2025-01-02"]);
    assert_eq!(floats(&out, "spread"), [Some(-0.75), Some(-2.0)]);
}

#[test]
fn positions_roll() {
    let out = spread(&table(), &leg("M1"), &leg("M2"), 0, &NONE).unwrap();
    // 31 Dec: Jan - Feb = -1.5; 2 Jan: Feb - Mar = -2; 3 Jan: no Feb price.
    assert_eq!(floats(&out, "spread"), [Some(-1.5), Some(-2.0)]);
    let near: Vec<Option<String>> = vec![Some("Jan 25".into()), Some("Feb 25".into())];
    assert_eq!(texts(&out, "near"), near);
}

#[test]
fn legs_are_checked() {
    assert_eq!(leg("Q2"), Leg::Nearby(domain::tenor::TenorKind::Quarter, 2));
    assert!(Leg::parse("M0", "near").is_err());
    assert!(Leg::parse("Cal 27", "far")
        .unwrap_err()
        .to_string()
        .contains("far"));
    let error = spread(&table(), &leg("Apr 25"), &leg("M1"), 0, &NONE)
        .unwrap_err()
        .to_string();
    assert!(error.contains("Apr 25"), "{error}");
    assert!(spread(&table(), &leg("M4"), &leg("M1"), 0, &NONE).is_err());
}

#[test]
fn positions_roll_days_before_delivery_in_business_days() {
    // Feb 25 starts Sat 1 Feb. Two business days before: Thu 30 Jan; with
    // 30 Jan a holiday, Wed 29 Jan; with the table's days (29 and 31 Jan
    // only), Wed 29 Jan too.
    let rows = [
        ("a", "Feb 25", "2025-01-29", 71.0),
        ("a", "Mar 25", "2025-01-29", 72.0),
        ("a", "Apr 25", "2025-01-29", 74.0),
        ("a", "Feb 25", "2025-01-31", 70.0),
        ("a", "Mar 25", "2025-01-31", 73.0),
        ("a", "Apr 25", "2025-01-31", 76.0),
    ];
    let table = settlements(&rows, "$/bbl");
    let near = |roll_days, holidays: &Holidays| {
        let out = spread(&table, &leg("M1"), &leg("M2"), roll_days, holidays).unwrap();
        texts(&out, "near")
    };
    let named = |names: &[&str]| -> Vec<Option<String>> {
        names.iter().map(|n| Some((*n).to_owned())).collect()
    };
    assert_eq!(near(0, &NONE), named(&["Feb 25", "Feb 25"]));
    assert_eq!(near(2, &NONE), named(&["Feb 25", "Mar 25"]));
    let holiday = Holidays::Dates(vec![NaiveDate::from_ymd_opt(2025, 1, 30).unwrap()]);
    assert_eq!(near(2, &holiday), named(&["Mar 25", "Mar 25"]));
    assert_eq!(near(2, &Holidays::Data), named(&["Mar 25", "Mar 25"]));
    let out = spread(&table, &leg("M1"), &leg("M2"), 2, &Holidays::Data).unwrap();
    assert_eq!(floats(&out, "spread"), [Some(-2.0), Some(-3.0)]);
}

proptest! {
    /// The spread of a tenor with itself is zero wherever it has a price.
    #[test]
    fn a_tenor_against_itself_is_zero(prices in proptest::collection::vec(-500.0f64..500.0, 1..20)) {
        let dates: Vec<String> = (0..prices.len()).map(|i| format!("2025-01-{:02}", i + 1)).collect();
        let rows: Vec<_> = prices.iter().zip(&dates).map(|(p, d)| ("a", "Jun 25", d.as_str(), *p)).collect();
        let out = spread(&settlements(&rows, "$/bbl"), &leg("Jun 25"), &leg("M1"), 0, &NONE).unwrap();
        prop_assert_eq!(out.num_rows(), prices.len());
        prop_assert!(floats(&out, "spread").iter().all(|s| *s == Some(0.0)));
    }
}
