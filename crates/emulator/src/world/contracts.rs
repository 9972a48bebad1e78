//! Which tenors a curve offers on a given day. The catalogue lists them from
//! the current period onward, so the list rolls forward with the clock; a tenor
//! has prices on exactly the days it is offered.

use chrono::{Datelike, NaiveDate};

use super::curves::Curve;
use domain::tenor::{Tenor, TenorKind};

/// Months since year 0, to count months between dates.
fn month_index(day: NaiveDate) -> i64 {
    i64::from(day.year()) * 12 + i64::from(day.month0())
}

fn month_start(index: i64) -> NaiveDate {
    let year = index.div_euclid(12) as i32;
    let month = index.rem_euclid(12) as u32 + 1;
    NaiveDate::from_ymd_opt(year, month, 1).expect("valid month")
}

/// Whether `curve` has a price for `tenor` on `day`.
pub(crate) fn offers(curve: &Curve, tenor: &Tenor, day: NaiveDate) -> bool {
    let profile = &curve.profile;
    let (Some(start), Some(end)) = (tenor.start(), tenor.end()) else {
        return tenor.kind() == TenorKind::Continuous
            && profile.continuous
            && continuous_index(tenor) <= 2;
    };
    if end < day {
        return false;
    }
    let ahead = month_index(start) - month_index(day);
    match tenor.kind() {
        TenorKind::Month => ahead < i64::from(profile.months_ahead),
        TenorKind::Quarter => {
            let quarters = (month_index(start) / 3) - (month_index(day) / 3);
            quarters < i64::from(profile.quarters_ahead)
        }
        TenorKind::Window => profile.windows && ahead <= 1,
        _ => false,
    }
}

/// Whether `curve` offers tenors of this shape at all.
pub(crate) fn has_kind(curve: &Curve, kind: TenorKind) -> bool {
    let profile = &curve.profile;
    match kind {
        TenorKind::Month => true,
        TenorKind::Quarter => profile.quarters_ahead > 0,
        TenorKind::Window => profile.windows,
        TenorKind::Continuous => profile.continuous,
        TenorKind::Other => false,
    }
}

fn continuous_index(tenor: &Tenor) -> u32 {
    tenor.name()[2..].parse().unwrap_or(u32::MAX)
}

/// The tenors offered on `day`, in calendar order.
pub(crate) fn contracts(curve: &Curve, day: NaiveDate) -> Vec<Tenor> {
    let profile = &curve.profile;
    let this_month = month_index(day);
    let mut names = Vec::new();
    if profile.continuous {
        names.extend(["C 00", "C 01", "C 02"].map(String::from));
    }
    if profile.windows {
        for month in [this_month, this_month + 1] {
            let start = month_start(month);
            for first in [1, 6, 11, 16, 21, 26] {
                names.push(Tenor::window_name(start.year(), start.month(), first));
            }
        }
    }
    for month in this_month..this_month + i64::from(profile.months_ahead) {
        let start = month_start(month);
        names.push(Tenor::month_name(start.year(), start.month()));
    }
    let this_quarter = this_month / 3;
    for quarter in this_quarter..this_quarter + i64::from(profile.quarters_ahead) {
        let start = month_start(quarter * 3);
        names.push(format!(
            "Q{} {:02}",
            start.month0() / 3 + 1,
            start.year() % 100
        ));
    }
    let mut tenors: Vec<Tenor> = names
        .iter()
        .map(|n| Tenor::parse(n).expect("generated names are valid"))
        .filter(|t| offers(curve, t, day))
        .collect();
    tenors.sort();
    tenors
}

#[cfg(test)]
#[path = "contracts_tests.rs"]
mod tests;
