//! Faults of bulk download: failing jobs, downloads broken off, URLs expired
//! early and listings with hostile paths.

use super::checks::{at_least_one, ControlResult};
use super::Controls;

impl Controls {
    /// The next `count` bulk jobs submitted end `FAILED` instead of
    /// `SUCCEEDED`, after running as long as they would have.
    pub fn fail_next_job(&self, count: u32) -> ControlResult<()> {
        self.state.faults.fail_next_job(at_least_one(count)?);
        Ok(())
    }

    /// The next `count` bulk file downloads send their headers and part of
    /// the body, then break the connection.
    pub fn truncate_next_download(&self, count: u32) -> ControlResult<()> {
        self.state
            .faults
            .truncate_next_download(at_least_one(count)?);
        Ok(())
    }

    /// Every pre-signed URL issued so far (by jobs that have succeeded)
    /// expires now: downloads get 403 and the job must be run again.
    pub fn expire_urls(&self) {
        self.state.bulk.jobs.expire_urls(self.state.clock.now());
    }

    /// While on, bulk jobs submitted also list files whose paths escape the
    /// destination directory, with working URLs.
    pub fn malicious_paths(&self, enabled: bool) {
        self.state.faults.set_malicious_paths(enabled);
    }
}

#[cfg(test)]
#[path = "bulk_tests.rs"]
mod tests;
