use chrono::NaiveDate;

use super::*;

#[test]
fn canonical_spellings_and_helpful_refusals() {
    let jet = vertical("JET").unwrap();
    assert_eq!(jet.name, "Jet");
    assert_eq!(
        vocabulary_value("region", "far east", Some(jet), |v| v.regions).unwrap(),
        "FAR EAST"
    );
    let err = vocabulary_value("region", "ARA", Some(jet), |v| v.regions).unwrap_err();
    assert!(
        err.to_string().contains("of Jet") && err.to_string().contains("WCI"),
        "{err}"
    );
    assert_eq!(
        vocabulary_value("quotation", "blend", None, |v| v.quotations).unwrap(),
        "Blend"
    );
    assert!(vertical("Coal")
        .unwrap_err()
        .to_string()
        .contains("Fuel Oil"));
}

#[test]
fn ids_tenors_and_ranges() {
    assert!(curve_id("  ").is_err());
    assert_eq!(curve_id(" abc ").unwrap(), "abc");
    assert!(tenor("Q5 24").unwrap_err().to_string().contains("Q1 to Q4"));
    assert!(tenor("").is_err());
    assert!(tenor("Jan 25\n").unwrap_err().to_string().contains("tenor"));
    // Dots would send the request to another path, encoded or not.
    for dots in [".", "..", " .. "] {
        assert!(curve_id(dots).unwrap_err().to_string().contains("curve_id"));
        assert!(tenor(dots).unwrap_err().to_string().contains("tenor"));
    }
    assert_eq!(curve_id("a.b").unwrap(), "a.b");
    let (a, b) = (
        NaiveDate::from_ymd_opt(2025, 1, 2).unwrap(),
        NaiveDate::from_ymd_opt(2025, 1, 1).unwrap(),
    );
    assert!(date_range(a, b).unwrap_err().to_string().contains("after"));
    assert!(date_range(b, a).is_ok());
}

#[test]
fn seconds_are_finite_and_positive() {
    assert_eq!(
        seconds(Argument::Timeout, 0.25).unwrap(),
        Duration::from_millis(250)
    );
    for bad in [0.0, -1.0, f64::NAN, f64::INFINITY, -0.0, 1e300] {
        let err = seconds(Argument::PollInterval, bad).unwrap_err();
        assert!(
            matches!(&err, ClientError::InvalidRequest(i) if i.argument == Argument::PollInterval),
            "{bad}: {err}"
        );
        let err = err.to_string();
        assert!(err.starts_with("poll interval must be"), "{bad}: {err}");
    }
}

#[test]
fn an_intraday_history_spans_at_most_about_ten_years() {
    let day = |y, m, d| NaiveDate::from_ymd_opt(y, m, d).unwrap();
    assert!(intraday_span(day(2016, 1, 1), day(2025, 12, 31)).is_ok());
    let error = intraday_span(day(25, 1, 1), day(2025, 12, 31)).unwrap_err();
    let message = error.to_string();
    assert!(message.contains("at most 3660 days"), "{message}");
    assert!(message.contains("0025-01-01"), "{message}");
}
