use super::*;

#[test]
fn every_combination_of_the_interface_is_a_curve() {
    let curves = generate(0);
    assert_eq!(curves.len(), 233);
    for vertical in &VERTICALS {
        assert!(curves.iter().any(|c| c.vertical.name == vertical.name));
    }
    let ids: std::collections::HashSet<_> = curves.iter().map(|c| &c.id).collect();
    assert_eq!(ids.len(), curves.len());
}

#[test]
fn the_same_seed_gives_the_same_world_and_another_seed_another() {
    let (a, b, c) = (generate(1), generate(1), generate(2));
    assert_eq!(a[10].id, b[10].id);
    assert_eq!(a[10].name, b[10].name);
    assert_ne!(a[10].id, c[10].id);
}

#[test]
fn delivered_curves_have_components_and_routes() {
    let curves = generate(0);
    let delivered = curves
        .iter()
        .find(|c| c.quotation == "Delivered price by load" && c.vertical.name == "Jet")
        .unwrap();
    assert!(!delivered.components.is_empty());
    assert!(delivered.properties.contains_key("routing"));
    assert!(delivered.filters.contains_key("loadPort"));
    assert!(delivered.profile.transit_days > 0);
}
