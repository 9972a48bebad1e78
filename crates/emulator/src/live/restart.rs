//! The weekly restart (docs/protocol.md#live-feed): on Sundays at 12:00 UTC the
//! service disconnects every client. The emulator's clock can run fast, stop
//! or jump, so the restart is found as a Sunday noon crossed between two
//! readings of the clock rather than waited for.

use chrono::{DateTime, Datelike, Duration, NaiveTime};

use crate::calendar::start_of;
use domain::timestamp::Micros;

/// The close code of a restart: 1012, "service restart" (RFC 6455 registry).
pub const RESTART_CODE: u16 = 1012;
pub const RESTART_REASON: &str = "service restart";

/// The last Sunday 12:00 UTC at or before `at`.
pub fn last_restart_at_or_before(at: Micros) -> Micros {
    let time = DateTime::from_timestamp_micros(at).expect("in range");
    let day = time.date_naive();
    let back = i64::from(day.weekday().num_days_from_sunday());
    let sunday = day - Duration::days(back);
    let noon = NaiveTime::from_hms_opt(12, 0, 0).expect("valid");
    let this_week = start_of(sunday) + (noon - NaiveTime::MIN).num_microseconds().expect("fits");
    if this_week <= at {
        this_week
    } else {
        this_week - Duration::weeks(1).num_microseconds().expect("fits")
    }
}

/// The restart instant in `(after, until]`, if the clock crossed one; when
/// several were crossed (a jump of weeks) the latest.
pub fn restart_crossed(after: Micros, until: Micros) -> Option<Micros> {
    let restart = last_restart_at_or_before(until);
    (restart > after).then_some(restart)
}

#[cfg(test)]
mod tests {
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
}
