use super::*;
use crate::world::curves::generate;

fn day(y: i32, m: u32, d: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(y, m, d).unwrap()
}

#[test]
fn contracts_start_at_the_current_period_and_roll_forward() {
    let curves = generate(0);
    let curve = curves
        .iter()
        .find(|c| c.profile.windows && c.profile.continuous)
        .unwrap();
    let june = contracts(curve, day(2025, 6, 13));
    let names: Vec<&str> = june.iter().map(Tenor::name).collect();
    assert_eq!(&names[..3], ["C 00", "C 01", "C 02"]);
    assert!(names.contains(&"11-15 Jun 25"));
    assert!(
        !names.contains(&"6-10 Jun 25"),
        "an ended window is not listed"
    );
    assert!(names.contains(&"Jun 25") && names.contains(&"26-EOM Jul 25"));
    let july = contracts(curve, day(2025, 7, 1));
    assert!(!july.iter().any(|t| t.name() == "Jun 25"));
    assert!(july.iter().any(|t| t.name() == "1-5 Aug 25"));
}

#[test]
fn every_listed_tenor_is_offered_and_sorted() {
    for curve in generate(3).iter().take(40) {
        let today = day(2026, 2, 27);
        let list = contracts(curve, today);
        assert!(list.windows(2).all(|w| w[0] < w[1]));
        assert!(list.iter().all(|t| offers(curve, t, today)));
        assert_eq!(
            list.iter().filter(|t| t.kind() == TenorKind::Month).count(),
            curve.profile.months_ahead as usize
        );
    }
}
