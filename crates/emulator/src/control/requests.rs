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
}

#[cfg(test)]
#[path = "requests_tests.rs"]
mod tests;
