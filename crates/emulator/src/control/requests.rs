//! What reached the REST side: the requests received, for tests that count
//! a client's calls (its retries included).

use super::Controls;

impl Controls {
    /// REST requests received since the emulator started, every one counted
    /// (retries, injected failures and spoiled responses, `/authenticate`;
    /// not the live feed's upgrade), only those whose path starts with
    /// `path` (with or without `/v2`) when given.
    pub fn request_count(&self, path: Option<&str>) -> u64 {
        self.state.requests.count(path)
    }

    /// The most REST requests in progress at once (from their arrival to
    /// their answer, the latency added by faults included) since the
    /// emulator started or the last reset; `reset` starts the count again
    /// from those in progress now.
    pub fn peak_in_flight(&self, reset: bool) -> usize {
        self.state.requests.peak_in_flight(reset)
    }
}

#[cfg(test)]
#[path = "requests_tests.rs"]
mod tests;
