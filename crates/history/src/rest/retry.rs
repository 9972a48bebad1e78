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
#[path = "retry_tests.rs"]
mod tests;
