use super::*;

#[test]
fn dates_convert_both_ways() {
    let day = NaiveDate::from_ymd_opt(1970, 1, 2).unwrap();
    assert_eq!(to_epoch_days(day), 1);
    assert_eq!(from_epoch_days(1), Some(day));
    let recent = NaiveDate::from_ymd_opt(2025, 6, 13).unwrap();
    assert_eq!(from_epoch_days(to_epoch_days(recent)), Some(recent));
}

#[test]
fn order_needs_a_day_on_every_row() {
    assert!(in_day_order(&[Some(1), Some(1), Some(3)]));
    assert!(!in_day_order(&[Some(1), None, Some(3)]));
    assert!(!in_day_order(&[Some(2), Some(1)]));
    assert!(in_day_order(&[]));
}

#[test]
fn the_last_day_with_rows_is_found_below_a_bound() {
    let days = [Some(1), Some(2), Some(5), Some(9)];
    assert_eq!(last_day_with_rows(&days, 8), Some(5));
    assert_eq!(last_day_with_rows(&days, 0), None);
}
