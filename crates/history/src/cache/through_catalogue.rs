//! The catalogue through the cache: a query's curve quotations serve until
//! the next contracts refresh (Monday to Friday, 02:30 UTC), judged on the
//! service's clock. Offline, a catalogue older than that still serves,
//! with a warning: the contracts it lists may have changed since.

use chrono::Utc;

use super::catalogue::{self, Fetched};
use super::layout::catalogue_file;
use super::through::Through;
use super::CacheMode;
use crate::rest::query::CatalogueQuery;
use domain::records::CurveQuotation;
use places::ClientError;

impl Through<'_> {
    /// The curve quotations of `query`, in `mode` (which is not `Off`).
    pub(crate) async fn catalogue(
        &self,
        query: &CatalogueQuery,
        mode: CacheMode,
    ) -> Result<Vec<CurveQuotation>, ClientError> {
        let key = query.cache_key();
        let path = catalogue_file(&self.dirs.account, &key);
        let files = &self.dirs.files;
        if !mode.reads() {
            self.dirs.check().await?;
        }
        if mode.reads() {
            let (store, file) = (files.clone(), path.clone());
            let read = tokio::task::spawn_blocking(move || catalogue::read(&store, &file));
            // The store's check rides alongside the read, which serves
            // nothing unless the check passes.
            let (checked, read) = tokio::join!(self.dirs.check(), read);
            checked?;
            let read = read.unwrap_or_else(|e| Err(e.to_string()));
            match read {
                Ok(Some((fetched, curves))) => {
                    if !fetched.expired(self.service.http().service_clock().offset()) {
                        return Ok(curves);
                    }
                    if mode == CacheMode::Offline {
                        log::warn!(
                            target: "marketcurves.cache",
                            "offline: serving the catalogue fetched at {}, before the latest \
                             contracts refresh; its contracts may have changed since",
                            fetched.service_time
                        );
                        return Ok(curves);
                    }
                }
                Ok(None) => {}
                Err(why) => {
                    log::warn!(
                        target: "marketcurves.cache",
                        "{} is corrupt ({why}); removed, and fetched again",
                        files.shown(&path)
                    );
                    let (store, file) = (files.clone(), path.clone());
                    let _ = tokio::task::spawn_blocking(move || store.delete(&file)).await;
                }
            }
            if mode == CacheMode::Offline {
                return Err(ClientError::CacheMiss {
                    message: format!(
                        "offline, and the cache has no catalogue for {}",
                        query.describe()
                    ),
                    curve_id: None,
                    missing: Vec::new(),
                    advice: Some(places::Advice::FetchCatalogue),
                });
            }
        }
        let curves = self.service.catalogue(query).await?;
        let fetched = Fetched {
            query: key,
            service_time: self.service.http().service_clock().now(),
            local_time: Utc::now(),
        };
        let kept = curves.clone();
        let store = files.clone();
        let writing =
            tokio::task::spawn_blocking(move || catalogue::write(&store, &path, &fetched, &kept));
        if let Ok(Err(e)) = writing.await {
            log::warn!(target: "marketcurves.cache", "cannot keep the catalogue: {e}");
        }
        Ok(curves)
    }
}
