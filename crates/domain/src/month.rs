//! Calendar months, the unit of bulk download: ranges are whole months
//! written `YYYY-MM`, and every bulk file holds one month.

use std::fmt;

use chrono::{Datelike, NaiveDate};

use crate::timestamp::Micros;

/// A month, ordered in time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Month {
    /// Months since January of year 0, so that ranges are integer ranges.
    index: i32,
}

impl Month {
    pub fn new(year: i32, month: u32) -> Option<Month> {
        (1..=12).contains(&month).then(|| Month {
            index: year * 12 + month as i32 - 1,
        })
    }

    /// Exactly `YYYY-MM` (four digits, a dash, two digits, month 01 to 12).
    pub fn parse(text: &str) -> Option<Month> {
        let bytes = text.as_bytes();
        let digits = |range: std::ops::Range<usize>| bytes[range].iter().all(u8::is_ascii_digit);
        if bytes.len() != 7 || bytes[4] != b'-' || !digits(0..4) || !digits(5..7) {
            return None;
        }
        Month::new(text[..4].parse().ok()?, text[5..].parse().ok()?)
    }

    pub fn of(day: NaiveDate) -> Month {
        Month::new(day.year(), day.month()).expect("a date's month is valid")
    }

    /// The month of an instant (UTC).
    pub fn at(at: Micros) -> Month {
        Month::of(
            chrono::DateTime::from_timestamp_micros(at)
                .expect("in range")
                .date_naive(),
        )
    }

    pub fn year(self) -> i32 {
        self.index.div_euclid(12)
    }

    /// 1 to 12.
    pub fn month(self) -> u32 {
        self.index.rem_euclid(12) as u32 + 1
    }

    pub fn first_day(self) -> NaiveDate {
        NaiveDate::from_ymd_opt(self.year(), self.month(), 1).expect("valid month")
    }

    pub fn last_day(self) -> NaiveDate {
        self.next().first_day().pred_opt().expect("in range")
    }

    pub fn next(self) -> Month {
        Month {
            index: self.index + 1,
        }
    }

    pub fn previous(self) -> Month {
        Month {
            index: self.index - 1,
        }
    }

    /// The months from `first` to `last`, inclusive; empty if `last` is earlier.
    pub fn range(first: Month, last: Month) -> impl Iterator<Item = Month> {
        (first.index..=last.index).map(|index| Month { index })
    }

    /// How many months `range(first, last)` has.
    pub fn count(first: Month, last: Month) -> u32 {
        (last.index - first.index + 1).max(0) as u32
    }
}

impl fmt::Display for Month {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:04}-{:02}", self.year(), self.month())
    }
}

#[cfg(test)]
#[path = "month_tests.rs"]
mod tests;
