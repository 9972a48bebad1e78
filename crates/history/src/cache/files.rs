//! The cache's file operations, the few every rule of the cache needs (list
//! a folder's files, read one whole, write one whole, delete one, walk
//! everything under a folder), on a local folder or on a prefix of an
//! object store, so that each rule (which days a file holds, which file
//! wins, what is corrupt, what merging removes) is written once for both.
//!
//! Paths are the layout's (`layout`): absolute in a folder, relative to
//! the store's prefix in a store, each component one name (a file name in
//! a folder, a key's part in a store).
//!
//! The operations are blocking: the cache's rules run on blocking threads
//! (`spawn_blocking`), where a store's requests are waited for on the
//! runtime that started them (`Handle::block_on`, which a blocking thread
//! may call).
//!
//! A folder writes as it always has: to a temporary name, then renamed
//! over the target, so the last writer wins and a reader sees one whole
//! file. A store writes each object in one PUT (an object is never seen
//! half-written), and a segment with a conditional create
//! (`PutMode::Create`, `If-None-Match: *`): of writers racing on one name,
//! one wins and the others are told they lost (`Written::Lost`), keep their
//! own rows for their callers and drop their copy.

use std::io::{self, Write};
use std::path::{Component, Path, PathBuf};
use std::time::SystemTime;

use bytes::Bytes;
use futures_util::{StreamExt, TryStreamExt};
use object_store::path::{Path as StorePath, PathPart};
use object_store::{ObjectStoreExt, PutMode, PutOptions, PutPayload};
use percent_encoding::percent_decode_str;

use places::storage::whole_file::{write_whole, Durability};
use places::storage::{describe, Location};

/// Where the cache's files are.
#[derive(Clone, Debug)]
pub enum Files {
    /// Local files; paths are absolute.
    Folder,
    /// Objects under a store's prefix; paths are relative to it.
    Store(Location),
}

/// How a write treats a file already there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Put {
    /// Only if there is none: a segment, whose name says what it holds, so
    /// that the file there already holds the same days (on a folder, the
    /// rename replaces it, as it always has).
    Create,
    /// Replacing it: a refresh, a catalogue, a note.
    Replace,
}

/// What a write did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Written {
    /// The file is ours, whole.
    Whole,
    /// Another writer created it first: ours was dropped.
    Lost,
}

/// A file found by a listing.
#[derive(Clone, Debug)]
pub struct Listed {
    /// The names from the folder listed down to the file, itself last.
    pub names: Vec<String>,
    pub path: PathBuf,
    pub bytes: u64,
    pub written: SystemTime,
}

impl Listed {
    pub fn file_name(&self) -> &str {
        self.names.last().map(String::as_str).unwrap_or_default()
    }
}

impl Files {
    pub fn is_store(&self) -> bool {
        matches!(self, Files::Store(_))
    }

    /// A path as the user reads it (a store's as the URL of its key).
    pub fn shown(&self, path: &Path) -> String {
        match self {
            Files::Folder => format!("{path:?}"),
            Files::Store(location) => {
                let parts: Vec<String> = names(path)
                    .into_iter()
                    .map(|name| PathPart::from(name).as_ref().to_owned())
                    .collect();
                location.url(&parts.join("/"))
            }
        }
    }

    /// The whole of a file; None if there is none.
    pub fn read(&self, path: &Path) -> io::Result<Option<Bytes>> {
        match self {
            Files::Folder => match std::fs::read(path) {
                Ok(bytes) => Ok(Some(Bytes::from(bytes))),
                Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
                Err(e) => Err(e),
            },
            Files::Store(location) => {
                let key = key(location, path);
                let store = location.store.as_ref();
                wait(async move {
                    match store.get(&key).await {
                        Ok(got) => got.bytes().await.map(Some),
                        Err(object_store::Error::NotFound { .. }) => Ok(None),
                        Err(e) => Err(e),
                    }
                })
                .map_err(store_io)
            }
        }
    }

    /// The whole of each file (None for one there is none), read at most
    /// `at_once` at a time from a store, whose latency, not its bandwidth,
    /// is what a warm read of many small files waits for.
    pub fn read_all(&self, paths: &[PathBuf], at_once: usize) -> Vec<io::Result<Option<Bytes>>> {
        match self {
            Files::Folder => paths.iter().map(|path| self.read(path)).collect(),
            Files::Store(location) => {
                let store = location.store.as_ref();
                let reads = paths.iter().map(|path| {
                    let key = key(location, path);
                    async move {
                        match store.get(&key).await {
                            Ok(got) => got.bytes().await.map(Some).map_err(store_io),
                            Err(object_store::Error::NotFound { .. }) => Ok(None),
                            Err(e) => Err(store_io(e)),
                        }
                    }
                });
                wait(
                    futures_util::stream::iter(reads)
                        .buffered(at_once.max(1))
                        .collect::<Vec<_>>(),
                )
            }
        }
    }

    /// Writes `path` whole from what `write` puts out, or not at all.
    pub fn write(
        &self,
        path: &Path,
        put: Put,
        write: impl FnOnce(&mut (dyn Write + Send)) -> io::Result<()>,
    ) -> io::Result<Written> {
        match self {
            Files::Folder => {
                // Renamed, not synced: a file a crash of the machine leaves
                // short is found corrupt when read and fetched again.
                write_whole(path, Durability::Renamed, |out| write(out))?;
                Ok(Written::Whole)
            }
            Files::Store(location) => {
                let mut bytes = Vec::new();
                write(&mut bytes)?;
                let key = key(location, path);
                let mode = match put {
                    Put::Create => PutMode::Create,
                    Put::Replace => PutMode::Overwrite,
                };
                let store = location.store.as_ref();
                // One PUT: S3 and its kin show an object only once it is
                // whole (the cache's files are far below a PUT's 5 GB).
                let payload = PutPayload::from_bytes(Bytes::from(bytes));
                let put = wait(store.put_opts(&key, payload, PutOptions::from(mode)));
                match put {
                    Ok(_) => Ok(Written::Whole),
                    Err(object_store::Error::AlreadyExists { .. }) => Ok(Written::Lost),
                    Err(e) => Err(store_io(e)),
                }
            }
        }
    }

    /// Removes a file; one already gone is not an error.
    pub fn delete(&self, path: &Path) -> io::Result<()> {
        let result = match self {
            Files::Folder => std::fs::remove_file(path),
            Files::Store(location) => {
                let key = key(location, path);
                let store = location.store.as_ref();
                wait(store.delete(&key)).map_err(store_io)
            }
        };
        match result {
            Err(e) if e.kind() != io::ErrorKind::NotFound => Err(e),
            _ => Ok(()),
        }
    }

    /// Removes a folder left empty (a store has none).
    pub fn remove_empty_folder(&self, path: &Path) {
        if let Files::Folder = self {
            let _ = std::fs::remove_dir(path);
        }
    }

    /// The files directly in `dir` (none if it is missing or unreadable):
    /// in a store, one delimited listing, which names the folders under
    /// `dir` once each rather than every object in them.
    pub fn list(&self, dir: &Path) -> Vec<Listed> {
        let Files::Store(location) = self else {
            let mut found = self.walk(dir);
            found.retain(|file| file.names.len() == 1);
            return found;
        };
        let prefix = key(location, dir);
        let store = location.store.as_ref();
        let depth = prefix.parts().count();
        match wait(store.list_with_delimiter((depth > 0).then_some(&prefix))) {
            Ok(listed) => listed
                .objects
                .into_iter()
                .filter_map(|meta| {
                    let name = unescaped(meta.location.parts().nth(depth)?.as_ref());
                    Some(Listed {
                        path: dir.join(&name),
                        names: vec![name],
                        bytes: meta.size,
                        written: meta.last_modified.into(),
                    })
                })
                .collect(),
            Err(e) => {
                log::warn!(
                    target: "marketcurves.cache",
                    "cannot list {}: {}", self.shown(dir), describe(&e)
                );
                Vec::new()
            }
        }
    }

    /// Every file under `dir`, at any depth (none if it is missing or
    /// unreadable: what cannot be listed is not served).
    pub fn walk(&self, dir: &Path) -> Vec<Listed> {
        match self {
            Files::Folder => {
                let mut found = Vec::new();
                walk_folder(dir, &mut Vec::new(), &mut found);
                found
            }
            Files::Store(location) => {
                let prefix = key(location, dir);
                let store = location.store.as_ref();
                let depth = prefix.parts().count();
                let listing: Result<Vec<_>, _> = wait(
                    store
                        .list((depth > 0).then_some(&prefix))
                        .try_collect::<Vec<_>>(),
                );
                let metas = match listing {
                    Ok(metas) => metas,
                    Err(e) => {
                        log::warn!(
                            target: "marketcurves.cache",
                            "cannot list {}: {}", self.shown(dir), describe(&e)
                        );
                        return Vec::new();
                    }
                };
                metas
                    .into_iter()
                    .map(|meta| {
                        let names: Vec<String> = meta
                            .location
                            .parts()
                            .skip(depth)
                            .map(|part| unescaped(part.as_ref()))
                            .collect();
                        let path = names.iter().fold(dir.to_path_buf(), |p, n| p.join(n));
                        Listed {
                            names,
                            path,
                            bytes: meta.size,
                            written: meta.last_modified.into(),
                        }
                    })
                    .collect()
            }
        }
    }
}

fn walk_folder(dir: &Path, names: &mut Vec<String>, found: &mut Vec<Listed>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let Some(name) = entry.file_name().to_str().map(str::to_owned) else {
            continue;
        };
        let path = entry.path();
        names.push(name);
        if path.is_dir() {
            walk_folder(&path, names, found);
        } else if let Ok(meta) = entry.metadata() {
            found.push(Listed {
                names: names.clone(),
                path,
                bytes: meta.len(),
                written: meta.modified().unwrap_or(SystemTime::UNIX_EPOCH),
            });
        }
        names.pop();
    }
}

/// The names of a relative path's components.
fn names(path: &Path) -> Vec<String> {
    path.components()
        .filter_map(|c| match c {
            Component::Normal(name) => Some(name.to_string_lossy().into_owned()),
            _ => None,
        })
        .collect()
}

/// The key of a path: each name one part of the key, which object_store
/// escapes where a store would not take the character (`%` among them).
fn key(location: &Location, path: &Path) -> StorePath {
    names(path)
        .into_iter()
        .fold(location.prefix.clone(), |key, name| key.join(name))
}

/// A key's part as the name it was made from (`key`'s escaping undone).
fn unescaped(part: &str) -> String {
    percent_decode_str(part)
        .decode_utf8()
        .map(|n| n.into_owned())
        .unwrap_or_else(|_| part.to_owned())
}

fn store_io(error: object_store::Error) -> io::Error {
    let kind = match error {
        object_store::Error::NotFound { .. } => io::ErrorKind::NotFound,
        _ => io::ErrorKind::Other,
    };
    io::Error::new(kind, describe(&error))
}

/// A store's request, waited for on a blocking thread of the runtime.
fn wait<F: std::future::Future>(future: F) -> F::Output {
    match tokio::runtime::Handle::try_current() {
        Ok(handle) => handle.block_on(future),
        // Outside a runtime (a unit test's thread): a small one of its own.
        Err(_) => tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a runtime")
            .block_on(future),
    }
}

#[cfg(test)]
#[path = "files_tests.rs"]
pub(crate) mod tests;
