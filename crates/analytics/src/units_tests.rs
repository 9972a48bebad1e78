use proptest::prelude::*;

use super::{convert, Factor, Factors, Product, Unit};
use crate::test_tables::{floats, settlements, texts};

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1.0)
}

fn one(price: f64, units: &str, to: &str, factors: &Factors) -> Result<f64, String> {
    let table = settlements(&[("a", "Jan 26", "2025-06-02", price)], units);
    let out = convert(&table, Unit::parse(to).unwrap(), factors).map_err(|e| e.to_string())?;
    assert_eq!(
        texts(&out, "units")[0].as_deref(),
        Some(Unit::parse(to).unwrap().as_str())
    );
    Ok(floats(&out, "price")[0].unwrap())
}

#[test]
fn catalogue_strings_and_variants_are_read() {
    for (text, unit) in [
        ("c/gal", Unit::CentsPerGallon),
        ("USc/gal", Unit::CentsPerGallon),
        ("$/gal", Unit::DollarsPerGallon),
        ("$/bbl", Unit::DollarsPerBarrel),
        ("USD/BBL", Unit::DollarsPerBarrel),
        ("$/mt", Unit::DollarsPerTonne),
        ("USD/MT", Unit::DollarsPerTonne),
        ("$/t", Unit::DollarsPerTonne),
    ] {
        assert_eq!(Unit::parse(text).unwrap(), unit, "{text}");
    }
    assert!(Unit::parse("WS").is_err());
    assert_eq!(Product::parse("fuel oil").unwrap(), Product::FuelOil);
    assert_eq!(Product::parse("ULSD").unwrap(), Product::Ulsd);
    assert!(Product::parse("Propane").is_err());
}

#[test]
fn volume_units_convert_exactly() {
    let none = Factors::default();
    // 235 c/gal = 2.35 $/gal = 2.35 * 42 = 98.70 $/bbl.
    assert!(close(one(235.0, "c/gal", "$/bbl", &none).unwrap(), 98.7));
    assert!(close(one(235.0, "c/gal", "$/gal", &none).unwrap(), 2.35));
    assert!(close(one(84.0, "$/bbl", "c/gal", &none).unwrap(), 200.0));
}

#[test]
fn mass_to_volume_uses_the_products_factor() {
    let gasoline = Factors {
        all: Some(Factor::Product(Product::Gasoline)),
        ..Factors::default()
    };
    // 833 $/mt of gasoline at 8.33 bbl/t is 100 $/bbl, i.e. 238.095… c/gal.
    assert!(close(
        one(833.0, "$/mt", "$/bbl", &gasoline).unwrap(),
        100.0
    ));
    assert!(close(
        one(833.0, "$/mt", "c/gal", &gasoline).unwrap(),
        10_000.0 / 42.0
    ));
    // A number given by the call overrides; per curve beats the default.
    let mut given = Factors {
        all: Some(Factor::Product(Product::Gasoline)),
        ..Factors::default()
    };
    given
        .per_curve
        .insert("a".into(), Factor::BarrelsPerTonne(7.0));
    assert!(close(one(700.0, "$/mt", "$/bbl", &given).unwrap(), 100.0));
    // Fuel oil: 635 $/mt at 6.35 bbl/t is 100 $/bbl.
    let fuel = Factors {
        all: Some(Factor::Product(Product::FuelOil)),
        ..Factors::default()
    };
    assert!(close(one(100.0, "$/bbl", "$/mt", &fuel).unwrap(), 635.0));
}

#[test]
fn mass_to_volume_without_a_factor_names_the_curve() {
    let error = one(700.0, "$/mt", "$/bbl", &Factors::default()).unwrap_err();
    assert!(
        error.contains("curve a") && error.contains("give a factor: a number"),
        "{error}"
    );
    let bad = Factors {
        all: Some(Factor::BarrelsPerTonne(-1.0)),
        ..Factors::default()
    };
    assert!(one(700.0, "$/mt", "$/bbl", &bad).is_err());
}

#[test]
fn mixed_units_are_refused() {
    let a = settlements(&[("a", "Jan 26", "2025-06-02", 1.0)], "$/bbl");
    let b = settlements(&[("b", "Jan 26", "2025-06-02", 1.0)], "$/mt");
    let mut both = a.clone();
    both.batches.extend(b.batches);
    let error = convert(&both, Unit::DollarsPerBarrel, &Factors::default())
        .unwrap_err()
        .to_string();
    assert!(
        error.contains("mixed units") && error.contains("curve b"),
        "{error}"
    );
}

#[test]
fn other_columns_are_kept() {
    let table = settlements(&[("a", "Jan 26", "2025-06-02", 235.0)], "c/gal");
    let out = convert(&table, Unit::DollarsPerBarrel, &Factors::default()).unwrap();
    assert_eq!(out.schema.fields().len(), table.schema.fields().len());
    assert_eq!(texts(&out, "tenor")[0].as_deref(), Some("Jan 26"));
}

proptest! {
    /// Converting to any unit and back gives the input.
    #[test]
    fn there_and_back_gives_the_input(
        price in -1.0e4f64..1.0e4,
        from in 0usize..4,
        to in 0usize..4,
        product in 0usize..6,
    ) {
        let factors = Factors { all: Some(Factor::Product(Product::ALL[product])), ..Factors::default() };
        let (from, to) = (Unit::ALL[from].as_str(), Unit::ALL[to].as_str());
        let there = one(price, from, to, &factors).unwrap();
        let back = one(there, to, from, &factors).unwrap();
        prop_assert!(close(back, price), "{} -> {} -> {}", price, there, back);
    }
}
