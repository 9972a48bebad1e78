//! Whole months, the unit of bulk ranges (`YYYY-MM`).

use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Month {
    pub year: i32,
    /// 1 to 12.
    pub month: u32,
}

impl Month {
    /// Parses `YYYY-MM`.
    pub fn parse(text: &str) -> Option<Month> {
        let (year, month) = text.trim().split_once('-')?;
        let digits = |s: &str, n: usize| s.len() == n && s.bytes().all(|b| b.is_ascii_digit());
        if !digits(year, 4) || !digits(month, 2) {
            return None;
        }
        let month: u32 = month.parse().ok()?;
        (1..=12).contains(&month).then(|| Month {
            year: year.parse().expect("four digits"),
            month,
        })
    }

    pub fn next(self) -> Month {
        if self.month == 12 {
            Month {
                year: self.year + 1,
                month: 1,
            }
        } else {
            Month {
                month: self.month + 1,
                ..self
            }
        }
    }

    /// The months from `self` to `last`, inclusive.
    pub fn through(self, last: Month) -> Vec<Month> {
        let mut months = Vec::new();
        let mut current = self;
        while current <= last {
            months.push(current);
            current = current.next();
        }
        months
    }
}

impl fmt::Display for Month {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:04}-{:02}", self.year, self.month)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_prints_year_month() {
        let m = Month::parse("2024-03").unwrap();
        assert_eq!((m.year, m.month), (2024, 3));
        assert_eq!(m.to_string(), "2024-03");
        for bad in [
            "2024-3",
            "2024-13",
            "2024-00",
            "24-03",
            "2024/03",
            "",
            "2024-03-01",
        ] {
            assert_eq!(Month::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn ranges_cross_years() {
        let months = Month::parse("2024-11")
            .unwrap()
            .through(Month::parse("2025-02").unwrap());
        let shown: Vec<String> = months.iter().map(Month::to_string).collect();
        assert_eq!(shown, ["2024-11", "2024-12", "2025-01", "2025-02"]);
        assert!(Month::parse("2025-02")
            .unwrap()
            .through(Month::parse("2025-01").unwrap())
            .is_empty());
    }
}
