//! Whether an account may be served a curve from a cache that accounts
//! share. A store's cache keeps the history by service, not by account
//! (`layout`), so one account's pull serves another's; a curve the service
//! refuses to an account must never reach it that way.
//!
//! The hook is here, called before any cached day of a curve is read from
//! a shared cache. It confirms nothing yet: the rule (one request per curve
//! per session, remembered on the machine for a bounded time, `AccessDenied`
//! never served, offline only what was confirmed) is the next step of the
//! shared cache, and goes in this module.

use super::through::Through;
use places::ClientError;

impl Through<'_> {
    /// Ok if this client's account may be served `curve_id` from the cache.
    pub(super) async fn may_serve(&self, curve_id: &str) -> Result<(), ClientError> {
        if !self.dirs.shared() {
            // A folder's history is the account's own: it fetched it.
            return Ok(());
        }
        let _ = curve_id;
        Ok(())
    }
}
