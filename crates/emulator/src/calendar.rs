//! When things happen: business days, the London settlement, the three daily
//! assessments, early-close days and the catalogue's contract refresh.

use std::collections::BTreeSet;

use chrono::{DateTime, Datelike, Duration, NaiveDate, TimeZone, Utc, Weekday};
use chrono_tz::Tz;

use domain::rows::Snapshot;
use domain::timestamp::Micros;

pub const MICROS_PER_MINUTE: Micros = 60_000_000;
pub const MICROS_PER_DAY: Micros = 86_400_000_000;

/// Which days close early.
#[derive(Clone, Debug)]
pub enum EarlyClose {
    /// 24 and 31 December of every year.
    ChristmasAndNewYearsEve,
    /// Exactly these days.
    Days(BTreeSet<NaiveDate>),
}

#[derive(Clone, Debug)]
pub struct Calendar {
    early_close: EarlyClose,
}

impl Calendar {
    pub fn new(early_close: EarlyClose) -> Calendar {
        Calendar { early_close }
    }

    pub fn is_business_day(&self, day: NaiveDate) -> bool {
        !matches!(day.weekday(), Weekday::Sat | Weekday::Sun)
    }

    pub fn is_early_close(&self, day: NaiveDate) -> bool {
        match &self.early_close {
            EarlyClose::ChristmasAndNewYearsEve => {
                day.month() == 12 && (day.day() == 24 || day.day() == 31)
            }
            EarlyClose::Days(days) => days.contains(&day),
        }
    }

    /// The end-of-day snapshot: 16:30 London time (12:30 on early-close days).
    pub fn settlement_time(&self, day: NaiveDate) -> Option<Micros> {
        self.assessment_time(day, Snapshot::London)
    }

    /// Singapore 16:30, London 16:30, New York 14:30 local time; 12:30, 12:30
    /// and 13:30 on early-close days. None on days without trading.
    pub fn assessment_time(&self, day: NaiveDate, snapshot: Snapshot) -> Option<Micros> {
        if !self.is_business_day(day) {
            return None;
        }
        let early = self.is_early_close(day);
        let (zone, hour, minute): (Tz, u32, u32) = match (snapshot, early) {
            (Snapshot::Singapore, false) => (chrono_tz::Asia::Singapore, 16, 30),
            (Snapshot::Singapore, true) => (chrono_tz::Asia::Singapore, 12, 30),
            (Snapshot::London, false) => (chrono_tz::Europe::London, 16, 30),
            (Snapshot::London, true) => (chrono_tz::Europe::London, 12, 30),
            (Snapshot::NewYork, false) => (chrono_tz::America::New_York, 14, 30),
            (Snapshot::NewYork, true) => (chrono_tz::America::New_York, 13, 30),
        };
        let local = day.and_hms_opt(hour, minute, 0)?;
        // Afternoon times are never in a DST gap or overlap.
        let instant = zone.from_local_datetime(&local).single()?;
        Some(instant.with_timezone(&Utc).timestamp_micros())
    }

    /// The day whose 02:30 UTC contract refresh is the latest at `now`
    /// (refreshes run Monday to Friday).
    pub fn contract_refresh_day(&self, now: Micros) -> NaiveDate {
        let now = DateTime::from_timestamp_micros(now).expect("in range");
        let mut day = now.date_naive();
        if now.time() < chrono::NaiveTime::from_hms_opt(2, 30, 0).expect("valid") {
            day = day.pred_opt().expect("in range");
        }
        while !self.is_business_day(day) {
            day = day.pred_opt().expect("in range");
        }
        day
    }
}

/// The UTC day of an instant.
pub fn day_of(at: Micros) -> NaiveDate {
    DateTime::from_timestamp_micros(at)
        .expect("in range")
        .date_naive()
}

/// Midnight UTC at the start of `day`.
pub fn start_of(day: NaiveDate) -> Micros {
    day.and_hms_opt(0, 0, 0)
        .expect("midnight")
        .and_utc()
        .timestamp_micros()
}

/// The days from `first` to `last`, inclusive.
pub fn days(first: NaiveDate, last: NaiveDate) -> impl DoubleEndedIterator<Item = NaiveDate> {
    let count = (last - first).num_days().max(-1) + 1;
    (0..count).map(move |i| first + Duration::days(i))
}

#[cfg(test)]
#[path = "calendar_tests.rs"]
mod tests;
