//! Tenor (contract period) names: parsing into calendar periods and ordering.
//!
//! The interface shows four shapes: monthly `Jan 25`, quarterly `Q1 25`, 5-day
//! windows `1-5 Jan 25` … `26-EOM Feb 24`, and continuous `C 00`. The live feed
//! carries year, cycle, half-month, decade and delivery-window tenors whose
//! formats are not shown (`Cal 27`, `H1 27`, `Win 26` are plausible), so any
//! name that is not one of the four shapes is kept as kind `Other` rather than
//! refused; only those four shapes with impossible values are errors. A word
//! that is not a month makes another shape, not a misspelt month (see
//! docs/protocol.md#tenors). Two-digit years are years of this century (`25`
//! is 2025).

use std::cmp::Ordering;
use std::fmt;
use std::hash::{Hash, Hasher};

use chrono::{Datelike, NaiveDate};

/// The shape a tenor name has.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TenorKind {
    Continuous,
    Month,
    Quarter,
    Window,
    Other,
}

impl TenorKind {
    pub fn as_str(self) -> &'static str {
        match self {
            TenorKind::Continuous => "continuous",
            TenorKind::Month => "month",
            TenorKind::Quarter => "quarter",
            TenorKind::Window => "window",
            TenorKind::Other => "other",
        }
    }
}

/// A name of a known shape whose values are impossible (`Q5 24`, `3-7 Jan 24`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("invalid tenor {name:?}: {reason}")]
pub struct TenorError {
    pub name: String,
    pub reason: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Period {
    /// `C 00`, `C 01`, …: the number orders them.
    Continuous(u8),
    /// A calendar period, both ends inclusive.
    Calendar {
        kind: TenorKind,
        start: NaiveDate,
        end: NaiveDate,
    },
    Other,
}

/// A parsed tenor. Equality and hashing follow the exact name; ordering is
/// calendar order (see [`Ord`] below).
#[derive(Clone, Debug)]
pub struct Tenor {
    name: String,
    period: Period,
}

const MONTHS: [&str; 12] = [
    "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
];

/// Window boundaries fixed by the interface; `None` is the literal `EOM`.
const WINDOWS: [(u32, Option<u32>); 6] = [
    (1, Some(5)),
    (6, Some(10)),
    (11, Some(15)),
    (16, Some(20)),
    (21, Some(25)),
    (26, None),
];

impl Tenor {
    /// Parses a name, refusing a known shape with impossible values.
    pub fn parse(name: &str) -> Result<Tenor, TenorError> {
        let period = parse_period(name).map_err(|reason| TenorError {
            name: name.to_owned(),
            reason,
        })?;
        Ok(Tenor {
            name: name.to_owned(),
            period,
        })
    }

    /// Parses a name the service sent: one that cannot be read as a known shape
    /// is kept as kind `Other`, because the service is the authority on its own names.
    pub fn parse_lenient(name: &str) -> Tenor {
        Tenor::parse(name).unwrap_or_else(|_| Tenor {
            name: name.to_owned(),
            period: Period::Other,
        })
    }

    /// The monthly tenor of a month, e.g. `Jan 25`.
    pub fn month_name(year: i32, month: u32) -> String {
        format!("{} {}", month_abbrev(month), year_suffix(year))
    }

    /// The 5-day window tenor starting on `first` (1, 6, 11, 16, 21 or 26).
    pub fn window_name(year: i32, month: u32, first: u32) -> String {
        let window = WINDOWS.into_iter().find(|(f, _)| *f == first);
        let days = window_days(window.unwrap_or((first, None)));
        format!("{days} {}", Self::month_name(year, month))
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    pub fn kind(&self) -> TenorKind {
        match self.period {
            Period::Continuous(_) => TenorKind::Continuous,
            Period::Calendar { kind, .. } => kind,
            Period::Other => TenorKind::Other,
        }
    }

    /// First day of the period; `None` for continuous and unknown shapes.
    pub fn start(&self) -> Option<NaiveDate> {
        match self.period {
            Period::Calendar { start, .. } => Some(start),
            _ => None,
        }
    }

    /// Last day of the period (inclusive); `None` for continuous and unknown shapes.
    pub fn end(&self) -> Option<NaiveDate> {
        match self.period {
            Period::Calendar { end, .. } => Some(end),
            _ => None,
        }
    }

    /// The numeric part of the ordering: (rank, a, b) where rank puts continuous
    /// first, calendar periods next and unknown shapes last; the name breaks ties.
    pub fn sort_key(&self) -> (u8, i32, i32) {
        match self.period {
            Period::Continuous(n) => (0, i32::from(n), 0),
            Period::Calendar { start, end, .. } => {
                (1, start.num_days_from_ce(), end.num_days_from_ce())
            }
            Period::Other => (2, 0, 0),
        }
    }
}

fn parse_period(name: &str) -> Result<Period, String> {
    let parts: Vec<&str> = name.split(' ').collect();
    match parts.as_slice() {
        [c, n] if c.eq_ignore_ascii_case("c") && is_digits(n, 2) => {
            Ok(Period::Continuous(n.parse().expect("two digits")))
        }
        [q, yy] if is_quarter_word(q) && is_digits(yy, 2) => quarter(q, yy),
        [mon, yy] if is_digits(yy, 2) => match month_of(mon) {
            Some(month) => {
                let start = first_day(year_of(yy), month);
                Ok(calendar(TenorKind::Month, start, last_day(start)))
            }
            None => Ok(Period::Other),
        },
        [days, mon, yy] if is_window_word(days) && is_digits(yy, 2) => match month_of(mon) {
            Some(month) => window(days, year_of(yy), month),
            None => Ok(Period::Other),
        },
        _ => Ok(Period::Other),
    }
}

fn quarter(q: &str, yy: &str) -> Result<Period, String> {
    let n: u32 = q[1..].parse().expect("one digit");
    if !(1..=4).contains(&n) {
        return Err(format!("quarter must be Q1 to Q4, not Q{n}"));
    }
    let start = first_day(year_of(yy), 3 * n - 2);
    let end = last_day(first_day(year_of(yy), 3 * n));
    Ok(calendar(TenorKind::Quarter, start, end))
}

fn window(days: &str, year: i32, month: u32) -> Result<Period, String> {
    // Matched as written, so `01-05` is refused like `3-7`: read as `1-5` it
    // would be a second name, and so a second tenor, for one period.
    let (first, last) = WINDOWS
        .into_iter()
        .find(|&window| window_days(window).eq_ignore_ascii_case(days))
        .ok_or_else(|| {
            format!(
                "{days} is not a 5-day window; windows are 1-5, 6-10, 11-15, 16-20, 21-25 and 26-EOM"
            )
        })?;
    let month_start = first_day(year, month);
    let start = month_start.with_day(first).expect("day 1..=26 exists");
    let end = match last {
        Some(day) => month_start.with_day(day).expect("day 5..=25 exists"),
        None => last_day(month_start),
    };
    Ok(calendar(TenorKind::Window, start, end))
}

/// `1-5`, …, `26-EOM`: the days of a window as the interface writes them.
fn window_days((first, last): (u32, Option<u32>)) -> String {
    match last {
        Some(last) => format!("{first}-{last}"),
        None => format!("{first}-EOM"),
    }
}

fn calendar(kind: TenorKind, start: NaiveDate, end: NaiveDate) -> Period {
    Period::Calendar { kind, start, end }
}

/// The month a three-letter abbreviation names (any case), None for any other word.
fn month_of(word: &str) -> Option<u32> {
    MONTHS
        .iter()
        .position(|m| m.eq_ignore_ascii_case(word))
        .map(|i| i as u32 + 1)
}

fn month_abbrev(month: u32) -> String {
    let m = MONTHS[(month - 1) as usize];
    m[..1].to_ascii_uppercase() + &m[1..]
}

fn year_of(yy: &str) -> i32 {
    2000 + yy.parse::<i32>().expect("two digits")
}

fn year_suffix(year: i32) -> String {
    format!("{:02}", year.rem_euclid(100))
}

fn first_day(year: i32, month: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(year, month, 1).expect("valid month")
}

fn last_day(month_start: NaiveDate) -> NaiveDate {
    let next = month_start
        .checked_add_months(chrono::Months::new(1))
        .expect("in range");
    next.pred_opt().expect("in range")
}

fn is_digits(s: &str, len: usize) -> bool {
    s.len() == len && s.bytes().all(|b| b.is_ascii_digit())
}

fn is_quarter_word(s: &str) -> bool {
    s.len() == 2 && s.as_bytes()[0].eq_ignore_ascii_case(&b'q') && s.as_bytes()[1].is_ascii_digit()
}

/// `<first>-<last>` with one or two digits each side, or `EOM` after the dash.
fn is_window_word(s: &str) -> bool {
    let Some((first, last)) = s.split_once('-') else {
        return false;
    };
    let short_number =
        |p: &str| (1..=2).contains(&p.len()) && p.bytes().all(|b| b.is_ascii_digit());
    short_number(first) && (short_number(last) || last.eq_ignore_ascii_case("eom"))
}

impl fmt::Display for Tenor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)
    }
}

impl PartialEq for Tenor {
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name
    }
}

impl Eq for Tenor {}

impl Hash for Tenor {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.name.hash(state);
    }
}

/// Calendar order: continuous first (`C 00` < `C 01`), then calendar periods by
/// start date and, for the same start, shorter first (`1-5 Jan 25` < `Jan 25` <
/// `Q1 25`), then unknown shapes. The name breaks every tie, so the order is
/// total and agrees with equality.
impl Ord for Tenor {
    fn cmp(&self, other: &Self) -> Ordering {
        self.sort_key()
            .cmp(&other.sort_key())
            .then_with(|| self.name.cmp(&other.name))
    }
}

impl PartialOrd for Tenor {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

#[cfg(test)]
#[path = "tenor_tests.rs"]
mod tests;
