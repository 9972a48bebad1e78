//! The history cache's arguments: modes from their names (its answers are
//! converted by `results`).

use history::cache::CacheMode;
use places::ClientError;

/// A call's mode: None leaves the client's.
pub(crate) fn call_mode(mode: Option<&str>) -> Result<Option<CacheMode>, ClientError> {
    mode.map(|m| CacheMode::parse("cache", m)).transpose()
}
