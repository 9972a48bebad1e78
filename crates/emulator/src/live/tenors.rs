//! Which tenors a subscription names. `*` stands for the calendar tenors the
//! curve offers today (months, quarters and 5-day windows in this world) and
//! never for `C 00`, `C 01`, `C 02`, which are subscribed to by name
//! (docs/protocol.md#live-feed). A name is matched as the service spells it: `jul 25`
//! is not `Jul 25`, so it names a tenor that never has a value.

use chrono::{Datelike, NaiveDate};

use crate::world::contracts::contracts;
use crate::world::curves::Curve;
use domain::live::ALL_TENORS;
use domain::tenor::{Tenor, TenorKind};

/// The tenors of a subscription: the name and, if the world can publish
/// values under that exact name, the tenor it parses to.
pub fn subscribed_tenors(
    curve: &Curve,
    name: &str,
    today: NaiveDate,
) -> Vec<(String, Option<Tenor>)> {
    if name == ALL_TENORS {
        return contracts(curve, today)
            .into_iter()
            .filter(|t| t.kind() != TenorKind::Continuous)
            .map(|t| (t.name().to_owned(), Some(t)))
            .collect();
    }
    let tenor = Tenor::parse(name)
        .ok()
        .filter(|t| canonical_name(t).as_deref() == Some(name));
    vec![(name.to_owned(), tenor)]
}

/// How the service spells a tenor of a shape it publishes.
fn canonical_name(tenor: &Tenor) -> Option<String> {
    let start = tenor.start();
    match (tenor.kind(), start) {
        (TenorKind::Month, Some(start)) => Some(Tenor::month_name(start.year(), start.month())),
        (TenorKind::Quarter, Some(start)) => Some(format!(
            "Q{} {:02}",
            start.month0() / 3 + 1,
            start.year() % 100
        )),
        (TenorKind::Window, Some(start)) => {
            Some(Tenor::window_name(start.year(), start.month(), start.day()))
        }
        (TenorKind::Continuous, _) => {
            let index: u32 = tenor.name()[2..].parse().ok()?;
            Some(format!("C {index:02}"))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
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
}
