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
mod tests {
    use super::*;

    #[test]
    fn parses_only_the_exact_shape() {
        let march = Month::parse("2024-03").unwrap();
        assert_eq!((march.year(), march.month()), (2024, 3));
        assert_eq!(march.to_string(), "2024-03");
        for bad in [
            "2024-3",
            "2024-13",
            "2024-00",
            "24-03",
            "2024/03",
            "2024-03-01",
            "",
            "abcd-ef",
            "2024-0a",
            "+024-03",
            "２０２４-03",
        ] {
            assert_eq!(Month::parse(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn ranges_count_and_cross_years() {
        let (nov, feb) = (
            Month::parse("2024-11").unwrap(),
            Month::parse("2025-02").unwrap(),
        );
        let names: Vec<String> = Month::range(nov, feb).map(|m| m.to_string()).collect();
        assert_eq!(names, ["2024-11", "2024-12", "2025-01", "2025-02"]);
        assert_eq!(Month::count(nov, feb), 4);
        assert_eq!(Month::count(feb, nov), 0);
        assert_eq!(Month::range(feb, nov).count(), 0);
        assert_eq!(feb.previous().previous(), Month::parse("2024-12").unwrap());
        assert_eq!(
            Month::parse("2024-02").unwrap().last_day(),
            NaiveDate::from_ymd_opt(2024, 2, 29).unwrap()
        );
    }
}
