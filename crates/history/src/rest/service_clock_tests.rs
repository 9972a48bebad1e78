use chrono::{TimeZone, Utc};

use super::*;

#[test]
fn http_dates_are_read_in_their_server_form() {
    let expected = Utc.with_ymd_and_hms(2025, 6, 13, 17, 0, 5).unwrap();
    assert_eq!(
        parse_http_date("Fri, 13 Jun 2025 17:00:05 GMT"),
        Some(expected)
    );
    assert_eq!(parse_http_date("yesterday"), None);
    assert_eq!(parse_http_date(""), None);
}

#[test]
fn the_clock_follows_the_service_once_it_has_answered() {
    let clock = ServiceClock::default();
    assert_eq!(clock.offset(), None);
    let before = Utc::now();
    assert!(clock.now() >= before);

    clock.observe("Fri, 13 Jun 2025 17:00:05 GMT");
    let offset = clock.offset().expect("an offset");
    assert!(offset < TimeDelta::days(-300), "{offset}");
    let now = clock.now();
    let service = Utc.with_ymd_and_hms(2025, 6, 13, 17, 0, 5).unwrap();
    assert!((now - service).abs() < TimeDelta::seconds(5), "{now}");

    // A header that is not a date changes nothing.
    clock.observe("soon");
    assert_eq!(clock.offset(), Some(offset));
}
