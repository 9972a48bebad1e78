//! The REST requests the emulator received, so that a test can count what
//! reached the service: retries, injected failures and `/authenticate`
//! included. One counter per exact path keeps it small however many
//! requests come; a count by prefix adds up the paths that match.

use std::collections::HashMap;
use std::sync::Mutex;

use crate::faults::matches;

#[derive(Default)]
pub struct Requests {
    per_path: Mutex<HashMap<String, u64>>,
}

impl Requests {
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
