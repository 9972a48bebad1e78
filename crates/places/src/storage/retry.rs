//! How often, and for how long, a store's request is tried again (on a
//! 5xx, a 429, a broken connection, or a timeout of a request safe to
//! repeat, which parts and completions are).
//!
//! object_store's defaults (10 retries, backoffs up to 15 s, retries for 3
//! minutes) let a store that is down hold a download for minutes before
//! it says so, and then as long again for the abort of each upload. These
//! bounds keep the package's rule for the REST service and the bulk files
//! (five retries, a few seconds of backoff): more patience than the AWS
//! SDKs' standard mode gives a throttled S3 (three attempts), and a lasting
//! failure reported in seconds. A download that fails anyway is run again
//! at little cost: the objects already whole are skipped.

use std::time::Duration;

use object_store::{BackoffConfig, RetryConfig};

/// Retries after a request's first attempt.
pub(super) const MAX_RETRIES: usize = 5;
/// The first backoff; each next one is drawn between it and twice the last.
pub(super) const FIRST_BACKOFF: Duration = Duration::from_millis(200);
/// The longest backoff.
pub(super) const MAX_BACKOFF: Duration = Duration::from_secs(5);
/// No retry starts once a request has been tried for this long. Each
/// attempt has object_store's own 30 s timeout, so a store that takes
/// requests and never answers fails a request in about a minute, not in
/// the default's three.
pub(super) const RETRY_TIMEOUT: Duration = Duration::from_secs(60);

/// The retry policy of every store the package builds.
pub(super) fn store_retry() -> RetryConfig {
    RetryConfig {
        backoff: BackoffConfig {
            init_backoff: FIRST_BACKOFF,
            max_backoff: MAX_BACKOFF,
            base: 2.0,
        },
        max_retries: MAX_RETRIES,
        retry_timeout: RETRY_TIMEOUT,
    }
}

#[cfg(test)]
#[path = "retry_tests.rs"]
mod tests;
