//! A local cache of history: the days of settlements and intraday values
//! that can no longer change, and the catalogue until its next refresh,
//! kept as Parquet files so that a pull fetches only what it lacks, and
//! works offline. It is a layer over the service's endpoints
//! (`rest::service`), which the REST client calls in a cache mode.
//!
//! - `through`: a call's history through the cache, each tenor's cached
//!   runs of days read and its missing ones fetched; `keep` writes back the
//!   final days fetched; `through_catalogue` does the same for the
//!   catalogue;
//! - `layout`: where each thing lives on disk, keyed by service and account;
//! - `finality`: when a day is final, and when the catalogue expires;
//! - `plan`: which days a file holds and which must be fetched;
//! - `segment`, `catalogue`: one file each, Parquet with a note in its
//!   footer (`noted`), written atomically (`atomic`), read back only if
//!   whole and what they say they are;
//! - `days`: the day of each row, and the rows of some days;
//! - `info`: what the cache holds, and clearing it;
//! - `cost`: the requests a call through it will send, for its budget.

pub mod catalogue;
pub(crate) mod cost;
pub mod days;
pub mod finality;
pub mod info;
mod keep;
pub mod layout;
mod mode;
mod noted;
pub mod plan;
pub mod segment;
pub mod through;
mod through_catalogue;

use std::path::{Path, PathBuf};

use tokio::sync::OnceCell;

pub use info::{CacheInfo, CachedCurve, Cleared};
pub use mode::CacheMode;
use places::storage::folder::folder_to_write;
use places::storage::whole_file::{write_bytes, Durability};
use places::ClientError;

/// The cache of one client: a folder, the client's mode, and (once known)
/// the folder of the client's service and account within it.
pub struct Cache {
    root: PathBuf,
    mode: CacheMode,
    service: OnceCell<PathBuf>,
}

impl Cache {
    /// A cache in `root`, which must be a folder this process can write, or
    /// a path where one can be made; `argument` names it in the message.
    pub fn new(argument: &str, root: PathBuf, mode: CacheMode) -> Result<Cache, ClientError> {
        folder_to_write(argument, &root)?;
        let root = std::path::absolute(&root).unwrap_or(root);
        Ok(Cache {
            root,
            mode,
            service: OnceCell::new(),
        })
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The mode of calls that do not choose one.
    pub fn mode(&self) -> CacheMode {
        self.mode
    }

    /// The folder of a service and account, made on first use with a note
    /// saying whose it is.
    pub(crate) async fn service_dir(
        &self,
        base_url: &str,
        account: impl std::future::Future<Output = Result<String, ClientError>>,
    ) -> Result<&Path, ClientError> {
        let dir = self
            .service
            .get_or_try_init(|| async {
                let account = account.await?;
                let dir = layout::service_dir(&self.root, base_url, &account);
                let note = serde_json::json!({ "base_url": base_url, "account": account });
                let path = dir.join("service.json");
                if !path.exists() {
                    if let Err(e) =
                        write_bytes(&path, Durability::Renamed, note.to_string().as_bytes())
                    {
                        log::warn!(target: "marketcurves.cache", "cannot write {path:?}: {e}");
                    }
                }
                Ok::<_, ClientError>(dir)
            })
            .await?;
        Ok(dir)
    }
}
