use super::residuals;
use crate::test_tables::{floats, names, prices, settlements, texts};
use crate::{build, BuildSpec, Holidays, Weights};

fn months() -> domain::arrow::Table {
    settlements(
        &[
            ("a", "Feb 25", "2024-12-02", 62.0),
            ("a", "Jan 25", "2024-12-02", 60.0),
            ("a", "C 00", "2024-12-02", 59.0),
            ("a", "Jan 25", "2024-12-03", 61.0),
        ],
        "$/bbl",
    )
}

fn built(table: &domain::arrow::Table) -> domain::arrow::Table {
    build(
        table,
        &BuildSpec::new("flat", "calendar", Holidays::default()).unwrap(),
    )
    .unwrap()
}

#[test]
fn one_row_per_contract_row_by_curve_time_and_tenor() {
    let table = months();
    let out = residuals(&table, &built(&table), &Weights::Calendar).unwrap();
    assert_eq!(
        names(&out),
        ["curve_id", "date", "tenor", "price", "mean", "residual"]
    );
    let tenors: Vec<_> = texts(&out, "tenor")
        .into_iter()
        .map(Option::unwrap)
        .collect();
    assert_eq!(tenors, ["Jan 25", "Feb 25", "Jan 25"]);
    assert_eq!(floats(&out, "mean"), [Some(60.0), Some(62.0), Some(61.0)]);
    assert_eq!(floats(&out, "residual"), [Some(0.0); 3]);
}

#[test]
fn prices_keyed_by_time_are_read_alike() {
    let t0 = 1_735_900_000_000_000;
    let table = prices(
        &[("a", "Feb 25", t0, 70.0), ("a", "Mar 25", t0, 71.0)],
        "$/bbl",
    );
    let out = residuals(&table, &built(&table), &Weights::Calendar).unwrap();
    assert_eq!(names(&out)[1], "generated_on");
    assert_eq!(floats(&out, "residual"), [Some(0.0); 2]);
}

#[test]
fn a_built_table_that_does_not_fit_is_refused_naming_what_is_missing() {
    let table = months();
    let other = settlements(&[("a", "Feb 25", "2024-12-02", 62.0)], "$/bbl");
    let error = residuals(&table, &built(&other), &Weights::Calendar)
        .unwrap_err()
        .to_string();
    assert!(
        error.contains("built has no forward on 2025-01-01 for curve a at 2024-12-02"),
        "{error}"
    );
    let just_b = settlements(&[("b", "Feb 25", "2024-12-02", 62.0)], "$/bbl");
    let error = residuals(&table, &built(&just_b), &Weights::Calendar)
        .unwrap_err()
        .to_string();
    assert!(
        error.contains("built has no curve for a at 2024-12-02"),
        "{error}"
    );
    let by_time = prices(&[("a", "Feb 25", 0, 70.0)], "$/bbl");
    let error = residuals(&table, &built(&by_time), &Weights::Calendar)
        .unwrap_err()
        .to_string();
    assert!(error.contains("built has no column \"date\""), "{error}");
}
