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
pub(crate) fn subscribed_tenors(
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
#[path = "tenors_tests.rs"]
mod tests;
