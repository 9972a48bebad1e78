use super::{At, MAX_TIMES};

const HOUR: i64 = 3_600_000_000;
const DAY: i64 = 24 * HOUR;
/// 2025-06-11T00:00:00Z in microseconds.
const JUNE_11: i64 = 1_749_600_000_000_000;

fn step(text: &str) -> i64 {
    match At::every(text).unwrap() {
        At::Every(step, _) => step,
        At::Times(_) => unreachable!(),
    }
}

fn refused(text: &str) -> String {
    At::every(text).unwrap_err().to_string()
}

#[test]
fn a_frequency_is_a_number_and_a_unit() {
    assert_eq!(step("1h"), HOUR);
    assert_eq!(step("h"), HOUR);
    assert_eq!(step(" 15min "), 15 * 60_000_000);
    assert_eq!(step("30s"), 30_000_000);
    assert_eq!(step("1D"), DAY);
    assert_eq!(step("2d"), 2 * DAY);
    assert_eq!(step("366D"), 366 * DAY);
}

#[test]
fn other_frequencies_are_refused_saying_why() {
    assert!(
        refused("1m").contains("minutes are 'min'"),
        "{}",
        refused("1m")
    );
    assert!(refused("0h").contains("a step of zero"));
    assert!(refused("12").contains("no unit"));
    assert!(refused("1w").contains("unknown unit \"w\""));
    assert!(refused("1.5h").contains("unknown unit \".5h\""));
    assert!(refused("367D").contains("more than a year"));
    assert!(refused("99999999999999999999h").contains("too large"));
    assert!(refused("-1h").contains("unknown unit \"-1h\""));
    assert!(refused("").contains("no unit"));
}

#[test]
fn steps_count_from_midnight_of_the_first_day() {
    // From 09:10 to 11:00: 10:00 and 11:00 on the hour; no 09:00.
    let hourly = At::every("1h").unwrap();
    let times = hourly
        .times(Some((JUNE_11 + 9 * HOUR + HOUR / 6, JUNE_11 + 11 * HOUR)))
        .unwrap();
    assert_eq!(times, [JUNE_11 + 10 * HOUR, JUNE_11 + 11 * HOUR]);
    // A time on the grid is in it.
    let times = hourly
        .times(Some((JUNE_11 + 9 * HOUR, JUNE_11 + 9 * HOUR)))
        .unwrap();
    assert_eq!(times, [JUNE_11 + 9 * HOUR]);
    // Daily: each midnight after the first time.
    let daily = At::every("1D").unwrap();
    let times = daily
        .times(Some((JUNE_11 + HOUR, JUNE_11 + 2 * DAY + HOUR)))
        .unwrap();
    assert_eq!(times, [JUNE_11 + DAY, JUNE_11 + 2 * DAY]);
    // Times before 1970 are on the grid too.
    let times = hourly.times(Some((-HOUR - 1, -HOUR + 1))).unwrap();
    assert_eq!(times, [-HOUR]);
}

#[test]
fn a_grid_with_no_time_or_too_many_is_refused() {
    let daily = At::every("1D").unwrap();
    let error = daily
        .times(Some((JUNE_11 + 9 * HOUR, JUNE_11 + 17 * HOUR)))
        .unwrap_err()
        .to_string();
    assert!(
        error.contains("at=\"1D\" gives no time")
            && error.contains("2025-06-11T09:00:00Z")
            && error.contains("2025-06-11T17:00:00Z"),
        "{error}"
    );
    let seconds = At::every("1s").unwrap();
    let error = seconds
        .times(Some((0, MAX_TIMES as i64 * 1_000_000)))
        .unwrap_err()
        .to_string();
    assert!(error.contains("1000001 times"), "{error}");
    assert_eq!(seconds.times(None).unwrap(), Vec::<i64>::new());
}

#[test]
fn times_given_are_sorted_once_each() {
    let at = At::Times(vec![3, 1, 2, 1]);
    assert_eq!(at.times(None).unwrap(), [1, 2, 3]);
}
