//! Counts of requests planned and done, read by whoever shows progress.

use std::sync::atomic::{AtomicU64, Ordering};

#[derive(Debug, Default)]
pub struct Progress {
    total: AtomicU64,
    done: AtomicU64,
}

impl Progress {
    pub fn plan(&self, requests: u64) {
        self.total.fetch_add(requests, Ordering::Relaxed);
    }

    pub fn finish(&self, requests: u64) {
        self.done.fetch_add(requests, Ordering::Relaxed);
    }

    /// (done, total) so far.
    pub fn read(&self) -> (u64, u64) {
        (
            self.done.load(Ordering::Relaxed),
            self.total.load(Ordering::Relaxed),
        )
    }
}
