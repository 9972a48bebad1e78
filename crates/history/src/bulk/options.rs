//! The bounds of a bulk download, and what a caller can watch while it runs.

use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};
use std::time::Duration;

use crate::rest::validate;
use places::{Argument, ClientError};

/// How often a job's status is asked for at first (it backs off to ten times that).
pub const DEFAULT_POLL_INTERVAL: Duration = Duration::from_secs(2);
/// How long a job may run before the wait gives up.
pub const DEFAULT_WAIT_TIMEOUT: Duration = Duration::from_secs(3_600);

/// Bounds of the whole operation.
#[derive(Clone, Debug)]
pub struct BulkOptions {
    pub poll_interval: Duration,
    /// None: wait as long as the job runs.
    pub wait_timeout: Option<Duration>,
    /// Jobs submitted in all, counting resubmissions after FAILED or expiry.
    pub max_jobs: u32,
    pub concurrent_files: usize,
    pub max_retries: u32,
}

impl Default for BulkOptions {
    fn default() -> Self {
        BulkOptions {
            poll_interval: DEFAULT_POLL_INTERVAL,
            wait_timeout: Some(DEFAULT_WAIT_TIMEOUT),
            max_jobs: 4,
            concurrent_files: 4,
            max_retries: 5,
        }
    }
}

impl BulkOptions {
    /// The default options with the wait's bounds given as numbers of seconds
    /// (as Python gives them), each finite and > 0.
    pub fn waiting(poll_interval: f64, timeout: Option<f64>) -> Result<BulkOptions, ClientError> {
        Ok(BulkOptions {
            poll_interval: validate::seconds(Argument::PollInterval, poll_interval)?,
            wait_timeout: timeout
                .map(|t| validate::seconds(Argument::Timeout, t))
                .transpose()?,
            ..BulkOptions::default()
        })
    }
}

/// Where a bulk download is. The number is what a progress callback is given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Phase {
    Submitting = 0,
    Running = 1,
    Downloading = 2,
    Done = 3,
}

/// What a caller can watch while it runs.
#[derive(Debug, Default)]
pub struct BulkProgress {
    /// A [`Phase`], as its number.
    pub phase: AtomicU8,
    pub bytes_total: AtomicU64,
    pub bytes_done: AtomicU64,
    pub jobs: AtomicU64,
}

impl BulkProgress {
    pub fn enter(&self, phase: Phase) {
        self.phase.store(phase as u8, Ordering::Relaxed);
    }

    /// The phase's number, the bytes downloaded and the bytes in all.
    pub fn snapshot(&self) -> (u8, u64, u64) {
        (
            self.phase.load(Ordering::Relaxed),
            self.bytes_done.load(Ordering::Relaxed),
            self.bytes_total.load(Ordering::Relaxed),
        )
    }

    pub fn jobs(&self) -> u64 {
        self.jobs.load(Ordering::Relaxed)
    }
}

#[cfg(test)]
#[path = "options_tests.rs"]
mod tests;
