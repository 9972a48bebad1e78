use super::*;
use proptest::prelude::*;

fn day(y: i32, m: u32, d: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(y, m, d).unwrap()
}

#[test]
fn seventy_five_days_are_three_windows() {
    let windows = split(day(2025, 1, 1), day(2025, 3, 16), 30);
    assert_eq!(
        windows,
        [
            (day(2025, 1, 1), day(2025, 1, 30)),
            (day(2025, 1, 31), day(2025, 3, 1)),
            (day(2025, 3, 2), day(2025, 3, 16)),
        ]
    );
}

#[test]
fn one_day_and_reversed_ranges() {
    assert_eq!(split(day(2025, 1, 1), day(2025, 1, 1), 30).len(), 1);
    assert!(split(day(2025, 1, 2), day(2025, 1, 1), 30).is_empty());
}

proptest! {
    #[test]
    fn windows_tile_the_range(offset in 0i64..20_000, len in 0i64..400, max in 1i64..40) {
        let start = day(2000, 1, 1) + Duration::days(offset);
        let end = start + Duration::days(len);
        let windows = split(start, end, max);
        prop_assert_eq!(windows[0].0, start);
        prop_assert_eq!(windows.last().unwrap().1, end);
        for (first, last) in &windows {
            prop_assert!(first <= last);
            prop_assert!((*last - *first).num_days() < max);
        }
        for pair in windows.windows(2) {
            prop_assert_eq!(pair[0].1 + Duration::days(1), pair[1].0);
        }
    }
}
