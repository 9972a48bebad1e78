use super::*;
use domain::timestamp::parse_timestamp;

fn at(text: &str) -> Micros {
    parse_timestamp(text).unwrap()
}

#[test]
fn the_last_restart_is_the_last_sunday_noon() {
    let noon = at("2025-06-15T12:00:00");
    assert_eq!(last_restart_at_or_before(noon), noon);
    assert_eq!(last_restart_at_or_before(at("2025-06-15T12:00:01")), noon);
    assert_eq!(last_restart_at_or_before(at("2025-06-21T23:59:59")), noon);
    assert_eq!(
        last_restart_at_or_before(at("2025-06-22T11:59:59.999999")),
        noon
    );
    let week_before = at("2025-06-08T12:00:00");
    assert_eq!(
        last_restart_at_or_before(at("2025-06-15T11:59:59")),
        week_before
    );
    assert_eq!(
        last_restart_at_or_before(at("2025-06-13T10:00:00")),
        week_before
    );
}

#[test]
fn crossing_sunday_noon_is_found_whichever_way_the_clock_moved() {
    let noon = at("2025-06-15T12:00:00");
    assert_eq!(restart_crossed(noon - 1, noon), Some(noon));
    assert_eq!(restart_crossed(noon - 60_000_000, noon + 5), Some(noon));
    assert_eq!(
        restart_crossed(noon, noon + 3_600_000_000),
        None,
        "already done"
    );
    assert_eq!(restart_crossed(noon - 10, noon - 1), None);
    // Going back in time crosses nothing.
    assert_eq!(restart_crossed(noon + 10, noon - 10), None);
    // A jump of weeks restarts once, at the last Sunday crossed.
    let later = at("2025-07-06T12:00:00");
    assert_eq!(restart_crossed(noon - 1, later + 1), Some(later));
    // Saturday noon is nothing.
    let saturday = at("2025-06-14T12:00:00");
    assert_eq!(restart_crossed(saturday - 1, saturday + 1), None);
}
