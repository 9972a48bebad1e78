//! A cache of history: the days of settlements and intraday values that
//! can no longer change, and the catalogue until its next refresh, kept as
//! Parquet files in a folder or an object store, so that a pull fetches
//! only what it lacks, and works offline. It is a layer over the service's endpoints
//! (`rest::service`), which the REST client calls in a cache mode.
//!
//! - `through`: a call's history through the cache, each tenor's cached
//!   runs of days read and its missing ones fetched; `keep` writes back the
//!   final days fetched; `through_catalogue` does the same for the
//!   catalogue;
//! - `layout`: where each thing lives, keyed by service and account in a
//!   folder, by service alone (the history) in a store that accounts share;
//! - `files`: the few file operations every rule runs on, on a folder or a
//!   store (a segment created only if absent in a store);
//! - `licence`: a shared cache serves a curve only to an account the
//!   service lets read it, confirmed once per session and remembered on
//!   the machine for a bounded time (`licence_memory`);
//! - `finality`: when a day is final, and when the catalogue expires;
//! - `plan`: which days a file holds and which must be fetched;
//! - `prefetch`: in a store, a call's curve listed once, its packs and
//!   the files its plans need read at once; `cached_days`, the days each
//!   tenor has in the cache;
//! - `pack`, `through_pack`: in a store, a curve's tenors' final days in
//!   one file, written after a call from its rows, read in one request;
//! - `segment`, `catalogue`: one file each, Parquet with a note in its
//!   footer (`noted`), written whole (`files`), read back only if
//!   whole and what they say they are;
//! - `days`: the day of each row, and the rows of some days;
//! - `info`: what the cache holds, and clearing it;
//! - `counted`: a call's tenor-days from the cache and from the service,
//!   in its table's metadata;
//! - `cost`: the requests a call through it will send, for its budget.

pub mod catalogue;
mod claim;
pub(crate) mod cost;
pub mod counted;
pub mod days;
pub mod files;
pub mod finality;
pub mod info;
mod keep;
pub mod layout;
mod licence;
mod licence_memory;
mod mode;
mod noted;
pub mod pack;
pub mod plan;
pub mod prefetch;
pub mod segment;
pub mod through;
mod through_catalogue;
mod through_claim;
mod through_pack;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use tokio::sync::OnceCell;

use files::{Files, Put};
pub use info::{CacheInfo, CachedCurve, Cleared};
pub use licence::Licences;
pub use mode::CacheMode;
use places::storage::folder::folder_to_write;
use places::storage::{Location, Place};
use places::ClientError;

/// The cache of one client: a folder or a store's prefix, the client's
/// mode, and (once known) where its service's and account's files are.
pub struct Cache {
    root: PathBuf,
    files: Files,
    mode: CacheMode,
    dirs: OnceCell<Dirs>,
}

/// Where one service's and account's files are in a cache.
#[derive(Clone, Debug)]
pub struct Dirs {
    pub files: Files,
    /// The history's folder: the service's and account's in a folder, the
    /// service's alone in a store, shared by every account (`layout`).
    pub history: PathBuf,
    /// The account's own: its catalogues.
    pub account: PathBuf,
    /// In a shared cache, what the account was confirmed for (`licence`);
    /// None in a folder, whose history is the account's own.
    pub licences: Option<Arc<Licences>>,
    /// Set once a store has answered its check (`check`).
    pub(crate) checked: Arc<OnceCell<()>>,
}

impl Dirs {
    /// Whether accounts share the history (a store's cache): a curve is
    /// then served only once the account may read it (`licence`).
    pub fn shared(&self) -> bool {
        self.files.is_store()
    }

    /// Ok once the store is there and takes the credentials (a folder
    /// always is): a missing bucket is an `InvalidRequest`, refused
    /// credentials an `AuthError`, at each call until it answers. A cached
    /// call runs it alongside its first reads of the store, which it does
    /// not serve unless the check passes, so that the check's round trip is
    /// not one more before them.
    pub async fn check(&self) -> Result<(), ClientError> {
        match &self.files {
            Files::Folder => Ok(()),
            Files::Store(location) => self
                .checked
                .get_or_try_init(|| location.check())
                .await
                .map(drop),
        }
    }
}

impl Cache {
    /// A cache in `root`, which must be a folder this process can write, or
    /// a path where one can be made; `argument` names it in the message.
    pub fn new(argument: &str, root: PathBuf, mode: CacheMode) -> Result<Cache, ClientError> {
        folder_to_write(argument, &root)?;
        let root = std::path::absolute(&root).unwrap_or(root);
        Ok(Cache {
            root,
            files: Files::Folder,
            mode,
            dirs: OnceCell::new(),
        })
    }

    /// A cache at a place: a folder (as [`new`](Self::new)) or a store's
    /// prefix, shared by every account of the service.
    pub fn at(argument: &str, place: Place, mode: CacheMode) -> Result<Cache, ClientError> {
        match place {
            Place::Folder(root) => Cache::new(argument, root, mode),
            Place::Store(location) => Ok(Cache::in_store(location, mode)),
        }
    }

    /// A cache under a store's prefix.
    pub fn in_store(location: Location, mode: CacheMode) -> Cache {
        Cache {
            root: PathBuf::new(),
            files: Files::Store(location),
            mode,
            dirs: OnceCell::new(),
        }
    }

    /// The folder; a store's cache's paths are relative to its prefix.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Whether it is in an object store.
    pub fn is_store(&self) -> bool {
        self.files.is_store()
    }

    /// The mode of calls that do not choose one.
    pub fn mode(&self) -> CacheMode {
        self.mode
    }

    /// Where the files of a service and account are, found on first use,
    /// with a note saying whose they are. A store is not checked here: see
    /// [`Dirs::check`].
    pub(crate) async fn dirs(
        &self,
        base_url: &str,
        account: impl std::future::Future<Output = Result<String, ClientError>>,
    ) -> Result<&Dirs, ClientError> {
        self.dirs
            .get_or_try_init(|| async {
                let (dirs, note) = match &self.files {
                    Files::Folder => {
                        let account = account.await?;
                        let dir = layout::service_dir(&self.root, base_url, &account);
                        let note = serde_json::json!({ "base_url": base_url, "account": account });
                        (self.dirs_of(dir.clone(), dir, None), note)
                    }
                    Files::Store(_) => {
                        // The store is checked by each call (`Dirs::check`).
                        let account = account.await?;
                        let history = layout::shared_service_dir(&self.root, base_url);
                        let licences = Arc::new(Licences::of(base_url, &account));
                        let account = layout::shared_account_dir(&self.root, base_url, &account);
                        // No account's name in a store others read.
                        let note = serde_json::json!({ "base_url": base_url });
                        (self.dirs_of(history, account, Some(licences)), note)
                    }
                };
                let (files, path) = (dirs.files.clone(), dirs.history.join("service.json"));
                let store = files.is_store();
                let writing = tokio::task::spawn_blocking(move || {
                    let there = match &files {
                        Files::Folder => path.exists(),
                        Files::Store(_) => false,
                    };
                    if there {
                        return;
                    }
                    let note = note.to_string();
                    let written =
                        files.write(&path, Put::Create, |out| out.write_all(note.as_bytes()));
                    if let Err(e) = written {
                        let path = files.shown(&path);
                        log::warn!(target: "marketcurves.cache", "cannot write {path}: {e}");
                    }
                });
                // A store's note (for people, created once) is not waited
                // for: its request would delay every session's first call.
                if !store {
                    let _ = writing.await;
                }
                Ok::<_, ClientError>(dirs)
            })
            .await
    }

    fn dirs_of(&self, history: PathBuf, account: PathBuf, licences: Option<Arc<Licences>>) -> Dirs {
        Dirs {
            files: self.files.clone(),
            history,
            account,
            licences,
            checked: Arc::new(OnceCell::new()),
        }
    }
}
