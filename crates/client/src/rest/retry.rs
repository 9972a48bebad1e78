//! When to try a request again, and how long to wait first.
//!
//! Connection errors, timeouts, 429 and 5xx are retried with exponential
//! backoff and full jitter (a uniform wait between zero and the backoff);
//! a `Retry-After` from the service replaces the backoff.

use std::time::Duration;

use chrono::{DateTime, Utc};

#[derive(Clone, Debug)]
pub struct RetryPolicy {
    /// Retries after the first attempt.
    pub max_retries: u32,
    /// Backoff before the first retry; doubles with each one.
    pub base: Duration,
    /// The longest backoff.
    pub cap: Duration,
    /// The longest `Retry-After` honoured; a longer one ends the retries.
    pub max_retry_after: Duration,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        RetryPolicy {
            max_retries: 5,
            base: Duration::from_millis(100),
            cap: Duration::from_secs(10),
            max_retry_after: Duration::from_secs(120),
        }
    }
}

/// What an attempt's outcome means for the next one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Success,
    /// Worth another try (5xx, connection error, timeout).
    Transient,
    /// 429, perhaps with a wait the service asked for.
    RateLimited(Option<Duration>),
    /// Retrying would give the same answer (4xx).
    Fatal,
}

impl Outcome {
    pub fn of_status(status: u16, retry_after: Option<Duration>) -> Outcome {
        match status {
            200..=299 => Outcome::Success,
            429 => Outcome::RateLimited(retry_after),
            408 | 500..=599 => Outcome::Transient,
            _ => Outcome::Fatal,
        }
    }
}

impl RetryPolicy {
    /// The wait before retry number `retry` (0-based), or None to stop.
    /// `jitter` is uniform in [0, 1).
    pub fn wait(&self, retry: u32, outcome: Outcome, jitter: f64) -> Option<Duration> {
        if retry >= self.max_retries {
            return None;
        }
        match outcome {
            Outcome::Success | Outcome::Fatal => None,
            Outcome::RateLimited(Some(asked)) => (asked <= self.max_retry_after).then_some(asked),
            Outcome::RateLimited(None) | Outcome::Transient => {
                let exponential = self.base.saturating_mul(1u32 << retry.min(20));
                Some(exponential.min(self.cap).mul_f64(jitter))
            }
        }
    }
}

/// A `Retry-After` value: delay-seconds or an HTTP-date.
pub fn parse_retry_after(value: &str, now: DateTime<Utc>) -> Option<Duration> {
    let value = value.trim();
    if let Ok(seconds) = value.parse::<u64>() {
        return Some(Duration::from_secs(seconds));
    }
    let when = DateTime::parse_from_rfc2822(value)
        .ok()?
        .with_timezone(&Utc);
    Some((when - now).to_std().unwrap_or(Duration::ZERO))
}

#[cfg(test)]
mod tests {
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
}
