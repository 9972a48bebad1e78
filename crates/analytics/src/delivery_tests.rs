use super::{deliveries, kept, Delivery};
use crate::build::delivery_periods;
use crate::test_tables::day;
use domain::tenor::Tenor;

/// The deliveries of `names` (in calendar order), each priced 1.
fn of(names: &[&str]) -> Vec<Delivery> {
    let mut tenors: Vec<Tenor> = names.iter().map(|n| Tenor::parse(n).unwrap()).collect();
    tenors.sort();
    let cells: Vec<(u32, f64)> = (0..tenors.len() as u32).map(|c| (c, 1.0)).collect();
    deliveries(&delivery_periods(&tenors), &cells)
}

#[test]
fn continuous_tenors_have_no_delivery_days() {
    let out = of(&["C 00", "Jan 25", "C 01"]);
    assert_eq!(out.len(), 1);
    assert_eq!(
        (out[0].first, out[0].last),
        (day("2025-01-01"), day("2025-01-31"))
    );
}

#[test]
fn a_quarter_covered_by_its_months_is_left_out() {
    // Calendar order: Jan 25, Q1 25, Feb 25, Mar 25.
    assert_eq!(
        kept(&of(&["Q1 25", "Jan 25", "Feb 25", "Mar 25"])),
        [true, false, true, true]
    );
    // Without March, the quarter says something of March: kept.
    assert_eq!(
        kept(&of(&["Q1 25", "Jan 25", "Feb 25"])),
        [true, true, true]
    );
}

#[test]
fn a_month_covered_by_its_windows_is_left_out_and_windows_inside_a_month_are_kept() {
    let windows = [
        "1-5 Feb 25",
        "6-10 Feb 25",
        "11-15 Feb 25",
        "16-20 Feb 25",
        "21-25 Feb 25",
    ];
    let mut names = vec!["Feb 25", "26-EOM Feb 25"];
    names.extend(windows);
    let out = of(&names);
    let keep = kept(&out);
    let month = out.iter().position(|d| d.last - d.first == 27).unwrap();
    assert!(!keep[month] && keep.iter().filter(|k| **k).count() == 6);
    let mut partial = vec!["Feb 25"];
    partial.extend(windows);
    assert!(kept(&of(&partial)).iter().all(|k| *k));
}

#[test]
fn a_contract_is_not_covered_by_contracts_as_long_as_itself() {
    // The quarter covers the month's days, but is not finer: both are kept.
    assert_eq!(kept(&of(&["Jan 25", "Q1 25"])), [true, true]);
}
