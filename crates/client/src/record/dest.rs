//! Where a recording lives: a local folder or a prefix in an object store,
//! behind the few operations the recorder and its readers need. Every
//! write is whole or absent: locally a temporary name, flushed to disk,
//! then a rename; on a store a single PUT, or a multipart upload completed
//! only once every part is in (`storage::upload`).

use std::io::Write;
use std::path::{Path, PathBuf};

use bytes::Bytes;
use futures_util::TryStreamExt;
use object_store::path::Path as StorePath;
use object_store::{ObjectStoreExt, PutPayload};
use parquet::file::metadata::ParquetMetaData;

use super::layout::{hidden, TEMPORARY_PREFIX};
use crate::private_files::{create_folder, write_whole};
use crate::storage::footer::metadata_of_object;
use crate::storage::upload::{stream_to_store, Expected, UploadError, PART_SIZE};
use crate::storage::{describe, Location, Place};
use crate::ClientError;

pub enum Dest {
    Local(PathBuf),
    Store(Location),
}

/// A failed operation on the destination, in words naming it.
#[derive(Debug, Clone, PartialEq)]
pub struct DestError(pub String);

impl std::fmt::Display for DestError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl From<DestError> for ClientError {
    fn from(error: DestError) -> ClientError {
        ClientError::Destination(error.0)
    }
}

impl Dest {
    pub fn new(place: Place) -> Dest {
        match place {
            Place::Local(path) => Dest::Local(path),
            Place::Store(location) => Dest::Store(location),
        }
    }

    /// The destination as the user gave it, for messages.
    pub fn shown(&self) -> String {
        match self {
            Dest::Local(path) => path.display().to_string(),
            Dest::Store(location) => location.shown.clone(),
        }
    }

    fn failed(&self, doing: &str, name: &str, error: impl std::fmt::Display) -> DestError {
        let shown = self.shown();
        let sep = if shown.ends_with('/') { "" } else { "/" };
        DestError(format!("cannot {doing} {shown}{sep}{name}: {error}"))
    }

    fn key(location: &Location, name: &str) -> StorePath {
        name.split('/')
            .filter(|part| !part.is_empty())
            .fold(location.prefix.clone(), |key, part| key.join(part))
    }

    /// That a store's bucket exists and takes the credentials (one listing),
    /// as the error of the design: `InvalidRequest` for a missing bucket,
    /// `AuthError` for refused credentials.
    pub async fn check(&self) -> Result<(), ClientError> {
        match self {
            Dest::Store(location) => location.check().await,
            Dest::Local(_) => Ok(()),
        }
    }

    /// Writes `name` whole, replacing what was there.
    pub async fn put(&self, name: &str, bytes: Bytes) -> Result<(), DestError> {
        match self {
            Dest::Local(root) => {
                let path = root.join(name);
                blocking(move || write_durably(&path, &bytes))
                    .await
                    .map_err(|e| self.failed("write", name, e))
            }
            Dest::Store(location) => {
                let key = Dest::key(location, name);
                let store = location.store.as_ref();
                if bytes.len() <= PART_SIZE {
                    store
                        .put(&key, PutPayload::from_bytes(bytes))
                        .await
                        .map(drop)
                        .map_err(|e| self.failed("write", name, describe(&e)))
                } else {
                    let size = bytes.len() as u64;
                    let chunks = bytes_in_parts(bytes);
                    stream_to_store(
                        store,
                        &key,
                        chunks,
                        Expected {
                            size: Some(size),
                            parquet: false,
                        },
                        |_| {},
                    )
                    .await
                    .map(drop)
                    .map_err(|e| self.failed("write", name, upload_error(&e)))
                }
            }
        }
    }

    pub async fn get(&self, name: &str) -> Result<Option<Bytes>, DestError> {
        match self {
            Dest::Local(root) => {
                let path = root.join(name);
                match blocking(move || std::fs::read(&path)).await {
                    Ok(bytes) => Ok(Some(Bytes::from(bytes))),
                    Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
                    Err(e) => Err(self.failed("read", name, e)),
                }
            }
            Dest::Store(location) => {
                let key = Dest::key(location, name);
                match location.store.get(&key).await {
                    Ok(got) => got
                        .bytes()
                        .await
                        .map(Some)
                        .map_err(|e| self.failed("read", name, describe(&e))),
                    Err(object_store::Error::NotFound { .. }) => Ok(None),
                    Err(e) => Err(self.failed("read", name, describe(&e))),
                }
            }
        }
    }

    /// The Parquet footer of `name`, read alone.
    pub async fn footer(&self, name: &str) -> Result<ParquetMetaData, DestError> {
        match self {
            Dest::Local(root) => {
                let path = root.join(name);
                blocking(move || local_footer(&path))
                    .await
                    .map_err(|e| self.failed("read", name, e))
            }
            Dest::Store(location) => {
                let key = Dest::key(location, name);
                metadata_of_object(location.store.as_ref(), &key, None)
                    .await
                    .map_err(|e| self.failed("read", name, e))
            }
        }
    }

    /// Every name under the destination, relative to it, hidden ones too.
    pub async fn list(&self) -> Result<Vec<String>, DestError> {
        match self {
            Dest::Local(root) => {
                let root = root.clone();
                blocking(move || list_local(&root))
                    .await
                    .map_err(|e| self.failed("list", "", e))
            }
            Dest::Store(location) => {
                let prefix = (!location.prefix.as_ref().is_empty()).then_some(&location.prefix);
                let metas: Vec<_> = location
                    .store
                    .list(prefix)
                    .try_collect()
                    .await
                    .map_err(|e| self.failed("list", "", describe(&e)))?;
                let depth = location.prefix.parts().count();
                Ok(metas
                    .into_iter()
                    .map(|meta| {
                        let parts: Vec<String> = meta
                            .location
                            .parts()
                            .skip(depth)
                            .map(|p| p.as_ref().to_owned())
                            .collect();
                        parts.join("/")
                    })
                    .collect())
            }
        }
    }

    /// Removes `name`; one already gone is not an error.
    pub async fn delete(&self, name: &str) -> Result<(), DestError> {
        match self {
            Dest::Local(root) => {
                let path = root.join(name);
                match blocking(move || std::fs::remove_file(&path)).await {
                    Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                        Err(self.failed("delete", name, e))
                    }
                    _ => Ok(()),
                }
            }
            Dest::Store(location) => {
                let key = Dest::key(location, name);
                match location.store.delete(&key).await {
                    Err(e) if !matches!(e, object_store::Error::NotFound { .. }) => {
                        Err(self.failed("delete", name, describe(&e)))
                    }
                    _ => Ok(()),
                }
            }
        }
    }

    /// Makes a local folder if needed and removes the temporary files a
    /// killed run left; on a store, an unfinished upload is no object.
    pub async fn prepare(&self) -> Result<(), DestError> {
        let Dest::Local(root) = self else {
            return Ok(());
        };
        let folder = root.clone();
        blocking(move || create_folder(&folder))
            .await
            .map_err(|e| self.failed("create", "", e))?;
        for name in self.list().await? {
            let file = name.rsplit('/').next().unwrap_or(&name);
            if file.starts_with(TEMPORARY_PREFIX) && hidden(&name) {
                self.delete(&name).await?;
            }
        }
        Ok(())
    }
}

async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> std::io::Result<T> + Send + 'static,
) -> std::io::Result<T> {
    tokio::task::spawn_blocking(work)
        .await
        .unwrap_or_else(|e| Err(std::io::Error::other(e.to_string())))
}

/// Writes a file whole, private to its owner, flushed to disk with its
/// folder, so that a crash of the machine, not only of the process, leaves
/// the whole file or none.
fn write_durably(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    write_whole(path, TEMPORARY_PREFIX, true, |out| out.write_all(bytes))
}

fn local_footer(path: &Path) -> std::io::Result<ParquetMetaData> {
    let file = std::fs::File::open(path)?;
    parquet::file::metadata::ParquetMetaDataReader::new()
        .parse_and_finish(&file)
        .map_err(std::io::Error::other)
}

fn list_local(root: &Path) -> std::io::Result<Vec<String>> {
    let mut names = Vec::new();
    let mut folders = vec![(root.to_path_buf(), String::new())];
    while let Some((folder, relative)) = folders.pop() {
        let entries = match std::fs::read_dir(&folder) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound && relative.is_empty() => continue,
            entries => entries?,
        };
        for entry in entries {
            let entry = entry?;
            let name = entry.file_name().to_string_lossy().into_owned();
            let path = if relative.is_empty() {
                name
            } else {
                format!("{relative}/{name}")
            };
            if entry.file_type()?.is_dir() {
                folders.push((entry.path(), path));
            } else {
                names.push(path);
            }
        }
    }
    names.sort();
    Ok(names)
}

/// A whole file as the parts of a multipart upload.
fn bytes_in_parts(
    bytes: Bytes,
) -> impl futures_util::Stream<Item = Result<Bytes, std::convert::Infallible>> + Unpin {
    let parts: Vec<_> = (0..bytes.len())
        .step_by(PART_SIZE)
        .map(|at| Ok(bytes.slice(at..(at + PART_SIZE).min(bytes.len()))))
        .collect();
    futures_util::stream::iter(parts)
}

fn upload_error(error: &UploadError) -> String {
    match error {
        UploadError::Source(said) | UploadError::Content(said) => said.clone(),
        UploadError::Size { expected, received } => {
            format!("{received} bytes of {expected} went up")
        }
        UploadError::Store(e) => describe(e),
    }
}

#[cfg(test)]
#[path = "dest_tests.rs"]
mod tests;
