use super::*;

#[test]
fn verticals_are_found_in_either_spelling() {
    assert_eq!(find_vertical("fuel oil").unwrap().bulk_name, "FUEL_OIL");
    assert_eq!(find_vertical("FUEL_OIL").unwrap().name, "Fuel Oil");
    assert_eq!(find_vertical("Jet").unwrap().bulk_name, "JET");
    assert!(find_vertical("Coal").is_none());
}

#[test]
fn canonical_spelling_of_regions_and_quotations() {
    let jet = find_vertical("jet").unwrap();
    assert_eq!(canonical(jet.regions, "far east"), Some("FAR EAST"));
    assert_eq!(canonical(jet.quotations, "FOB"), Some("Fob"));
    assert_eq!(canonical(jet.regions, "ARA"), None);
}
