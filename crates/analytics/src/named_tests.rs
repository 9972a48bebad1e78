use domain::arrow::{curves_in, name_table, Table};
use domain::records::CurveQuotation;

use crate::test_tables::{prices, settlements};
use crate::{
    as_of, build, convert, crack, matrix, rolling, spread, At, BuildSpec, Factors, Holidays, Leg,
    RollSpec, Unit,
};

const NONE: Holidays = Holidays::Dates(Vec::new());

fn listed(id: &str, name: &str, units: &str) -> CurveQuotation {
    CurveQuotation {
        id: Some(id.into()),
        name: Some(name.into()),
        units: Some(units.into()),
        quotation: Some("Outright".into()),
        ..CurveQuotation::default()
    }
}

fn catalogue() -> Vec<CurveQuotation> {
    vec![
        listed("g", "Gasoline", "c/gal"),
        listed("c", "Brent", "$/bbl"),
        listed("x", "Not in the tables", "$/mt"),
    ]
}

/// Two curves' settlements, named from the catalogue.
fn named_pair() -> Table {
    let rows = [
        ("g", "Feb 25", "2025-01-02", 235.0),
        ("g", "Mar 25", "2025-01-02", 240.0),
        ("c", "Feb 25", "2025-01-02", 78.0),
        ("c", "Mar 25", "2025-01-02", 77.0),
    ];
    name_table(settlements(&rows, "c/gal"), "curve_id", &[], &catalogue())
}

fn named_one(id: &str, units: &str, price: f64) -> Table {
    let rows = [
        (id, "Feb 25", "2025-01-02", price),
        (id, "Mar 25", "2025-01-02", price + 1.0),
    ];
    name_table(settlements(&rows, units), "curve_id", &[], &catalogue())
}

/// (id, name, units) of each curve a table names, by id.
fn named(table: &Table) -> Vec<(String, Option<String>, Option<String>)> {
    let mut curves: Vec<_> = curves_in(table.schema.metadata())
        .into_iter()
        .map(|c| (c.id, c.name, c.units))
        .collect();
    curves.sort();
    curves
}

fn entry(id: &str, name: &str, units: &str) -> (String, Option<String>, Option<String>) {
    (id.into(), Some(name.into()), Some(units.into()))
}

#[test]
fn functions_keyed_by_curve_carry_the_names_of_their_curves() {
    let input = named_pair();
    let both = vec![
        entry("c", "Brent", "$/bbl"),
        entry("g", "Gasoline", "c/gal"),
    ];
    let spec = RollSpec::new("month", vec![1], 0).unwrap();
    assert_eq!(named(&rolling(&input, &spec).unwrap()), both);
    assert_eq!(named(&matrix(&input, "price").unwrap()), both);
    let ticks = [("g", "Feb 25", 10, 235.0), ("c", "Feb 25", 20, 78.0)];
    let ticks = name_table(prices(&ticks, "c/gal"), "curve_id", &[], &catalogue());
    let at = At::Times(vec![30]);
    assert_eq!(named(&as_of(&ticks, &at).unwrap()), both);
    let (near, far) = (
        Leg::parse("M1", "near").unwrap(),
        Leg::parse("M2", "far").unwrap(),
    );
    assert_eq!(named(&spread(&input, &near, &far, 0, &NONE).unwrap()), both);
    let spec = BuildSpec::new("flat", "calendar", NONE).unwrap();
    assert_eq!(named(&build(&input, &spec).unwrap()), both);
}

#[test]
fn only_the_curves_of_the_output_are_named() {
    let input = named_one("g", "c/gal", 235.0);
    let out = matrix(&input, "price").unwrap();
    assert_eq!(named(&out), vec![entry("g", "Gasoline", "c/gal")]);
}

#[test]
fn a_crack_names_both_legs_in_its_units() {
    let product = named_one("g", "c/gal", 235.0);
    let crude = named_one("c", "$/bbl", 78.0);
    let none = Factors::default();
    let out = crack(&product, &crude, Unit::DollarsPerBarrel, &none, &none).unwrap();
    // Product first, then crude.
    let legs: Vec<_> = curves_in(out.schema.metadata())
        .into_iter()
        .map(|c| (c.id, c.name, c.units))
        .collect();
    assert_eq!(
        legs,
        vec![
            entry("g", "Gasoline", "$/bbl"),
            entry("c", "Brent", "$/bbl")
        ]
    );
}

#[test]
fn a_conversion_names_its_curves_in_the_new_units() {
    let input = named_one("g", "c/gal", 235.0);
    let out = convert(&input, Unit::DollarsPerBarrel, &Factors::default()).unwrap();
    assert_eq!(named(&out), vec![entry("g", "Gasoline", "$/bbl")]);
}

#[test]
fn a_table_naming_no_curve_gives_one_naming_none() {
    let rows = [("g", "Feb 25", "2025-01-02", 235.0)];
    let input = settlements(&rows, "c/gal");
    let out = matrix(&input, "price").unwrap();
    assert!(curves_in(out.schema.metadata()).is_empty());
    let out = convert(&input, Unit::DollarsPerBarrel, &Factors::default()).unwrap();
    assert!(curves_in(out.schema.metadata()).is_empty());
}
