//! Timestamps as the service writes them.
//!
//! `generatedOn` is ISO 8601 in UTC with no zone suffix and 0 to 6 fractional
//! digits; metadata dates carry milliseconds and a `Z`. Both parse here to
//! microseconds since the Unix epoch, the unit of the Arrow `generated_on` column.

use std::sync::LazyLock;

use chrono::format::{parse, Item, Parsed, StrftimeItems};
use chrono::{DateTime, NaiveDate, NaiveDateTime, Utc};

/// Microseconds since 1970-01-01T00:00:00 UTC.
pub type Micros = i64;

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{value:?} is not an ISO 8601 UTC timestamp (YYYY-MM-DDTHH:MM:SS[.ffffff])")]
pub struct TimestampError {
    pub value: String,
}

/// Parses `2025-06-15T16:30:00`, `…:00.5`, `…:00.123456`, `…:00.000Z`.
///
/// Up to 9 fractional digits are read and truncated to microseconds; a trailing
/// `Z` or `+00:00` is accepted, any other offset is refused because the interface
/// promises UTC.
pub fn parse_timestamp(value: &str) -> Result<Micros, TimestampError> {
    let error = || TimestampError {
        value: value.to_owned(),
    };
    let naive = value
        .strip_suffix('Z')
        .or_else(|| value.strip_suffix("+00:00"))
        .unwrap_or(value);
    // chrono's `%.f` takes any number of digits; the interface allows at most 9.
    let fraction_digits = naive
        .split_once('.')
        .map_or(0, |(_, fraction)| fraction.len());
    if fraction_digits > 9 {
        return Err(error());
    }
    let parsed = parse_with(&WITH_T, naive)
        .or_else(|| parse_with(&WITH_SPACE, naive))
        .ok_or_else(error)?;
    Ok(parsed.and_utc().timestamp_micros())
}

/// The two layouts, each read from its format string once: chrono's
/// `parse_from_str` reads the format string again on every call, which
/// showed in the profile of an intraday pull.
static WITH_T: LazyLock<Vec<Item<'static>>> = LazyLock::new(|| items("%Y-%m-%dT%H:%M:%S%.f"));
static WITH_SPACE: LazyLock<Vec<Item<'static>>> = LazyLock::new(|| items("%Y-%m-%d %H:%M:%S%.f"));

fn items(format: &str) -> Vec<Item<'static>> {
    StrftimeItems::new(format)
        .parse_to_owned()
        .expect("a valid format string")
}

/// What `NaiveDateTime::parse_from_str(value, format)` gives, with the
/// format already read.
fn parse_with(items: &[Item<'static>], value: &str) -> Option<NaiveDateTime> {
    let mut parsed = Parsed::new();
    parse(&mut parsed, value, items.iter()).ok()?;
    parsed.to_naive_datetime_with_offset(0).ok()
}

/// Parses a `YYYY-MM-DD` date.
pub fn parse_date(value: &str) -> Result<NaiveDate, TimestampError> {
    NaiveDate::parse_from_str(value, "%Y-%m-%d").map_err(|_| TimestampError {
        value: value.to_owned(),
    })
}

/// The instant truncated to whole milliseconds.
///
/// The live feed prints milliseconds while the intraday endpoints print
/// microseconds, so the two are compared after this truncation (interface,
/// live rule 5).
// Inline: a replay's sort calls it twice a comparison, across crates.
#[inline]
pub fn truncate_to_millis(micros: Micros) -> Micros {
    micros - micros.rem_euclid(1_000)
}

/// Days since 1970-01-01, the Arrow `date32` value of a date.
pub fn days_since_epoch(date: NaiveDate) -> i32 {
    let epoch = DateTime::<Utc>::UNIX_EPOCH.date_naive();
    (date - epoch).num_days() as i32
}

#[cfg(test)]
#[path = "timestamp_tests.rs"]
mod tests;
