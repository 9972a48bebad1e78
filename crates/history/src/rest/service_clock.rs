//! The service's notion of now, learnt from the `Date` header of its answers
//! (RFC 9110 §6.6.1: the origin server's clock). Whether a day of history can
//! still change is the service's business, so the cache asks this clock, not
//! the machine's: the two may differ, and an emulator may run at any date.

use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};

use chrono::{DateTime, TimeDelta, Utc};

#[derive(Debug, Default)]
pub struct ServiceClock {
    /// Service time minus local time, in microseconds, at the last answer.
    offset_micros: AtomicI64,
    seen: AtomicBool,
}

impl ServiceClock {
    /// Records the `Date` header of an answer received now.
    pub fn observe(&self, date_header: &str) {
        let Some(date) = parse_http_date(date_header) else {
            return;
        };
        let offset = (date - Utc::now()).num_microseconds().unwrap_or(0);
        self.offset_micros.store(offset, Ordering::Relaxed);
        self.seen.store(true, Ordering::Release);
    }

    /// How far the service's clock is ahead of this machine's, once an
    /// answer has said (to the second: `Date` has no fraction).
    pub fn offset(&self) -> Option<TimeDelta> {
        self.seen
            .load(Ordering::Acquire)
            .then(|| TimeDelta::microseconds(self.offset_micros.load(Ordering::Relaxed)))
    }

    /// The service's time now: this machine's clock moved by the last
    /// offset seen, or this machine's clock before any answer.
    pub fn now(&self) -> DateTime<Utc> {
        Utc::now() + self.offset().unwrap_or_default()
    }
}

/// An HTTP date in the form servers send (`Tue, 24 Nov 2026 10:00:00 GMT`);
/// None for anything else, which is then ignored.
pub fn parse_http_date(text: &str) -> Option<DateTime<Utc>> {
    DateTime::parse_from_rfc2822(text.trim())
        .ok()
        .map(|d| d.with_timezone(&Utc))
}

#[cfg(test)]
#[path = "service_clock_tests.rs"]
mod tests;
