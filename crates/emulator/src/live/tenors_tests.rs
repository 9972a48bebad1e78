use super::*;
use crate::world::curves::generate;

fn today() -> NaiveDate {
    NaiveDate::from_ymd_opt(2025, 6, 13).unwrap()
}

#[test]
fn all_tenors_are_todays_calendar_contracts() {
    let curves = generate(0);
    let curve = curves
        .iter()
        .find(|c| c.profile.continuous && c.profile.windows)
        .unwrap();
    let all = subscribed_tenors(curve, "*", today());
    let names: Vec<&str> = all.iter().map(|(n, _)| n.as_str()).collect();
    let listed = contracts(curve, today());
    assert_eq!(names.len(), listed.len() - 3);
    assert!(!names.iter().any(|n| n.starts_with("C ")));
    assert!(names.contains(&"Jun 25") && names.contains(&"11-15 Jun 25"));
    assert!(all.iter().all(|(_, t)| t.is_some()));
}

#[test]
fn names_are_taken_as_the_service_spells_them() {
    let curve = &generate(0)[0];
    for name in [
        "Jul 25",
        "Q3 25",
        "26-EOM Feb 26",
        "1-5 Jul 25",
        "C 00",
        "C 02",
    ] {
        let tenors = subscribed_tenors(curve, name, today());
        assert_eq!(tenors.len(), 1);
        assert_eq!(tenors[0].1.as_ref().map(Tenor::name), Some(name), "{name}");
    }
    for name in [
        "jul 25",
        "JUL 25",
        "q3 25",
        "26-eom Feb 26",
        "01-5 Jul 25",
        "c 00",
        "Cal-26",
        "",
        "Q5 25",
    ] {
        let tenors = subscribed_tenors(curve, name, today());
        assert_eq!(tenors, vec![(name.to_owned(), None)], "{name}");
    }
}
