use super::*;
use crate::world::curves::generate;
use domain::timestamp::parse_timestamp;

#[test]
fn stamps_print_exactly_the_instant_they_carry() {
    let curves = generate(0);
    let day = NaiveDate::from_ymd_opt(2025, 6, 13).unwrap();
    let mut lengths = std::collections::HashSet::new();
    for curve in curves.iter().take(20) {
        for slot in 0..50 {
            let stamp = tick(curve, day, slot);
            let text = stamp.format();
            assert_eq!(parse_timestamp(&text), Ok(stamp.at), "{text}");
            assert!(stamp.at >= start_of(day) + i64::from(slot) * granularity(curve));
            lengths.insert(text.len());
        }
    }
    assert_eq!(
        lengths.len(),
        7,
        "every fraction length from 0 to 6 digits appears"
    );
}

#[test]
fn stamps_print_every_field_zero_padded() {
    let at = parse_timestamp("2025-01-02T03:04:05.123456").unwrap();
    let text = |digits| Stamp { at, digits }.format();
    assert_eq!(text(0), "2025-01-02T03:04:05");
    assert_eq!(text(2), "2025-01-02T03:04:05.12");
    assert_eq!(text(6), "2025-01-02T03:04:05.123456");
}

#[test]
fn prices_are_deterministic_and_plausible() {
    let curves = generate(5);
    let tenor = Tenor::parse("Aug 25").unwrap();
    let at = parse_timestamp("2025-06-13T15:30:00").unwrap();
    for curve in &curves {
        let p = price(5, curve, &tenor, at);
        assert_eq!(p, price(5, curve, &tenor, at));
        let p = p.abs();
        assert!(
            p < curve.profile.level.abs() + 2.0 * curve.profile.amplitude + 50.0,
            "{}",
            curve.name
        );
    }
    let crude = curves
        .iter()
        .find(|c| c.quotation == "Fob" && c.vertical.name == "Crude")
        .unwrap();
    let p = price(5, crude, &tenor, at);
    assert!((55.0..105.0).contains(&p), "{p}");
    assert_ne!(
        price(5, crude, &tenor, at),
        price(5, crude, &tenor, at + 60_000_000)
    );
}

#[test]
fn records_carry_components_and_metadata() {
    let curves = generate(0);
    let curve = curves
        .iter()
        .find(|c| c.components.len() == 2 && c.profile.windows)
        .unwrap();
    let tenor = Tenor::parse("6-10 Jul 25").unwrap();
    let stamp = Stamp::exact(curve, parse_timestamp("2025-06-13T15:30:00").unwrap());
    let record = record(0, &curves, curve, &tenor, stamp);
    assert_eq!(record.dependencies.len(), 2);
    assert_eq!(record.dependencies[0].tenor_name, "Jul 25");
    let component = &curves[curve.components[0]];
    let month = Tenor::parse("Jul 25").unwrap();
    assert_eq!(
        record.dependencies[0].value,
        price(0, component, &month, stamp.at)
    );
    let names: Vec<&str> = record.metadata.iter().map(|m| m.name).collect();
    assert_eq!(
        names,
        ["loadDate", "deliveryDate", "monthName", "monthNumber"]
    );
    assert_eq!(record.metadata[0].value, "2025-07-06T00:00:00.000Z");
    assert_eq!(record.metadata[2].value, "July");
}
