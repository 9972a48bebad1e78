use super::*;

#[test]
fn backoff_doubles_up_to_the_cap_with_jitter_below_it() {
    let policy = RetryPolicy::default();
    let full = |retry| policy.wait(retry, Outcome::Transient, 0.999_999).unwrap();
    assert!(full(0) <= Duration::from_millis(100));
    assert!(full(1) > Duration::from_millis(199) && full(1) <= Duration::from_millis(200));
    assert!(full(4) <= Duration::from_millis(1_600));
    assert_eq!(
        policy.wait(4, Outcome::Transient, 0.0),
        Some(Duration::ZERO)
    );
    let long = RetryPolicy {
        max_retries: 40,
        ..RetryPolicy::default()
    };
    assert!(long.wait(30, Outcome::Transient, 0.999_999).unwrap() <= Duration::from_secs(10));
}

#[test]
fn stops_after_max_retries_and_on_fatal_answers() {
    let policy = RetryPolicy {
        max_retries: 2,
        ..RetryPolicy::default()
    };
    assert!(policy.wait(1, Outcome::Transient, 0.5).is_some());
    assert!(policy.wait(2, Outcome::Transient, 0.5).is_none());
    assert!(policy.wait(0, Outcome::Fatal, 0.5).is_none());
    assert!(policy.wait(0, Outcome::Success, 0.5).is_none());
}

#[test]
fn retry_after_replaces_the_backoff_unless_too_long() {
    let policy = RetryPolicy::default();
    let asked = Outcome::RateLimited(Some(Duration::from_secs(3)));
    assert_eq!(policy.wait(0, asked, 0.1), Some(Duration::from_secs(3)));
    let too_long = Outcome::RateLimited(Some(Duration::from_secs(3_600)));
    assert_eq!(policy.wait(0, too_long, 0.1), None);
    assert!(policy.wait(0, Outcome::RateLimited(None), 0.5).is_some());
}

#[test]
fn statuses_are_classified() {
    assert_eq!(Outcome::of_status(200, None), Outcome::Success);
    assert_eq!(Outcome::of_status(503, None), Outcome::Transient);
    assert_eq!(Outcome::of_status(404, None), Outcome::Fatal);
    assert_eq!(
        Outcome::of_status(429, Some(Duration::from_secs(1))),
        Outcome::RateLimited(Some(Duration::from_secs(1)))
    );
}

#[test]
fn retry_after_in_seconds_or_as_a_date() {
    let now = DateTime::parse_from_rfc3339("2015-10-21T07:27:00Z")
        .unwrap()
        .to_utc();
    assert_eq!(parse_retry_after("7", now), Some(Duration::from_secs(7)));
    assert_eq!(
        parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT", now),
        Some(Duration::from_secs(60))
    );
    assert_eq!(
        parse_retry_after("Wed, 21 Oct 2015 07:00:00 GMT", now),
        Some(Duration::ZERO)
    );
    assert_eq!(parse_retry_after("soon", now), None);
}
