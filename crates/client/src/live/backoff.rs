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
    pub fn new(min: Duration, max: Duration) -> Backoff {
        Backoff {
            min,
            max: max.max(min),
            failures: 0,
        }
    }

    /// The wait before the next attempt, for `jitter` uniform in [0, 1): a
    /// uniform wait between `min` and the exponential ceiling
    /// `min * 2^failures` (at most `max`). Counts the attempt.
    pub fn next_wait(&mut self, jitter: f64) -> Duration {
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
    pub fn reset(&mut self) {
        self.failures = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MIN: Duration = Duration::from_millis(250);
    const MAX: Duration = Duration::from_secs(30);

    #[test]
    fn waits_stay_between_min_and_an_exponential_ceiling_capped_at_max() {
        let mut backoff = Backoff::new(MIN, MAX);
        for failures in 0..40u32 {
            let ceiling = MIN.saturating_mul(1 << failures.min(20)).min(MAX);
            let mut low = backoff.clone();
            let mut high = backoff.clone();
            assert_eq!(low.next_wait(0.0), MIN);
            let top = high.next_wait(0.999_999);
            assert!(top <= ceiling && top >= MIN, "{failures}: {top:?}");
            assert!(
                ceiling - top < Duration::from_millis(1),
                "{failures}: {top:?}"
            );
            let wait = backoff.next_wait(fastrand::f64());
            assert!(wait >= MIN && wait <= MAX);
        }
        assert_eq!(backoff.clone().next_wait(0.999_999).as_secs(), 29);
        backoff.reset();
        assert!(backoff.next_wait(0.999_999) <= MIN);
    }

    #[test]
    fn a_zero_minimum_still_grows_and_nothing_panics() {
        let mut backoff = Backoff::new(Duration::ZERO, Duration::from_secs(1));
        assert!(backoff.next_wait(0.5) <= Duration::from_millis(5));
        for _ in 0..10 {
            backoff.next_wait(0.5);
        }
        assert_eq!(backoff.next_wait(0.5), Duration::from_millis(500));
        let mut inverted = Backoff::new(Duration::from_secs(2), Duration::from_secs(1));
        assert_eq!(inverted.next_wait(0.9), Duration::from_secs(2));
    }
}
