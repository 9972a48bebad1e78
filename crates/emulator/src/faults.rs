//! Faults a test can inject: failing the next requests with a status, adding
//! latency, and spoiling responses (a connection reset in the middle of the
//! body, a body cut short but complete on the wire, a body that is not JSON);
//! for bulk download, failing jobs, truncating file downloads and listing
//! hostile paths.

use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Duration;

/// The next `remaining` requests whose path matches fail with `status`.
#[derive(Clone, Debug)]
struct Failure {
    remaining: u32,
    status: u16,
    prefix: Option<String>,
    retry_after: Option<u32>,
}

/// How a response is spoiled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Spoil {
    /// Headers and half the body, then the connection breaks.
    Reset,
    /// A whole response with a body that is not the route's JSON.
    Corrupt(Corruption),
}

/// What a corrupted response carries in place of the route's JSON; the
/// status and framing stay right.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Corruption {
    /// The first half of the JSON.
    Truncated,
    /// An HTML page, as a proxy's error page.
    Malformed,
}

#[derive(Clone, Debug)]
struct Spoiling {
    remaining: u32,
    prefix: Option<String>,
    spoil: Spoil,
}

/// What to do with one request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Injected {
    None,
    Fail {
        status: u16,
        retry_after: Option<u32>,
    },
    Spoil(Spoil),
}

#[derive(Default)]
pub struct Faults {
    failures: Mutex<Vec<Failure>>,
    spoilings: Mutex<Vec<Spoiling>>,
    latency_micros: AtomicU64,
    failing_jobs: AtomicU32,
    truncated_downloads: AtomicU32,
    malicious_paths: AtomicBool,
}

/// Takes one from a countdown; false once it is at zero.
fn count_down(counter: &AtomicU32) -> bool {
    counter
        .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1))
        .is_ok()
}

/// A prefix matches the path with or without its `/v2` version segment;
/// no prefix matches every path. The request counter shares the rule.
pub(crate) fn matches(prefix: Option<&str>, path: &str) -> bool {
    match prefix {
        None => true,
        Some(prefix) => {
            path.starts_with(prefix)
                || path
                    .strip_prefix("/v2")
                    .is_some_and(|rest| rest.starts_with(prefix))
        }
    }
}

impl Faults {
    pub fn fail_next(
        &self,
        count: u32,
        status: u16,
        prefix: Option<String>,
        retry_after: Option<u32>,
    ) {
        self.failures.lock().expect("faults lock").push(Failure {
            remaining: count,
            status,
            prefix,
            retry_after,
        });
    }

    /// The next `count` matching responses break off halfway through the body.
    pub fn reset_next(&self, count: u32, prefix: Option<String>) {
        self.spoil_next(count, prefix, Spoil::Reset);
    }

    /// The next `count` matching responses arrive whole but corrupted.
    pub fn corrupt_next(&self, count: u32, prefix: Option<String>, corruption: Corruption) {
        self.spoil_next(count, prefix, Spoil::Corrupt(corruption));
    }

    fn spoil_next(&self, count: u32, prefix: Option<String>, spoil: Spoil) {
        self.spoilings.lock().expect("faults lock").push(Spoiling {
            remaining: count,
            prefix,
            spoil,
        });
    }

    pub fn set_latency(&self, latency: Duration) {
        self.latency_micros
            .store(latency.as_micros() as u64, Ordering::SeqCst);
    }

    pub fn latency(&self) -> Duration {
        Duration::from_micros(self.latency_micros.load(Ordering::SeqCst))
    }

    /// The next `count` bulk jobs submitted end FAILED.
    pub fn fail_next_job(&self, count: u32) {
        self.failing_jobs.fetch_add(count, Ordering::SeqCst);
    }

    /// Whether the bulk job being submitted is to fail (counts down).
    pub fn take_job_failure(&self) -> bool {
        count_down(&self.failing_jobs)
    }

    /// The next `count` bulk file downloads break off partway through the body.
    pub fn truncate_next_download(&self, count: u32) {
        self.truncated_downloads.fetch_add(count, Ordering::SeqCst);
    }

    /// Whether the file download being answered is to break off (counts down).
    pub fn take_truncation(&self) -> bool {
        count_down(&self.truncated_downloads)
    }

    /// While on, bulk jobs submitted list extra files whose paths escape the
    /// destination directory.
    pub fn set_malicious_paths(&self, enabled: bool) {
        self.malicious_paths.store(enabled, Ordering::SeqCst);
    }

    pub fn malicious_paths(&self) -> bool {
        self.malicious_paths.load(Ordering::SeqCst)
    }

    /// Removes every pending fault and the latency.
    pub fn clear(&self) {
        self.failures.lock().expect("faults lock").clear();
        self.spoilings.lock().expect("faults lock").clear();
        self.set_latency(Duration::ZERO);
        self.failing_jobs.store(0, Ordering::SeqCst);
        self.truncated_downloads.store(0, Ordering::SeqCst);
        self.set_malicious_paths(false);
    }

    /// The failure for a request to `path` among those injected with a path
    /// that matches it; failures for any path are left for REST requests.
    /// The live feed's WebSocket handshake fails only when asked by name.
    pub fn take_named(&self, path: &str) -> Option<u16> {
        let mut failures = self.failures.lock().expect("faults lock");
        let i = failures
            .iter()
            .position(|f| f.prefix.is_some() && matches(f.prefix.as_deref(), path))?;
        let status = failures[i].status;
        failures[i].remaining -= 1;
        if failures[i].remaining == 0 {
            failures.remove(i);
        }
        Some(status)
    }

    /// Decides (and counts down) the fault for a request to `path`.
    pub fn take(&self, path: &str) -> Injected {
        let mut failures = self.failures.lock().expect("faults lock");
        if let Some(i) = failures
            .iter()
            .position(|f| matches(f.prefix.as_deref(), path))
        {
            let failure = &mut failures[i];
            let injected = Injected::Fail {
                status: failure.status,
                retry_after: failure.retry_after,
            };
            failure.remaining -= 1;
            if failure.remaining == 0 {
                failures.remove(i);
            }
            return injected;
        }
        drop(failures);
        let mut spoilings = self.spoilings.lock().expect("faults lock");
        if let Some(i) = spoilings
            .iter()
            .position(|r| matches(r.prefix.as_deref(), path))
        {
            let spoil = spoilings[i].spoil;
            spoilings[i].remaining -= 1;
            if spoilings[i].remaining == 0 {
                spoilings.remove(i);
            }
            return Injected::Spoil(spoil);
        }
        Injected::None
    }
}

#[cfg(test)]
#[path = "faults_tests.rs"]
mod tests;
