//! The weekly restart (docs/protocol.md#live-feed): on Sundays at 12:00 UTC the
//! service disconnects every client. The emulator's clock can run fast, stop
//! or jump, so the restart is found as a Sunday noon crossed between two
//! readings of the clock rather than waited for.

use chrono::{DateTime, Datelike, Duration, NaiveTime};

use crate::calendar::start_of;
use domain::timestamp::Micros;

/// The close code of a restart: 1012, "service restart" (RFC 6455 registry).
pub(crate) const RESTART_CODE: u16 = 1012;
pub(crate) const RESTART_REASON: &str = "service restart";

/// The last Sunday 12:00 UTC at or before `at`.
pub(crate) fn last_restart_at_or_before(at: Micros) -> Micros {
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
pub(crate) fn restart_crossed(after: Micros, until: Micros) -> Option<Micros> {
    let restart = last_restart_at_or_before(until);
    (restart > after).then_some(restart)
}

#[cfg(test)]
#[path = "restart_tests.rs"]
mod tests;
