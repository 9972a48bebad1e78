use super::crack;
use crate::test_tables::{dates, floats, names, settlements, texts};
use crate::{Factor, Factors, Product, Unit};

#[test]
fn a_gallon_product_against_crude_in_barrels() {
    let gasoline = settlements(
        &[
            ("g", "Feb 25", "2025-01-02", 235.0),
            ("g", "Mar 25", "2025-01-02", 240.0),
            ("g", "Feb 25", "2025-01-03", 230.0),
        ],
        "c/gal",
    );
    let crude = settlements(
        &[
            ("c", "Feb 25", "2025-01-02", 78.0),
            ("c", "Mar 25", "2025-01-02", 77.0),
            ("c", "Feb 25", "2025-01-06", 79.0),
        ],
        "$/bbl",
    );
    let none = Factors::default();
    let out = crack(&gasoline, &crude, Unit::DollarsPerBarrel, &none, &none).unwrap();
    assert_eq!(
        names(&out),
        ["tenor", "date", "product", "crude", "crack", "units"]
    );
    assert_eq!(dates(&out), ["2025-01-02", "2025-01-02"]);
    // 235 c/gal = 98.70 $/bbl; 240 c/gal = 100.80 $/bbl.
    let crack_values = floats(&out, "crack");
    assert!((crack_values[0].unwrap() - 20.7).abs() < 1e-9);
    assert!((crack_values[1].unwrap() - 23.8).abs() < 1e-9);
    assert_eq!(texts(&out, "units")[0].as_deref(), Some("$/bbl"));
}

#[test]
fn a_tonne_product_needs_its_factor() {
    let jet = settlements(&[("j", "Feb 25", "2025-01-02", 788.0)], "$/mt");
    let crude = settlements(&[("c", "Feb 25", "2025-01-02", 78.0)], "$/bbl");
    let none = Factors::default();
    let error = crack(&jet, &crude, Unit::DollarsPerBarrel, &none, &none).unwrap_err();
    assert!(error.to_string().contains("curve j"), "{error}");
    let factors = Factors {
        all: Some(Factor::Product(Product::Jet)),
        ..Factors::default()
    };
    let out = crack(&jet, &crude, Unit::DollarsPerBarrel, &factors, &none).unwrap();
    // 788 $/mt at 7.88 bbl/t = 100 $/bbl, less 78.
    assert!((floats(&out, "crack")[0].unwrap() - 22.0).abs() < 1e-9);
}

#[test]
fn each_side_holds_one_curve() {
    let two = settlements(
        &[
            ("a", "Feb 25", "2025-01-02", 1.0),
            ("b", "Feb 25", "2025-01-02", 1.0),
        ],
        "$/bbl",
    );
    let none = Factors::default();
    let error = crack(&two, &two, Unit::DollarsPerBarrel, &none, &none).unwrap_err();
    assert!(
        error.to_string().contains("product must hold one curve"),
        "{error}"
    );
}
