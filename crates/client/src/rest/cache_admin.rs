//! What the cache holds for this client's service and account, and
//! clearing it.

use chrono::NaiveDate;

use super::client::RestClient;
use super::validate;
use crate::cache::info::{self, CacheInfo, Cleared};
use crate::error::ClientError;

impl RestClient {
    /// Files, bytes, and the first and last cached day of each curve.
    pub async fn cache_info(&self) -> Result<CacheInfo, ClientError> {
        let dir = self.cache_dir().await?.to_path_buf();
        tokio::task::spawn_blocking(move || info::info(&dir))
            .await
            .map_err(|e| ClientError::InvalidRequest(format!("reading the cache failed: {e}")))
    }

    /// Removes the cached history of `curve_id` (every curve if None) of
    /// the days before `before` (every day if None); with neither, the
    /// cached catalogues too.
    pub async fn clear_cache(
        &self,
        curve_id: Option<String>,
        before: Option<NaiveDate>,
    ) -> Result<Cleared, ClientError> {
        let curve_id = curve_id.map(|c| validate::curve_id(&c)).transpose()?;
        let dir = self.cache_dir().await?.to_path_buf();
        tokio::task::spawn_blocking(move || info::clear(&dir, curve_id.as_deref(), before))
            .await
            .map_err(|e| ClientError::InvalidRequest(format!("clearing the cache failed: {e}")))
    }
}
