//! Timestamps as the service writes them.
//!
//! `generatedOn` is ISO 8601 in UTC with no zone suffix and 0 to 6 fractional
//! digits; metadata dates carry milliseconds and a `Z`. Both parse here to
//! microseconds since the Unix epoch, the unit of the Arrow `generated_on` column.

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
    let parsed = NaiveDateTime::parse_from_str(naive, "%Y-%m-%dT%H:%M:%S%.f")
        .or_else(|_| NaiveDateTime::parse_from_str(naive, "%Y-%m-%d %H:%M:%S%.f"))
        .map_err(|_| error())?;
    Ok(parsed.and_utc().timestamp_micros())
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
pub fn truncate_to_millis(micros: Micros) -> Micros {
    micros - micros.rem_euclid(1_000)
}

/// Days since 1970-01-01, the Arrow `date32` value of a date.
pub fn days_since_epoch(date: NaiveDate) -> i32 {
    let epoch = DateTime::<Utc>::UNIX_EPOCH.date_naive();
    (date - epoch).num_days() as i32
}

#[cfg(test)]
mod tests {
    use super::*;

    const BASE: Micros = 1_749_997_800_000_000; // 2025-06-15T14:30:00Z

    #[test]
    fn reads_every_fraction_length_from_none_to_nine() {
        let cases = [
            ("2025-06-15T14:30:00", 0),
            ("2025-06-15T14:30:00.1", 100_000),
            ("2025-06-15T14:30:00.12", 120_000),
            ("2025-06-15T14:30:00.123", 123_000),
            ("2025-06-15T14:30:00.1234", 123_400),
            ("2025-06-15T14:30:00.12345", 123_450),
            ("2025-06-15T14:30:00.123456", 123_456),
            ("2025-06-15T14:30:00.1234567", 123_456),
            ("2025-06-15T14:30:00.12345678", 123_456),
            ("2025-06-15T14:30:00.123456789", 123_456),
        ];
        for (text, extra) in cases {
            assert_eq!(parse_timestamp(text), Ok(BASE + extra), "{text}");
        }
    }

    #[test]
    fn accepts_a_utc_suffix_and_metadata_dates() {
        assert_eq!(parse_timestamp("2025-06-15T14:30:00.000Z"), Ok(BASE));
        assert_eq!(parse_timestamp("2025-06-15T14:30:00+00:00"), Ok(BASE));
        assert_eq!(
            parse_timestamp("2025-06-15T00:00:00.000Z"),
            Ok(BASE - 14 * 3_600 * 1_000_000 - 30 * 60 * 1_000_000)
        );
    }

    #[test]
    fn refuses_what_is_not_a_utc_timestamp() {
        for bad in [
            "",
            "2025-06-15",
            "2025-13-01T00:00:00",
            "2025-06-15T25:00:00",
            "2025-06-15T14:30:00+02:00",
            "2025-06-15T14:30:00.1234567890",
            "yesterday",
        ] {
            let err = parse_timestamp(bad).unwrap_err();
            assert_eq!(err.value, bad);
        }
    }

    #[test]
    fn truncates_to_milliseconds() {
        assert_eq!(truncate_to_millis(BASE + 123_456), BASE + 123_000);
        assert_eq!(truncate_to_millis(BASE + 999), BASE);
        assert_eq!(truncate_to_millis(BASE), BASE);
        // Before the epoch truncation still goes towards the earlier millisecond.
        assert_eq!(truncate_to_millis(-1), -1_000);
        let feed = parse_timestamp("2025-06-15T14:30:00.123").unwrap();
        let intraday = parse_timestamp("2025-06-15T14:30:00.123789").unwrap();
        assert_ne!(feed, intraday);
        assert_eq!(truncate_to_millis(intraday), feed);
    }

    #[test]
    fn dates_count_days_from_the_epoch() {
        assert_eq!(days_since_epoch(parse_date("1970-01-01").unwrap()), 0);
        assert_eq!(days_since_epoch(parse_date("2025-06-15").unwrap()), 20_254);
        assert!(parse_date("2025-02-30").is_err());
    }
}
