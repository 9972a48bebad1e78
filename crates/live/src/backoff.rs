//! How long to wait before each reconnect attempt: exponential growth from
//! `reconnect_min` to `reconnect_max`, with jitter so that many clients
//! dropped together (the weekly restart) do not come back together.

use std::time::Duration;

/// The base of the exponential growth when `reconnect_min` is smaller.
const GROWTH_FLOOR: Duration = Duration::from_millis(10);

#[derive(Clone, Debug)]
pub(crate) struct Backoff {
    min: Duration,
    max: Duration,
    /// Failed attempts since the last healthy connection.
    failures: u32,
}

impl Backoff {
    pub(crate) fn new(min: Duration, max: Duration) -> Backoff {
        Backoff {
            min,
            max: max.max(min),
            failures: 0,
        }
    }

    /// The wait before the next attempt, for `jitter` uniform in [0, 1): a
    /// uniform wait between `min` and the exponential ceiling
    /// `min * 2^failures` (at most `max`). Counts the attempt.
    pub(crate) fn next_wait(&mut self, jitter: f64) -> Duration {
        // A zero minimum still grows, so a refusing server is not hammered.
        let ceiling = self
            .min
            .max(GROWTH_FLOOR)
            .saturating_mul(1u32 << self.failures.min(20))
            .min(self.max);
        self.failures = self.failures.saturating_add(1);
        let ceiling = ceiling.max(self.min);
        self.min + (ceiling - self.min).mul_f64(jitter.clamp(0.0, 1.0))
    }

    /// After a connection that stayed healthy: the next wait is short again.
    pub(crate) fn reset(&mut self) {
        self.failures = 0;
    }
}

#[cfg(test)]
#[path = "backoff_tests.rs"]
mod tests;
