use proptest::prelude::*;

use super::{spread, Leg};
use crate::curves::test_tables::{dates, floats, names, settlements, texts};

fn table() -> crate::arrow::Table {
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
    let out = spread(&table(), &leg("Feb 25"), &leg("Mar 25")).unwrap();
    assert_eq!(names(&out), ["curve_id", "date", "near", "far", "spread"]);
    assert_eq!(dates(&out), ["2024-12-31", "2025-01-02"]);
    assert_eq!(floats(&out, "spread"), [Some(-0.75), Some(-2.0)]);
}

#[test]
fn positions_roll() {
    let out = spread(&table(), &leg("M1"), &leg("M2")).unwrap();
    // 31 Dec: Jan - Feb = -1.5; 2 Jan: Feb - Mar = -2; 3 Jan: no Feb price.
    assert_eq!(floats(&out, "spread"), [Some(-1.5), Some(-2.0)]);
    let near: Vec<Option<String>> = vec![Some("Jan 25".into()), Some("Feb 25".into())];
    assert_eq!(texts(&out, "near"), near);
}

#[test]
fn legs_are_checked() {
    assert_eq!(leg("Q2"), Leg::Nearby(crate::tenor::TenorKind::Quarter, 2));
    assert!(Leg::parse("M0", "near").is_err());
    assert!(Leg::parse("Cal 27", "far")
        .unwrap_err()
        .to_string()
        .contains("far"));
    let error = spread(&table(), &leg("Apr 25"), &leg("M1"))
        .unwrap_err()
        .to_string();
    assert!(error.contains("Apr 25"), "{error}");
    assert!(spread(&table(), &leg("M4"), &leg("M1")).is_err());
}

proptest! {
    /// The spread of a tenor with itself is zero wherever it has a price.
    #[test]
    fn a_tenor_against_itself_is_zero(prices in proptest::collection::vec(-500.0f64..500.0, 1..20)) {
        let dates: Vec<String> = (0..prices.len()).map(|i| format!("2025-01-{:02}", i + 1)).collect();
        let rows: Vec<_> = prices.iter().zip(&dates).map(|(p, d)| ("a", "Jun 25", d.as_str(), *p)).collect();
        let out = spread(&settlements(&rows, "$/bbl"), &leg("Jun 25"), &leg("M1")).unwrap();
        prop_assert_eq!(out.num_rows(), prices.len());
        prop_assert!(floats(&out, "spread").iter().all(|s| *s == Some(0.0)));
    }
}
