//! When a day of history can no longer change, and so may be kept
//! (docs/protocol.md#ongoing-data). Every rule is read on the service's
//! clock, which its answers tell (`rest::service_clock`).
//!
//! - A settlement (the London snapshot) "may be updated until midnight of
//!   the same business day". Which midnight is not said; the latest of the
//!   service's markets is New York's, 05:00 UTC the next day in winter. A
//!   day's settlement is kept from 06:00 UTC the next day: that midnight
//!   and an hour more.
//! - Intraday values carry their publication time; a UTC day's are kept
//!   from 01:00 UTC the next day, an hour after the day ended, for values
//!   stamped just before midnight and served a little later.
//! - A day with no value at all is kept only once it is a week old: a
//!   service that publishes late fills it meanwhile, and the day is fetched
//!   again until then (with today's, in the same request).
//! - The catalogue's contracts are refreshed Monday to Friday at 02:30 UTC;
//!   a cached catalogue serves until the next refresh.

use chrono::{DateTime, Datelike, Days, NaiveDate, NaiveTime, TimeDelta, Utc, Weekday};

/// How long after a day ends (UTC) its settlement is kept.
pub const SETTLEMENT_MARGIN: TimeDelta = TimeDelta::hours(6);
/// How long after a day ends (UTC) its intraday values are kept.
pub const INTRADAY_MARGIN: TimeDelta = TimeDelta::hours(1);
/// How old a day with no value must be to be kept.
pub const EMPTY_DAY_AGE: u64 = 7;

/// The last day whose data is final at `now`, when a day's data is final
/// `margin` after the day ends.
pub fn last_final_day(now: DateTime<Utc>, margin: TimeDelta) -> NaiveDate {
    let day = (now - margin).date_naive();
    day.pred_opt().unwrap_or(day)
}

/// The last day of `first..=last` worth keeping, given the last day that
/// has any value (`last_with_value`): trailing days without a value are
/// kept only once they are [`EMPTY_DAY_AGE`] days older than `today`. None
/// when no day is worth keeping.
pub fn keep_through(
    first: NaiveDate,
    last: NaiveDate,
    last_with_value: Option<NaiveDate>,
    today: NaiveDate,
) -> Option<NaiveDate> {
    let old_enough = today.checked_sub_days(Days::new(EMPTY_DAY_AGE))?;
    let through = match last_with_value {
        Some(day) if day >= last => last,
        Some(day) => day.max(old_enough.min(last)),
        None => old_enough.min(last),
    };
    (through >= first).then_some(through)
}

/// The first contracts refresh (Monday to Friday, 02:30 UTC) after `at`.
pub fn next_catalogue_refresh(at: DateTime<Utc>) -> DateTime<Utc> {
    let refresh_time = NaiveTime::from_hms_opt(2, 30, 0).expect("a time");
    let mut day = at.date_naive();
    loop {
        let instant = day.and_time(refresh_time).and_utc();
        let weekday = day.weekday();
        if instant > at && weekday != Weekday::Sat && weekday != Weekday::Sun {
            return instant;
        }
        day = day.succ_opt().expect("a next day");
    }
}

#[cfg(test)]
#[path = "finality_tests.rs"]
mod tests;
