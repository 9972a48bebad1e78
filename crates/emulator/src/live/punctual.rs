//! Waking the publisher when a value is due, not a millisecond or two later.
//!
//! Tokio's timer counts whole milliseconds and rounds a deadline up to the
//! next one, so a value due 0.3 ms of real time ahead went out 1 to 2 ms
//! late: at 600 times real speed, most of a second of emulated time, and for
//! a client measuring from `generatedOn` a delay the service would not add.
//! The last stretch of a wait is slept on a blocking thread instead, where
//! the operating system's timer keeps to tens of microseconds.

use std::time::{Duration, Instant};

/// How late tokio's timer may wake: the part of a wait slept precisely.
const COARSE_SLACK: Duration = Duration::from_millis(2);

/// The shortest wait the publisher makes, so that an instant due now, read
/// from a clock that has not yet moved past it, costs no busy loop.
pub(super) const MIN_WAIT: Duration = Duration::from_micros(20);

/// Returns `wait` from now, within tens of microseconds. Dropped early (the
/// publisher is woken for another reason), it leaves at most a blocking
/// thread finishing a sleep of under [`COARSE_SLACK`].
pub(super) async fn sleep_precisely(wait: Duration) {
    let deadline = Instant::now() + wait;
    if let Some(coarse) = wait.checked_sub(COARSE_SLACK) {
        tokio::time::sleep(coarse).await;
    }
    let rest = deadline.saturating_duration_since(Instant::now());
    if !rest.is_zero() {
        // An error only means the runtime is shutting down.
        let _ = tokio::task::spawn_blocking(move || std::thread::sleep(rest)).await;
    }
}

#[cfg(test)]
#[path = "punctual_tests.rs"]
mod tests;
