//! The times a curve is taken as of: given one by one, or every step of a
//! frequency (`"1h"`, `"15min"`, `"1D"`) across a table's times.
//!
//! A frequency is a whole number (1 if left out) and a unit: `s` seconds,
//! `min` minutes, `h` hours, `D` (or `d`) days; the pandas aliases for
//! those. `m` is refused rather than guessed (minutes or months?). Its
//! times are midnight UTC of the table's first day plus whole steps, those
//! from the table's first time to its last, both included: `"1D"` is each
//! midnight, `"1h"` each hour on the hour.

use super::input::TimeKey;
use super::CurveError;

const MICROS_PER_SECOND: i64 = 1_000_000;
const MICROS_PER_DAY: i64 = 86_400 * MICROS_PER_SECOND;

/// The most times a frequency may make: each is a whole curve of rows.
pub(crate) const MAX_TIMES: usize = 1_000_000;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum At {
    /// Microseconds since 1970-01-01 UTC, in any order, repeats allowed.
    Times(Vec<i64>),
    /// A step in microseconds, and the text that gave it (for messages).
    Every(i64, String),
}

impl At {
    /// A frequency such as `"1h"`.
    pub fn every(text: &str) -> Result<At, CurveError> {
        let t = text.trim();
        let split = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
        let (count, unit) = (&t[..split], t[split..].trim());
        let bad = |why: &str| {
            CurveError::new(format!(
                "at: {text:?} is not a frequency ({why}); a frequency is a whole number \
                 and a unit, s, min, h or D: '30s', '15min', '1h', '1D'"
            ))
        };
        let unit_micros = match unit {
            "s" => MICROS_PER_SECOND,
            "min" => 60 * MICROS_PER_SECOND,
            "h" => 3_600 * MICROS_PER_SECOND,
            "D" | "d" => MICROS_PER_DAY,
            "m" | "M" => return Err(bad("'m' could be minutes or months: minutes are 'min'")),
            "" => return Err(bad("it has no unit")),
            _ => return Err(bad(&format!("unknown unit {unit:?}"))),
        };
        let count: i64 = if count.is_empty() {
            1
        } else {
            count.parse().map_err(|_| bad("its number is too large"))?
        };
        if count == 0 {
            return Err(bad("a step of zero"));
        }
        let step = count
            .checked_mul(unit_micros)
            .filter(|&s| s <= 366 * MICROS_PER_DAY)
            .ok_or_else(|| bad("a step of more than a year"))?;
        Ok(At::Every(step, t.to_owned()))
    }

    /// The times, sorted, each once; for a frequency, across `first..=last`
    /// (the table's first and last time; None for an empty table).
    pub fn times(&self, span: Option<(i64, i64)>) -> Result<Vec<i64>, CurveError> {
        match self {
            At::Times(times) => {
                let mut times = times.clone();
                times.sort_unstable();
                times.dedup();
                Ok(times)
            }
            At::Every(step, text) => {
                let Some((first, last)) = span else {
                    return Ok(Vec::new());
                };
                let midnight = first.div_euclid(MICROS_PER_DAY) * MICROS_PER_DAY;
                // The first step at or after `first`.
                let start = midnight + (first - midnight + step - 1) / step * step;
                if start > last {
                    let time = |t| TimeKey::GeneratedOn.describe(t);
                    return Err(CurveError::new(format!(
                        "at={text:?} gives no time from the table's first time, {}, to its \
                         last, {}: give a shorter step, or the times",
                        time(first),
                        time(last)
                    )));
                }
                let count = (last - start) / step + 1;
                if count > MAX_TIMES as i64 {
                    return Err(CurveError::new(format!(
                        "at={text:?} gives {count} times across the table, more than \
                         {MAX_TIMES}: give a longer step"
                    )));
                }
                Ok((0..count).map(|k| start + k * step).collect())
            }
        }
    }
}

#[cfg(test)]
#[path = "grid_tests.rs"]
mod tests;
