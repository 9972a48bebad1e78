//! The REST requests the emulator received, so that a test can count what
//! reached the service: retries, injected failures and `/authenticate`
//! included. One counter per exact path keeps it small however many
//! requests come; a count by prefix adds up the paths that match. And how
//! many were in progress at once at most, so that a test can check a
//! client's concurrency bound.

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use crate::faults::matches;

#[derive(Default)]
pub struct Requests {
    per_path: Mutex<HashMap<String, u64>>,
    in_flight: AtomicUsize,
    peak: AtomicUsize,
}

/// A request in progress, until dropped.
pub struct InFlight<'a>(&'a Requests);

impl Drop for InFlight<'_> {
    fn drop(&mut self) {
        self.0.in_flight.fetch_sub(1, Ordering::SeqCst);
    }
}

impl Requests {
    /// A request has come and is in progress until the guard is dropped.
    pub fn enter(&self) -> InFlight<'_> {
        let now = self.in_flight.fetch_add(1, Ordering::SeqCst) + 1;
        self.peak.fetch_max(now, Ordering::SeqCst);
        InFlight(self)
    }

    /// The most requests in progress at once since the start or the last
    /// reset; with `reset`, the count starts again from those in progress.
    pub fn peak_in_flight(&self, reset: bool) -> usize {
        if reset {
            let now = self.in_flight.load(Ordering::SeqCst);
            return self.peak.swap(now, Ordering::SeqCst);
        }
        self.peak.load(Ordering::SeqCst)
    }

    /// Counts one request to `path`.
    pub fn record(&self, path: &str) {
        let mut per_path = self.per_path.lock().expect("requests lock");
        match per_path.get_mut(path) {
            Some(count) => *count += 1,
            None => {
                per_path.insert(path.to_owned(), 1);
            }
        }
    }

    /// Requests received so far whose path starts with `prefix` (with or
    /// without `/v2`, as for faults); every one with no prefix.
    pub fn count(&self, prefix: Option<&str>) -> u64 {
        let per_path = self.per_path.lock().expect("requests lock");
        per_path
            .iter()
            .filter(|(path, _)| matches(prefix, path))
            .map(|(_, count)| count)
            .sum()
    }
}
