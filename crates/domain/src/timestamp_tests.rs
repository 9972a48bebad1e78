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

#[test]
fn reads_as_chrono_reads_its_format_strings() {
    // The pre-read layouts must accept and refuse exactly what
    // `parse_from_str` with the same format strings does.
    let cases = [
        "2025-06-15T14:30:00",
        "2025-06-15 14:30:00.5",
        "2025-06-15T14:30:60",
        "2025-06-15T14:30:00.",
        "2025-6-15T14:30:00",
        "+2025-06-15T14:30:00",
        "12025-06-15T14:30:00",
        "2025-02-29T00:00:00",
        "2024-02-29T23:59:59.999999999",
        "2025-06-15T14:30",
        "2025-06-15T14:30:00 ",
        "2025-06-15t14:30:00",
    ];
    for text in cases {
        let expected = NaiveDateTime::parse_from_str(text, "%Y-%m-%dT%H:%M:%S%.f")
            .or_else(|_| NaiveDateTime::parse_from_str(text, "%Y-%m-%d %H:%M:%S%.f"))
            .map(|t| t.and_utc().timestamp_micros())
            .ok();
        assert_eq!(parse_timestamp(text).ok(), expected, "{text:?}");
    }
}
